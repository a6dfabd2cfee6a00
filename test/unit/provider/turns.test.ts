import { describe, expect, it } from "vitest";
import { currentBudget, withBudget } from "../../../provider/client/index.js";
import { Turns } from "../../../provider/turns.js";

// Work of one key one at a time, of different keys at once; each step is released by the test
// (a promise it resolves), never by time.
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Lets every queued promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Turns", () => {
  it("runs the work of one key one at a time, in the order it came, and goes on after a failure", async () => {
    const turns = new Turns();
    const log: string[] = [];
    const first = gate();
    const a = turns.run("d1", async () => {
      log.push("a starts");
      await first.opened;
      log.push("a ends");
      throw new Error("a failed");
    });
    const b = turns.run("d1", async () => {
      log.push("b runs");
      return "b";
    });
    await settle();
    expect(log).toEqual(["a starts"]);
    expect(turns.waiting("d1")).toBe(1);
    first.open();
    await expect(a).rejects.toThrow("a failed");
    expect(await b).toBe("b");
    expect(log).toEqual(["a starts", "a ends", "b runs"]);
    expect(turns.waiting("d1")).toBe(0);
  });

  it("runs the work of different keys at once", async () => {
    const turns = new Turns();
    const started: string[] = [];
    const hold = gate();
    const work = (key: string) =>
      turns.run(key, async () => {
        started.push(key);
        await hold.opened;
      });
    const both = Promise.all([work("d1"), work("d2")]);
    await settle();
    // Both started while neither has finished.
    expect(started).toEqual(["d1", "d2"]);
    hold.open();
    await both;
  });

  it("gives the work a fresh retry budget when its turn comes, with the operation's label", async () => {
    const turns = new Turns();
    const hold = gate();
    let budgetOfSecond: { label: string; startedAt: number } | undefined;
    const first = withBudget("topic destination create", 60_000, () => turns.run("d1", () => hold.opened));
    const second = withBudget("topic destination create", 60_000, async () => {
      const queuedWith = currentBudget()!;
      return turns.run("d1", async () => {
        const b = currentBudget()!;
        budgetOfSecond = { label: b.label, startedAt: b.startedAt };
        expect(b).not.toBe(queuedWith);
        expect(b.timeoutMs).toBe(60_000);
      });
    });
    await settle();
    expect(budgetOfSecond).toBeUndefined();
    hold.open();
    await Promise.all([first, second]);
    expect(budgetOfSecond?.label).toBe("topic destination create");
  });
});
