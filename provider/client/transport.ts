import { Agent, request, type Dispatcher } from "undici";

export interface Timeouts {
  /** TCP (and TLS) connect. */
  connectMs: number;
  /** From request sent to response headers received: how long the API may think. */
  headersMs: number;
  /** Maximum silence between body chunks. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({
  connectMs: 10_000,
  headersMs: 60_000,
  bodyMs: 60_000,
});

// Long enough to reuse sockets across the steps of one `pulumi up`, short enough that a
// server with a shorter idle timeout rarely closes a socket we are about to reuse.
const KEEP_ALIVE_MS = 4_000;
const KEEP_ALIVE_MAX_MS = 60_000;

export function createAgent(timeouts: Partial<Timeouts> = {}): Agent {
  const t = { ...DEFAULT_TIMEOUTS, ...timeouts };
  return new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MAX_MS,
    connect: { timeout: t.connectMs },
    headersTimeout: t.headersMs,
    bodyTimeout: t.bodyMs,
  });
}

// One pool per process per connect timeout (the only timeout undici fixes per agent; header
// and body timeouts are passed per request). All clients of a run share it.
const sharedAgents = new Map<number, Agent>();

export function sharedAgent(connectMs: number = DEFAULT_TIMEOUTS.connectMs): Agent {
  let agent = sharedAgents.get(connectMs);
  if (!agent || agent.closed || agent.destroyed) {
    agent = createAgent({ connectMs });
    sharedAgents.set(connectMs, agent);
  }
  return agent;
}

export async function closeSharedAgents(): Promise<void> {
  const agents = [...sharedAgents.values()];
  sharedAgents.clear();
  await Promise.allSettled(agents.map((a) => a.close()));
}

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP exchange, body read in full (so the socket goes back to the pool). Throws on network failure. */
export async function sendOnce(dispatcher: Dispatcher, req: RawRequest): Promise<RawResponse> {
  const res = await request(req.url, {
    dispatcher,
    method: req.method as Dispatcher.HttpMethod,
    headers: req.headers,
    body: req.body ?? null,
    headersTimeout: req.headersTimeoutMs,
    bodyTimeout: req.bodyTimeoutMs,
  });
  const body = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body };
}
