import { afterEach, describe, expect, it } from "vitest";
import { anyJsonSchema,
  Semaphore,
  configure,
  getClient,
  getRequestCounts,
  resetClients,
  resetRequestCounts,
} from "../../../provider/client/index.js";
import { CLIENT_ID, CLIENT_SECRET, FakeApi, sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
let api: FakeApi | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await api?.stop();
  api = undefined;
  await resetClients();
});

describe("process-wide sharing", () => {
  it("getClient returns one client per (apiUrl, clientId), sharing one token", async () => {
    api = await new FakeApi().start();
    api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    const settings = configure({ "cdc:apiUrl": api.url, "cdc:clientId": CLIENT_ID, "cdc:clientSecret": CLIENT_SECRET }, {});

    const a = getClient();
    const b = getClient({ ...settings });
    expect(b).toBe(a);
    const other = getClient({ ...settings, clientId: "another-client" });
    expect(other).not.toBe(a);

    await Promise.all([a.get("/ping", { schema: anyJsonSchema }), b.get("/ping", { schema: anyJsonSchema }), getClient().get("/ping", { schema: anyJsonSchema })]);
    expect(api.tokenExchanges).toBe(1);
    expect(a.createdFrom).toBe("terraform");
  });

  it("getClient without configure() resolves from the environment", async () => {
    api = await new FakeApi().start();
    const saved = { ...process.env };
    try {
      process.env.CDC_API_URL = api.url;
      process.env.CDC_CLIENT_ID = CLIENT_ID;
      process.env.CDC_CLIENT_SECRET = CLIENT_SECRET;
      delete process.env.CDC_ACCESS_TOKEN;
      expect(getClient().apiUrl).toBe(api.url);
    } finally {
      for (const k of ["CDC_API_URL", "CDC_CLIENT_ID", "CDC_CLIENT_SECRET", "CDC_ACCESS_TOKEN"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});

describe("concurrency limit", () => {
  it("never has more than the limit in flight", async () => {
    h = await startHarness({}, { limiter: new Semaphore(3) });
    const release: Array<() => void> = [];
    h.api.route("GET", "/items/{id}", ({ res }) => {
      // Hold each response until a later one arrives, so requests pile up at the limit.
      release.push(() => sendJson(res, 200, { ok: true }));
      if (release.length >= 3) release.splice(0).forEach((r) => r());
    });
    const all = Promise.all(Array.from({ length: 12 }, (_, i) => h!.client.get("/items/{id}", { schema: anyJsonSchema, params: { id: i } })));
    await all;
    expect(h.api.maxConcurrent).toBe(3);
  });

  it("opens past 16 while requests queue and the API answers, never past the maximum, and halves on a 429", async () => {
    const limiter = new Semaphore(40);
    h = await startHarness({}, { limiter });
    let throttle = false;
    h.api.route("GET", "/items/{id}", ({ res }) => {
      if (throttle) return sendJson(res, 429, { detail: "slow down" }, { "retry-after": "0" });
      // A round trip long enough for the requests let in by one answer to overlap the rest.
      setTimeout(() => sendJson(res, 200, { ok: true }), 20);
    });
    await Promise.all(Array.from({ length: 160 }, (_, i) => h!.client.get("/items/{id}", { schema: anyJsonSchema, params: { id: i } })));
    expect(h.api.maxConcurrent).toBeGreaterThan(16);
    expect(h.api.maxConcurrent).toBeLessThanOrEqual(40);
    expect(limiter.limit).toBe(40);

    throttle = true;
    const once = h.makeClient({ retry: { maxAttempts: 1 } });
    await expect(once.get("/items/{id}", { schema: anyJsonSchema, params: { id: "x" } })).rejects.toMatchObject({ status: 429 });
    expect(limiter.limit).toBe(20);
  });
});

describe("request ids and counters", () => {
  it("sends a fresh x-request-id on every request, token requests included", async () => {
    h = await startHarness();
    h.api.route("GET", "/ping", ({ res, call }) => sendJson(res, call === 1 ? 503 : 200, { ok: call !== 1 }));
    resetRequestCounts();
    await h.client.get("/ping", { schema: anyJsonSchema });
    await h.client.get("/ping", { schema: anyJsonSchema });
    const ids = h.api.requests.map((r) => r.headers["x-request-id"]);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => typeof id === "string" && id.length >= 16)).toBe(true);

    const counts = getRequestCounts();
    expect(counts.requests).toEqual({ "POST /auth/access-token": 1, "GET /ping": 3 });
    expect(counts.total).toBe(4);
    expect(counts.retries).toBe(1);
    expect(counts.tokenRequests).toEqual({ clientCredentials: 1, refresh: 0 });
  });

  it("keeps path parameters URL-encoded and counters keyed by template", async () => {
    h = await startHarness();
    h.api.route("DELETE", "/auth/client-credentials/{id}", ({ res }) => sendJson(res, 200, {}));
    resetRequestCounts();
    await h.client.delete("/auth/client-credentials/{client_id}", { schema: anyJsonSchema, params: { client_id: "a b/c" } });
    expect(h.api.requests.at(-1)?.path).toBe("/auth/client-credentials/a%20b%2Fc");
    expect(getRequestCounts().requests["DELETE /auth/client-credentials/{client_id}"]).toBe(1);
  });
});
