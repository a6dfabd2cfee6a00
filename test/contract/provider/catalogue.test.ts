import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, type ConnectorKind, type ConnectorSpec } from "../../../catalogue/index.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs } from "../../../provider/resources/connector.js";
import { HELPERS } from "../../../sdk/generated/index.js";
import { allArgs, isSecret, requiredArgs, resolvedConfig } from "../../support/catalogue-samples.js";
import { startHarness, type ProviderHarness } from "./harness.js";

// Every connector of the catalogue, through its generated helper and the provider, against the
// emulator: the helper with only the required keys passes check(), is created, and diffs clean.

const providers: Record<ConnectorKind, ConnectorProvider> = { source: new ConnectorProvider(SOURCE), destination: new ConnectorProvider(DESTINATION) };
const all = (["source", "destination"] as const).flatMap((kind) => Object.values(CATALOGUE[kind]).map((spec) => [`${kind} ${spec.code}`, kind, spec] as const));

describe("every catalogued connector through its helper and the provider", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("has a generated helper for each of the 25 sources and 24 destinations", () => {
    expect(all.filter(([, kind]) => kind === "source")).toHaveLength(25);
    expect(all.filter(([, kind]) => kind === "destination")).toHaveLength(24);
    for (const [, kind, spec] of all) expect(typeof (HELPERS[kind] as Record<string, unknown>)[spec.code], spec.code).toBe("function");
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
