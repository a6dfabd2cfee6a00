import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * gRPC and Pulumi's protocol definitions, from the copies that ship in `@pulumi/pulumi`: the
 * generated message classes are tied to the google-protobuf install beside them, so all of them
 * are loaded through the SDK's own directory. Only the protocol modules are loaded, never the
 * SDK itself (about 60 MB of heap the plugin does not need).
 *
 * The bundled plugin (scripts/bundle-plugin.mjs) resolves each `fromSdk("...")` below at build
 * time from the same directory and inlines it, so keep every call's argument a string literal.
 */
let sdkRequire: NodeJS.Require | undefined;
function fromSdk(id: string): Module {
  if (!sdkRequire) {
    const sdkRoot = dirname(createRequire(__filename).resolve("@pulumi/pulumi/package.json"));
    sdkRequire = createRequire(join(sdkRoot, "package.json"));
  }
  return sdkRequire(id);
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Module = any;

export const grpc: typeof import("@grpc/grpc-js") = fromSdk("@grpc/grpc-js");
export const structproto: Module = fromSdk("google-protobuf/google/protobuf/struct_pb");
export const emptyproto: Module = fromSdk("google-protobuf/google/protobuf/empty_pb");
export const anyproto: Module = fromSdk("google-protobuf/google/protobuf/any_pb");
export const provproto: Module = fromSdk("./proto/provider_pb");
export const provrpc: Module = fromSdk("./proto/provider_grpc_pb");
export const pluginproto: Module = fromSdk("./proto/plugin_pb");
export const statusproto: Module = fromSdk("./proto/status_pb");
/** The engine's log service, which drift reports go to (plugin/engine-log.ts). */
export function engineProto(): { engrpc: Module; engproto: Module } {
  return { engrpc: fromSdk("./proto/engine_grpc_pb"), engproto: fromSdk("./proto/engine_pb") };
}
