"use strict";
// The benchmark's no-op provider plugin `pulumi-resource-bench`: Pulumi's ResourceProvider protocol
// on @grpc/grpc-js and the protocol definitions shipped in @pulumi/pulumi, loaded the way
// plugin/proto.ts loads them (from the SDK's own directory, without loading the SDK), and nothing
// else. No API, no checks, no marshalling: the engine's messages are passed back as they came.
// What pulumi-resource-cdc costs beyond this is what it adds: its core, its checks, HTTP and the
// conversions between the engine's structs and plain values.
//
// Check returns news, Diff compares name and config, Create returns an id and the inputs, Read
// returns the props, Update returns news, Delete does nothing, Configure accepts secrets.
const nodeModule = require("node:module");
const { dirname, join } = require("node:path");

// The same on-disk code cache pulumi-resource-cdc uses (provider/compile-cache.ts), so both
// plugins start on an equal footing.
nodeModule.enableCompileCache?.();

const sdkRoot = dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = nodeModule.createRequire(join(sdkRoot, "package.json"));
const grpc = fromSdk("@grpc/grpc-js");
const emptyproto = fromSdk("google-protobuf/google/protobuf/empty_pb");
const provproto = fromSdk("./proto/provider_pb");
const provrpc = fromSdk("./proto/provider_grpc_pb");
const pluginproto = fromSdk("./proto/plugin_pb");

const VERSION = "1.0.0";
const TOKENS = ["bench:index:NoopSource", "bench:index:NoopDestination"];

/** A minimal schema for the two tokens: the inputs pulumi-cdc's Source and Destination take. */
function schema() {
  const inputs = {
    name: { type: "string" },
    connector: { type: "string" },
    config: { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } },
    desiredState: { type: "string" },
    adoptId: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
  };
  const resources = {};
  for (const token of TOKENS) {
    resources[token] = { description: "Does nothing: returns its inputs.", inputProperties: inputs, requiredInputs: ["connector", "config"], properties: inputs, required: ["connector", "config"] };
  }
  return JSON.stringify({ name: "bench", version: VERSION, resources });
}

/** A top-level property of a protobuf Struct as plain JavaScript (secrets stay wrapped). */
function field(struct, name) {
  const value = struct?.getFieldsMap().get(name);
  return value === undefined ? undefined : value.toJavaScript();
}

const handlers = {
  handshake(_req) {
    const resp = new provproto.ProviderHandshakeResponse();
    resp.setAcceptSecrets(true);
    resp.setAcceptResources(false);
    resp.setAcceptOutputs(false);
    return resp;
  },
  getPluginInfo() {
    const info = new pluginproto.PluginInfo();
    info.setVersion(VERSION);
    return info;
  },
  getSchema() {
    const resp = new provproto.GetSchemaResponse();
    resp.setSchema(schema());
    return resp;
  },
  checkConfig(req) {
    const resp = new provproto.CheckResponse();
    resp.setInputs(req.getNews());
    return resp;
  },
  diffConfig() {
    const resp = new provproto.DiffResponse();
    resp.setChanges(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    return resp;
  },
  configure() {
    // As pulumi-resource-cdc answers: secrets accepted, no previews of creates and updates.
    const resp = new provproto.ConfigureResponse();
    resp.setAcceptsecrets(true);
    resp.setSupportspreview(false);
    resp.setAcceptresources(false);
    resp.setAcceptoutputs(false);
    return resp;
  },
  check(req) {
    const resp = new provproto.CheckResponse();
    resp.setInputs(req.getNews());
    return resp;
  },
  diff(req) {
    const olds = req.getOlds();
    const news = req.getNews();
    const same = JSON.stringify([field(olds, "name"), field(olds, "config")]) === JSON.stringify([field(news, "name"), field(news, "config")]);
    const resp = new provproto.DiffResponse();
    resp.setChanges(same ? provproto.DiffResponse.DiffChanges.DIFF_NONE : provproto.DiffResponse.DiffChanges.DIFF_SOME);
    return resp;
  },
  create(req) {
    const resp = new provproto.CreateResponse();
    if (!req.getPreview()) resp.setId(`noop-${field(req.getProperties(), "name")}`);
    resp.setProperties(req.getProperties());
    return resp;
  },
  read(req) {
    const resp = new provproto.ReadResponse();
    resp.setId(req.getId());
    resp.setProperties(req.getProperties());
    resp.setInputs(req.getInputs());
    return resp;
  },
  update(req) {
    const resp = new provproto.UpdateResponse();
    resp.setProperties(req.getNews());
    return resp;
  },
  delete() {
    return new emptyproto.Empty();
  },
  cancel() {
    return new emptyproto.Empty();
  },
  attach() {
    return new emptyproto.Empty();
  },
};

function service() {
  const out = {};
  for (const [name, handler] of Object.entries(handlers)) {
    out[name] = (call, callback) => {
      let resp;
      try {
        resp = handler(call.request);
      } catch (err) {
        callback({ code: grpc.status.UNKNOWN, details: err instanceof Error ? err.message : String(err) });
        return;
      }
      callback(null, resp);
    };
  }
  // The protocol's other methods (construct, call, invoke, ...) answer UNIMPLEMENTED: grpc-js's default.
  return out;
}

async function main() {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  server.addService(provrpc.ResourceProviderService, service());
  const port = await new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
}

main().catch((err) => {
  process.stderr.write(`pulumi-resource-bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
