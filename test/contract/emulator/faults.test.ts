import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAULTS_OFF, WRITES, startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { call, expectDetail, manualClock, tokenFor } from "./helpers.js";

const clock = manualClock();
let emu: RunningEmulator;
let token: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock: clock.now });
  token = (await tokenFor(emu)).accessToken;
});
afterEach(() => {
  emu.setFaults({ ...FAULTS_OFF, routes: ["/"] });
});
afterAll(async () => {
  await emu?.stop();
});

const get = (path: string, em: RunningEmulator = emu, tok: string | null = token) => call(em.url, "GET", path, { token: tok });

describe("fault injection", () => {
  it("is off by default", async () => {
    const fresh = await startEmulator({ port: 0 });
    try {
      expect(fresh.getFaults()).toEqual({ ...FAULTS_OFF, oversizedBytes: 64 * 1024 * 1024 + 1, seed: undefined, routes: ["/"], deleteDelayReads: 0 });
      expect(FAULTS_OFF).toMatchObject({ failRate: 0, dropRate: 0, lostResponseRate: 0, htmlRate: 0, truncatedRate: 0, wrongShapeRate: 0, oversizedRate: 0, failNext: 0, loseNext: 0, htmlNext: 0, truncatedNext: 0, wrongShapeNext: 0, oversizedNext: 0 });
      const t = (await tokenFor(fresh)).accessToken;
      for (let i = 0; i < 20; i += 1) expect((await get("/sources", fresh, t)).status).toBe(200);
      expect(fresh.stats().faults).toEqual({ delayed: 0, rateLimited: 0, failed: 0, dropped: 0, lost: 0, html: 0, truncated: 0, wrongShape: 0, oversized: 0 });
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

describe("garbled answers", () => {
  const tag = (name: string) => ({ name, description: "", type: ["sources"] });
  const post = (em: RunningEmulator, tok: string, name: string) => call(em.url, "POST", "/tags", { token: tok, body: tag(name) });
  const names = async (em: RunningEmulator, tok: string, prefix: string) =>
    ((await get(`/tags?tag_name=${prefix}`, em, tok)).body.tags as Array<{ name: string }>).map((t) => t.name).sort();
  const notJson = (text: string) => expect(() => JSON.parse(text)).toThrow();
  let fresh: RunningEmulator;
  let t: string;
  beforeAll(async () => {
    fresh = await startEmulator({ port: 0 });
    t = (await tokenFor(fresh)).accessToken;
  });
  afterEach(() => fresh.setFaults({ ...FAULTS_OFF, routes: ["/"] }));
  afterAll(async () => {
    await fresh?.stop();
  });

  it("html: a load balancer answers 200 with a maintenance page, and the request is never handled", async () => {
    fresh.setFaults({ htmlRate: 1, routes: ["/tags"] });
    const page = await post(fresh, t, "html-write");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("x-request-id")).toBeTruthy();
    expect(page.text).toMatch(/^<!DOCTYPE html>/);
    // Before authentication, as the other faults: the page needs no token.
    expect((await get("/tags", fresh, null)).text).toMatch(/maintenance/);
    expect(fresh.stats().faults.html).toBe(2);
    fresh.setFaults({ htmlRate: 0 });
    expect(await names(fresh, t, "html-")).toEqual([]);
    // A hold does not count it as answered: nothing took effect.
    fresh.setFaults({ htmlNext: 1 });
    const hold = fresh.hold("POST /tags", 1);
    expect((await post(fresh, t, "html-held-1")).text).toMatch(/maintenance/);
    expect((await post(fresh, t, "html-held-2")).status).toBe(200);
    expect(hold.answered()).toBe(1);
    hold.release();
    expect(await names(fresh, t, "html-")).toEqual(["html-held-2"]);
  });

  it("truncated: the request is handled and its JSON answer cut off halfway, content-length that of what is sent", async () => {
    const whole = (await get("/tags", fresh, t)).text;
    fresh.setFaults({ truncatedNext: 1 });
    const cut = await get("/tags", fresh, t);
    expect(cut.status).toBe(200);
    expect(cut.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Number(cut.headers.get("content-length"))).toBe(Buffer.byteLength(cut.text));
    expect(cut.text.length).toBeGreaterThan(0);
    expect(whole.startsWith(cut.text) && cut.text.length < whole.length).toBe(true);
    notJson(cut.text);
    // A write: handled, so the change is made though its answer cannot be read.
    fresh.setFaults({ truncatedRate: 1, routes: ["/tags"] });
    notJson((await post(fresh, t, "cut-write")).text);
    fresh.setFaults({ truncatedRate: 0 });
    expect(await names(fresh, t, "cut-")).toEqual(["cut-write"]);
    expect(fresh.stats().faults.truncated).toBe(2);
  });

  it("wrong shape: a listing's items lose their fields; any other answer becomes {result: 'maintenance'}; the request is handled", async () => {
    const whole = (await get("/tags", fresh, t)).body as { tags: unknown[] };
    fresh.setFaults({ wrongShapeNext: 1 });
    const listing = await get("/tags", fresh, t);
    expect(listing.status).toBe(200);
    expect(listing.body).toEqual({ ...whole, tags: whole.tags.map(() => ({})) });
    // An empty listing is a true answer, so it is not "stripped": it becomes another shape.
    fresh.setFaults({ wrongShapeNext: 1 });
    expect((await get("/sources", fresh, t)).body).toEqual({ result: "maintenance" });
    fresh.setFaults({ wrongShapeNext: 1 });
    const written = await post(fresh, t, "shape-write");
    expect([written.status, written.body]).toEqual([200, { result: "maintenance" }]);
    expect(await names(fresh, t, "shape-")).toEqual(["shape-write"]);
    expect(fresh.stats().faults.wrongShape).toBe(3);
  });

  it("oversized: a read's answer is a JSON array of oversizedBytes, streamed with its content-length; writes are never oversized", async () => {
    fresh.setFaults({ oversizedRate: 1, oversizedBytes: 300_001, routes: ["/tags"] });
    const big = await get("/tags", fresh, t);
    expect(big.status).toBe(200);
    expect(big.headers.get("content-length")).toBe("300001");
    expect(Buffer.byteLength(big.text)).toBe(300_001);
    expect(Array.isArray(big.body)).toBe(true);
    expect((await post(fresh, t, "big-write")).body).toMatchObject({ name: "big-write" });
    expect(fresh.stats().faults.oversized).toBe(1);
    // The default, 64 MiB + 1: a client that stops reading after the first bytes ends the stream.
    fresh.setFaults({ oversizedBytes: 64 * 1024 * 1024 + 1 });
    const response = await fetch(`${fresh.url}/tags`, { headers: { authorization: `Bearer ${t}` } });
    expect(response.headers.get("content-length")).toBe(String(64 * 1024 * 1024 + 1));
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value).startsWith("[")).toBe(true);
    await reader.cancel();
    fresh.setFaults({ oversizedRate: 0 });
    expect((await get("/tags", fresh, t)).status).toBe(200);
  });

  it("garble only 2xx answers: an error answer is sent as it is, and is no decision (a ...Next count waits for a 2xx)", async () => {
    fresh.setFaults({ truncatedNext: 1, wrongShapeNext: 1, oversizedNext: 1, oversizedBytes: 4096 });
    const missing = await call(fresh.url, "PUT", "/tags/000000000000000000000000", { token: t, body: tag("none") });
    expectDetail(missing, 404);
    expect(fresh.getFaults()).toMatchObject({ truncatedNext: 1, wrongShapeNext: 1, oversizedNext: 1 });
    notJson((await get("/tags", fresh, t)).text);
    expect((await get("/tags", fresh, t)).body).toMatchObject({ tags: expect.arrayContaining([{}]) });
    expect(Buffer.byteLength((await get("/tags", fresh, t)).text)).toBe(4096);
    expect(fresh.getFaults()).toMatchObject({ truncatedNext: 0, wrongShapeNext: 0, oversizedNext: 0 });
  });

  it("are seeded like the other faults: the same seed, the same answers garbled", async () => {
    const sample = async (seed: number) => {
      fresh.setFaults({ seed, htmlRate: 0.2, truncatedRate: 0.2, wrongShapeRate: 0.2, oversizedRate: 0.2, oversizedBytes: 4096, routes: ["/tags"] });
      const out: string[] = [];
      for (let i = 0; i < 24; i += 1) {
        const r = await get("/tags", fresh, t);
        out.push(r.text.startsWith("<") ? "html" : r.text.length === 4096 ? "oversized" : r.text.includes("{}") ? "wrongShape" : /^\{.*\}$/.test(r.text) ? "ok" : "truncated");
      }
      return out;
    };
    const a = await sample(3);
    expect(await sample(3)).toEqual(a);
    expect(new Set(a)).toEqual(new Set(["ok", "html", "truncated", "wrongShape", "oversized"]));
    expect(await sample(4)).not.toEqual(a);
  });

  it("fire each share within its first ceil(1/share) decisions after the faults are set, whatever the seed", async () => {
    const kinds = [
      ["htmlRate", "html"],
      ["truncatedRate", "truncated"],
      ["wrongShapeRate", "wrongShape"],
      ["oversizedRate", "oversized"],
    ] as const;
    for (const [setting, counter] of kinds) {
      for (let seed = 0; seed < 10; seed += 1) {
        fresh.setFaults({ ...FAULTS_OFF, seed, [setting]: 0.25, oversizedBytes: 4096, routes: ["/tags"] });
        const before = fresh.stats().faults[counter];
        for (let i = 0; i < 4; i += 1) await get("/tags", fresh, t);
        expect(fresh.stats().faults[counter] - before, `${setting}, seed ${seed}`).toBeGreaterThan(0);
      }
    }
  });

  it("refuse invalid settings", () => {
    expect(() => fresh.setFaults({ htmlRate: 2 })).toThrow(/htmlRate must be between 0 and 1/);
    expect(() => fresh.setFaults({ wrongShapeRate: -1 })).toThrow(RangeError);
    expect(() => fresh.setFaults({ truncatedNext: 0.5 })).toThrow(/truncatedNext must be a non-negative integer/);
    expect(() => fresh.setFaults({ oversizedBytes: 3 })).toThrow(/oversizedBytes must be an integer of at least 4/);
    expect(fresh.getFaults()).toMatchObject({ htmlRate: 0, wrongShapeRate: 0, truncatedNext: 0 });
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
