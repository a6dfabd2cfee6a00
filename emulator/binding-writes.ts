/**
 * The platform applies a change to a (source, destination) binding as a read-modify-write: it
 * reads the binding's topics, deploys the change, then stores the list it computed. Two changes to
 * one binding at once can both start from the same list, and the later store drops the earlier
 * change's topic (why the vendor's provider applies links to one destination one at a time). The
 * emulator does the same: a change reads, yields (`between`), then writes what it computed, so a
 * client that sends two changes of one binding together can lose one here as there.
 *
 * Left alone, the change takes `bindingChangeMs` (the platform's deploy, modelled; 0 is one turn of
 * the event loop): changes received meanwhile read the same old list. A test that must show the
 * loss arranges it by count instead (`gather`): the next `count` changes each read, then wait
 * until all of them have read, then write in the order they came.
 */
export interface BindingGathering {
  readonly count: number;
  /** Resolves once `count` changes have read the binding (and are about to write); rejects if released first. */
  readonly reached: Promise<void>;
  /** Lets the changes waiting go on (they write what they read); later changes yield as usual. Idempotent. */
  release(): void;
}

class Gathering implements BindingGathering {
  readonly reached: Promise<void>;
  private arrived = 0;
  private done = false;
  private open!: () => void;
  private fail!: (error: Error) => void;
  /** Resolves when the waiting changes may write: all `count` have read, or the gathering was released. */
  private readonly gate: Promise<void>;
  private letGo!: () => void;

  constructor(readonly count: number) {
    this.reached = new Promise<void>((resolve, reject) => {
      this.open = resolve;
      this.fail = reject;
    });
    this.reached.catch(() => undefined);
    this.gate = new Promise<void>((resolve) => (this.letGo = resolve));
  }

  /** Whether this gathering takes one more change; false once `count` have come or it was released. */
  takes(): boolean {
    return !this.done && this.arrived < this.count;
  }

  /** A change has read the binding: it waits here until the last of the `count` has read too. */
  arrive(): Promise<void> {
    this.arrived += 1;
    if (this.arrived === this.count) {
      this.done = true;
      this.open();
      this.letGo();
    }
    return this.gate;
  }

  release(): void {
    if (this.done) return;
    this.done = true;
    this.fail(new Error(`the gathering of ${this.count} binding changes was released after ${this.arrived}`));
    this.letGo();
  }
}

/** The binding changes of one emulator. */
export class BindingWrites {
  private gatherings: Gathering[] = [];

  constructor(private readonly changeMs: number) {}

  /** Between a change's read of the binding and its write. */
  between(): Promise<void> {
    this.gatherings = this.gatherings.filter((g) => g.takes());
    const gathering = this.gatherings[0];
    if (gathering) return gathering.arrive();
    return new Promise<void>((resolve) => (this.changeMs > 0 ? setTimeout(resolve, this.changeMs) : setImmediate(resolve)));
  }

  gather(count: number): BindingGathering {
    if (!Number.isInteger(count) || count < 2) throw new RangeError(`count must be an integer of at least 2 (changes that read the same binding), got ${count}`);
    const gathering = new Gathering(count);
    this.gatherings.push(gathering);
    return gathering;
  }

  releaseAll(): void {
    for (const g of this.gatherings.splice(0)) g.release();
  }
}
