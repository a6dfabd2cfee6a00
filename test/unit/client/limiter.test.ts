import { describe, expect, it } from "vitest";
import { Background, INITIAL_CONCURRENCY, Semaphore, type Release } from "../../../provider/client/index.js";

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

  it("serves background waiters only when no other waits, and a wanted one like any other", async () => {
    const sem = new Semaphore(1, 1);
    const order: string[] = [];
    const hold = await sem.acquire();
    const later = new Background();
    const take = (name: string, background?: Background) => sem.acquire(background).then((r) => (order.push(name), r));
    const b1 = take("ahead-1", new Background());
    const b2 = take("ahead-2", later);
    const n1 = take("needed");
    expect(sem.queued).toBe(3);
    hold();
    const needed = await n1;
    // Someone now needs the second read-ahead: it goes before the first.
    later.wanted();
    needed();
    (await b2)();
    (await b1)();
    expect(order).toEqual(["needed", "ahead-2", "ahead-1"]);
    expect(sem.inFlight).toBe(0);
  });

  it("keeps a quarter of the window free of background requests, for the next one someone waits for", async () => {
    const sem = new Semaphore(16, 16);
    const ahead = Array.from({ length: 20 }, () => sem.acquire(new Background()));
    await new Promise((r) => setImmediate(r));
    expect(sem.inFlight).toBe(12);
    expect(sem.queued).toBe(8);
    // Sent at once, though eight background requests were queued first.
    const needed = await sem.acquire();
    expect(sem.inFlight).toBe(13);
    needed();
    for (const p of ahead.slice(0, 12)) (await p)();
    for (const p of ahead.slice(12)) (await p)();
    expect(sem.inFlight).toBe(0);
  });

  it("rejects a bad limit", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(4, 5)).toThrow(RangeError);
  });
});

/** `n` requests at once through the limiter; each answered with `outcome` once all admitted ones are in flight. */
async function roundTrip(sem: Semaphore, n: number, outcome: "ok" | "throttled" | "failed" = "ok"): Promise<number[]> {
  const admittedPerRound: number[] = [];
  const pending = Array.from({ length: n }, () => sem.acquire());
  let done = 0;
  let resolved: Release[] = [];
  const settle = pending.map((p) => p.then((release) => resolved.push(release)));
  while (done < n) {
    await new Promise((r) => setImmediate(r));
    const round = resolved;
    resolved = [];
    admittedPerRound.push(round.length);
    done += round.length;
    for (const release of round) release(outcome === "failed" ? undefined : outcome);
  }
  await Promise.all(settle);
  return admittedPerRound;
}

describe("Semaphore window", () => {
  it("starts at 16 and doubles per round trip while requests queue, up to max", async () => {
    const sem = new Semaphore(64);
    expect(sem.limit).toBe(INITIAL_CONCURRENCY);
    expect(await roundTrip(sem, 16 + 32 + 64 + 64)).toEqual([16, 32, 64, 64]);
    expect(sem.limit).toBe(64);
  });

  it("does not open while nobody waits: a trickle of requests keeps the window where it is", async () => {
    const sem = new Semaphore(64);
    for (let i = 0; i < 50; i++) (await sem.acquire())("ok");
    expect(sem.limit).toBe(16);
  });

  it("halves once per window on 429, then opens by one per round trip", async () => {
    const sem = new Semaphore(64);
    await roundTrip(sem, 16 + 32 + 64); // window 64
    expect(sem.limit).toBe(64);
    // 64 in flight all answered 429: one halving, not 64.
    await roundTrip(sem, 64, "throttled");
    expect(sem.limit).toBe(32);
    // Above the threshold now: about one more per full round trip.
    await roundTrip(sem, 32 * 4);
    expect(sem.limit).toBeGreaterThanOrEqual(34);
    expect(sem.limit).toBeLessThanOrEqual(35);
  });

  it("never goes below one, and failures without an answer neither open nor close it", async () => {
    const sem = new Semaphore(8, 2);
    for (let i = 0; i < 5; i++) await roundTrip(sem, sem.limit, "throttled");
    expect(sem.limit).toBe(1);
    await roundTrip(sem, 10, "failed");
    expect(sem.limit).toBe(1);
    await roundTrip(sem, 10, "ok");
    expect(sem.limit).toBeGreaterThan(1);
  });

  it("a fixed limit (initial = max) never grows", async () => {
    const sem = new Semaphore(3, 3);
    expect(await roundTrip(sem, 12)).toEqual([3, 3, 3, 3]);
    expect(sem.limit).toBe(3);
  });
});
