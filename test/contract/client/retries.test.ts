import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { Agent, errors as undiciErrors } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { anyJsonSchema,
  DEFAULT_RETRY_POLICY,
  CdcClient,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
  getRequestCounts,
  isNotFound,
  resetRequestCounts,
} from "../../../provider/client/index.js";
import { CLIENT_ID, CLIENT_SECRET, sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ok = z.looseObject({ ok: z.boolean() });

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe("429", () => {
  it("honours Retry-After and caps it at 30 s", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources", ({ res, call }) => {
      if (call === 1) return sendJson(res, 429, { detail: "slow down" }, { "retry-after": "2" });
      if (call === 2) return sendJson(res, 429, { detail: "slow down" }, { "retry-after": "120" });
      sendJson(res, 200, { ok: true });
    });
    const out = await h.client.get("/sources", { schema: ok });
    expect(out.ok).toBe(true);
    expect(h.sleeps).toEqual([2000, 30_000]);
  });

  it("retries a POST on 429: nothing was created", async () => {
    h = await startHarness();
    h.api.route("POST", "/destinations", ({ res, call }) => {
      if (call === 1) return sendJson(res, 429, { detail: "rate limited" }, { "retry-after": "1" });
      sendJson(res, 200, { id: "d1" });
    });
    const out = await h.client.post("/destinations", { body: { name: "x" }, schema: z.looseObject({ id: z.string() }) });
    expect(out.id).toBe("d1");
    expect(h.api.requestsTo("POST", "/destinations")).toHaveLength(2);
    expect(h.sleeps).toEqual([1000]);
  });

  it("throws RateLimitError with retryAfter once attempts run out", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources", ({ res }) => sendJson(res, 429, { detail: "quota" }, { "retry-after": "7" }));
    const err = (await h.client.get("/sources", { schema: anyJsonSchema }).catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfter).toBe(7);
    const n = DEFAULT_RETRY_POLICY.maxAttempts;
    expect(err.attempts).toBe(n);
    expect(h.api.requestsTo("GET", "/sources")).toHaveLength(n);
    expect(h.sleeps).toEqual(Array.from({ length: n - 1 }, () => 7000));
  });
});

describe("5xx", () => {
  it("retries GET/PUT/DELETE with exponential backoff, then succeeds", async () => {
    h = await startHarness();
    h.api.route("PUT", "/sources/{id}", ({ res, call }) => {
      if (call <= 3) return sendJson(res, [500, 502, 503][call - 1]!, { detail: "upstream trouble" });
      sendJson(res, 200, { ok: true });
    });
    resetRequestCounts();
    const out = await h.client.put("/sources/{id}", { params: { id: "s1" }, body: { name: "n" }, schema: ok });
    expect(out.ok).toBe(true);
    // random() = 0.5 → 3/4 of each step: 500, 1000, 2000 ms steps.
    expect(h.sleeps).toEqual([375, 750, 1500]);
    const counts = getRequestCounts();
    expect(counts.requests["PUT /sources/{id}"]).toBe(4);
    expect(counts.retries).toBe(3);
  });

  it.each([429, 502, 503, 504])("retries a GET answered %i (the platform's newest client retries GETs on 429, 502, 503, 504)", async (status) => {
    h = await startHarness();
    h.api.route("GET", "/sources/{id}", ({ res, call }) => (call === 1 ? sendJson(res, status, { detail: "try again" }) : sendJson(res, 200, { ok: true })));
    const out = await h.client.get("/sources/{id}", { params: { id: "s1" }, schema: ok });
    expect(out.ok).toBe(true);
    expect(h.api.requestsTo("GET", "/sources/s1")).toHaveLength(2);
  });

  it("exhausted retries end in a ServerError carrying the request id", async () => {
    h = await startHarness();
    h.api.route("DELETE", "/tags/{id}", ({ res }) => sendJson(res, 503, { detail: "maintenance" }));
    const err = (await h.client.delete("/tags/{id}", { schema: anyJsonSchema, params: { id: "t1" } }).catch((e: unknown) => e)) as ServerError;
    expect(err).toBeInstanceOf(ServerError);
    expect(err.status).toBe(503);
    expect(err.attempts).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
    const sent = h.api.requestsTo("DELETE", "/tags/t1");
    expect(sent).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts);
    // The fake echoes `srv-<our id>`; the error carries the id of the last attempt.
    expect(err.requestId).toBe(`srv-${sent.at(-1)?.headers["x-request-id"]}`);
    // What was retried, how often, for how long, and which setting allows more.
    expect(err.message).toBe(
      `DELETE /tags/t1 failed: 503 Service Unavailable: maintenance (request id ${err.requestId}, after 8 attempts over ${(err.elapsedMs! / 1000).toFixed(1)} s) ` +
        "Retried up to 8 attempts (cdc:retryAttempts).",
    );
  });

  it("knows the request id even when the server does not echo it", async () => {
    h = await startHarness({ echoRequestId: false });
    h.api.route("GET", "/sources", ({ res }) => sendJson(res, 500, { detail: "boom" }));
    const client = h.makeClient({ retry: { maxAttempts: 1 } });
    const err = (await client.get("/sources", { schema: anyJsonSchema }).catch((e: unknown) => e)) as ServerError;
    expect(err).toBeInstanceOf(ServerError);
    expect(err.requestId).toBe(h.api.requestsTo("GET", "/sources")[0]?.headers["x-request-id"]);
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("does not retry a POST on 5xx (it may have created something)", async () => {
    h = await startHarness();
    h.api.route("POST", "/sources", ({ res }) => sendJson(res, 502, { detail: "bad gateway" }));
    await expect(h.client.post("/sources", { schema: anyJsonSchema, body: { name: "x" } })).rejects.toBeInstanceOf(ServerError);
    expect(h.api.requestsTo("POST", "/sources")).toHaveLength(1);
  });
});

describe("typed errors from real responses", () => {
  it("maps 404, 409 and 422", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources/{id}", ({ res }) => sendJson(res, 404, { detail: "Source not found" }));
    h.api.route("PUT", "/destinations/{id}", ({ res }) =>
      sendJson(res, 409, { detail: 'a destination named "x" already exists' }, { "x-request-id": "1234" }),
    );
    h.api.route("POST", "/destinations", ({ res }) =>
      sendJson(res, 422, {
        detail: [
          { loc: ["body", "config", "password"], msg: "Field required", type: "missing", input: { user: "u" } },
          { loc: ["body", "created_from"], msg: "Input should be 'web', 'api' or 'terraform'", type: "enum", input: "pulumi" },
        ],
      }),
    );

    const nf = await h.client.get("/sources/{id}", { schema: anyJsonSchema, params: { id: "nope" } }).catch((e: unknown) => e);
    expect(nf).toBeInstanceOf(NotFoundError);
    expect(isNotFound(nf)).toBe(true);

    const conflict = await h.client.put("/destinations/{id}", { schema: anyJsonSchema, params: { id: "abc" }, body: { name: "x" } }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as Error).message).toBe('PUT /destinations/abc failed: 409 Conflict: a destination named "x" already exists (request id 1234)');

    const invalid = (await h.client.post("/destinations", { schema: anyJsonSchema, body: { name: "x" } }).catch((e: unknown) => e)) as ValidationError;
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.message).toContain(
      "POST /destinations failed: 422 Unprocessable Entity: body.config.password: Field required; body.created_from: Input should be 'web', 'api' or 'terraform'",
    );
    expect(invalid.issues.map((i) => i.loc.join("."))).toEqual(["body.config.password", "body.created_from"]);
    expect(h.sleeps).toEqual([]);
  });

  it("findOne returns undefined for a 404 and for an empty result", async () => {
    h = await startHarness();
    const item = z.looseObject({ id: z.string() });
    h.api.route("GET", "/sources/gone", ({ res }) => sendJson(res, 404, { detail: "not found" }));
    h.api.route("GET", "/sources/empty", ({ res }) => sendJson(res, 200, { result: [], page: 1, page_size: 10, total: 0, has_next: false }));
    h.api.route("GET", "/sources/s1", ({ res }) => sendJson(res, 200, { result: [{ id: "s1" }], page: 1, page_size: 10, total: 1, has_next: false }));
    expect(await h.client.findOne("/sources/gone", item)).toBeUndefined();
    expect(await h.client.findOne("/sources/empty", item)).toBeUndefined();
    expect(await h.client.findOne("/sources/s1", item)).toEqual({ id: "s1" });
  });
});

describe("dropped connections", () => {
  it("retries a GET when the server destroys the socket", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources", ({ req, res, call }) => {
      if (call === 1) return void req.socket.destroy();
      sendJson(res, 200, { ok: true });
    });
    const out = await h.client.get("/sources", { schema: ok });
    expect(out.ok).toBe(true);
    expect(h.api.requestsTo("GET", "/sources")).toHaveLength(2);
    expect(h.sleeps).toHaveLength(1);
  });

  it("does not retry a POST whose connection dropped: it may have been created", async () => {
    h = await startHarness();
    h.api.route("POST", "/sources", ({ req }) => void req.socket.destroy());
    const err = (await h.client.post("/sources", { schema: anyJsonSchema, body: { name: "x" } }).catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.status).toBeUndefined();
    expect(["UND_ERR_SOCKET", "ECONNRESET"]).toContain(err.code);
    expect(err.message).toMatch(/^POST \/sources failed: connection error /);
    expect(err.requestId).toBe(h.api.requestsTo("POST", "/sources")[0]?.headers["x-request-id"]);
    expect(h.api.requestsTo("POST", "/sources")).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });
});

describe("connection refused", () => {
  it("retries (for every method: nothing was sent), then throws ConnectionError ECONNREFUSED", async () => {
    const port = await closedPort();
    const sleeps: number[] = [];
    const client = new CdcClient({
      settings: { apiUrl: `http://127.0.0.1:${port}`, accessToken: "ready-token-abc", createdFrom: "terraform" },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0,
      retry: { maxAttempts: 3 },
    });
    try {
      const err = (await client.post("/sources", { schema: anyJsonSchema, body: { name: "x" } }).catch((e: unknown) => e)) as ConnectionError;
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err.code).toBe("ECONNREFUSED");
      expect(err.attempts).toBe(3);
      expect(sleeps).toEqual([250, 500]);
      expect(err.message).toContain(`POST /sources failed: connection error ECONNREFUSED`);
      expect(err.message).toContain(`http://127.0.0.1:${port}`);
      expect(err.message).toContain("cdc:apiUrl");
    } finally {
      await client.close();
    }
  });

  it("surfaces a refused token endpoint as ConnectionError too", async () => {
    const port = await closedPort();
    const client = new CdcClient({
      settings: { apiUrl: `http://127.0.0.1:${port}`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, createdFrom: "terraform" },
      sleep: async () => {},
      retry: { maxAttempts: 2 },
    });
    try {
      const err = (await client.get("/sources", { schema: anyJsonSchema }).catch((e: unknown) => e)) as ConnectionError;
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err.path).toBe("/auth/access-token");
    } finally {
      await client.close();
    }
  });
});

describe("timeouts", () => {
  it("headers timeout: GET retried, POST not", async () => {
    h = await startHarness({}, { timeouts: { headersMs: 750 } });
    h.api.route("GET", "/slow", ({ res, call }) => {
      if (call === 1) return; // never answers; the fake closes the socket at stop()
      sendJson(res, 200, { ok: true });
    });
    h.api.route("POST", "/slow", () => {});
    const out = await h.client.get("/slow", { schema: ok });
    expect(out.ok).toBe(true);
    expect(h.api.requestsTo("GET", "/slow")).toHaveLength(2);

    const err = (await h.client.post("/slow", { schema: anyJsonSchema, body: {} }).catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.code).toBe("UND_ERR_HEADERS_TIMEOUT");
    expect(h.api.requestsTo("POST", "/slow")).toHaveLength(1);
  });

  it("body timeout: a response that stalls mid-body is retried for GET", async () => {
    h = await startHarness({}, { timeouts: { bodyMs: 750 } });
    h.api.route("GET", "/stall", ({ res, call }) => {
      if (call === 1) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"ok":');
        return;
      }
      sendJson(res, 200, { ok: true });
    });
    const out = await h.client.get("/stall", { schema: ok });
    expect(out.ok).toBe(true);
    expect(h.api.requestsTo("GET", "/stall")).toHaveLength(2);
  });

  it("body timeout after the retries ran out is a ConnectionError UND_ERR_BODY_TIMEOUT", async () => {
    h = await startHarness({}, { timeouts: { bodyMs: 200 }, retry: { maxAttempts: 2 } });
    h.api.route("GET", "/stall", ({ res }) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write("{");
    });
    const err = (await h.client.get("/stall", { schema: anyJsonSchema }).catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.code).toBe("UND_ERR_BODY_TIMEOUT");
    expect(err.attempts).toBe(2);
  });

  it("connect timeout counts as 'not sent': retried even for POST", async () => {
    let connects = 0;
    const agent = new Agent({
      connect: (_opts, callback) => {
        connects++;
        callback(new undiciErrors.ConnectTimeoutError(), null);
      },
    });
    const client = new CdcClient({
      settings: { apiUrl: "http://127.0.0.1:9", accessToken: "ready-token-abc", createdFrom: "terraform" },
      dispatcher: agent,
      sleep: async () => {},
      retry: { maxAttempts: 3 },
    });
    try {
      const err = (await client.post("/sources", { schema: anyJsonSchema, body: {} }).catch((e: unknown) => e)) as ConnectionError;
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err.code).toBe("UND_ERR_CONNECT_TIMEOUT");
      expect(err.attempts).toBe(3);
      expect(connects).toBe(3);
    } finally {
      await agent.close();
    }
  });
});
