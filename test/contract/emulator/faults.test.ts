import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WRITES, startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { call, expectDetail, manualClock, tokenFor } from "./helpers.js";

const clock = manualClock();
let emu: RunningEmulator;
let token: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock: clock.now });
  token = (await tokenFor(emu)).accessToken;
});
afterEach(() => {
  emu.setFaults({ latencyMs: 0, rateLimit: 0, failRate: 0, dropRate: 0, lostResponseRate: 0, routes: ["/"] });
});
afterAll(async () => {
  await emu?.stop();
});

const get = (path: string, em: RunningEmulator = emu, tok: string | null = token) => call(em.url, "GET", path, { token: tok });

describe("fault injection", () => {
  it("is off by default", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      expect(fresh.getFaults()).toEqual({ latencyMs: 0, rateLimit: 0, failRate: 0, dropRate: 0, lostResponseRate: 0, seed: undefined, routes: ["/"], failNext: 0, loseNext: 0, deleteDelayReads: 0 });
      const t = (await tokenFor(fresh)).accessToken;
      for (let i = 0; i < 20; i += 1) expect((await get("/sources", fresh, t)).status).toBe(200);
      expect(fresh.stats().faults).toEqual({ delayed: 0, rateLimited: 0, failed: 0, dropped: 0, lost: 0 });
    } finally {
      await fresh.stop();
    }
  });

  it("fails exactly the next N requests, or loses exactly the next N answers, when told to", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const t = (await tokenFor(fresh)).accessToken;
      fresh.setFaults({ failNext: 2, routes: ["/sources"] });
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await get("/sources", fresh, t)).status);
      expect(statuses).toEqual([503, 503, 200, 200]);
      expect(fresh.getFaults().failNext).toBe(0);
      expect(() => fresh.setFaults({ loseNext: -1 })).toThrow(/loseNext must be a non-negative integer/);
    } finally {
      await fresh.stop();
    }
  });

  it("answers 503 {detail} for the fail share, on every route including auth, before authentication", async () => {
    emu.setFaults({ failRate: 1 });
    const failed = await get("/sources");
    expectDetail(failed, 503);
    // The platform's client retries a write only when the error's words say 503 or "service unavailable".
    expect(failed.body.detail).toMatch(/503|service unavailable/i);
    expect(failed.headers.get("x-request-id")).toBeTruthy();
    expectDetail(await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } }), 503);
    expectDetail(await get("/sources", emu, null), 503);
    expect(emu.stats().faults.failed).toBeGreaterThanOrEqual(3);
    emu.setFaults({ failRate: 0 });
    expect((await get("/sources")).status).toBe(200);
  });

  it("drops connections without answering", async () => {
    emu.setFaults({ dropRate: 1 });
    const before = emu.stats().faults.dropped;
    await expect(get("/sources")).rejects.toThrow();
    expect(emu.stats().faults.dropped).toBeGreaterThan(before);
    emu.setFaults({ dropRate: 0 });
    expect((await get("/sources")).status).toBe(200);
  });

  it("handles a request and then loses its response, so the change took effect unseen", async () => {
    emu.setFaults({ lostResponseRate: 1, routes: ["/tags"] });
    const body = { name: "lost-answer", description: "", type: ["sources"] };
    await expect(call(emu.url, "POST", "/tags", { token, body })).rejects.toThrow();
    expect(emu.stats().faults.lost).toBe(1);
    emu.setFaults({ lostResponseRate: 0 });
    const listed = await get("/tags?tag_name=lost-answer");
    expect(listed.body.tags.map((t: { name: string }) => t.name)).toEqual(["lost-answer"]);
  });

  it("rate-limits with 429 and Retry-After in seconds, refilling as the clock moves", async () => {
    emu.setFaults({ rateLimit: 2 });
    expect((await get("/sources")).status).toBe(200);
    expect((await get("/sources")).status).toBe(200);
    const limited = await get("/sources");
    expectDetail(limited, 429);
    expect(limited.headers.get("retry-after")).toBe("1");
    clock.advance(500);
    expect((await get("/sources")).status).toBe(200);
    expect((await get("/sources")).status).toBe(429);
    clock.advance(1000);
    expect((await get("/sources")).status).toBe(200);
    expect((await get("/sources")).status).toBe(200);
    expect(emu.stats().faults.rateLimited).toBe(2);
  });

  it("rounds Retry-After up for slow rates", async () => {
    emu.setFaults({ rateLimit: 0.25 });
    expect((await get("/sources")).status).toBe(200);
    const limited = await get("/sources");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("4");
  });

  it("counts added latency without failing requests", async () => {
    emu.setFaults({ latencyMs: 5 });
    const before = emu.stats().faults.delayed;
    expect((await get("/sources")).status).toBe(200);
    expect((await get("/tags")).status).toBe(200);
    expect(emu.stats().faults.delayed - before).toBe(2);
  });

  it("targets only the configured route prefixes", async () => {
    emu.setFaults({ failRate: 1, routes: ["/sources"] });
    expect((await get("/sources")).status).toBe(503);
    expect((await get("/sources/abc")).status).toBe(503);
    expect((await get("/destinations")).status).toBe(200);
    expect((await get("/tags")).status).toBe(200);
    expect((await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } })).status).toBe(200);
    emu.setFaults({ routes: ["/auth"] });
    expect((await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } })).status).toBe(503);
    expect((await get("/sources")).status).toBe(200);
    emu.setFaults({ routes: [] });
    expect((await get("/auth/roles")).status).toBe(200);
  });

  it("makes the same decisions for the same seed", async () => {
    const run = async (seed: number) => {
      const e = await startEmulator({ port: 0, faults: { seed, failRate: 0.5, routes: ["/sources"] } });
      try {
        const t = (await tokenFor(e)).accessToken;
        const statuses: number[] = [];
        for (let i = 0; i < 24; i += 1) statuses.push((await get("/sources", e, t)).status);
        return statuses;
      } finally {
        await e.stop();
      }
    };
    const a = await run(42);
    const b = await run(42);
    expect(a).toEqual(b);
    expect(a).toContain(200);
    expect(a).toContain(503);
    expect(await run(7)).not.toEqual(a);
  });

  it("reseeds at runtime", async () => {
    const sample = async () => {
      const out: number[] = [];
      for (let i = 0; i < 16; i += 1) out.push((await get("/sources")).status);
      return out;
    };
    emu.setFaults({ seed: 5, failRate: 0.5 });
    const first = await sample();
    emu.setFaults({ seed: 5 });
    expect(await sample()).toEqual(first);
  });

  it("fires every share within its first ceil(1/share) decisions after the faults are set, whatever the seed", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const t = (await tokenFor(fresh)).accessToken;
      const statuses = async (n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i += 1) out.push((await get("/sources", fresh, t)).status);
        return out;
      };
      // 40 seeds: for about a third of them (0.8^5) the PRNG alone would let the first five pass,
      // and the fifth is then the 503 (lastOnly counts the seeds where it is the only one).
      let lastOnly = 0;
      for (let seed = 0; seed < 40; seed += 1) {
        fresh.setFaults({ seed, failRate: 0.2, routes: ["/sources"] });
        const first = await statuses(5);
        expect(first, `seed ${seed}`).toContain(503);
        if (first.indexOf(503) === 4) lastOnly += 1;
        // Every setFaults starts the count again, with or without a new seed.
        fresh.setFaults({ failRate: 0.2 });
        expect(await statuses(5), `seed ${seed}, set again`).toContain(503);
      }
      expect(lastOnly).toBeGreaterThan(0);

      // Drops and lost answers have the same guarantee (a lost answer only among writes).
      for (let seed = 0; seed < 10; seed += 1) {
        fresh.setFaults({ seed, failRate: 0, dropRate: 0.25, routes: ["/sources"] });
        const dropped = fresh.stats().faults.dropped;
        for (let i = 0; i < 4; i += 1) await get("/sources", fresh, t).catch(() => undefined);
        expect(fresh.stats().faults.dropped - dropped, `seed ${seed}`).toBeGreaterThan(0);

        fresh.setFaults({ seed, dropRate: 0, lostResponseRate: 0.25, routes: ["/tags"] });
        const lost = fresh.stats().faults.lost;
        for (let i = 0; i < 4; i += 1) {
          const body = { name: `counted-${seed}-${i}`, description: "", type: ["sources"] };
          await call(fresh.url, "POST", "/tags", { token: t, body }).catch(() => undefined);
        }
        expect(fresh.stats().faults.lost - lost, `seed ${seed}`).toBeGreaterThan(0);
      }
    } finally {
      await fresh.stop();
    }
  });

  it("keeps the long-run share: the guarantee only cuts a dry spell at the start short", async () => {
    const fresh = await startEmulator({ port: 0, faults: { seed: 11, failRate: 0.2, routes: ["/sources"] } });
    try {
      const t = (await tokenFor(fresh)).accessToken;
      for (let i = 0; i < 400; i += 1) await get("/sources", fresh, t);
      const share = fresh.stats().faults.failed / 400;
      expect(share).toBeGreaterThan(0.15);
      expect(share).toBeLessThan(0.25);
    } finally {
      await fresh.stop();
    }
  });

  it("rejects invalid settings", async () => {
    expect(() => emu.setFaults({ failRate: 1.5 })).toThrow(RangeError);
    expect(() => emu.setFaults({ dropRate: -0.1 })).toThrow(RangeError);
    expect(() => emu.setFaults({ rateLimit: -1 })).toThrow(RangeError);
    expect(() => emu.setFaults({ routes: ["sources"] })).toThrow(RangeError);
    await expect(startEmulator({ port: 0, faults: { latencyMs: -5 } })).rejects.toThrow(RangeError);
    expect(emu.getFaults().failRate).toBe(0);
  });
});

describe("holds", () => {
  const tag = (name: string) => ({ name, description: "", type: ["sources"] });
  const post = (em: RunningEmulator, tok: string, name: string) => call(em.url, "POST", "/tags", { token: tok, body: tag(name) });
  const tagNames = async (em: RunningEmulator, tok: string, prefix: string) =>
    ((await get(`/tags?tag_name=${prefix}`, em, tok)).body.tags as Array<{ name: string }>).map((t) => t.name).sort();

  it("let a route's requests through until N are answered 2xx, then keep the next waiting, unanswered, and say so", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const t = (await tokenFor(fresh)).accessToken;
      const hold = fresh.hold("POST /tags", 2);
      expect((await post(fresh, t, "held-1")).status).toBe(200);
      expect((await post(fresh, t, "held-2")).status).toBe(200);
      const third = post(fresh, t, "held-3");
      await hold.reached;
      expect(hold.answered()).toBe(2);
      // Other routes are not held, not even another method of the same path.
      expect((await get("/tags?tag_name=held-", fresh, t)).status).toBe(200);
      expect(await tagNames(fresh, t, "held-")).toEqual(["held-1", "held-2"]);
      // Released: the waiting requests lose their connection, unhandled; later ones are handled.
      hold.release();
      await expect(third).rejects.toThrow();
      expect(hold.waiting()).toBe(0);
      expect((await post(fresh, t, "held-4")).status).toBe(200);
      expect(await tagNames(fresh, t, "held-")).toEqual(["held-1", "held-2", "held-4"]);
      hold.release();
    } finally {
      await fresh.stop();
    }
  });

  it("count only 2xx answers: a request the faults fail frees its place for the next, so exactly N take effect", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const t = (await tokenFor(fresh)).accessToken;
      fresh.setFaults({ failNext: 1, routes: ["/tags"] });
      const hold = fresh.hold(["POST /tags", "PUT /tags/:tag_id"], 1);
      expect((await post(fresh, t, "counted-1")).status).toBe(503);
      expect((await post(fresh, t, "counted-2")).status).toBe(200);
      const waiting = post(fresh, t, "counted-3");
      await hold.reached;
      expect([hold.answered(), hold.waiting()]).toEqual([1, 1]);
      hold.release();
      await expect(waiting).rejects.toThrow();
      expect(await tagNames(fresh, t, "counted-")).toEqual(["counted-2"]);
    } finally {
      await fresh.stop();
    }
  });

  it("on WRITES count every write of any route, not reads and not a token's, and hold the next", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      const t = (await tokenFor(fresh)).accessToken;
      const hold = fresh.hold(WRITES, 2);
      const made = await post(fresh, t, "writes-1");
      expect(made.status).toBe(200);
      expect((await call(fresh.url, "PUT", `/tags/${made.body.id}`, { token: t, body: { ...tag("writes-1"), description: "edited" } })).status).toBe(200);
      // Reads and a new token are no writes: they go on.
      expect((await get("/tags?tag_name=writes-", fresh, t)).status).toBe(200);
      const again = (await tokenFor(fresh)).accessToken;
      const third = post(fresh, again, "writes-2");
      await hold.reached;
      expect([hold.answered(), hold.waiting()]).toEqual([2, 1]);
      hold.release();
      await expect(third).rejects.toThrow();
      expect(await tagNames(fresh, t, "writes-")).toEqual(["writes-1"]);
    } finally {
      await fresh.stop();
    }
  });

  it("reject `reached` when released first, are released by stop(), and refuse bad arguments", async () => {
    const fresh = await startEmulator({ port: 0 });
    const t = (await tokenFor(fresh)).accessToken;
    const early = fresh.hold("POST /tags", 1);
    early.release();
    await expect(early.reached).rejects.toThrow(/released before/);
    const none = fresh.hold("POST /tags", 0);
    const waiting = post(fresh, t, "stopped-1");
    await none.reached;
    await fresh.stop();
    await expect(waiting).rejects.toThrow();
    expect(() => fresh.hold("/tags", 1)).toThrow(RangeError);
    expect(() => fresh.hold("POST /tags", -1)).toThrow(RangeError);
    expect(() => fresh.hold([], 1)).toThrow(RangeError);
  });
});
