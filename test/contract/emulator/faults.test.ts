import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
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

  it("rejects invalid settings", async () => {
    expect(() => emu.setFaults({ failRate: 1.5 })).toThrow(RangeError);
    expect(() => emu.setFaults({ dropRate: -0.1 })).toThrow(RangeError);
    expect(() => emu.setFaults({ rateLimit: -1 })).toThrow(RangeError);
    expect(() => emu.setFaults({ routes: ["sources"] })).toThrow(RangeError);
    await expect(startEmulator({ port: 0, faults: { latencyMs: -5 } })).rejects.toThrow(RangeError);
    expect(emu.getFaults().failRate).toBe(0);
  });
});
