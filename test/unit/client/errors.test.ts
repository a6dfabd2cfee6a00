import { describe, expect, it } from "vitest";
import {
  AuthError,
  CdcApiError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
  isNotFound,
} from "../../../provider/client/index.js";
import { MAX_DETAIL_CHARS, capped, errorFromResponse } from "../../../provider/client/errors.js";
import { registerSecret } from "../../../provider/client/redact.js";

const ctx = { method: "POST", path: "/destinations", requestId: "req-1" };

describe("errorFromResponse", () => {
  it("spells out every loc/msg of a 422", () => {
    const body = JSON.stringify({
      detail: [
        { loc: ["body", "config", "password"], msg: "Field required", type: "missing", input: { user: "u" } },
        { loc: ["body", "name"], msg: "String should have at least 1 character", type: "string_too_short", input: "" },
        { loc: ["query", "page_size"], msg: "Input should be less than or equal to 100", type: "less_than_equal", input: "500", ctx: { le: 100 } },
      ],
    });
    const err = errorFromResponse(ctx, { status: 422, body });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(
      "POST /destinations failed: 422 Unprocessable Entity: body.config.password: Field required; " +
        "body.name: String should have at least 1 character; query.page_size: Input should be less than or equal to 100 (request id req-1)",
    );
    const v = err as ValidationError;
    expect(v.issues).toHaveLength(3);
    expect(v.issues[2]).toEqual({ loc: ["query", "page_size"], msg: "Input should be less than or equal to 100", type: "less_than_equal", ctx: { le: 100 } });
    // `input` (which can be a secret) is not kept
    expect(JSON.stringify(v.detail)).not.toContain('"input"');
  });

  it("formats the conflict message", () => {
    const err = errorFromResponse(
      { method: "PUT", path: "/destinations/abc", requestId: "1234" },
      { status: 409, body: JSON.stringify({ detail: 'a destination named "x" already exists' }) },
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe('PUT /destinations/abc failed: 409 Conflict: a destination named "x" already exists (request id 1234)');
    expect(err).toMatchObject({ status: 409, method: "PUT", path: "/destinations/abc", requestId: "1234", detail: 'a destination named "x" already exists' });
  });

  it("maps statuses to classes", () => {
    const make = (status: number) => errorFromResponse(ctx, { status, body: JSON.stringify({ detail: "d" }) });
    expect(make(401)).toBeInstanceOf(AuthError);
    expect(make(403)).toBeInstanceOf(AuthError);
    expect(make(404)).toBeInstanceOf(NotFoundError);
    expect(make(409)).toBeInstanceOf(ConflictError);
    expect(make(429)).toBeInstanceOf(RateLimitError);
    expect(make(500)).toBeInstanceOf(ServerError);
    expect(make(503)).toBeInstanceOf(ServerError);
    const other = make(400);
    expect(other.constructor).toBe(CdcApiError);
    expect(other.name).toBe("CdcApiError");
    expect(make(404).name).toBe("NotFoundError");
  });

  it("carries retryAfter on 429", () => {
    const err = errorFromResponse(ctx, { status: 429, body: "", retryAfterSeconds: 12 }) as RateLimitError;
    expect(err.retryAfter).toBe(12);
    expect(err.message).toBe("POST /destinations failed: 429 Too Many Requests (request id req-1)");
  });

  it("handles non-JSON and odd bodies", () => {
    expect(errorFromResponse(ctx, { status: 502, body: "<html>Bad Gateway</html>" }).message).toBe(
      "POST /destinations failed: 502 Bad Gateway: <html>Bad Gateway</html> (request id req-1)",
    );
    expect(errorFromResponse(ctx, { status: 500, body: JSON.stringify({ message: "oops" }) }).message).toContain("500 Internal Server Error: oops");
    expect(errorFromResponse(ctx, { status: 500, body: "x".repeat(2000) }).message.length).toBeLessThan(700);
  });

  it("redacts secrets in details", () => {
    const err = errorFromResponse(ctx, { status: 400, body: JSON.stringify({ detail: { message: "bad", password: "hunter2" } }) });
    expect(err.message).toContain("400 Bad Request: bad");
    expect(JSON.stringify(err.detail)).not.toContain("hunter2");
  });
});

describe("a request sent again after the server may have acted", () => {
  const replayed = { ...ctx, attempts: 3, replayedAfter: ["a 503", "a 503", "a lost answer (ECONNRESET)"] };

  it("a conflict says the request was replayed, and that it need not be a name collision", () => {
    for (const [status, detail] of [
      [409, "A tag named 'x' already exists"],
      [422, JSON.stringify({ detail: [{ loc: ["body", "name"], msg: "a transform named 'x' already exists" }] })],
    ] as const) {
      const err = errorFromResponse({ ...replayed, hint: "Transform names are unique." }, { status, body: status === 409 ? JSON.stringify({ detail }) : detail });
      expect(err).toBeInstanceOf(ConflictError);
      expect(err.message).toContain("(request id req-1, after 3 attempts, replayed after a 503 (2 times), then a lost answer (ECONNRESET))");
      expect(err.message).toMatch(/This request was sent again after a 503 \(2 times\), then a lost answer \(ECONNRESET\), when the server may already have done it: .* need not be a name collision\. Look for the object before renaming anything\. Transform names are unique\.$/);
    }
  });

  it("another refusal says it was replayed; a failure that ran out of attempts does not repeat it; a first attempt says nothing", () => {
    expect(errorFromResponse(replayed, { status: 404, body: JSON.stringify({ detail: "gone" }) }).message).toBe(
      "POST /destinations failed: 404 Not Found: gone (request id req-1, after 3 attempts, replayed after a 503 (2 times), then a lost answer (ECONNRESET))",
    );
    expect(errorFromResponse(replayed, { status: 503, body: "" }).message).toBe("POST /destinations failed: 503 Service Unavailable (request id req-1, after 3 attempts)");
    expect(errorFromResponse(ctx, { status: 409, body: JSON.stringify({ detail: "taken" }) }).message).toBe("POST /destinations failed: 409 Conflict: taken (request id req-1)");
  });
});

describe("capped", () => {
  it("masks before it cuts, so no head of a secret is left readable", () => {
    registerSecret("registered-secret-0123456789");
    const text = `${"a".repeat(MAX_DETAIL_CHARS - 10)} registered-secret-0123456789 ${"b".repeat(100)}`;
    expect(capped(text)).toBe(`${"a".repeat(MAX_DETAIL_CHARS - 10)} [REDACTED…`);
    const keyed = `${"a".repeat(MAX_DETAIL_CHARS - 30)} "client_secret": "unregistered-value-abcdef" ${"b".repeat(100)}`;
    expect(capped(keyed)).not.toContain("unregistered");
    expect(capped("short")).toBe("short");
  });
});

describe("ConnectionError", () => {
  it("has no status and reads like the others", () => {
    const err = new ConnectionError({ method: "GET", path: "/sources", requestId: "r9", attempts: 5, code: "ECONNRESET", reason: "socket hang up" });
    expect(err.status).toBeUndefined();
    expect(err.code).toBe("ECONNRESET");
    expect(err.message).toBe("GET /sources failed: connection error ECONNRESET: socket hang up (request id r9, after 5 attempts)");
  });
});

describe("isNotFound", () => {
  it("is true only for 404s", () => {
    expect(isNotFound(new NotFoundError({ method: "GET", path: "/x", status: 404 }))).toBe(true);
    expect(isNotFound(new CdcApiError({ method: "GET", path: "/x", status: 404 }))).toBe(true);
    expect(isNotFound(new ServerError({ method: "GET", path: "/x", status: 500 }))).toBe(false);
    expect(isNotFound(new Error("404"))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });
});
