import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNCTIONS, KINDS } from "../../../provider/kinds/index.js";
import { emptyproto, grpc, pluginproto, provproto } from "../../../plugin/proto.js";
import { TYPED_KINDS } from "../../../provider/typed/kinds.js";
import {
  configureRequest,
  createRequest,
  deleteRequest,
  failuresOf,
  plain,
  rejection,
  secret,
  SIG_KEY,
  startPluginHarness,
  struct,
  type PluginHarness,
} from "./harness.js";

const packageVersion = (JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "package.json"), "utf8")) as { version: string }).version;

describe("the plugin's protocol RPCs over gRPC", () => {
  let h: PluginHarness;
  beforeAll(async () => {
    // Not configured: Configure is one of the RPCs under test.
    h = await startPluginHarness({ configure: false });
  });
  afterAll(async () => h?.close());

  it("Handshake accepts secrets, and neither resources nor outputs", async () => {
    const resp = await h.call("handshake", new provproto.ProviderHandshakeRequest());
    expect(resp.getAcceptSecrets()).toBe(true);
    expect(resp.getAcceptResources()).toBe(false);
    expect(resp.getAcceptOutputs()).toBe(false);
  });

  it("GetPluginInfo reports package.json's version", async () => {
    const resp = await h.call("getPluginInfo", new emptyproto.Empty());
    expect(resp).toBeInstanceOf(pluginproto.PluginInfo);
    expect(resp.getVersion()).toBe(packageVersion);
  });

  it("GetSchema returns the package schema, as JSON, with the kinds' tokens", async () => {
    const req = new provproto.GetSchemaRequest();
    req.setVersion(0);
    const resp = await h.call("getSchema", req);
    const schema = JSON.parse(resp.getSchema() as string) as { name: string; resources: Record<string, unknown>; functions: Record<string, unknown> };
    expect(schema.name).toBe("cdc");
    expect(schema.resources).toHaveProperty(["cdc:index:Source"]);
    // The kinds, and a typed resource per catalogued connector and transform type.
    expect(Object.keys(schema.resources).sort()).toEqual([...Object.values(KINDS).map((k) => k.token), ...Object.keys(TYPED_KINDS)].sort());
    expect(schema.resources).toHaveProperty(["cdc:sources:Postgresql"]);
    expect(schema.resources).toHaveProperty(["cdc:destinations:Snowflake"]);
    expect(Object.keys(schema.functions).sort()).toEqual(Object.keys(FUNCTIONS).sort());
    // What is served is the generated file itself.
    expect(resp.getSchema()).toBe(readFileSync(join(__dirname, "..", "..", "..", "generated", "schema.json"), "utf8"));
  });

  const credentials = () => ({ apiUrl: h.emulator.url, clientId: h.emulator.clientId, clientSecret: secret(h.emulator.clientSecret) });
  const checkConfig = (news: Record<string, unknown>) => {
    const req = new provproto.CheckRequest();
    req.setUrn("urn:pulumi:test::plugin-contract::pulumi:providers:cdc::default");
    req.setOlds(struct({}));
    req.setNews(struct(news));
    return h.call("checkConfig", req);
  };

  it("CheckConfig names an unknown key, listing the settings", async () => {
    const resp = await checkConfig({ ...credentials(), apiURL: "http://typo" });
    const failures = failuresOf(resp);
    expect(failures).toEqual([{ property: "apiURL", reason: expect.stringContaining("cdc:apiURL is not a setting of pulumi-cdc; the settings are ") }]);
    expect(failures[0]!.reason).toContain("cdc:apiUrl");
    expect(failures[0]!.reason).toContain("cdc:clientSecret");
  });

  it("CheckConfig refuses a bad apiUrl, naming it", async () => {
    const failures = failuresOf(await checkConfig({ apiUrl: "not a url", clientId: "x", clientSecret: secret("y") }));
    expect(failures).toEqual([{ property: "apiUrl", reason: expect.stringMatching(/cdc:apiUrl/) }]);
  });

  it("CheckConfig refuses plain http to a host that is not loopback, naming apiUrl and the fix; the explicit opt-in passes", async () => {
    const failures = failuresOf(await checkConfig({ ...credentials(), apiUrl: "http://api.example.com" }));
    expect(failures).toEqual([{ property: "apiUrl", reason: expect.stringContaining("is plain http to a host that is not loopback") }]);
    expect(failures[0]!.reason).toContain("Use https://api.example.com");
    expect(failures[0]!.reason).toContain("cdc:allowInsecureHttp true");
    expect(failuresOf(await checkConfig({ ...credentials(), apiUrl: "http://api.example.com", allowInsecureHttp: true }))).toEqual([]);
  });

  it("Configure with plain http to a host that is not loopback fails before any request", async () => {
    h.emulator.resetStats();
    await expect(h.call("configure", configureRequest({ ...h.emulator, url: "http://api.example.com" }))).rejects.toThrow(/cdc:apiUrl "http:\/\/api.example.com" is plain http/);
    expect(h.emulator.stats().tokenRequests.accessToken).toBe(0);
  });

  it("CheckConfig refuses an out-of-range tuning value, naming it", async () => {
    const failures = failuresOf(await checkConfig({ ...credentials(), retryAttempts: "0" }));
    expect(failures).toEqual([{ property: "retryAttempts", reason: expect.stringMatching(/cdc:retryAttempts/) }]);
  });

  it("CheckConfig refuses an admin service id without a tenant id, and an id of the wrong shape, naming the setting", async () => {
    const service = await checkConfig({ ...credentials(), adminServiceId: "665e894ebb3753f38d983cef" });
    expect(failuresOf(service)).toEqual([{ property: "adminServiceId", reason: expect.stringContaining("cdc:adminServiceId is set without cdc:adminTenantId") }]);
    const shape = await checkConfig({ ...credentials(), adminTenantId: "tenant-b" });
    expect(failuresOf(shape)).toEqual([{ property: "adminTenantId", reason: expect.stringContaining("24 lowercase hex characters") }]);
    expect(failuresOf(await checkConfig({ ...credentials(), adminTenantId: "665e894ebb3753f38d983cee" }))).toEqual([]);
  });

  it("CheckConfig names missing credentials, saying how to set them", async () => {
    const failures = failuresOf(await checkConfig({ apiUrl: h.emulator.url }));
    expect(failures).toEqual([{ property: "clientId", reason: expect.stringContaining("cdc:clientId is not set") }]);
    expect(failures[0]!.reason).toContain("cdc:clientSecret is not set");
  });

  it("CheckConfig passes a good config, keeping its secret wrapped and the engine's own keys", async () => {
    const news = { apiUrl: h.emulator.url, clientId: h.emulator.clientId, clientSecret: secret(h.emulator.clientSecret), retryAttempts: "3", version: "0.1.0" };
    const resp = await checkConfig(news);
    expect(failuresOf(resp)).toEqual([]);
    expect(plain(resp.getInputs())).toEqual(news);
  });

  it("DiffConfig: no change is DIFF_NONE; a changed key is DIFF_SOME naming it, secret or not", async () => {
    const Changes = provproto.DiffResponse.DiffChanges;
    const diffConfig = (olds: Record<string, unknown>, news: Record<string, unknown>) => {
      const req = new provproto.DiffRequest();
      req.setUrn("urn:pulumi:test::plugin-contract::pulumi:providers:cdc::default");
      req.setOlds(struct(olds));
      req.setOldInputs(struct(olds));
      req.setNews(struct(news));
      return h.call("diffConfig", req);
    };
    const base = { apiUrl: "http://127.0.0.1:1", clientId: "id", clientSecret: secret("s1") };
    const same = await diffConfig(base, { ...base, clientSecret: secret("s1") });
    expect(same.getChanges()).toBe(Changes.DIFF_NONE);
    expect(same.getDiffsList()).toEqual([]);
    const other = await diffConfig(base, { ...base, apiUrl: "http://127.0.0.1:2", clientSecret: secret("s2") });
    expect(other.getChanges()).toBe(Changes.DIFF_SOME);
    expect([...other.getDiffsList()].sort()).toEqual(["apiUrl", "clientSecret"]);
    // A secret compared by value, whether wrapped or not.
    expect((await diffConfig(base, { ...base, clientSecret: "s1" })).getChanges()).toBe(Changes.DIFF_NONE);
  });

  it("Configure with args (the secret wrapped as the engine wraps it) lets a Create reach the emulator", async () => {
    const resp = await h.call("configure", configureRequest(h.emulator));
    expect(resp.getAcceptsecrets()).toBe(true);
    expect(resp.getSupportspreview()).toBe(false);
    h.emulator.resetStats();
    const created = await h.call("create", createRequest("cdc:index:Tag", "configured", { name: "configured-tag", type: ["sources"], description: "via args" }));
    expect(created.getId()).toMatch(/.+/);
    expect(plain(created.getProperties())).toMatchObject({ name: "configured-tag", description: "via args", custom: true });
    // The emulator saw the plugin's token request with the args' credential, then the create.
    expect(h.emulator.stats().tokenRequests.accessToken).toBe(1);
    expect(h.emulator.stats().requests["POST /tags"]).toBe(1);
    const live = (await h.console.get("/tags", { query: { tag_name: "configured-tag" } })) as unknown;
    expect(JSON.stringify(live)).toContain(created.getId());
    expect(JSON.stringify(plain(created.getProperties()))).not.toContain(SIG_KEY);
    await h.call("delete", deleteRequest("cdc:index:Tag", "configured", created.getId(), plain(created.getProperties())));
  });

  it("Configure with the stack config as variables (cdc:config:*, the engine's older form) works as well", async () => {
    const req = new provproto.ConfigureRequest();
    req.setArgs(struct({}));
    const variables = req.getVariablesMap();
    variables.set("cdc:config:apiUrl", h.emulator.url);
    variables.set("cdc:config:clientId", h.emulator.clientId);
    variables.set("cdc:config:clientSecret", h.emulator.clientSecret);
    await h.call("configure", req);
    const created = await h.call("create", createRequest("cdc:index:Tag", "vars", { name: "via-variables", type: ["sources"], description: "" }));
    expect(plain(created.getProperties())).toMatchObject({ name: "via-variables" });
    await h.call("delete", deleteRequest("cdc:index:Tag", "vars", created.getId(), plain(created.getProperties())));
  });

  it("Configure with a wrong secret: the next Create fails with the API's 401, and the secret is not in the message", async () => {
    await h.call("configure", configureRequest({ ...h.emulator, clientSecret: "wrong-secret-value" }));
    const err = await rejection(h.call("create", createRequest("cdc:index:Tag", "unauthorised", { name: "nope-tag", type: ["sources"] })));
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toMatch(/401|credential|unauthori/i);
    expect(err.details).not.toContain("wrong-secret-value");
    await h.call("configure", configureRequest(h.emulator));
  });

  it("Cancel returns", async () => {
    const resp = await h.call("cancel", new emptyproto.Empty());
    expect(resp).toBeInstanceOf(emptyproto.Empty);
  });

  it("an RPC the plugin does not serve is UNIMPLEMENTED, naming it", async () => {
    const err = await rejection(h.call("construct", new provproto.ConstructRequest()));
    expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(err.details).toContain("construct");
  });
});
