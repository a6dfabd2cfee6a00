import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { anyJsonSchema, AuthError, CdcClient, getRequestCounts, resetRequestCounts } from "../../../provider/client/index.js";
import { CLIENT_ID, sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ok = z.looseObject({ ok: z.boolean() });

describe("token manager against a fake API", () => {
  it("fetches one token for many concurrent requests (single-flight)", async () => {
    h = await startHarness({ tokenDelayMs: 50 });
    h.api.route("GET", "/things/{id}", ({ res }) => sendJson(res, 200, { ok: true }));
    resetRequestCounts();

    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => h!.client.get("/things/{id}", { params: { id: `t${i}` }, schema: ok })),
    );

    expect(results.every((r) => r.ok)).toBe(true);
    expect(h.api.tokenExchanges).toBe(1);
    expect(h.api.requestsTo("POST", "/auth/access-token")).toHaveLength(1);
    const counts = getRequestCounts();
    expect(counts.tokenRequests.clientCredentials).toBe(1);
    expect(counts.requests["GET /things/{id}"]).toBe(25);
    // Every API call carried the one token.
    const auths = new Set(h.api.requests.filter((r) => r.path.startsWith("/things/")).map((r) => r.headers.authorization));
    expect([...auths]).toEqual([`Bearer ${h.api.issuedTokens[0]}`]);
  });

  it("sends client_id and secret to POST /auth/access-token", async () => {
    h = await startHarness();
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    await h.client.get("/ping", { schema: anyJsonSchema });
    const [tokenReq] = h.api.requestsTo("POST", "/auth/access-token");
    expect(tokenReq?.body).toEqual({ client_id: CLIENT_ID, secret: expect.any(String) });
    expect(tokenReq?.headers.authorization).toBeUndefined();
  });

  it("refreshes shortly before expiry, rotating the single-use refresh token", async () => {
    h = await startHarness({ expiresIn: 3600 });
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));

    await h.client.get("/ping", { schema: anyJsonSchema });
    expect(h.api.tokenExchanges).toBe(1);

    // 10 minutes left of an hour: more than max(60 s, 10%), no refresh yet.
    h.clock.now += 50 * 60_000;
    await h.client.get("/ping", { schema: anyJsonSchema });
    expect(h.api.tokenRefreshes).toBe(0);

    // 5 minutes left: under 10% of the lifetime, refresh.
    h.clock.now += 5 * 60_000;
    await h.client.get("/ping", { schema: anyJsonSchema });
    expect(h.api.tokenRefreshes).toBe(1);
    const [first] = h.api.requestsTo("POST", "/auth/access-token/refresh");
    expect(first?.body).toEqual({ refresh_token: h.api.issuedRefreshTokens[0] });
    expect(first?.headers.authorization).toBeUndefined();

    // The next refresh must use the rotated token (the fake rejects a reused one).
    h.clock.now += 56 * 60_000;
    await h.client.get("/ping", { schema: anyJsonSchema });
    expect(h.api.tokenRefreshes).toBe(2);
    const second = h.api.requestsTo("POST", "/auth/access-token/refresh")[1];
    expect(second?.body).toEqual({ refresh_token: h.api.issuedRefreshTokens[1] });
    expect(h.api.tokenExchanges).toBe(1);

    const pings = h.api.requestsTo("GET", "/ping").map((r) => r.headers.authorization);
    expect(pings).toEqual([
      `Bearer ${h.api.issuedTokens[0]}`,
      `Bearer ${h.api.issuedTokens[0]}`,
      `Bearer ${h.api.issuedTokens[1]}`,
      `Bearer ${h.api.issuedTokens[2]}`,
    ]);
  });

  it("refreshes once for concurrent callers when the token is due", async () => {
    h = await startHarness({ expiresIn: 600, tokenDelayMs: 30 });
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    await h.client.get("/ping", { schema: anyJsonSchema });
    h.clock.now += 590_000;
    await Promise.all(Array.from({ length: 10 }, () => h!.client.get("/ping", { schema: anyJsonSchema })));
    expect(h.api.tokenRefreshes).toBe(1);
    expect(h.api.tokenExchanges).toBe(1);
  });

  it.each([401, 405, 422])("falls back to client credentials when the refresh is refused with %i (405: an API without the refresh route)", async (status) => {
    h = await startHarness({ expiresIn: 600 });
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    await h.client.get("/ping", { schema: anyJsonSchema });
    h.api.refreshFailures.push(status);
    h.clock.now += 590_000;
    await h.client.get("/ping", { schema: anyJsonSchema });
    expect(h.api.tokenRefreshes).toBe(1);
    expect(h.api.tokenExchanges).toBe(2);
    expect(h.api.requestsTo("GET", "/ping").at(-1)?.headers.authorization).toBe(`Bearer ${h.api.issuedTokens[1]}`);
  });

  it("after a 401 gets a new token and replays the request exactly once", async () => {
    h = await startHarness();
    h.api.route("POST", "/tags", ({ res, seen }) => sendJson(res, 200, { id: "tag-1", name: (seen.body as { name: string }).name }));
    await h.client.post("/tags", { schema: anyJsonSchema, body: { name: "warm-up" } });
    h.api.revokeAll();

    const created = await h.client.post("/tags", { body: { name: "t" }, schema: z.looseObject({ id: z.string() }) });
    expect(created.id).toBe("tag-1");
    // warm-up, the rejected attempt, the replay
    expect(h.api.requestsTo("POST", "/tags")).toHaveLength(3);
    expect(h.sleeps).toEqual([]);
  });

  it("gives up with an AuthError when the replay is rejected too", async () => {
    h = await startHarness();
    let n = 0;
    h.api.route("GET", "/ping", ({ res }) => {
      n++;
      sendJson(res, 401, { detail: "token revoked" });
    });
    const err = await h.client.get("/ping", { schema: anyJsonSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).status).toBe(401);
    expect(n).toBe(2);
    expect((err as AuthError).message).toMatch(/^GET \/ping failed: 401 Unauthorized: token revoked \(request id srv-/);
  });

  it("uses a ready access token as-is: no token request, no replay after 401", async () => {
    h = await startHarness();
    h.api.validTokens.add("ready-made-token-xyz");
    let calls = 0;
    h.api.route("GET", "/ping", ({ res }) => {
      calls++;
      sendJson(res, calls === 1 ? 200 : 401, calls === 1 ? { ok: true } : { detail: "expired" });
    });
    const client = h.makeClient({ settings: { apiUrl: h.api.url, accessToken: "ready-made-token-xyz", createdFrom: "terraform" } });
    await client.get("/ping", { schema: anyJsonSchema });
    h.clock.now += 365 * 24 * 3600_000;
    await expect(client.get("/ping", { schema: anyJsonSchema })).rejects.toBeInstanceOf(AuthError);
    expect(calls).toBe(2);
    expect(h.api.tokenExchanges + h.api.tokenRefreshes).toBe(0);
    expect(h.api.requestsTo("GET", "/ping")[0]?.headers.authorization).toBe("Bearer ready-made-token-xyz");
  });

  it("reports wrong credentials as an AuthError naming the settings to check", async () => {
    h = await startHarness();
    const client = h.makeClient({
      settings: { apiUrl: h.api.url, clientId: CLIENT_ID, clientSecret: "wrong-secret-value-1", createdFrom: "terraform" },
    });
    const err = (await client.get("/ping", { schema: anyJsonSchema }).catch((e: unknown) => e)) as AuthError;
    expect(err).toBeInstanceOf(AuthError);
    expect(err.path).toBe("/auth/access-token");
    expect(err.message).toContain("POST /auth/access-token failed: 401 Unauthorized");
    expect(err.message).toContain("cdc:clientSecret");
    expect(err.message).not.toContain("wrong-secret-value-1");
    expect(h.api.tokenExchanges).toBe(1);
  });

  it("a later call retries the token request after a failed one", async () => {
    h = await startHarness();
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    const bad = new CdcClient({
      settings: { apiUrl: h.api.url, clientId: "nobody", clientSecret: "nope-nope", createdFrom: "terraform" },
      sleep: async () => {},
    });
    try {
      await expect(bad.get("/ping", { schema: anyJsonSchema })).rejects.toBeInstanceOf(AuthError);
      await expect(bad.get("/ping", { schema: anyJsonSchema })).rejects.toBeInstanceOf(AuthError);
      expect(h.api.tokenExchanges).toBe(2);
    } finally {
      await bad.close();
    }
  });
});
