import { describe, expect, it } from "vitest";
import { SECRET_SIG, SIG_KEY, secret } from "../../../plugin/marshal.js";
import { provproto, structproto } from "../../../plugin/proto.js";
import { REQUEST_FIELDS, decodeRequest, encodeResponse, resourceProviderService, type Method } from "../../../plugin/service.js";

// provider.proto's field numbers, as plugin/service.ts lists them, checked against the generated
// classes of @pulumi/pulumi: a request they write is read field for field, and a response written
// here is what they read.
/* eslint-disable @typescript-eslint/no-explicit-any */
const struct = (v: unknown) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));
const olds = { name: "orders", config: { "database.password": secret("old-pw"), port: 5432 } };
const news = { name: "orders", config: { "database.password": secret("new-pw"), port: 5433 }, tags: [secret("t")] };

/** Every field of each request set, those the plugin does not read too (they must be skipped). */
function fullRequest(method: Method): any {
  const set = (req: any, name: string, value: unknown) => {
    const setter = `set${name[0].toUpperCase()}${name.slice(1)}`;
    if (typeof req[setter] !== "function") throw new Error(`${method}: no ${setter}`);
    req[setter](value);
  };
  const Req = { check: provproto.CheckRequest, diff: provproto.DiffRequest, create: provproto.CreateRequest, read: provproto.ReadRequest, update: provproto.UpdateRequest, delete: provproto.DeleteRequest }[method];
  const req = new Req();
  const values: Record<string, unknown> = {
    urn: "urn:pulumi:dev::p::cdc:index:Source::orders",
    id: "src-123",
    olds: struct(olds),
    news: struct(news),
    properties: struct(olds),
    inputs: struct(news),
    oldInputs: struct({ other: "ignored" }),
    oldOutputs: struct({ other: "ignored" }),
    preview: true,
    name: "orders",
    type: "cdc:index:Source",
    timeout: 30,
    resourceStatusAddress: "127.0.0.1:1",
    resourceStatusToken: "token",
    ignorechangesList: ["config"],
  };
  for (const [name, value] of Object.entries(values)) {
    const setter = `set${name[0].toUpperCase()}${name.slice(1)}`;
    if (typeof req[setter] === "function") set(req, name, value);
  }
  return req;
}

describe("decodeRequest", () => {
  for (const method of Object.keys(REQUEST_FIELDS) as Method[]) {
    it(`reads ${method}'s fields as the generated classes wrote them`, () => {
      const req = fullRequest(method);
      const decoded = decodeRequest(method, req.serializeBinary()) as Record<string, any>;
      for (const [name, kind] of Object.values(REQUEST_FIELDS[method]) as [string, string][]) {
        const getter = `get${name[0].toUpperCase()}${name.slice(1)}`;
        const expected = req[getter]();
        if (kind === "struct") {
          const plain = JSON.parse(JSON.stringify(expected.toJavaScript(), (_k, v) => (v && v[SIG_KEY] === SECRET_SIG ? v.value : v)));
          expect(decoded[name].value, `${method}.${name}`).toEqual(plain);
          expect(decoded[name].secrets.size, `${method}.${name} secrets`).toBeGreaterThan(0);
        } else {
          expect(decoded[name], `${method}.${name}`).toBe(expected);
        }
      }
    });
  }

  it("gives protobuf's defaults for fields the engine left out", () => {
    const decoded = decodeRequest("read", new provproto.ReadRequest().serializeBinary());
    expect(decoded.id).toBe("");
    expect(decoded.urn).toBe("");
    expect(decoded.properties.value).toEqual({});
    expect(decoded.inputs.secrets.size).toBe(0);
  });
});

describe("encodeResponse", () => {
  const read = (method: Method, bytes: Buffer) => resourceProviderService()[method].responseDeserialize(bytes);

  it("check: inputs with secrets wrapped, and failures", () => {
    const resp = read("check", encodeResponse("check", { inputs: { value: { a: "x", b: 1 }, secrets: [["a"]] }, failures: [{ property: "config", reason: "bad" }] }));
    expect(resp.getInputs().toJavaScript()).toEqual({ a: secret("x"), b: 1 });
    expect(resp.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()])).toEqual([["config", "bad"]]);
  });

  it("diff: changes, replaces, delete-before-replace, diffs and the detailed diff", () => {
    const Kind = provproto.PropertyDiff.Kind;
    const resp = read(
      "diff",
      encodeResponse("diff", {
        changes: provproto.DiffResponse.DiffChanges.DIFF_SOME,
        replaces: ["connector"],
        deleteBeforeReplace: true,
        diffs: ["config", "connector"],
        detailedDiff: new Map([
          ['config["a"]', Kind.UPDATE],
          ["connector", Kind.UPDATE_REPLACE],
        ]),
      }),
    );
    expect(resp.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(resp.getReplacesList()).toEqual(["connector"]);
    expect(resp.getDeletebeforereplace()).toBe(true);
    expect(resp.getDiffsList()).toEqual(["config", "connector"]);
    expect(resp.getHasdetaileddiff()).toBe(true);
    const detailed: Record<string, [number, boolean]> = {};
    resp.getDetaileddiffMap().forEach((d: any, k: string) => (detailed[k] = [d.getKind(), d.getInputdiff()]));
    expect(detailed).toEqual({ 'config["a"]': [Kind.UPDATE, true], connector: [Kind.UPDATE_REPLACE, true] });
  });

  it("diff: no changes is DIFF_NONE with nothing else", () => {
    const resp = read("diff", encodeResponse("diff", { changes: provproto.DiffResponse.DiffChanges.DIFF_NONE, replaces: [] }));
    expect(resp.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(resp.getHasdetaileddiff()).toBe(false);
    expect(resp.getDiffsList()).toEqual([]);
  });

  it("create, read, update and delete", () => {
    const created = read("create", encodeResponse("create", { id: "src-1", properties: { value: { p: "v" }, secrets: [["p"]] } }));
    expect([created.getId(), created.getProperties().toJavaScript()]).toEqual(["src-1", { p: secret("v") }]);
    const got = read("read", encodeResponse("read", { id: "src-1", properties: { value: { p: 1 } }, inputs: { value: { q: 2 } } }));
    expect([got.getId(), got.getProperties().toJavaScript(), got.getInputs().toJavaScript()]).toEqual(["src-1", { p: 1 }, { q: 2 }]);
    const gone = read("read", encodeResponse("read", { id: "" }));
    expect([gone.getId(), gone.getProperties()]).toEqual(["", undefined]);
    const updated = read("update", encodeResponse("update", { properties: { value: { p: null } } }));
    expect(updated.getProperties().toJavaScript()).toEqual({ p: null });
    expect(encodeResponse("delete", {}).length).toBe(0);
  });

  it("keeps the generated codecs of every other RPC", () => {
    const service = resourceProviderService();
    expect(service.configure.requestDeserialize(new provproto.ConfigureRequest().serializeBinary())).toBeInstanceOf(provproto.ConfigureRequest);
    expect(service.check.path).toBe("/pulumirpc.ResourceProvider/Check");
  });
});
