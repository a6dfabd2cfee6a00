// The provider plugin `pulumi-resource-cdc`: started by the engine, it prints the port it serves
// Pulumi's ResourceProvider protocol on, and serves until the engine stops it.
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of a stack trace.
import "../provider/node-version.js";
import "../provider/compile-cache.js";
import { logToEngine } from "./engine-log.js";
import { grpc, loadFromSdk, provrpc } from "./proto.js";
import { ResourceProviderServer } from "./server.js";

async function main(): Promise<void> {
  // The engine passes its own address: drift reports go to its log, under the resource.
  logToEngine(process.argv.slice(2).find((a) => !a.startsWith("-")), loadFromSdk);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  server.addService(provrpc.ResourceProviderService, new ResourceProviderServer().handlers() as never);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`pulumi-resource-cdc: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
