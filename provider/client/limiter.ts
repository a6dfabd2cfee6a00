// Bounds in-flight requests for the whole provider process: a `pulumi up` with hundreds of
// resources would otherwise open hundreds of sockets and trip the API's rate limit at once.
//
// The API's limits are not published, so the window adapts, as TCP's does: it starts at
// INITIAL_CONCURRENCY, opens by one for each answered request while others wait for a slot
// (doubling per round trip, then by one per round trip once a 429 has been seen), and halves
// on a 429 (once per window: the requests already in flight when it came do not halve it
// again). It never exceeds `max` (cdc:maxConcurrency). A preview or refresh of a big stack far
// from the API is round trips the engine waits for (one config comparison per destination);
// a fixed 16 in flight made 500 of them 3 s at 100 ms.

/** The most requests in flight unless cdc:maxConcurrency says otherwise. */
export const DEFAULT_MAX_CONCURRENCY = 64;
/** Where the window starts: about what Terraform's default parallelism of 10 puts in flight, with room. */
export const INITIAL_CONCURRENCY = 16;

/** How the request that held a slot went: "ok" (an answer), "throttled" (429), or neither (a failure, said nothing about load). */
export type SlotOutcome = "ok" | "throttled";
export type Release = (outcome?: SlotOutcome) => void;

/**
 * Marks a request made ahead of need (read-ahead): it waits behind every other request until
 * someone needs its answer and calls `wanted()`; from then on it queues like any other.
 */
export class Background {
  #wanted = false;
  #onWanted: (() => void) | undefined;

  get isWanted(): boolean {
    return this.#wanted;
  }

  wanted(): void {
    if (this.#wanted) return;
    this.#wanted = true;
    const hook = this.#onWanted;
    this.#onWanted = undefined;
    hook?.();
  }

  /** @internal The semaphore's way to move the waiter when it is wanted. */
  set onWanted(hook: (() => void) | undefined) {
    this.#onWanted = hook;
  }
}

export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  /** Waiters for work done ahead of need (read-ahead): served only when no one else waits. */
  private readonly background: Array<() => void> = [];
  /** The current window; fractional while it opens by 1/window per answer. */
  #window: number;
  /** Below it the window doubles per round trip (slow start); above it, grows by one per round trip. */
  #threshold: number;
  /** Bumped by each halving: a slot taken before it cannot halve the window again. */
  #epoch = 0;

  constructor(
    readonly max: number = DEFAULT_MAX_CONCURRENCY,
    initial: number = Math.min(max, INITIAL_CONCURRENCY),
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${max}`);
    if (!Number.isInteger(initial) || initial < 1 || initial > max) throw new RangeError(`initial concurrency must be an integer from 1 to ${max}, got ${initial}`);
    this.#window = initial;
    this.#threshold = max;
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length + this.background.length;
  }

  /** Requests allowed in flight right now. */
  get limit(): number {
    return Math.floor(this.#window);
  }

  /**
   * Background requests in flight, at most: a quarter of the window stays free for requests
   * someone waits for, so that one asked for just now is sent at once instead of a round
   * trip later, when a background one ends.
   */
  get #backgroundLimit(): number {
    return this.limit - Math.floor(this.limit / 4);
  }

  /**
   * Resolves with a release function once a slot is free. Waiters are served in arrival order,
   * `background` ones only when no other waits and within their share: a fetch someone is waiting for never queues
   * behind a hundred fetched in case.
   */
  async acquire(background?: Background): Promise<Release> {
    // Every request queues, and #admit alone decides who goes: one rule for newcomers and waiters.
    await new Promise<void>((resolve) => {
      if (background && !background.isWanted) {
        this.background.push(resolve);
        background.onWanted = () => {
          const at = this.background.indexOf(resolve);
          if (at < 0) return;
          this.background.splice(at, 1);
          this.waiters.push(resolve);
          this.#admit();
        };
      } else {
        this.waiters.push(resolve);
      }
      this.#admit();
    });
    if (background) background.onWanted = undefined;
    const epoch = this.#epoch;
    let released = false;
    return (outcome) => {
      if (released) return;
      released = true;
      this.active--;
      if (outcome === "throttled") this.#throttled(epoch);
      else if (outcome === "ok" && this.queued > 0) this.#open();
      this.#admit();
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

  #open(): void {
    const step = this.#window < this.#threshold ? 1 : 1 / this.#window;
    this.#window = Math.min(this.max, this.#window + step);
  }

  #throttled(epoch: number): void {
    if (epoch !== this.#epoch) return;
    this.#epoch++;
    this.#window = Math.max(1, Math.floor(this.#window / 2));
    this.#threshold = this.#window;
  }

  #admit(): void {
    for (;;) {
      const next =
        this.active < this.limit && this.waiters.length > 0
          ? this.waiters.shift()
          : this.active < this.#backgroundLimit && this.background.length > 0
            ? this.background.shift()
            : undefined;
      if (!next) return;
      this.active++;
      next();
    }
  }
}
