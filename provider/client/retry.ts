// Retry policy: which failures are worth another attempt, and how long to wait. Pure
// functions so the rules can be tested without a server or a clock.

export interface RetryPolicy {
  /** Total HTTP attempts for one call, the first included. */
  maxAttempts: number;
  /** Backoff before the first retry; doubles after each. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server asking for a longer pause gets this much: the run must keep moving. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  // Eight attempts ride out a bad minute (a 20% error rate fails a call 1 time in 400,000)
  // in at most ~35 s of back-off; the resource budget bounds the total.
  maxAttempts: 8,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 30_000,
});

export function retryPolicy(overrides?: Partial<RetryPolicy>): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY, ...overrides };
  return {
    maxAttempts: Math.max(1, Math.floor(p.maxAttempts)),
    baseDelayMs: Math.max(0, p.baseDelayMs),
    maxDelayMs: Math.max(0, p.maxDelayMs),
    maxRetryAfterMs: Math.max(0, p.maxRetryAfterMs),
  };
}

/**
 * Delay before retry number `retry` (1 = first retry). "Equal jitter": half the exponential
 * step is fixed, half random, so many clients hitting the same outage spread out but none
 * hammers the server with a near-zero wait.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(exp / 2 + (r * exp) / 2);
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date. Undefined when absent or unparseable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const v = raw.trim();
  if (v === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // Only a real HTTP date: Date.parse would read "-5" as a year.
  if (!/[a-z]{3}/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

export function capRetryAfter(ms: number, policy: RetryPolicy): number {
  return Math.min(Math.max(0, ms), policy.maxRetryAfterMs);
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** GET, PUT and DELETE are idempotent in this API; POST and PATCH are not. */
export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

// Failures where the request cannot have reached the server: safe to retry any method.
export const BEFORE_SEND_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "EAI_AGAIN", // temporary DNS failure
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EADDRNOTAVAIL",
]);

// Failures after the request may have been (partly) sent: the server may have acted on it,
// so only idempotent requests are replayed.
export const AMBIGUOUS_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "UND_ERR_SOCKET", // "other side closed": the server dropped the connection
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/**
 * The most specific error code in an error chain. Node reports a refused connection to a
 * multi-address host as an AggregateError, undici wraps socket errors in `cause`.
 */
export function errorCode(err: unknown, depth = 0): string | undefined {
  if (err === null || typeof err !== "object" || depth > 5) return undefined;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === "string" ? e.code : undefined;
  // undici's generic socket error hides the OS reason (ECONNRESET) in its cause.
  if (own === undefined || own === "UND_ERR_SOCKET") {
    const inner = errorCode(e.cause, depth + 1) ?? (Array.isArray(e.errors) ? errorCode(e.errors[0], depth + 1) : undefined);
    if (inner !== undefined) return inner;
  }
  return own;
}

export type Outcome =
  | { kind: "status"; status: number; retryAfterMs?: number }
  | { kind: "network"; code: string }
  /** A 2xx whose body was not believed: the server may have acted, so only a call safe to repeat goes again. */
  | { kind: "garbled" };

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * Whether to retry after `attempt` (1-based) ended with `outcome`. `idempotent` overrides
 * the method rule for calls known to be safe to repeat (token requests).
 */
export function decideRetry(
  outcome: Outcome,
  attempt: number,
  ctx: { method: string; idempotent?: boolean; policy: RetryPolicy; random?: () => number },
): RetryDecision {
  if (attempt >= ctx.policy.maxAttempts) return { retry: false };
  const idempotent = ctx.idempotent ?? isIdempotentMethod(ctx.method);
  const backoff = () => backoffDelay(attempt, ctx.policy, ctx.random);
  if (outcome.kind === "status") {
    const s = outcome.status;
    // 429 means the request was refused before any work: safe for every method.
    if (s === 429) {
      const delayMs = outcome.retryAfterMs !== undefined ? capRetryAfter(outcome.retryAfterMs, ctx.policy) : backoff();
      return { retry: true, delayMs };
    }
    // 501/505 will not change on a retry.
    if (s >= 500 && s !== 501 && s !== 505 && idempotent) return { retry: true, delayMs: backoff() };
    return { retry: false };
  }
  if (outcome.kind === "garbled") return idempotent ? { retry: true, delayMs: backoff() } : { retry: false };
  if (BEFORE_SEND_CODES.has(outcome.code)) return { retry: true, delayMs: backoff() };
  if (AMBIGUOUS_CODES.has(outcome.code) && idempotent) return { retry: true, delayMs: backoff() };
  return { retry: false };
}
