import { STATUS_CODES } from "node:http";
import { redact, redactValue } from "./redact.js";

/** One entry of a 422 body, without `input`: the API echoes the offending value there, which may be a secret. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type?: string;
  ctx?: unknown;
}

export interface ApiErrorInit {
  method: string;
  path: string;
  /** HTTP status; undefined when no response was received. */
  status?: number;
  /** The API's `detail` (already redacted by the constructor). */
  detail?: unknown;
  requestId?: string;
  /** HTTP attempts made, retries included. */
  attempts?: number;
  /** From the first attempt to the failure, waits included. */
  elapsedMs?: number;
  /**
   * The failures after which this same request was sent again although the server may have
   * acted on it (a 5xx, an answer lost with its connection): the error says so, so that an
   * "already exists" answering a replayed create is not read as a name collision.
   */
  replayedAfter?: string[];
  /** Extra sentence appended to the message (how to fix it). */
  hint?: string;
  cause?: unknown;
}

/** Base of every error the client throws for an API call. Fields are safe to log: secrets are masked. */
export class CdcApiError extends Error {
  readonly status: number | undefined;
  readonly detail: unknown;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  /** From the first attempt to the failure, back-off included; undefined when not measured. */
  readonly elapsedMs: number | undefined;
  /** What the request was replayed after, the server perhaps having acted (ApiErrorInit.replayedAfter). */
  readonly replayedAfter: readonly string[];

  constructor(init: ApiErrorInit, summary?: string) {
    super(redact(formatMessage(init, summary)), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    // A body of any size may come back: a text is kept masked and cut, never whole.
    this.detail = typeof init.detail === "string" ? capped(init.detail, MAX_KEPT_DETAIL_CHARS) : redactValue(init.detail);
    this.replayedAfter = init.replayedAfter ?? [];
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts ?? 1;
    this.elapsedMs = init.elapsedMs;
  }
}

/** 422: the message lists every `loc: msg`, e.g. `body.config.password: Field required`. */
export class ValidationError extends CdcApiError {
  readonly issues: ValidationIssue[];
  constructor(init: ApiErrorInit, issues: ValidationIssue[]) {
    // A 422 in another shape than the framework's list (the SMT routes' `{code, message, issues}`) keeps its detail.
    super({ ...init, detail: issues.length > 0 || init.detail === undefined ? issues : init.detail }, issues.length > 0 ? issues.map(formatIssue).join("; ") : undefined);
    this.issues = redactValue(issues);
  }
}

/** 401 or 403. */
export class AuthError extends CdcApiError {}

export class NotFoundError extends CdcApiError {}

export class ConflictError extends CdcApiError {}

/** 429 after the retries ran out. */
export class RateLimitError extends CdcApiError {
  /** The server's `Retry-After`, in seconds, uncapped; undefined when absent or unparseable. */
  readonly retryAfter: number | undefined;
  constructor(init: ApiErrorInit, retryAfter: number | undefined) {
    super(init);
    this.retryAfter = retryAfter;
  }
}

/** 5xx after the retries ran out (or at once, for a POST). */
export class ServerError extends CdcApiError {}

/** No HTTP response: refused, reset, dropped, timed out. `status` is undefined. */
export class ConnectionError extends CdcApiError {
  /** The cause's code: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT, ... */
  readonly code: string;
  constructor(init: ApiErrorInit & { code: string; reason: string }) {
    super(init, `${init.code}: ${init.reason}`);
    this.code = init.code;
  }
}

/**
 * A 2xx answer that is not believed: not JSON (a proxy's HTML page), cut off, or not of the
 * expected shape. Never a default, an empty list or a string in its place: the caller's step fails.
 */
export class ResponseShapeError extends CdcApiError {
  readonly issues: string[];
  constructor(init: ApiErrorInit, issues: string[]) {
    super(init, `unexpected response body: ${issues.join("; ")}`);
    this.issues = issues.map(redact);
  }
}

/** A 2xx body over the size bound (cdc:maxResponseMiB), refused without being read whole. */
export class ResponseTooLargeError extends ResponseShapeError {
  constructor(
    init: ApiErrorInit,
    issues: string[],
    readonly limitBytes: number,
  ) {
    super({ ...init, hint: [`Raise the bound with \`pulumi config set cdc:maxResponseMiB <n>\` (or CDC_MAX_RESPONSE_MIB) if the API's answers are really this large.`, init.hint].filter(Boolean).join(" ") }, issues);
  }
}

export function isCdcApiError(e: unknown): e is CdcApiError {
  return e instanceof CdcApiError;
}

/** True for a 404, which resource reads and deletes treat as "gone". */
export function isNotFound(e: unknown): boolean {
  return e instanceof NotFoundError || (e instanceof CdcApiError && e.status === 404 && !(e instanceof ResponseShapeError));
}

export function formatIssue(issue: ValidationIssue): string {
  const loc = issue.loc.length > 0 ? issue.loc.map(String).join(".") : "(request)";
  return `${loc}: ${issue.msg}`;
}

/** How much of the API's words an error message quotes: enough to explain, never a whole body. */
export const MAX_DETAIL_CHARS = 500;
/** How much of an error body's text an error keeps in `detail`, for code that reads it. */
const MAX_KEPT_DETAIL_CHARS = 4000;
// Masking sees this much past the cut, so a secret that starts before the cut is masked whole
// (registered secrets are far shorter); a key's value running past it is masked to the end.
const MASK_MARGIN = 8192;

/**
 * `text` masked, then cut to `max` characters. Masking comes first: a cut made before it could
 * leave the head of a secret, too short to be recognised, readable in the message.
 */
export function capped(text: string, max: number = MAX_DETAIL_CHARS): string {
  const masked = redact(text.length > max + MASK_MARGIN ? text.slice(0, max + MASK_MARGIN) : text).trim();
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}

function formatMessage(init: ApiErrorInit, summary: string | undefined): string {
  let what: string;
  const said = summary === undefined ? undefined : capped(summary);
  if (init.status === undefined) {
    what = `connection error${said ? ` ${said}` : ""}`;
  } else {
    const text = STATUS_CODES[init.status];
    const head = text ? `${init.status} ${text}` : String(init.status);
    const detail = said ?? detailText(init.detail);
    what = detail ? `${head}: ${detail}` : head;
  }
  // A refusal (4xx) of a request the server may have acted on already says so: the refusal may
  // be of the earlier attempt's own work. A failure that ran out of attempts says "after N".
  const replays = init.status !== undefined && init.status < 500 ? replayText(init.replayedAfter ?? []) : undefined;
  const tail = [
    init.requestId ? `request id ${init.requestId}` : undefined,
    (init.attempts ?? 1) > 1 ? `after ${init.attempts} attempts${init.elapsedMs !== undefined ? ` over ${(init.elapsedMs / 1000).toFixed(1)} s` : ""}` : undefined,
    replays ? `replayed after ${replays}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  const hint = init.hint ? ` ${init.hint}` : "";
  return `${init.method} ${init.path} failed: ${what}${tail ? ` (${tail})` : ""}${hint}`;
}

/** `a 503 (2 times), then a lost answer (ECONNRESET)`: each failure once, in order, with its count. */
function replayText(after: readonly string[]): string | undefined {
  if (after.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const a of after) counts.set(a, (counts.get(a) ?? 0) + 1);
  return [...counts].map(([a, n]) => (n > 1 ? `${a} (${n} times)` : a)).join(", then ");
}

function detailText(detail: unknown): string | undefined {
  if (detail === undefined || detail === null || detail === "") return undefined;
  let text: string;
  if (typeof detail === "string") text = detail;
  else if (typeof detail === "object" && typeof (detail as { message?: unknown }).message === "string") {
    text = (detail as { message: string }).message;
  } else {
    try {
      text = JSON.stringify(redactValue(detail));
    } catch {
      text = String(detail);
    }
  }
  return capped(text);
}

export interface ResponseInfo {
  status: number;
  /** Raw response body text. */
  body: string;
  /** `Retry-After` in seconds, when the server sent one. */
  retryAfterSeconds?: number;
}

/** Build the typed error for a non-2xx response. */
export function errorFromResponse(ctx: Omit<ApiErrorInit, "status" | "detail">, res: ResponseInfo): CdcApiError {
  const parsed = parseErrorBody(res.body);
  const init: ApiErrorInit = { ...ctx, status: res.status, detail: parsed.detail };
  const s = res.status;
  // A name already taken is 409 on the seed's routes, but the platform also answers it as 422
  // (transforms; sources and destinations at times) or 400 (tags, "A tag with identical properties
  // already exists."), and its own client goes by the words: so do we, so a create whose answer
  // was lost resolves a duplicate whichever status comes back.
  if ((s === 400 || s === 422) && /already exists/i.test(issueText(parsed))) {
    return new ConflictError(replayedConflict({ ...init, detail: issueText(parsed) }));
  }
  if (s === 409) return new ConflictError(replayedConflict(init));
  if (s === 422 || (parsed.issues && s >= 400 && s < 500)) return new ValidationError(init, parsed.issues ?? []);
  if (s === 401 || s === 403) return new AuthError(init);
  if (s === 404) return new NotFoundError(init);
  if (s === 429) return new RateLimitError(init, res.retryAfterSeconds);
  if (s >= 500) return new ServerError(init);
  return new CdcApiError(init);
}

/**
 * A conflict answering a replay of the same request: the earlier attempt, whose answer was lost,
 * may have done what the replay is now refused for. Said first, before any hint of the caller's.
 */
function replayedConflict(init: ApiErrorInit): ApiErrorInit {
  const after = replayText(init.replayedAfter ?? []);
  if (after === undefined) return init;
  const note =
    `This request was sent again after ${after}, when the server may already have done it: ` +
    `an earlier attempt of this same request may have made the object, so this conflict need not be a name collision. Look for the object before renaming anything.`;
  return { ...init, hint: init.hint ? `${note} ${init.hint}` : note };
}

function issueText(parsed: { detail: unknown; issues?: ValidationIssue[] }): string {
  if (parsed.issues && parsed.issues.length > 0) return parsed.issues.map((i) => i.msg).join("; ");
  return typeof parsed.detail === "string" ? parsed.detail : "";
}

function parseErrorBody(body: string): { detail: unknown; issues?: ValidationIssue[] } {
  const trimmed = body.trim();
  if (trimmed === "") return { detail: undefined };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { detail: trimmed };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return { detail: json };
  const detail = (json as { detail?: unknown }).detail ?? json;
  if (Array.isArray(detail)) {
    const issues = detail.map(toIssue).filter((i): i is ValidationIssue => i !== undefined);
    if (issues.length > 0) return { detail: issues, issues };
  }
  return { detail };
}

function toIssue(raw: unknown): ValidationIssue | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.msg !== "string") return undefined;
  const loc = Array.isArray(r.loc) ? r.loc.filter((x): x is string | number => typeof x === "string" || typeof x === "number") : [];
  const issue: ValidationIssue = { loc, msg: r.msg };
  if (typeof r.type === "string") issue.type = r.type;
  if (r.ctx !== undefined) issue.ctx = r.ctx;
  return issue;
}
