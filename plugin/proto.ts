import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * gRPC and Pulumi's protocol definitions, from the copies that ship in `@pulumi/pulumi`: the
 * generated message classes are tied to the google-protobuf install beside them, so all of them
 * are loaded through the SDK's own directory. Only the protocol modules are loaded, never the
 * SDK itself (about 60 MB of heap the plugin does not need).
 */
const here = createRequire(__filename);
const sdkRoot = dirname(here.resolve("@pulumi/pulumi/package.json"));
const fromSdk = createRequire(join(sdkRoot, "package.json"));

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
export const sdkVersion: string = fromSdk("./package.json").version;
/** Loads another of the SDK's protocol modules (`./proto/engine_pb`) from the same install. */
export const loadFromSdk: (id: string) => Module = fromSdk;
