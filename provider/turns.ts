import { currentBudget, withBudget } from "./client/index.js";

/**
 * Work that must not overlap other work of the same key, while work of other keys goes on in
 * parallel. Both hosts run every resource of a run in one provider process, so taking turns here
 * orders a whole run's operations on one key (e.g. the links of one destination).
 */
export class Turns {
  /** Per key, a promise that settles when the last work queued so far is done. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, number>();

  /**
   * Runs `fn` once every earlier work of `key` is done, whether it succeeded or not. The wait is
   * no retrying: an operation's retry budget starts again when its turn comes, so a resource
   * queued behind many others keeps the whole of it.
   */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const budget = currentBudget();
    const start = () => {
      this.count(key, -1);
      return budget ? withBudget(budget.label, budget.timeoutMs, fn) : fn();
    };
    this.count(key, 1);
    const result = (this.tails.get(key) ?? Promise.resolve()).then(start);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many works of `key` wait for their turn (not counting the one running). */
  waiting(key: string): number {
    return this.queued.get(key) ?? 0;
  }

  private count(key: string, by: number): void {
    const n = (this.queued.get(key) ?? 0) + by;
    if (n === 0) this.queued.delete(key);
    else this.queued.set(key, n);
  }
}
