import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinationConnectorSchema, setDebugLogger } from "../../../provider/client/index.js";
import { DestinationSmtChainProvider, type DestinationSmtChainInputs, type DestinationSmtChainOutputs } from "../../../provider/resources/destinationSmtChain.js";
import { MASK } from "../../../provider/normalize.js";
import { chainReadSchema, SMT_CHAIN_PATH } from "../../../provider/smt/api.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { snowflakeConfig } from "../../support/fixtures.js";

const chains = new DestinationSmtChainProvider();
const SALT = "pepper-salt-0001";
const PUT = "PUT /destinations/:destination_id/smt-chain";

const mask = (more: Record<string, unknown> = {}) => ({ type: "mask_field", name: "Mask email", fieldsInclude: ["orders.email"], maskSalt: SALT, ...more });
const route = (more: Record<string, unknown> = {}) => ({ type: "regex_router", name: "Route orders", regex: "(.*)_orders", replacement: "$1", ...more });

async function checked(destination: string, transforms: unknown[]): Promise<DestinationSmtChainInputs> {
  const { inputs, failures } = await chains.check({}, { destination, transforms });
  expect(failures).toEqual([]);
  return inputs as unknown as DestinationSmtChainInputs;
}

let n = 0;

describe("DestinationSmtChain provider against the emulator", () => {
  let h: ProviderHarness;
  const debug: string[] = [];
  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
    setDebugLogger((line) => debug.push(line));
  });
  afterAll(async () => {
    setDebugLogger(undefined);
    await h?.close();
  });

  const newDestination = async () =>
    (await h.console.post("/destinations", { body: { name: `smt-dst-${++n}-${process.pid}`, connector: "snowflake", config: snowflakeConfig, created_from: "web" }, schema: destinationConnectorSchema })).id as string;
  const live = (id: string) => h.console.get(SMT_CHAIN_PATH, { params: { id }, schema: chainReadSchema });
  const puts = () => h.emulator.stats().requests[PUT] ?? 0;

  it("check() refuses bad entries before any API call, naming entry and field", async () => {
    h.emulator.resetStats();
    const { failures } = await chains.check({}, { destination: "", transforms: [mask({ maskFunction: "ROT13" }), route({ fieldsExclude: ["x"] })] });
    expect(failures.map((f) => f.property).sort()).toEqual(["destination", "transforms[0].maskFunction", "transforms[1].fieldsExclude"]);
    expect(h.emulator.stats().total).toBe(0);
  });

  it("creates, reads, diffs clean, and keeps the salt out of outputs, config and logs", async () => {
    const destination = await newDestination();
    debug.length = 0;
    const inputs = await checked(destination, [mask(), route()]);
    const { id, outs } = await chains.create(inputs);
    expect(id).toBe(destination);
    expect(outs.transforms.map((t) => t.name)).toEqual(["Mask email", "Route orders"]);
    expect(outs.chainRevision).toMatch(/\S/);
    expect(outs.instanceIds).toHaveLength(2);
    expect(JSON.stringify(outs)).not.toContain(SALT);
    const chain = await live(destination);
    expect(chain.desired.transforms[0]).toMatchObject({ kind: "typed", type: "mask_field", alias: "MaskField1", configured_secret_paths: ["/mask_salt"] });
    expect(JSON.stringify(chain)).not.toContain(SALT);
    expect(debug.some((l) => l.includes("smt-chain"))).toBe(true);
    expect(debug.join("\n")).not.toContain(SALT);

    const again = await checked(destination, [mask(), route()]);
    expect(await chains.diff(id, outs, again)).toMatchObject({ changes: false, replaces: [] });
    const read = await chains.read(id, outs);
    expect(read.id).toBe(destination);
    expect(read).not.toHaveProperty("inputs");
  });

  it("updates in place, re-sending the salt only when it changed", async () => {
    const destination = await newDestination();
    const { outs } = await chains.create(await checked(destination, [mask(), route()]));
    const ids = outs.instanceIds;
    const renamed = await checked(destination, [mask({ maskFunction: "MD5" }), route()]);
    const diff = await chains.diff(destination, outs, renamed);
    expect(diff).toMatchObject({ changes: true, replaces: [], diffs: ["transforms[0].maskFunction"] });
    const { outs: after } = await chains.update(destination, outs, renamed);
    expect(after.instanceIds).toEqual(ids);
    expect((await live(destination)).desired.transforms[0]!).toMatchObject({ id: ids[0], configured_secret_paths: ["/mask_salt"], config: { mask_function: "MD5" } });

    const newSalt = await checked(destination, [mask({ maskFunction: "MD5", maskSalt: "pepper-salt-0002" }), route()]);
    expect((await chains.diff(destination, after, newSalt)).diffs).toEqual(["transforms[0].maskSalt"]);
    const dropped = await checked(destination, [mask({ maskFunction: "MD5", maskSalt: undefined }), route()]);
    const { outs: cleared } = await chains.update(destination, after, dropped);
    expect((await live(destination)).desired.transforms[0]!.configured_secret_paths).toEqual([]);
    expect(cleared.secretDigests).toEqual({});
  });

  it("shows a console edit in diff, entry and field named, and update puts the program's chain back", async () => {
    const destination = await newDestination();
    const inputs = await checked(destination, [mask(), route()]);
    const { outs } = await chains.create(inputs);
    const seen = await live(destination);
    const edited = seen.desired.transforms.map((t) => ({ id: t.id, type: (t as { type: string }).type, name: t.name, enabled: t.enabled, config: (t as { config: object }).config }));
    (edited[0]!.config as Record<string, unknown>).mask_function = "REDACT";
    await h.console.put(SMT_CHAIN_PATH, { params: { id: destination }, body: { expected_revision: seen.desired.chain_revision, transforms: edited } });

    const diff = await chains.diff(destination, outs, inputs);
    expect(diff).toMatchObject({ changes: true, diffs: ["transforms[0].maskFunction"] });
    const { outs: restored } = await chains.update(destination, outs, inputs);
    const back = await live(destination);
    expect(back.desired.transforms[0]!).toMatchObject({ config: { mask_function: "SHA256_TRUNCATE" }, configured_secret_paths: ["/mask_salt"] });
    expect(restored.chainRevision).toBe(back.desired.chain_revision);
  });

  it("a stale revision is a 409 that says to refresh and names the revisions; the PUT is sent once", async () => {
    const destination = await newDestination();
    const { outs } = await chains.create(await checked(destination, [route()]));
    const seen = await live(destination);
    await h.console.put(SMT_CHAIN_PATH, { params: { id: destination }, body: { expected_revision: seen.desired.chain_revision, transforms: [] } });
    const now = (await live(destination)).desired.chain_revision;
    const before = puts();
    const err = await chains.update(destination, outs, await checked(destination, [route({ replacement: "$1_x" })])).catch((e: Error) => e);
    expect(String(err)).toMatch(/changed since Pulumi read it \(smt_revision_conflict/);
    expect(String(err)).toContain(`Pulumi saw revision ${outs.chainRevision}; it is now at revision ${now}`);
    expect(String(err)).toContain("`pulumi refresh`");
    expect(puts() - before).toBe(1);
  });

  it("a 422 names each issue's entry, instance and key; after a 503 or a lost answer the chain is read back, and the write lands once", async () => {
    const destination = await newDestination();
    const { outs } = await chains.create(await checked(destination, [mask(), route()]));
    // A rule of the platform's that check() did not apply (the inputs skip it here): the API's 422 is the last word.
    const bad = await checked(destination, [mask(), route()]);
    (bad.transforms[0] as Record<string, unknown>).fieldsInclude = ["orders.email,orders.phone"];
    await chains.diff(destination, outs, bad);
    const before = puts();
    const err = await chains.update(destination, outs, bad).catch((e: Error) => e);
    expect(puts() - before).toBe(1);
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toContain("smt_validation_failed");
    expect(String(err)).toContain(`transforms[0].fieldsInclude[0] (transform "Mask email", instance ${outs.instanceIds[0]}): String should match pattern`);
    expect(String(err)).not.toContain(SALT);

    // The PUT is a compare-and-swap on the revision read: after a failure whose outcome is unknown
    // the chain is read back. A 503 wrote nothing, so it is sent again against the same revision;
    // a lost answer wrote it, so the read-back is the result and nothing is sent again.
    let recorded = outs;
    for (const [fault, sent, replacement] of [[{ failNext: 1 }, 2, "$1_y"], [{ loseNext: 1 }, 1, "$1_z"]] as const) {
      const inputs = await checked(destination, [mask(), route({ replacement })]);
      await chains.diff(destination, recorded, inputs);
      h.emulator.setFaults({ ...fault, routes: [`/destinations/${destination}/smt-chain`] });
      const count = puts();
      const updated = await chains.update(destination, recorded, inputs).finally(() => h.emulator.setFaults({ failNext: 0, loseNext: 0, routes: ["/"] }));
      expect(puts() - count).toBe(sent);
      const now = await live(destination);
      expect(now.desired.transforms[1]!).toMatchObject({ config: { replacement } });
      expect(updated.outs.chainRevision).toBe(now.desired.chain_revision);
      recorded = updated.outs;
    }
  });

  it("imports a chain as a program writes it, salt as the mask, and that program diffs clean", async () => {
    const destination = await newDestination();
    await h.console.put(SMT_CHAIN_PATH, {
      params: { id: destination },
      body: {
        transforms: [
          { type: "mask_field", name: "Mask email", enabled: false, config: { fields_include: ["orders.email"] }, secret_operations: [{ pointer: "/mask_salt", operation: "replace", value: "console-salt" }] },
          { type: "regex_router", name: "Route orders", config: { regex: "(.*)_orders" } },
        ],
      },
    });
    const imported = await chains.read(destination, {});
    expect(imported.inputs).toEqual({
      destination,
      transforms: [
        { type: "mask_field", name: "Mask email", enabled: false, fieldsInclude: ["orders.email"], maskSalt: MASK },
        { type: "regex_router", name: "Route orders", regex: "(.*)_orders" },
      ],
    });
    const program = await checked(destination, imported.inputs!.transforms);
    expect(await chains.diff(destination, imported.props as DestinationSmtChainOutputs, program)).toMatchObject({ changes: false });
    // Adopted by create (pulumi-cdc import's program on the dynamic host): no write.
    const before = puts();
    await chains.create(program);
    expect(puts()).toBe(before);
  });

  it("an empty chain reads as such, delete empties the chain, and a chain made elsewhere is not overwritten by create", async () => {
    const destination = await newDestination();
    expect((await chains.read(destination, {})).inputs).toEqual({ destination, transforms: [] });
    const { outs } = await chains.create(await checked(destination, [route()]));
    await chains.delete(destination, outs);
    expect((await live(destination)).desired.transforms).toEqual([]);
    // Created again after a destroy: the chain exists, so the write carries its revision.
    const again = await chains.create(await checked(destination, [mask()]));
    expect(again.outs.transforms).toHaveLength(1);
    const err = await chains.create(await checked(destination, [route()])).catch((e: Error) => e);
    expect(String(err)).toMatch(/already has an SMT chain of 1 transform\(s\) that differs from the program/);
    expect(String(err)).toContain('transforms[0] was changed to mask_field "Mask email" (was regex_router "Route orders")');
    expect(String(err)).not.toContain(SALT);
  });
});
