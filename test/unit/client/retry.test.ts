import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  decideRetry,
  parseRetryAfter,
  type RetryPolicy,
} from "../../../provider/client/index.js";
import { capRetryAfter, errorCode, retryPolicy } from "../../../provider/client/retry.js";

const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };

describe("backoffDelay", () => {
  it("doubles per retry with half of each step jittered", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 0))).toEqual([250, 500, 1000, 2000]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 0.999999))).toEqual([500, 1000, 2000, 4000]);
  });

  it("is capped at maxDelayMs", () => {
    expect(backoffDelay(20, policy, () => 1)).toBe(policy.maxDelayMs);
    expect(backoffDelay(20, policy, () => 0)).toBe(policy.maxDelayMs / 2);
  });

  it("stays within [step/2, step] for any random value", () => {
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3, policy);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe("Retry-After", () => {
  it("parses seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(["1.5"])).toBe(1500);
    const now = Date.parse("2024-05-01T12:00:00Z");
    expect(parseRetryAfter("Wed, 01 May 2024 12:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Wed, 01 May 2024 11:00:00 GMT", now)).toBe(0);
  });

  it("ignores missing or garbage values", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("")).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter("-5")).toBeUndefined();
  });

  it("is capped at 30 s by default", () => {
    expect(capRetryAfter(120_000, policy)).toBe(30_000);
    expect(capRetryAfter(2_000, policy)).toBe(2_000);
    expect(capRetryAfter(-1, policy)).toBe(0);
  });
});

describe("decideRetry", () => {
  const ctx = (method: string, extra: Partial<Parameters<typeof decideRetry>[2]> = {}) => ({ method, policy, random: () => 0, ...extra });

  it("429: every method, honouring the capped Retry-After, else backoff", () => {
    expect(decideRetry({ kind: "status", status: 429, retryAfterMs: 4000 }, 1, ctx("POST"))).toEqual({ retry: true, delayMs: 4000 });
    expect(decideRetry({ kind: "status", status: 429, retryAfterMs: 99_000 }, 1, ctx("GET"))).toEqual({ retry: true, delayMs: 30_000 });
    expect(decideRetry({ kind: "status", status: 429 }, 2, ctx("PATCH"))).toEqual({ retry: true, delayMs: 500 });
  });

  it("5xx: idempotent methods only, and not 501", () => {
    for (const m of ["GET", "PUT", "DELETE"]) expect(decideRetry({ kind: "status", status: 503 }, 1, ctx(m)).retry).toBe(true);
    for (const m of ["POST", "PATCH"]) expect(decideRetry({ kind: "status", status: 500 }, 1, ctx(m)).retry).toBe(false);
    expect(decideRetry({ kind: "status", status: 501 }, 1, ctx("GET")).retry).toBe(false);
    expect(decideRetry({ kind: "status", status: 500 }, 1, ctx("POST", { idempotent: true })).retry).toBe(true);
  });

  it("4xx other than 429 are final", () => {
    for (const s of [400, 401, 403, 404, 409, 422]) expect(decideRetry({ kind: "status", status: s }, 1, ctx("GET")).retry).toBe(false);
  });

  it("connection errors: before-send codes for every method, ambiguous ones for idempotent methods", () => {
    for (const code of ["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT"]) {
      expect(decideRetry({ kind: "network", code }, 1, ctx("POST")).retry).toBe(true);
    }
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "EPIPE"]) {
      expect(decideRetry({ kind: "network", code }, 1, ctx("GET")).retry).toBe(true);
      expect(decideRetry({ kind: "network", code }, 1, ctx("POST")).retry).toBe(false);
    }
    expect(decideRetry({ kind: "network", code: "ENOTFOUND" }, 1, ctx("GET")).retry).toBe(false);
    expect(decideRetry({ kind: "network", code: "UND_ERR_ABORTED" }, 1, ctx("GET")).retry).toBe(false);
  });

  it("stops at maxAttempts", () => {
    const p = retryPolicy({ maxAttempts: 3 });
    expect(decideRetry({ kind: "status", status: 503 }, 2, { method: "GET", policy: p }).retry).toBe(true);
    expect(decideRetry({ kind: "status", status: 503 }, 3, { method: "GET", policy: p }).retry).toBe(false);
    expect(retryPolicy({ maxAttempts: 0 }).maxAttempts).toBe(1);
  });
});

describe("errorCode", () => {
  it("finds codes in causes and aggregate errors", () => {
    expect(errorCode(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe("ECONNRESET");
    const socket = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    expect(errorCode(socket)).toBe("UND_ERR_SOCKET");
    expect(errorCode(Object.assign(new Error("x"), { code: "UND_ERR_SOCKET", cause: Object.assign(new Error("r"), { code: "ECONNRESET" }) }))).toBe(
      "ECONNRESET",
    );
    const agg = new AggregateError([Object.assign(new Error("a"), { code: "ECONNREFUSED" })], "all failed");
    expect(errorCode(agg)).toBe("ECONNREFUSED");
    expect(errorCode(new TypeError("fetch failed", { cause: Object.assign(new Error(), { code: "EAI_AGAIN" }) }))).toBe("EAI_AGAIN");
    expect(errorCode("nope")).toBeUndefined();
  });
});
