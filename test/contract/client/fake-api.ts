// A small fake of the API for the client's contract tests: real HTTP on 127.0.0.1, the
// token endpoints with rotation, bearer checks, and per-test route handlers that can
// misbehave (429, 5xx, dropped sockets, hangs).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";

export const CLIENT_ID = "client-123";
export const CLIENT_SECRET = "s3cr3t-client-secret-value";

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** Header names as the client spelled them on the wire. */
  rawHeaderNames: string[];
  body: unknown;
}

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  seen: SeenRequest;
  /** 1-based count of requests this route has received. */
  call: number;
}

export type RouteHandler = (ctx: RouteContext) => void | Promise<void>;

export interface FakeApiOptions {
  /** Lifetime of issued access tokens, seconds. */
  expiresIn?: number;
  /** Delay before answering a token request, so concurrent callers overlap with it. */
  tokenDelayMs?: number;
  /** Do not echo x-request-id (the client must still know its own). */
  echoRequestId?: boolean;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export class FakeApi {
  readonly requests: SeenRequest[] = [];
  /** Access tokens currently accepted. */
  readonly validTokens = new Set<string>();
  /** Refresh tokens not yet used (single use). */
  readonly validRefreshTokens = new Set<string>();
  readonly issuedTokens: string[] = [];
  readonly issuedRefreshTokens: string[] = [];
  tokenExchanges = 0;
  tokenRefreshes = 0;
  /** Highest number of requests in progress at once (token requests excluded). */
  maxConcurrent = 0;
  /** Replace the token endpoint's reply for the next refresh calls (status codes). */
  refreshFailures: number[] = [];

  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly routes: Array<{ method: string; pattern: RegExp; handler: RouteHandler; calls: number }> = [];
  private current = 0;
  private tokenSeq = 0;
  private readonly opts: Required<FakeApiOptions>;

  constructor(opts: FakeApiOptions = {}) {
    this.opts = { expiresIn: 3600, tokenDelayMs: 0, echoRequestId: true, ...opts };
  }

  get url(): string {
    const addr = this.server?.address() as AddressInfo | null;
    if (!addr) throw new Error("fake API not started");
    return `http://127.0.0.1:${addr.port}`;
  }

  /** `path` may contain `{x}` placeholders, which match one segment. */
  route(method: string, path: string, handler: RouteHandler): this {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    this.routes.push({ method, pattern, handler, calls: 0 });
    return this;
  }

  requestsTo(method: string, path: string): SeenRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  revokeAll(): void {
    this.validTokens.clear();
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      void this.handle(req, res);
    });
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? "/", "http://fake");
    const rawHeaderNames = req.rawHeaders.filter((_, i) => i % 2 === 0);
    const seen: SeenRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, rawHeaderNames, body };
    this.requests.push(seen);
    const requestId = req.headers["x-request-id"];
    if (this.opts.echoRequestId && typeof requestId === "string") res.setHeader("x-request-id", `srv-${requestId}`);

    if (seen.method === "POST" && seen.path === "/auth/access-token") return this.exchange(seen, res);
    if (seen.method === "POST" && seen.path === "/auth/access-token/refresh") return this.refresh(seen, res);

    const auth = req.headers.authorization;
    const token = typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
    if (!token || !this.validTokens.has(token)) return sendJson(res, 401, { detail: "Not authenticated" });

    const route = this.routes.find((r) => r.method === seen.method && r.pattern.test(seen.path));
    if (!route) return sendJson(res, 404, { detail: `no route ${seen.method} ${seen.path}` });
    route.calls++;
    this.current++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.current);
    // "finish" fires before the client can see the response end, so a request it sends next
    // is never counted together with this one; "close" covers destroyed sockets.
    let counted = true;
    const done = () => {
      if (counted) this.current--;
      counted = false;
    };
    res.on("finish", done);
    res.on("close", done);
    try {
      await route.handler({ req, res, seen, call: route.calls });
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { detail: `handler failed: ${(err as Error).message}` });
    }
  }

  private async exchange(seen: SeenRequest, res: ServerResponse): Promise<void> {
    this.tokenExchanges++;
    await this.pause();
    const b = seen.body as { client_id?: string; secret?: string } | undefined;
    if (b?.client_id !== CLIENT_ID || b?.secret !== CLIENT_SECRET) {
      // A careless server that quotes the request back: the client must still not leak it.
      return sendJson(res, 401, { detail: `invalid client credentials for ${JSON.stringify(b)}` });
    }
    sendJson(res, 200, this.issue());
  }

  private async refresh(seen: SeenRequest, res: ServerResponse): Promise<void> {
    this.tokenRefreshes++;
    await this.pause();
    if (seen.headers.authorization) return sendJson(res, 400, { detail: "refresh takes no Authorization header" });
    const failure = this.refreshFailures.shift();
    if (failure !== undefined) return sendJson(res, failure, { detail: "refresh refused" });
    const rt = (seen.body as { refresh_token?: string } | undefined)?.refresh_token;
    if (!rt || !this.validRefreshTokens.has(rt)) {
      return sendJson(res, 401, { detail: `refresh token ${rt} is invalid or already used` });
    }
    this.validRefreshTokens.delete(rt);
    sendJson(res, 200, this.issue());
  }

  private issue(): Record<string, unknown> {
    const n = ++this.tokenSeq;
    const accessToken = `at-${n}-${Math.random().toString(36).slice(2)}`;
    const refreshToken = `rt-${n}-${Math.random().toString(36).slice(2)}`;
    this.validTokens.add(accessToken);
    this.validRefreshTokens.add(refreshToken);
    this.issuedTokens.push(accessToken);
    this.issuedRefreshTokens.push(refreshToken);
    return {
      accessToken,
      refreshToken,
      expires: new Date(Date.now() + this.opts.expiresIn * 1000).toISOString(),
      expiresIn: this.opts.expiresIn,
      token_type: "bearer",
    };
  }

  private pause(): Promise<void> {
    const ms = this.opts.tokenDelayMs;
    return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
  }
}
