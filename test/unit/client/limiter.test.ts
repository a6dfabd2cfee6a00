import { describe, expect, it } from "vitest";
import { Semaphore } from "../../../provider/client/index.js";

describe("Semaphore", () => {
  it("admits at most max at once and serves waiters in order", async () => {
    const sem = new Semaphore(2);
    const order: string[] = [];
    const r1 = await sem.acquire();
    const r2 = await sem.acquire();
    const p3 = sem.acquire().then((r) => (order.push("3"), r));
    const p4 = sem.acquire().then((r) => (order.push("4"), r));
    expect(sem.inFlight).toBe(2);
    expect(sem.queued).toBe(2);
    r1();
    r1(); // double release is a no-op
    const r3 = await p3;
    expect(sem.inFlight).toBe(2);
    r2();
    const r4 = await p4;
    expect(order).toEqual(["3", "4"]);
    r3();
    r4();
    expect(sem.inFlight).toBe(0);
  });

  it("run() releases on failure", async () => {
    const sem = new Semaphore(1);
    await expect(sem.run(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await sem.run(async () => 7)).toBe(7);
    expect(sem.inFlight).toBe(0);
  });

  it("rejects a bad limit", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
