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
  stop(): Promise<void>;
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
      requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.searchParams, body });
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
