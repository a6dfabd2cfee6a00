import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * A pass-through HTTP proxy in front of an API (the emulator) that records every request, as the
 * logging proxy the fidelity issue compared the two providers with: tests see exactly what
 * crossed the wire while the real server answers.
 */
export interface RecordingProxy {
  url: string;
  requests: ProxiedRequest[];
  /**
   * Rewrites the upstream's answer to the requests it picks (a platform having a bad minute: an
   * HTML page with a 200, a body cut off); the request still reaches the upstream. Unset, every
   * answer passes as it came.
   */
  rewrite: ((req: ProxiedRequest, answer: ProxiedAnswer) => ProxiedAnswer | undefined) | undefined;
  stop(): Promise<void>;
}

export interface ProxiedAnswer {
  status: number;
  contentType: string;
  body: string;
}

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", "http://proxy.invalid");
      let body: unknown = undefined;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch {
          body = raw.toString("utf8");
        }
      }
      const seen: ProxiedRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, body };
      requests.push(seen);
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          const rewrite = proxy.rewrite;
          if (!rewrite) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => {
            const came: ProxiedAnswer = { status: answer.statusCode ?? 502, contentType: String(answer.headers["content-type"] ?? ""), body: Buffer.concat(parts).toString("utf8") };
            const sent = rewrite(seen, came) ?? came;
            res.writeHead(sent.status, { "content-type": sent.contentType, "content-length": Buffer.byteLength(sent.body), ...(answer.headers["x-request-id"] ? { "x-request-id": answer.headers["x-request-id"] } : {}) });
            res.end(sent.body);
          });
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: RecordingProxy = {
    url: `http://127.0.0.1:${port}`,
    requests,
    rewrite: undefined,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
