// The provider plugin `pulumi-resource-cdc`: started by the engine, it prints the port it serves
// Pulumi's ResourceProvider protocol on, and serves until the engine stops it.
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of a stack trace.
import "../provider/node-version.js";
import "../provider/compile-cache.js";
import type * as grpcTypes from "@grpc/grpc-js";
import { grpc } from "./proto.js";
import { resourceProviderService } from "./service.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Handler = (call: grpcTypes.ServerUnaryCall<any, any>, callback: grpcTypes.sendUnaryData<any>) => void;

/**
 * The RPC handlers, with the core behind them (provider/: undici, zod, the catalogue, every
 * kind), loaded on first use: the engine waits for the port before it sends anything, so the
 * port is printed first and the core loads while the engine gets ready to call.
 */
let loaded: Record<string, Handler> | undefined;
function handlers(): Record<string, Handler> {
  if (!loaded) {
    const { logToEngine } = require("./engine-log.js") as typeof import("./engine-log.js");
    const { ResourceProviderServer } = require("./server.js") as typeof import("./server.js");
    // The engine passes its own address: drift reports go to its log, under the resource.
    logToEngine(process.argv.slice(2).find((a) => !a.startsWith("-")));
    loaded = new ResourceProviderServer().handlers();
  }
  return loaded;
}

async function main(): Promise<void> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  const lazy: Record<string, Handler> = {};
  const service = resourceProviderService();
  for (const [name, method] of Object.entries(service as Record<string, { requestStream: boolean; responseStream: boolean }>)) {
    // Streaming methods have no handler: grpc-js answers them UNIMPLEMENTED, as it did before.
    if (method.requestStream || method.responseStream) continue;
    lazy[name] = (call, callback) => {
      const handler = handlers()[name];
      if (handler) handler(call, callback);
      else callback({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by pulumi-cdc` });
    };
  }
  server.addService(service as never, lazy as never);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
  // Then the core, while the engine connects: the first RPC finds it loaded.
  setImmediate(() => {
    try {
      handlers();
    } catch (err) {
      fail(err);
    }
  });
}

function fail(err: unknown): never {
  process.stderr.write(`pulumi-resource-cdc: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

main().catch(fail);
