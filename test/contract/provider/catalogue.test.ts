import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, type ConnectorKind, type ConnectorSpec } from "../../../catalogue/index.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs } from "../../../provider/resources/connector.js";
import { HELPERS } from "../../../generated/typescript/index.js";
import { allArgs, isSecret, requiredArgs, requiredConfig, resolvedConfig } from "../../support/catalogue-samples.js";
import { startHarness, type ProviderHarness } from "./harness.js";

// Every connector of the catalogue, through its generated helper and the provider, against the
// emulator: the helper with only the required keys passes check(), is created, and diffs clean.

const providers: Record<ConnectorKind, ConnectorProvider> = { source: new ConnectorProvider(SOURCE), destination: new ConnectorProvider(DESTINATION) };
const every = (["source", "destination"] as const).flatMap((kind) => Object.values(CATALOGUE[kind]).map((spec) => [`${kind} ${spec.code}`, kind, spec] as const));
// CDC connectors: API sources are created Pending, echo only the keys set and check fields by
// auth mode, under another contract (test/contract/provider/api-sources.test.ts).
const all = every.filter(([, , spec]) => spec.family !== "api");

describe("every catalogued connector through its helper and the provider", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("has a generated helper for each of the 33 sources (8 of them API sources) and 24 destinations", () => {
    expect(every.filter(([, kind]) => kind === "source")).toHaveLength(33);
    expect(every.filter(([, kind]) => kind === "destination")).toHaveLength(24);
    for (const [, kind, spec] of every) expect(typeof (HELPERS[kind] as Record<string, unknown>)[spec.code], spec.code).toBe("function");
  });

  it.each(all)("%s: required keys only are accepted, created, and come back with no diff", async (_label, kind, spec: ConnectorSpec) => {
    const helper = (HELPERS[kind] as Record<string, (args: object) => { connector: string; config: Record<string, unknown> }>)[spec.code]!;
    const built = helper(requiredArgs(spec));
    expect(built.connector).toBe(spec.code);
    for (const k of spec.keys.filter((k) => k.required && k.secret)) expect(await isSecret(built.config[k.key]), k.key).toBe(true);

    const p = providers[kind];
    const news = { logicalName: `all-${spec.code}`, connector: built.connector, config: await resolvedConfig(built.config) };
    const { inputs, failures } = await p.check({}, news);
    expect(failures).toEqual([]);
    const { id, outs } = await p.create(inputs as ConnectorInputs);
    expect(outs.status).toBe("Active");
    expect(await p.diff(id, outs, inputs as ConnectorInputs)).toMatchObject({ changes: false });
    // And after a refresh, which reads the API's string echo of every value.
    const read = await p.read(id, outs);
    expect(read.id).toBe(id);
    expect(await p.diff(id, read.props as never, inputs as ConnectorInputs)).toMatchObject({ changes: false });
    await p.delete(id);
  });

  it.each(all)("%s: check() names the key of a missing required key, a wrong type and a bad enum value, before any API call", async (_label, kind, spec: ConnectorSpec) => {
    const p = providers[kind];
    const config = requiredConfig(spec);
    const settable = spec.keys.filter((k) => !k.computed);
    const required = settable.find((k) => k.required);
    const others = settable.filter((k) => k !== required);
    const typed = others.find((k) => k.type === "integer" || k.type === "boolean") ?? others.find((k) => k.type === "string" && !k.enum);
    const enumKey = others.find((k) => k.enum && k !== typed);
    const broken: Record<string, unknown> = { ...config };
    if (required) delete broken[required.key];
    if (typed) broken[typed.key] = typed.type === "string" ? 42 : "not-a-value";
    if (enumKey) broken[enumKey.key] = "not-an-allowed-value";
    const before = h.emulator.stats().total;
    const { failures } = await p.check({}, { logicalName: `bad-${spec.code}`, connector: spec.code, config: broken });
    expect(h.emulator.stats().total).toBe(before);
    const named = (key: string) => failures.find((f) => f.property === `config["${key}"]`);
    if (required) expect(named(required.key)?.reason, required.key).toMatch(/is required by the .* connector: add it to config/);
    if (typed) expect(named(typed.key)?.reason, typed.key).toMatch(/must be (a whole number|true or false|a string)/);
    if (enumKey) expect(named(enumKey.key)?.reason, enumKey.key).toMatch(/must be one of /);
    expect(failures.length).toBe([required, typed, enumKey].filter(Boolean).length);
  });

  it.each(all)("%s: every settable key set, in the wire form, comes back with no diff", async (_label, kind, spec: ConnectorSpec) => {
    const helper = (HELPERS[kind] as Record<string, (args: object) => { connector: string; config: Record<string, unknown> }>)[spec.code]!;
    const built = helper(allArgs(spec));
    const p = providers[kind];
    const news = { logicalName: `every-${spec.code}`, connector: built.connector, config: await resolvedConfig(built.config) };
    const { inputs, failures } = await p.check({}, news);
    expect(failures).toEqual([]);
    const { id, outs } = await p.create(inputs as ConnectorInputs);
    const read = await p.read(id, outs);
    expect(read.props).toMatchObject({ drift: { detected: false } });
    expect(await p.diff(id, read.props as never, inputs as ConnectorInputs)).toMatchObject({ changes: false });
    await p.delete(id);
  });
});
