import { expect } from "vitest";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/index.js";

/** Shared plumbing for the emulator contract tests: real HTTP against a real emulator on port 0. */

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export async function call<T = any>(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.rawBody !== undefined) payload = options.rawBody;
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${base}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body: body as T, headers: response.headers, text };
}

export async function tokenFor(emulator: RunningEmulator, clientId = emulator.clientId, secret = emulator.clientSecret) {
  const reply = await call(emulator.url, "POST", "/auth/access-token", { body: { client_id: clientId, secret } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { accessToken: string; refreshToken: string; expires: string; expiresIn: number };
}

/** An emulator plus an admin token, and a `call` bound to both. */
export interface Session {
  emulator: RunningEmulator;
  token: string;
  api: <T = any>(method: string, path: string, options?: CallOptions) => Promise<Reply<T>>;
}

export async function openSession(options: Partial<EmulatorOptions> = {}): Promise<Session> {
  const emulator = await startEmulator({ port: 0, ...options });
  const { accessToken } = await tokenFor(emulator);
  return {
    emulator,
    token: accessToken,
    api: (method, path, opts = {}) => call(emulator.url, method, path, { token: accessToken, ...opts }),
  };
}

/** A clock the test moves by hand, so expiry and rate limits need no sleeping. */
export function manualClock(start = Date.parse("2026-01-02T03:04:05.000Z")) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export interface Detail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Asserts a 422 in the API's form and returns the details for more specific checks. */
export function expect422(reply: Reply, ...expected: Partial<Detail>[]): Detail[] {
  expect(reply.status, reply.text).toBe(422);
  expect(Array.isArray(reply.body.detail), reply.text).toBe(true);
  const details = reply.body.detail as Detail[];
  for (const d of details) {
    expect(Array.isArray(d.loc)).toBe(true);
    expect(typeof d.msg).toBe("string");
    expect(typeof d.type).toBe("string");
    expect(d).toHaveProperty("input");
  }
  for (const e of expected) expect(details, reply.text).toContainEqual(expect.objectContaining(e));
  return details;
}

export function expectDetail(reply: Reply, status: number, pattern?: RegExp): void {
  expect(reply.status, reply.text).toBe(status);
  expect(typeof reply.body?.detail, reply.text).toBe("string");
  if (pattern) expect(reply.body.detail).toMatch(pattern);
}

/**
 * An answer that, if it is a 4xx, is in a shape the platform documents: 422 with pydantic's
 * details, `{detail: "message"}`, or the SMT chain's `{detail: {code, message, issues}}` (every
 * 4xx of that area).
 */
export function expectApiError(reply: Reply): void {
  if (reply.status < 400) return;
  const detail = reply.body?.detail as unknown;
  if (detail !== null && typeof detail === "object" && !Array.isArray(detail)) {
    const coded = detail as { code?: unknown; message?: unknown; issues?: unknown };
    expect([typeof coded.code, typeof coded.message], reply.text).toEqual(["string", "string"]);
    if (coded.issues !== undefined) expect(Array.isArray(coded.issues), reply.text).toBe(true);
  } else if (reply.status === 422) expect422(reply);
  else expect(typeof detail, reply.text).toBe("string");
}

let counter = 0;
/** Unique names per test so suites sharing an emulator do not collide on the unique-name rule. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}
