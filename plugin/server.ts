import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import { redact } from "../provider/client/index.js";
import { configure } from "../provider/context.js";
import { checkProviderConfig, providerConfig } from "./config.js";
import { currentUrn } from "./engine-log.js";
import { invoke } from "./invoke.js";
import { readStruct, toSecretStruct, type Decoded, type Path } from "./marshal.js";
import { anyproto, emptyproto, grpc, pluginproto, provproto, statusproto } from "./proto.js";
import type { Failure, Request, Responses } from "./service.js";
import { PLAIN_SECRETS, plainSecretPaths } from "../provider/plain-secrets.js";
import { core, HOST_ONLY_INPUTS, kindOfToken, kindOfUrn, previewOutputs, resourceName, secretPaths } from "../provider/served.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Call = grpcTypes.ServerUnaryCall<any, any>;
type Callback = grpcTypes.sendUnaryData<any>;
type Props = Record<string, unknown>;

/**
 * Pulumi's ResourceProvider protocol over the same core (provider/) the dynamic classes use. One
 * method per RPC: unmarshal, call the core, marshal. Secrets are unwrapped on the way in and
 * wrapped again on the way out; nothing of a kind's rules lives here.
 */
export class ResourceProviderServer {
  // The generated schema (npm run generate) stays a file beside the sources, read when asked for.
  constructor(private readonly schemaPath = packageFile("generated", "schema.json")) {}

  /** The handlers, as grpc-js wants them: every error becomes a gRPC status with a redacted message. */
  handlers(): Record<string, (call: Call, callback: Callback) => void> {
    const methods: Record<string, (req: any) => Promise<unknown>> = {
      handshake: () => this.handshake(),
      getPluginInfo: () => this.getPluginInfo(),
      getSchema: (req) => this.getSchema(req),
      checkConfig: (req) => this.checkConfig(req),
      diffConfig: (req) => this.diffConfig(req),
      configure: (req) => this.configure(req),
      check: (req) => this.check(req),
      diff: (req) => this.diff(req),
      create: (req) => this.create(req),
      read: (req) => this.read(req),
      update: (req) => this.update(req),
      delete: (req) => this.delete(req),
      invoke: (req) => this.invoke(req),
      getMapping: (req) => this.getMapping(req),
      getMappings: (req) => this.getMappings(req),
      cancel: async () => new emptyproto.Empty(),
      attach: async () => new emptyproto.Empty(),
    };
    const out: Record<string, (call: Call, callback: Callback) => void> = {};
    for (const [name, method] of Object.entries(methods)) {
      out[name] = (call, callback) => {
        // The hot RPCs' requests are plain values (plugin/service.ts); the others, generated messages.
        const request = call.request;
        const urn = typeof request?.urn === "string" ? request.urn : typeof request?.getUrn === "function" ? String(request.getUrn()) : "";
        currentUrn.run(urn, () => method(request)).then(
          (resp) => callback(null, resp),
          (err: unknown) => callback(toGrpcError(err)),
        );
      };
    }
    for (const name of ["construct", "call", "parameterize", "list"]) {
      out[name] = (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by pulumi-cdc` });
    }
    return out;
  }

  async handshake() {
    const resp = new provproto.ProviderHandshakeResponse();
    resp.setAcceptSecrets(true);
    resp.setAcceptResources(false);
    resp.setAcceptOutputs(false);
    return resp;
  }

  async getPluginInfo() {
    const info = new pluginproto.PluginInfo();
    info.setVersion(this.version());
    return info;
  }

  private version(): string {
    return (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string }).version;
  }

  async getSchema(_req: any) {
    const resp = new provproto.GetSchemaResponse();
    resp.setSchema(readFileSync(this.schemaPath, "utf8"));
    return resp;
  }

  /**
   * `pulumi convert --from terraform` (and `pulumi import --from terraform`) ask every installed
   * plugin how a Terraform provider's types and attributes are named in Pulumi: pulumi-cdc
   * answers for the vendor's provider, from the mapping `pulumi-cdc import --from-terraform`
   * uses. Empty data is the protocol's "no mapping" (any other key or provider).
   */
  async getMapping(req: any) {
    // Loaded only when asked (pulumi convert): the vendor's schema is no part of an engine run's start.
    const { TERRAFORM_PROVIDER, terraformConvertMapping } = await import("../provider/terraform/convert-mapping.js");
    const resp = new provproto.GetMappingResponse();
    const provider = String(req.getProvider());
    if (req.getKey() === "terraform" && (provider === TERRAFORM_PROVIDER || provider === "")) {
      resp.setProvider(TERRAFORM_PROVIDER);
      resp.setData(Buffer.from(JSON.stringify(terraformConvertMapping(this.version())), "utf8"));
    } else {
      resp.setProvider(provider);
      resp.setData(new Uint8Array());
    }
    return resp;
  }

  async getMappings(req: any) {
    const { TERRAFORM_PROVIDER } = await import("../provider/terraform/convert-mapping.js");
    const resp = new provproto.GetMappingsResponse();
    resp.setProvidersList(req.getKey() === "terraform" ? [TERRAFORM_PROVIDER] : []);
    return resp;
  }

  async checkConfig(req: any) {
    const { value, secrets } = readStruct(req.getNews());
    const resp = new provproto.CheckResponse();
    resp.setInputs(toSecretStruct(value as Props, secrets));
    resp.setFailuresList(checkProviderConfig(value as Props).map(failure));
    return resp;
  }

  async diffConfig(req: any) {
    const olds = readStruct(req.getOldInputs() ?? req.getOlds()).value as Props;
    const news = readStruct(req.getNews()).value as Props;
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    const resp = new provproto.DiffResponse();
    resp.setChanges(changed.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
    resp.setDiffsList(changed);
    return resp;
  }

  async configure(req: any) {
    const args = readStruct(req.getArgs()).value as Props;
    const variables: Record<string, string> = {};
    for (const [key, value] of req.getVariablesMap().entries()) variables[key] = value;
    configure(providerConfig(args, variables));
    const resp = new provproto.ConfigureResponse();
    resp.setAcceptsecrets(true);
    resp.setSupportspreview(false);
    resp.setAcceptresources(false);
    resp.setAcceptoutputs(false);
    return resp;
  }

  async check(req: Request<"check">): Promise<Responses["check"]> {
    const kind = kindOfUrn(req.urn);
    const logicalName = resourceName(req.urn);
    // The secret settings that arrived plain on the wire, by name, for policy packs (provider/plain-secrets.ts).
    const plain = plainSecretPaths(req.news.value, secretPaths(kind, req.news.value), req.news.secrets);
    const news = { ...req.news.value, logicalName, ...(plain.length > 0 ? { [PLAIN_SECRETS]: plain } : {}) };
    const checked = await core(kind).check({ ...req.olds.value, logicalName }, news);
    const inputs = withoutHostInputs(checked.inputs);
    return { inputs: { value: inputs, secrets: [...req.news.secrets, ...secretPaths(kind, inputs)] }, failures: checked.failures };
  }

  async diff(req: Request<"diff">): Promise<Responses["diff"]> {
    const kind = kindOfUrn(req.urn);
    const result = await core(kind).diff(req.id, req.olds.value, withName(req.urn, req.news.value));
    const Changes = provproto.DiffResponse.DiffChanges;
    const replaces = result.replaces ?? [];
    const resp: Responses["diff"] = { changes: result.changes ? Changes.DIFF_SOME : Changes.DIFF_NONE, replaces, deleteBeforeReplace: result.deleteBeforeReplace };
    if (result.diffs || replaces.length > 0) {
      // The preview row itself names what changed (config["snowflake.schema.name"], tags, ...).
      const paths = [...new Set([...(result.diffs ?? []), ...replaces])];
      const Kind = provproto.PropertyDiff.Kind;
      resp.detailedDiff = new Map(paths.map((path) => [path, replaces.includes(path) ? Kind.UPDATE_REPLACE : Kind.UPDATE]));
      resp.diffs = [...new Set(paths.map(topLevel))];
    }
    return resp;
  }

  async create(req: Request<"create">): Promise<Responses["create"]> {
    const kind = kindOfUrn(req.urn);
    const inputs = req.properties;
    const secrets = [...inputs.secrets];
    if (req.preview) return { properties: { value: previewOutputs(kind, inputs.value), secrets } };
    try {
      const { id, outs } = await core(kind).create(withName(req.urn, inputs.value));
      return { id, properties: { value: withoutHostInputs(outs), secrets: [...secrets, ...secretPaths(kind, outs)] } };
    } catch (err) {
      throw partialFailure(err, kind, secrets, inputs);
    }
  }

  async read(req: Request<"read">): Promise<Responses["read"]> {
    const kind = kindOfUrn(req.urn);
    const props = req.properties;
    // `pulumi import` reads with no properties: the core then rebuilds the inputs from the live object.
    const importing = Object.keys(props.value).length === 0;
    const result = await core(kind).read(req.id, importing ? {} : withName(req.urn, props.value));
    if (!result.id) return { id: "" };
    const secrets = [...props.secrets, ...req.inputs.secrets];
    const resp: Responses["read"] = { id: result.id, properties: { value: withoutHostInputs(result.props), secrets: [...secrets, ...secretPaths(kind, result.props)] } };
    if (result.inputs) {
      // An import writes code from these inputs: only the schema's properties, nothing of ours.
      const inputs = withoutHostInputs(result.inputs, importing);
      resp.inputs = { value: inputs, secrets: [...secrets, ...secretPaths(kind, inputs)] };
    }
    return resp;
  }

  async update(req: Request<"update">): Promise<Responses["update"]> {
    const kind = kindOfUrn(req.urn);
    const secrets = [...req.olds.secrets, ...req.news.secrets];
    if (req.preview) return { properties: { value: previewOutputs(kind, req.news.value), secrets } };
    try {
      const { outs } = await core(kind).update(req.id, req.olds.value, withName(req.urn, req.news.value));
      return { properties: { value: withoutHostInputs(outs), secrets: [...secrets, ...secretPaths(kind, outs)] } };
    } catch (err) {
      throw partialFailure(err, kind, secrets, req.news);
    }
  }

  async delete(req: Request<"delete">): Promise<Responses["delete"]> {
    await core(kindOfUrn(req.urn)).delete(req.id, req.properties.value);
    return {};
  }

  async invoke(req: any) {
    const args = readStruct(req.getArgs()).value as Props;
    const resp = new provproto.InvokeResponse();
    const result = await invoke(req.getTok(), args);
    if ("failures" in result) resp.setFailuresList(result.failures.map(failure));
    else resp.setReturn(toSecretStruct(result.value));
    return resp;
  }

}

/**
 * A file of the package's root: one level up from the sources (plugin/server.ts, as the tests and
 * ts-node run it), two from the build (dist/plugin/server.js, in the repository and the plugin's
 * tarball alike).
 */
function packageFile(...parts: string[]): string {
  const fromSources = join(__dirname, "..", ...parts);
  return existsSync(fromSources) ? fromSources : join(__dirname, "..", "..", ...parts);
}

function failure(f: Failure) {
  const out = new provproto.CheckFailure();
  out.setProperty(f.property);
  out.setReason(f.reason);
  return out;
}

/** `config["a.b"]` → `config`, `tags` → `tags`: the top-level property a detailed path is under. */
function topLevel(path: string): string {
  const m = /^[^.[]+/.exec(path);
  return m ? m[0] : path;
}

function withName(urn: string, props: Props): Props {
  return { ...props, logicalName: resourceName(urn) };
}

function withoutHostInputs(inputs: Props, importing = false): Props {
  const out: Props = { ...inputs };
  for (const key of HOST_ONLY_INPUTS) delete out[key];
  // An imported object is named: the name goes into the code, not the core's autoname flag.
  if (importing) delete out.autonamed;
  return out;
}

/**
 * An object was written but not finished (the core's PartialFailure carries its id): the engine
 * keeps it in the stack instead of losing it, as with the dynamic host.
 */
function partialFailure(err: unknown, kind: ReturnType<typeof kindOfToken>, secrets: Path[], inputs: Decoded): unknown {
  const e = err as { id?: unknown; properties?: Props; reasons?: string[]; message?: string };
  if (typeof e?.id !== "string" || !e.id) return err;
  const properties = withoutHostInputs(e.properties ?? {});
  const detail = new provproto.ErrorResourceInitFailed();
  detail.setId(e.id);
  detail.setProperties(toSecretStruct(properties, [...secrets, ...secretPaths(kind, properties)]));
  detail.setReasonsList(e.reasons ?? []);
  // The inputs as the engine sent them, their secrets still secret.
  detail.setInputs(toSecretStruct(inputs.value, inputs.secrets));
  const any = new anyproto.Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(redact(e.message ?? String(err)));
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: redact(e.message ?? String(err)), metadata, __partial: true };
}

function toGrpcError(err: unknown): Partial<grpcTypes.StatusObject> {
  if (err && typeof err === "object" && (err as { __partial?: boolean }).__partial) {
    const { __partial: _ignored, ...status } = err as Record<string, unknown>;
    return status as Partial<grpcTypes.StatusObject>;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: grpc.status.UNKNOWN, details: redact(message) };
}
