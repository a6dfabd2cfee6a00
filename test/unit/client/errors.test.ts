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
import { errorFromResponse } from "../../../provider/client/errors.js";

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
