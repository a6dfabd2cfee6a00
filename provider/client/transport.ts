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
  /** The most bytes of a body read; past it the rest is never read (cdc:maxResponseBytes). */
  maxBodyBytes: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /**
   * Set when the body ran past `maxBodyBytes`: `body` holds only what was read before the cut,
   * and the connection was closed rather than drained. The size announced, when there was one.
   */
  oversized?: { announcedBytes: number | undefined };
}

/**
 * One HTTP exchange. The body is read up to `maxBodyBytes`: a listing the platform got wrong,
 * or a page that is not the API's, must not take the whole process's memory with it. A body
 * read in full lets the socket go back to the pool; a cut one is destroyed. Throws on network
 * failure.
 */
export async function sendOnce(dispatcher: Dispatcher, req: RawRequest): Promise<RawResponse> {
  const res = await request(req.url, {
    dispatcher,
    method: req.method as Dispatcher.HttpMethod,
    headers: req.headers,
    body: req.body ?? null,
    headersTimeout: req.headersTimeoutMs,
    bodyTimeout: req.bodyTimeoutMs,
  });
  const announced = contentLength(res.headers["content-length"]);
  if (announced !== undefined && announced > req.maxBodyBytes) {
    res.body.destroy();
    return { status: res.statusCode, headers: res.headers, body: "", oversized: { announcedBytes: announced } };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > req.maxBodyBytes) {
      res.body.destroy();
      return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), oversized: { announcedBytes: announced } };
    }
    chunks.push(chunk);
  }
  return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks, size).toString("utf8") };
}

function contentLength(v: string | string[] | undefined): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || !/^\d+$/.test(s.trim())) return undefined;
  return Number(s.trim());
}
