import { Writer } from "protobufjs/minimal";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/index.js";
import { resetClients } from "../../../provider/client/index.js";
import { grpc, provproto, provrpc, structproto } from "../../../plugin/proto.js";
import { secret } from "../../../plugin/marshal.js";
import { ResourceProviderServer } from "../../../plugin/server.js";
import { resourceProviderService } from "../../../plugin/service.js";
import { ConsoleClient, webClient } from "../../support/web.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Message = any;

/**
 * The provider plugin as the engine meets it: ResourceProviderServer's handlers on a real grpc-js
 * server (127.0.0.1, a free port), a ResourceProviderClient talking to it, and an emulator the
 * plugin is configured against through the Configure RPC (with the client secret wrapped as the
 * engine wraps secrets). `console` plays a person in the web console.
 */
export interface PluginHarness {
  emulator: RunningEmulator;
  console: ConsoleClient;
  client: Message;
  /**
   * What a new engine operation (`pulumi preview`, `pulumi refresh`) starts with: a fresh plugin
   * process, its clients and caches new, configured again. The server stays; the core's state goes.
   */
  newOperation(): Promise<void>;
  /** One unary RPC: resolves with the response, rejects with the gRPC ServiceError. */
  call<T = Message>(method: string, request: Message): Promise<T>;
  /** One unary RPC whose request is the bytes given (engineCheckRequest), its response read as `response` reads it. */
  callBytes<T>(rpc: string, request: Uint8Array, response: { deserializeBinary(bytes: Uint8Array): T }): Promise<T>;
  close(): Promise<void>;
}

// Pulumi's secret signature, its unknown value and a secret's wrapping, as the plugin has them.
export { SECRET_SIG, SIG_KEY, UNKNOWN, secret } from "../../../plugin/marshal.js";

/** Back-off in tens of milliseconds and few attempts: fault tests do not wait real seconds. */
export const FAST_RETRIES = { retryBaseDelayMs: "10", retryMaxDelayMs: "50", retryAttempts: "2" };

export const struct = (value: Record<string, unknown>) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
export const plain = (s: { toJavaScript(): Record<string, unknown> } | undefined | null): Record<string, any> => (s ? s.toJavaScript() : {});

export const urnOf = (type: string, name: string) => `urn:pulumi:test::plugin-contract::${type}::${name}`;

/** A ConfigureRequest as the engine sends it: the provider's inputs as `args`, the secret wrapped. */
export function configureRequest(api: { url: string; clientId: string; clientSecret: string }, more: Record<string, unknown> = {}): Message {
  const req = new provproto.ConfigureRequest();
  req.setArgs(struct({ apiUrl: api.url, clientId: api.clientId, clientSecret: secret(api.clientSecret), version: "0.1.0", ...more }));
  req.setAcceptsecrets(true);
  req.setAcceptresources(true);
  return req;
}

export async function startPluginHarness(
  options: { configure?: Record<string, unknown> | false; apiUrl?: string; emulator?: Partial<EmulatorOptions> } = {},
): Promise<PluginHarness> {
  const emulator = await startEmulator({ port: 0, ...options.emulator });
  const server = new grpc.Server();
  server.addService(resourceProviderService() as never, new ResourceProviderServer().handlers() as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <T = Message>(method: string, request: Message) =>
    new Promise<T>((resolve, reject) => client[method](request, (err: Error | null, resp: T) => (err ? reject(err) : resolve(resp))));
  const callBytes = <T>(rpc: string, request: Uint8Array, response: { deserializeBinary(bytes: Uint8Array): T }) =>
    new Promise<T>((resolve, reject) =>
      client.makeUnaryRequest(`/pulumirpc.ResourceProvider/${rpc}`, (b: Uint8Array) => Buffer.from(b), (b: Buffer) => response.deserializeBinary(b), request, (err: Error | null, resp: T) =>
        err ? reject(err) : resolve(resp),
      ),
    );
  const configureIt = () => call("configure", configureRequest({ ...emulator, url: options.apiUrl ?? emulator.url }, options.configure || {}));
  if (options.configure !== false) await configureIt();
  const console = webClient(emulator);
  return {
    emulator,
    console,
    client,
    call,
    callBytes,
    async newOperation() {
      await resetClients();
      await configureIt();
    },
    async close() {
      client.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      await console.close();
      await resetClients();
      await emulator.stop();
    },
  };
}

/** A CheckRequest (or any request with urn/olds/news). */
export function checkRequest(type: string, name: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}): Message {
  const req = new provproto.CheckRequest();
  req.setUrn(urnOf(type, name));
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  return req;
}

/**
 * A CheckRequest's bytes with the properties as an engine may send them and the generated classes
 * cannot: every own key kept (they lose an own `__proto__` key) and every number as it is (the
 * JSON of `struct()` makes NaN and the infinities null). Struct's wire form: plugin/marshal.ts.
 */
export function engineCheckRequest(type: string, name: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}): Uint8Array {
  const w = Writer.create();
  w.uint32((1 << 3) | 2).string(urnOf(type, name));
  for (const [field, props] of [[2, olds], [3, news]] as const) {
    w.uint32((field << 3) | 2).fork();
    engineFields(w, props);
    w.ldelim();
  }
  return w.finish();
}

function engineFields(w: Writer, obj: object): void {
  for (const key of Object.keys(obj)) {
    w.uint32((1 << 3) | 2).fork().uint32((1 << 3) | 2).string(key).uint32((2 << 3) | 2).fork();
    engineValue(w, (obj as Record<string, unknown>)[key]);
    w.ldelim().ldelim();
  }
}

function engineValue(w: Writer, v: unknown): void {
  if (typeof v === "number") w.uint32((2 << 3) | 1).double(v);
  else if (typeof v === "string") w.uint32((3 << 3) | 2).string(v);
  else if (typeof v === "boolean") w.uint32((4 << 3) | 0).bool(v);
  else if (Array.isArray(v)) {
    w.uint32((6 << 3) | 2).fork();
    for (const item of v) {
      w.uint32((1 << 3) | 2).fork();
      engineValue(w, item);
      w.ldelim();
    }
    w.ldelim();
  } else if (v !== null && typeof v === "object") {
    w.uint32((5 << 3) | 2).fork();
    engineFields(w, v);
    w.ldelim();
  } else w.uint32((1 << 3) | 0).int32(0);
}

export function createRequest(type: string, name: string, properties: Record<string, unknown>, preview = false): Message {
  const req = new provproto.CreateRequest();
  req.setUrn(urnOf(type, name));
  req.setProperties(struct(properties));
  req.setPreview(preview);
  return req;
}

export function readRequest(type: string, name: string, id: string, properties: Record<string, unknown>, inputs: Record<string, unknown> = {}): Message {
  const req = new provproto.ReadRequest();
  req.setId(id);
  req.setUrn(urnOf(type, name));
  req.setProperties(struct(properties));
  req.setInputs(struct(inputs));
  return req;
}

export function diffRequest(type: string, name: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>, oldInputs?: Record<string, unknown>): Message {
  const req = new provproto.DiffRequest();
  req.setId(id);
  req.setUrn(urnOf(type, name));
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  if (oldInputs) req.setOldInputs(struct(oldInputs));
  return req;
}

export function updateRequest(type: string, name: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>, preview = false): Message {
  const req = new provproto.UpdateRequest();
  req.setId(id);
  req.setUrn(urnOf(type, name));
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  req.setPreview(preview);
  return req;
}

export function deleteRequest(type: string, name: string, id: string, properties: Record<string, unknown>): Message {
  const req = new provproto.DeleteRequest();
  req.setId(id);
  req.setUrn(urnOf(type, name));
  req.setProperties(struct(properties));
  return req;
}

export function invokeRequest(tok: string, args: Record<string, unknown>): Message {
  const req = new provproto.InvokeRequest();
  req.setTok(tok);
  req.setArgs(struct(args));
  return req;
}

export const failuresOf = (resp: Message): Array<{ property: string; reason: string }> =>
  resp.getFailuresList().map((f: Message) => ({ property: f.getProperty(), reason: f.getReason() }));

/** The rejection of a promise (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: number; details?: string; metadata?: Message }> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail, and it succeeded");
    },
    (err: unknown) => err as Error & { code?: number; details?: string; metadata?: Message },
  );
}
