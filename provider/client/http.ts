import { randomUUID } from "node:crypto";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { currentBudget, seconds } from "./budget.js";
import { emitDebug, type DebugLogger } from "./debug.js";
import { ConnectionError, errorFromResponse, ResponseShapeError, ResponseTooLargeError, type ApiErrorInit } from "./errors.js";
import { Semaphore, type Background } from "./limiter.js";
import { describeBodyKeys, redact, registerSecretsIn } from "./redact.js";
import { AMBIGUOUS_CODES, decideRetry, errorCode, parseRetryAfter, type Outcome, type RetryPolicy } from "./retry.js";
import { recordRequest } from "./stats.js";
import { sendOnce, type RawResponse, type Timeouts } from "./transport.js";

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;
export type Query = Record<string, QueryValue>;

const NOT_AGAIN = { retry: false } as const;

/** Supplies bearer tokens; implemented by the token manager. */
export interface AuthProvider {
  getToken(): Promise<string>;
  /** The server rejected `token`: forget it (unless a newer one already replaced it). */
  invalidate(token: string): void;
  /** False for a ready token from settings: nothing better can be fetched after a 401. */
  readonly renewable: boolean;
}

export interface CoreRequest<S extends z.ZodType = z.ZodType> {
  method: string;
  /** Concrete path, e.g. `/destinations/abc`. */
  path: string;
  /** Path template for counters and logs, e.g. `/destinations/{id}`. */
  template?: string;
  query?: Query;
  body?: unknown;
  /** Every answer is checked against it before it is believed (`anyJsonSchema` where the content is not read). */
  schema: S;
  auth?: AuthProvider;
  /** Override the method rule: true when repeating the call is known to be harmless. */
  idempotent?: boolean;
  /** No retry of any failure (the 401 replay aside): see RequestOptions.once. */
  once?: boolean;
  headers?: Record<string, string>;
  /** Fetched ahead of need: requests someone waits for take the free slots first. */
  background?: Background;
}

export interface HttpCoreOptions {
  baseUrl: string;
  dispatcher: Dispatcher;
  limiter: Semaphore;
  policy: RetryPolicy;
  timeouts: Timeouts;
  /** A body longer than this is refused without being read whole (cdc:maxResponseMiB). */
  maxResponseBytes: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  debug?: DebugLogger;
  userAgent: string;
  /** Sent on every request, the token requests included: the admin scope (`X-Admin-Tenant-Id`, ...). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The request core: one call = up to `maxAttempts` HTTP attempts (plus one replay after a
 * 401), each holding a limiter slot only while on the wire, so retries waiting out a
 * backoff never starve other requests. Waits draw on the resource operation's budget
 * (budget.ts) when there is one; a 429 pauses every request of this client, not only the one.
 */
export class HttpCore {
  /** Until when the API asked the whole client to hold off (a 429's Retry-After). */
  #pausedUntil = 0;

  constructor(readonly opts: HttpCoreOptions) {}

  /** The client-wide pause a 429 started, if any, still to wait out. */
  get pausedForMs(): number {
    return Math.max(0, this.#pausedUntil - this.opts.now());
  }

  async execute<S extends z.ZodType>(req: CoreRequest<S>): Promise<z.output<S>> {
    // The types demand it; this stops a cast or a JavaScript caller from believing an unchecked answer.
    if (!req.schema || typeof (req.schema as { safeParse?: unknown }).safeParse !== "function") {
      throw new TypeError(`${req.method} ${req.template ?? req.path}: no response schema; every call names the schema its answer is checked against (anyJsonSchema where the answer is not read)`);
    }
    const method = req.method.toUpperCase();
    const template = req.template ?? req.path;
    const url = this.opts.baseUrl + req.path + queryString(req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    registerSecretsIn(req.body);
    const logTarget = `${method} ${req.path}${queryString(req.query)}`;
    const bodyNote = req.body === undefined ? "" : ` body ${describeBodyKeys(req.body)}`;
    const log = (line: () => string) => emitDebug(line, this.opts.debug);

    let attempt = 0; // counts against maxAttempts
    let sent = 0; // every HTTP request, the 401 replay included
    let replayedAfter401 = false;
    // Failures after which the request went again though the server may have acted on it.
    const replayedAfter: string[] = [];
    const firstSentAt = this.opts.now();
    const budget = currentBudget();
    // Waits for the next attempt, or says why there is none: the budget would run out first.
    // `sleep: false` when the wait is the client-wide pause, which the next attempt waits out.
    const wait = async (delayMs: number, reason: string, sleep = true): Promise<string | undefined> => {
      if (budget && !budget.allows(delayMs)) {
        const soFar = budget.summary();
        return `the retry budget of ${budget.label} (${seconds(budget.timeoutMs)}, cdc:resourceTimeoutSec) is spent${soFar ? ` after ${soFar}` : ""}`;
      }
      budget?.record(`${method} ${template}`, reason);
      log(() => `retrying ${logTarget} after ${reason} in ${delayMs} ms`);
      if (sleep) await this.opts.sleep(delayMs);
      return undefined;
    };
    for (;;) {
      attempt++;
      const paused = this.pausedForMs;
      if (paused > 0) await this.opts.sleep(paused);
      const requestId: string = randomUUID();
      // The token is fetched outside the limiter slot: token requests need a slot of their own.
      const token = req.auth ? await req.auth.getToken() : undefined;
      const headers: Record<string, string> = {
        accept: "application/json",
        "user-agent": this.opts.userAgent,
        ...req.headers,
        ...this.opts.headers,
        "x-request-id": requestId,
      };
      if (body !== undefined) headers["content-type"] = "application/json";
      if (token) headers.authorization = `Bearer ${token}`;

      sent++;
      recordRequest(method, template, sent > 1);
      log(() => `→ ${logTarget} attempt ${attempt}/${this.opts.policy.maxAttempts} request id ${requestId}${bodyNote}`);

      let res: RawResponse | undefined;
      let failure: unknown;
      const release = await this.opts.limiter.acquire(req.background);
      const started = this.opts.now();
      try {
        res = await sendOnce(this.opts.dispatcher, {
          method,
          url,
          headers,
          body,
          headersTimeoutMs: this.opts.timeouts.headersMs,
          bodyTimeoutMs: this.opts.timeouts.bodyMs,
          maxBodyBytes: this.opts.maxResponseBytes,
        });
      } catch (err) {
        failure = err;
      } finally {
        // An answer opens the window, a 429 halves it; a 5xx or a failure says nothing either way.
        release(res === undefined || res.status >= 500 ? undefined : res.status === 429 ? "throttled" : "ok");
      }
      const elapsed = this.opts.now() - started;
      const ctx: { method: string; path: string; requestId: string; attempts: number; elapsedMs: number; replayedAfter?: string[]; hint?: string } = {
        method,
        path: req.path,
        requestId,
        attempts: sent,
        elapsedMs: this.opts.now() - firstSentAt,
        ...(replayedAfter.length > 0 ? { replayedAfter: [...replayedAfter] } : {}),
      };

      let outcome: Outcome;
      if (res) {
        const response = res;
        const echoed = headerValue(res.headers["x-request-id"]);
        if (echoed) ctx.requestId = echoed;
        log(() => `← ${response.status} ${logTarget} in ${elapsed} ms request id ${ctx.requestId}`);
        // A 404 is "gone" only in the API's words: a proxy's HTML page with a 404 is no answer.
        const checked = res.status >= 200 && res.status < 300 ? this.check(res, req.schema) : res.status === 404 ? notTheApis(res) : undefined;
        if (checked?.ok) return checked.data;
        if (checked) {
          // A garbled answer (a proxy's page, a body cut off, another shape) is a transient
          // fault of the call, never its result: repeated where that is harmless, like a 5xx.
          const garbled = (hint?: string) => shapeError({ ...ctx, status: response.status, ...(hint ? { hint } : {}) }, checked);
          log(() => `✕ ${logTarget}: ${checked.issues.join("; ")}`);
          const decision = req.once ? NOT_AGAIN : decideRetry({ kind: "garbled" }, attempt, { method, idempotent: req.idempotent, policy: this.opts.policy, random: this.opts.random });
          if (!decision.retry) throw garbled(this.exhaustedHint(attempt));
          const stop = await wait(decision.delayMs, `a ${response.status} ${checked.reason}`);
          if (stop) throw garbled(`Not retried further: ${stop}.`);
          replayedAfter.push(`a ${response.status} ${checked.reason}`);
          continue;
        }
        if (res.status === 401 && token && req.auth?.renewable && !replayedAfter401) {
          // The token was revoked or expired early: a fresh one, and one replay. Safe even for
          // POST, the server rejected the request before doing anything.
          replayedAfter401 = true;
          req.auth.invalidate(token);
          attempt--;
          log(() => `401 on ${logTarget}: renewing the token and replaying once`);
          continue;
        }
        const retryAfterMs = parseRetryAfter(res.headers["retry-after"], this.opts.now());
        outcome = { kind: "status", status: res.status, retryAfterMs };
        const rateLimited = res.status === 429;
        const decision = req.once ? NOT_AGAIN : decideRetry(outcome, attempt, { method, idempotent: req.idempotent, policy: this.opts.policy, random: this.opts.random });
        const fail = (hint?: string) =>
          errorFromResponse(hint ? { ...ctx, hint } : ctx, {
            status: response.status,
            body: response.body,
            retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.round(retryAfterMs / 1000),
          });
        if (!decision.retry) throw fail(this.exhaustedHint(attempt));
        // The whole client holds off, so the other requests in flight do not earn 429s of their own.
        if (rateLimited) this.#pausedUntil = Math.max(this.#pausedUntil, this.opts.now() + decision.delayMs);
        const stop = await wait(decision.delayMs, String(response.status), !rateLimited);
        if (stop) throw fail(`Not retried further: ${stop}.`);
        // A 429 was refused before any work; a 5xx may have done it.
        if (!rateLimited) replayedAfter.push(`a ${response.status}`);
      } else {
        const code = errorCode(failure) ?? "UNKNOWN";
        const reason = failure instanceof Error ? failure.message : String(failure);
        log(() => `✕ ${logTarget} ${code}: ${reason} request id ${requestId}`);
        outcome = { kind: "network", code };
        const decision = req.once ? NOT_AGAIN : decideRetry(outcome, attempt, { method, idempotent: req.idempotent, policy: this.opts.policy, random: this.opts.random });
        const fail = (hint: string | undefined) =>
          new ConnectionError({ ...ctx, code, reason: redact(reason), hint, cause: sanitizedCause(failure, code) });
        if (!decision.retry) throw fail([connectionHint(code, this.opts.baseUrl), this.exhaustedHint(attempt)].filter(Boolean).join(" ") || undefined);
        const stop = await wait(decision.delayMs, code);
        if (stop) throw fail(`Not retried further: ${stop}.`);
        // A connection that failed before sending did nothing; one that broke after may have.
        if (AMBIGUOUS_CODES.has(code)) replayedAfter.push(`a lost answer (${code})`);
      }
    }
  }

  /** Said when the attempts ran out, so the reader knows which knob gives more. */
  private exhaustedHint(attempt: number): string | undefined {
    if (attempt < this.opts.policy.maxAttempts) return undefined;
    return `Retried up to ${this.opts.policy.maxAttempts} attempts (cdc:retryAttempts).`;
  }

  /** The answer, once believed: JSON of the schema, within the size bound. */
  private check<S extends z.ZodType>(res: RawResponse, schema: S): { ok: true; data: z.output<S> } | Garbled {
    if (res.oversized) {
      const body = res.oversized.announcedBytes === undefined ? "body" : `body of ${res.oversized.announcedBytes} bytes`;
      return {
        ok: false,
        reason: "over the size bound",
        issues: [`${body} is over the bound of ${this.opts.maxResponseBytes} bytes (cdc:maxResponseMiB), not read further`],
        limitBytes: this.opts.maxResponseBytes,
      };
    }
    // Never handed on as a string: an HTML page served with a 200 is not the API's answer.
    const json = jsonOf(res, "body");
    if (!json.ok) return json;
    // A created credential's secret, say, must be masked if anything quotes it later.
    registerSecretsIn(json.data);
    const parsed = schema.safeParse(json.data);
    if (parsed.success) return { ok: true, data: parsed.data as z.output<S> };
    const issues = parsed.error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "(root)"}: ${i.message}`);
    return { ok: false, reason: "of another shape", issues: issues.slice(0, MAX_ISSUES) };
  }
}

const MAX_ISSUES = 10;

/** Why a 2xx answer was not believed. */
interface Garbled {
  ok: false;
  /** A few words for the retry log and the replay note: "not JSON". */
  reason: string;
  issues: string[];
  /** Set when the body was over the size bound. */
  limitBytes?: number;
}

/** The body as JSON (undefined when empty), or why it is not. */
function jsonOf(res: RawResponse, what: string): { ok: true; data: unknown } | Garbled {
  const text = res.body.trim();
  if (text === "") return { ok: true, data: undefined };
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "not JSON", issues: [`${what} is not JSON (${describeText(res)})`] };
  }
}

/** A 404 whose body is not JSON (an HTML page): not the API saying the object is gone. */
function notTheApis(res: RawResponse): Garbled | undefined {
  if (res.oversized) return undefined;
  const json = jsonOf(res, "a 404 whose body is not the API's: its body");
  return json.ok ? undefined : json;
}

function shapeError(init: ApiErrorInit, garbled: Garbled): ResponseShapeError {
  return garbled.limitBytes === undefined ? new ResponseShapeError(init, garbled.issues) : new ResponseTooLargeError(init, garbled.issues, garbled.limitBytes);
}

/** What a non-JSON body was, for the message: its type and how it starts, never more. */
function describeText(res: RawResponse): string {
  const type = headerValue(res.headers["content-type"]);
  const head = res.body.trim().slice(0, 40).replace(/\s+/g, " ");
  return `${type ? `${type}, ` : ""}${res.body.length} characters starting "${head}"`;
}

export function queryString(query: Query | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    // Repeated keys for arrays, the way the API's framework reads list parameters (tag_ids).
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

function headerValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== "" ? s.trim() : undefined;
}

function connectionHint(code: string, baseUrl: string): string | undefined {
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "UND_ERR_CONNECT_TIMEOUT") {
    return `Is the API reachable at ${baseUrl}? Set the address with \`pulumi config set cdc:apiUrl <url>\` or CDC_API_URL.`;
  }
  return undefined;
}

// The original error may carry undici internals; keep only what explains the failure.
function sanitizedCause(err: unknown, code: string): Error {
  const e = new Error(redact(err instanceof Error ? err.message : String(err)));
  (e as Error & { code?: string }).code = code;
  return e;
}
