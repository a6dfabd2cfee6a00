import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The retry budget of one resource operation. Every API call made while the operation runs
 * (the create, its lookups, lifecycle calls and baseline) draws on the same deadline, so a
 * resource cannot retry for longer than its budget however many calls it makes; and the
 * retries are remembered, so the final error can say what was retried and for how long.
 */
export class RetryBudget {
  readonly startedAt: number;
  readonly deadline: number;
  #retries = 0;
  #reasons = new Map<string, number>();

  constructor(
    readonly label: string,
    readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.deadline = this.startedAt + timeoutMs;
  }

  /** True when a wait of `ms` still ends before the deadline. */
  allows(ms: number): boolean {
    return this.now() + ms <= this.deadline;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  /** One retry of `call` because of `reason` (a status or an error code). */
  record(call: string, reason: string): void {
    this.#retries++;
    const key = `${call} ${reason}`;
    this.#reasons.set(key, (this.#reasons.get(key) ?? 0) + 1);
  }

  get retries(): number {
    return this.#retries;
  }

  /** "3 retries over 4.2 s (POST /sources 503 ×2, GET /sources UND_ERR_SOCKET ×1)", or "" when nothing was retried. */
  summary(): string {
    if (this.#retries === 0) return "";
    const parts = [...this.#reasons].map(([k, n]) => `${k} ×${n}`);
    return `${this.#retries} ${this.#retries === 1 ? "retry" : "retries"} over ${seconds(this.elapsedMs())} (${parts.join(", ")})`;
  }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

const storage = new AsyncLocalStorage<RetryBudget>();

/** Runs `fn` with a budget of its own; calls inside it (and in what it awaits) draw on it. */
export function withBudget<T>(label: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  return storage.run(new RetryBudget(label, timeoutMs), fn);
}

/** The budget of the operation this call belongs to; undefined outside one (scripts, the CLI). */
export function currentBudget(): RetryBudget | undefined {
  return storage.getStore();
}
