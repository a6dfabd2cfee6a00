import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinationConnectorSchema } from "../../../provider/client/index.js";
import { setDriftSink } from "../../../provider/drift.js";
import { chainReadSchema, SMT_CHAIN_PATH } from "../../../provider/smt/api.js";
import { provproto } from "../../../plugin/proto.js";
import { checkRequest, createRequest, deleteRequest, diffRequest, failuresOf, plain, readRequest, secret, startPluginHarness, UNKNOWN, type PluginHarness } from "./harness.js";
import { snowflakeConfig } from "../../support/fixtures.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Props = Record<string, any>;

const Changes = provproto.DiffResponse.DiffChanges;
const Kind = provproto.PropertyDiff.Kind;
const TYPE = "cdc:index:DestinationSmtChain";
const SALT = "plugin-mask-salt-1";

function detailed(resp: any): Record<string, number> {
  const out: Record<string, number> = {};
  resp.getDetaileddiffMap().forEach((d: any, path: string) => {
    out[path] = d.getKind();
  });
  return out;
}

const mask = (more: Props = {}) => ({ type: "mask_field", name: "Mask email", fieldsInclude: ["orders.email"], maskSalt: secret(SALT), ...more });
const route = { type: "regex_router", name: "Route orders", regex: "(.*)_orders" };

describe("DestinationSmtChain over gRPC", () => {
  let h: PluginHarness;
  const drift: string[] = [];
  let destination: string;
  beforeAll(async () => {
    setDriftSink((text) => drift.push(text));
    h = await startPluginHarness();
    destination = (await h.console.post("/destinations", { body: { name: `smt-grpc-${process.pid}`, connector: "snowflake", config: snowflakeConfig, created_from: "web" }, schema: destinationConnectorSchema })).id as string;
  });
  afterAll(async () => {
    setDriftSink((text) => process.stderr.write(text));
    await h?.close();
  });

  it("Check refuses a field of another type and a bad enum with no API call; an unknown destination passes; the salt stays wrapped", async () => {
    const before = h.emulator.stats().total;
    const bad = await h.call("check", checkRequest(TYPE, "chain", { destination, transforms: [{ ...route, maskChar: "#" }, mask({ maskFunction: "md5" })] }));
    expect(failuresOf(bad).map((f) => f.property)).toEqual(["transforms[0].maskChar", "transforms[1].maskFunction"]);
    expect(h.emulator.stats().total).toBe(before);
    const pending = await h.call("check", checkRequest(TYPE, "chain", { destination: UNKNOWN, transforms: [mask()] }));
    expect(failuresOf(pending)).toEqual([]);
    const inputs = plain((await h.call("check", checkRequest(TYPE, "chain", { destination, transforms: [mask({ maskSalt: SALT })] }))).getInputs());
    expect(inputs.transforms[0].maskSalt).toEqual(secret(SALT));
    expect(inputs.transforms[0]).toMatchObject({ enabled: true, maskFunction: "SHA256_TRUNCATE", maskChar: "*" });
  });

  it("Create, a console edit named in detailedDiff, Read for import with the salt a secret mask, Delete", async () => {
    const inputs = plain((await h.call("check", checkRequest(TYPE, "chain", { destination, transforms: [route, mask()] }))).getInputs());
    const created = await h.call("create", createRequest(TYPE, "chain", inputs));
    expect(created.getId()).toBe(destination);
    const outs = plain(created.getProperties());
    expect(JSON.stringify(outs)).not.toContain(SALT);
    expect(outs.transforms[1]).not.toHaveProperty("maskSalt");
    expect((await h.call("diff", diffRequest(TYPE, "chain", destination, outs, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);

    await h.newOperation();
    const live = await h.console.get(SMT_CHAIN_PATH, { params: { id: destination }, schema: chainReadSchema });
    const edited = live.desired.transforms.map((t: any) => ({ id: t.id, type: t.type, name: t.name, enabled: t.enabled, config: t.type === "mask_field" ? { ...t.config, mask_function: "NULLIFY" } : t.config }));
    await h.console.put(SMT_CHAIN_PATH, { params: { id: destination }, body: { expected_revision: live.desired.chain_revision, transforms: edited } });
    const drifted = await h.call("diff", diffRequest(TYPE, "chain", destination, outs, inputs, inputs));
    expect(drifted.getChanges()).toBe(Changes.DIFF_SOME);
    expect(detailed(drifted)).toEqual({ "transforms[1].maskFunction": Kind.UPDATE });
    expect(drift.join("")).toContain('transforms[1].maskFunction of "Mask email" was changed from "SHA256_TRUNCATE" to "NULLIFY"');

    const imported = await h.call("read", readRequest(TYPE, "chain", destination, {}));
    expect(plain(imported.getInputs())).toEqual({
      destination,
      transforms: [
        { type: "regex_router", name: "Route orders", regex: "(.*)_orders" },
        { type: "mask_field", name: "Mask email", fieldsInclude: ["orders.email"], maskFunction: "NULLIFY", maskSalt: secret("********") },
      ],
    });
    const other = await h.call("diff", diffRequest(TYPE, "chain", destination, outs, { destination: "another", transforms: inputs.transforms }, inputs));
    expect(other.getReplacesList()).toEqual(["destination"]);

    await h.call("delete", deleteRequest(TYPE, "chain", destination, outs));
    expect((await h.console.get(SMT_CHAIN_PATH, { params: { id: destination }, schema: chainReadSchema })).desired.transforms).toEqual([]);
  });
});
