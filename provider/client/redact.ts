// Masking of secrets in anything that can leave the process: error messages (the engine
// prints them and may persist them), debug log lines and error details.
//
// Two layers, because neither is enough alone: structural masking by key name (works for
// any value under a known-sensitive key, however short) and literal masking of values the
// process has seen as secrets (catches a secret echoed by the server under an innocent key,
// e.g. inside a 422 `input` or a free-text `detail`).

export const REDACTED = "[REDACTED]";

// Shorter strings would mask ordinary words all over messages; real secrets and tokens are
// far longer, and key-based masking still covers short ones in structured data.
const MIN_KNOWN_SECRET_LENGTH = 4;
// Tokens rotate during long runs; cap the set so a run of many hours cannot grow it unbounded.
const MAX_KNOWN_SECRETS = 1000;

const knownSecrets = new Set<string>();
let knownSecretsSorted: string[] = [];

/** Remember a value that must never appear in a message or log line. */
export function registerSecret(value: string | null | undefined): void {
  if (typeof value !== "string") return;
  const v = value.trim();
  // The API's mask (`********`) stands in for a secret; it is not one, and must stay readable.
  if (v.length < MIN_KNOWN_SECRET_LENGTH || knownSecrets.has(v) || /^\*+$/.test(v)) return;
  if (knownSecrets.size >= MAX_KNOWN_SECRETS) {
    const oldest = knownSecrets.values().next().value;
    if (oldest !== undefined) knownSecrets.delete(oldest);
  }
  knownSecrets.add(v);
  // Longest first, so a secret that contains another one is masked whole.
  knownSecretsSorted = [...knownSecrets].sort((a, b) => b.length - a.length);
}

/** For tests: forget every registered secret. */
export function clearKnownSecrets(): void {
  knownSecrets.clear();
  knownSecretsSorted = [];
}

// Key names whose values are secret. Matched against the end of the key so that
// `ssl_key_password`, `client_secret`, `accessToken`, `refresh_token` all match while
// `secret_returned` (a boolean query flag) does not.
const SENSITIVE_KEY_WORDS = "secret|password|passwd|passphrase|token|private[_-]?key|api[_-]?key";
// Object keys only: in free text "authorization: Bearer x" is handled by the bearer rule.
const SENSITIVE_OBJECT_KEY = new RegExp(`(?:${SENSITIVE_KEY_WORDS}|authorization|cookie)$`, "i");

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_OBJECT_KEY.test(key);
}

const PEM_PRIVATE_KEY = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
// Unregistered JWTs (e.g. a token from another process quoted by the server).
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
// key/value pairs in JSON (also JSON escaped inside a JSON string), query strings and
// JAAS-style text: `"password": "x"`, `\"secret\":\"x\"`, `client_secret=x&`, `password="x"`.
// An unquoted key followed by ":" is left alone: that is prose such as our own
// `body.config.password: Field required`, not a value.
// A key starts where no key character precedes it: without that, every position of a long run
// of letters (an error body of a megabyte) started a key scanned to the run's end, quadratic
// time. A quoted value cut off before its closing quote (a capped error body) is masked to the
// end of the text: what is left of it is still the secret.
const KEY_VALUE = new RegExp(
  `(\\\\?["']?)(?<![A-Za-z0-9_.\\-])([A-Za-z0-9_.\\-]*?(?:${SENSITIVE_KEY_WORDS}))\\1(\\s*[:=]\\s*)` +
    `(\\[REDACTED\\]|\\\\"[\\s\\S]*?(?:\\\\"|$)|"(?:[^"\\\\]|\\\\.)*(?:"|$)|'(?:[^'\\\\]|\\\\.)*(?:'|$)|[^\\s,;&}\\]"']+)`,
  "gi",
);

/** Mask secrets in free text. Safe to apply more than once. */
export function redact(text: string): string {
  let out = text;
  for (const secret of knownSecretsSorted) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(PEM_PRIVATE_KEY, "[REDACTED PRIVATE KEY]");
  out = out.replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = out.replace(JWT, REDACTED);
  out = out.replace(KEY_VALUE, (_m, quote: string, key: string, sep: string, value: string) => {
    const whole = `${quote}${key}${quote}${sep}${value}`;
    if (quote === "" && sep.trim() === ":") return whole;
    if (value === REDACTED || value === `"${REDACTED}"`) return whole;
    let masked = REDACTED;
    if (value.startsWith('\\"')) masked = `\\"${REDACTED}\\"`;
    else if (value.startsWith('"')) masked = `"${REDACTED}"`;
    else if (value.startsWith("'")) masked = `'${REDACTED}'`;
    return `${quote}${key}${quote}${sep}${masked}`;
  });
  return out;
}

const MAX_DEPTH = 32;

/**
 * Register every string found under a sensitive key of an outgoing body (a connector's
 * `database.password`), so that a server quoting it back in free text is masked too.
 */
export function registerSecretsIn(value: unknown, depth = 0): void {
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH) return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && isSensitiveKey(k)) registerSecret(v);
    else registerSecretsIn(v, depth + 1);
  }
}

/**
 * Deep copy of a JSON-like value with secrets masked: values under sensitive keys are
 * replaced (null stays null so "unset" remains visible), every string goes through `redact`.
 */
export function redactValue<T>(value: T): T {
  return redactInner(value, 0, new WeakSet()) as T;
}

function redactInner(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH || seen.has(value)) return REDACTED;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactInner(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSensitiveKey(k) && v !== null && v !== undefined ? REDACTED : redactInner(v, depth + 1, seen);
  }
  return out;
}

/**
 * A description of a request body that is safe to log or put in an error: its key
 * structure only, never its values (connector configs hold secrets under arbitrary names).
 */
export function describeBodyKeys(body: unknown, depth = 0): string {
  if (body === null || typeof body !== "object") return typeof body;
  if (Array.isArray(body)) return `[${body.length}]`;
  if (depth >= 3) return "{…}";
  const parts = Object.entries(body).map(([k, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? `${k}${describeBodyKeys(v, depth + 1)}` : k,
  );
  return `{${parts.join(", ")}}`;
}
