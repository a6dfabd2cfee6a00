// Bounds in-flight requests for the whole provider process: a `pulumi up` with hundreds of
// resources would otherwise open hundreds of sockets and trip the API's rate limit at once.

// 16: about what Terraform's default parallelism of 10 puts in flight, with room for the
// config comparisons a preview fetches ahead (their round trips are what a preview at 100 ms
// waits for). The API's limits are not published; when it wants fewer it answers 429, and the
// whole client then waits (see client.ts), so a stack that needs fewer sets cdc:maxConcurrency.
export const DEFAULT_MAX_CONCURRENCY = 16;

export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly max: number = DEFAULT_MAX_CONCURRENCY) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${max}`);
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves with a release function once a slot is free; waiters are served in arrival order. */
  async acquire(): Promise<() => void> {
    if (this.active < this.max) {
      this.active++;
    } else {
      // The slot is handed over by release(), so `active` never dips and lets a newcomer jump the queue.
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.active--;
    };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
