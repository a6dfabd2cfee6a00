import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../../catalogue/index.js";
import { destinationConnectorSchema, sourceConnectorSchema } from "../../../provider/client/index.js";
import { setDriftSink } from "../../../provider/drift.js";
import { provproto } from "../../../plugin/proto.js";
import { TYPED_KINDS } from "../../../provider/typed/kinds.js";
import {
  checkRequest,
  createRequest,
  deleteRequest,
  diffRequest,
  failuresOf,
  invokeRequest,
  plain,
  readRequest,
  rejection,
  secret,
  startPluginHarness,
  UNKNOWN,
  updateRequest,
  type PluginHarness,
} from "./harness.js";
import { requiredConfig } from "../../support/catalogue-samples.js";
import { consoleEdit } from "../../support/web.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

// The typed resources over real gRPC: a cdc:sources:Postgresql and a cdc:destinations:Snowflake
// go through Check, Create, Diff, Read (refresh and import), Update and Delete on the same core
// as cdc:index:Source and cdc:index:Destination, every property path in typed names.

/* eslint-disable @typescript-eslint/no-explicit-any */
type Props = Record<string, any>;

const PG = "cdc:sources:Postgresql";
const SNOWFLAKE = "cdc:destinations:Snowflake";
const Changes = provproto.DiffResponse.DiffChanges;
const Kind = provproto.PropertyDiff.Kind;

/** pgSourceConfig, as a program of cdc:sources:Postgresql writes it. */
const pgProps = {
  databaseHostname: "db.internal",
  databasePort: 5432,
  databaseUser: "cdc",
  databasePassword: "pg-very-secret",
  databaseDbname: "shop",
  schemaIncludeList: "public",
  tableIncludeList: "public.orders,public.customers",
};

/** snowflakeConfig, as a program of cdc:destinations:Snowflake writes it. */
const snowflakeProps = {
  snowflakeUrlName: "acme.snowflakecomputing.com",
  snowflakeUserName: "LOADER",
  snowflakePrivateKey: "MIIEvQ-snowflake-private-key",
  snowflakeDatabaseName: "ANALYTICS",
  snowflakeSchemaName: "RAW",
};

function detailed(resp: any): Record<string, { kind: number; inputDiff: boolean }> {
  const out: Record<string, { kind: number; inputDiff: boolean }> = {};
  resp.getDetaileddiffMap().forEach((d: any, path: string) => {
    out[path] = { kind: d.getKind(), inputDiff: d.getInputdiff() };
  });
  return out;
}

describe("typed resources over gRPC", () => {
  let h: PluginHarness;
  const drift: string[] = [];
  beforeAll(async () => {
    setDriftSink((text) => drift.push(text));
    h = await startPluginHarness();
    // The plugin's token, fetched once: from here on any request the emulator sees is a real call.
    await h.call("invoke", invokeRequest("cdc:index:getRoles", {}));
  });
  afterAll(async () => {
    setDriftSink((text) => process.stderr.write(text));
    await h?.close();
  });

  async function check(type: string, name: string, news: Props, olds: Props = {}) {
    const before = h.emulator.stats().total;
    const resp = await h.call("check", checkRequest(type, name, news, olds));
    return { failures: failuresOf(resp), inputs: plain(resp.getInputs()), requests: h.emulator.stats().total - before };
  }

  async function checked(type: string, name: string, news: Props, olds: Props = {}) {
    const { failures, inputs } = await check(type, name, news, olds);
    expect(failures).toEqual([]);
    return inputs;
  }

  it("Check: failures name the typed property (range, type, required, unknown), with no API call", async () => {
    const { databaseUser: _user, ...noUser } = pgProps;
    void _user;
    const bad = await check(PG, "orders", { ...noUser, databasePort: 99999, heartbeatEnabled: "sometimes", snapshotReadOnly: "Maybe", databasePorts: 1 });
    expect(bad.requests).toBe(0);
    expect(bad.failures).toEqual(
      expect.arrayContaining([
        { property: "databasePorts", reason: `is not a property of ${PG}: did you mean "databasePort"?` },
        { property: "databaseUser", reason: "is required by the postgresql source connector: set it" },
        { property: "databasePort", reason: expect.stringMatching(/^must be a whole number between 1 and 65535 \(a TCP port\), got 99999: set a value in that range$/) },
        { property: "heartbeatEnabled", reason: 'must be true or false, got "sometimes"' },
        { property: "snapshotReadOnly", reason: expect.stringContaining('must be one of "Yes", "No"; got "Maybe"') },
      ]),
    );
    expect(bad.failures).toHaveLength(5);
    for (const f of bad.failures) expect(f.property).not.toContain("config");
  });

  it("Check: typed inputs, the secret property wrapped even when sent plain (and named in plainSecretInputs for the policy pack), an autoname, no connector or config", async () => {
    const { failures, inputs, requests } = await check(PG, "orders", pgProps);
    expect(failures).toEqual([]);
    expect(requests).toBe(0);
    expect(inputs).toEqual({
      ...pgProps,
      databasePassword: secret(pgProps.databasePassword),
      plainSecretInputs: ["databasePassword"],
      name: expect.stringMatching(/^orders-[0-9a-f]{8}$/),
      autonamed: true,
      desiredState: "active",
    });
    // A property the program marked secret stays secret.
    const marked = await checked(PG, "orders", { ...pgProps, databaseUser: secret("cdc") }, inputs);
    expect(marked.databaseUser).toEqual(secret("cdc"));
    expect(marked.name).toBe(inputs.name);
  });

  it("Check: a typed resource that needs no setting passes with none set, its connector the token's", async () => {
    for (const token of ["cdc:sources:Webhook", "cdc:destinations:Weaviate"]) {
      const { failures, inputs, requests } = await check(token, "hooks", {});
      expect(failures, token).toEqual([]);
      expect(requests).toBe(0);
      expect(inputs, token).toMatchObject({ name: expect.stringMatching(/^hooks-[0-9a-f]{8}$/) });
      expect(inputs, token).not.toHaveProperty("connector");
    }
  });

  it("Postgresql: a preview Create makes no API call; Create writes the platform's keys; Diff, Read, Update and Delete in typed names", async () => {
    const inputs = await checked(PG, "orders", pgProps);
    const before = h.emulator.stats().total;
    const preview = await h.call("create", createRequest(PG, "orders", inputs, true));
    expect(h.emulator.stats().total).toBe(before);
    const planned = plain(preview.getProperties());
    expect(planned).toMatchObject({ name: inputs.name, databaseHostname: "db.internal", databasePort: 5432 });
    for (const output of TYPED_KINDS[PG].outputs.filter((p) => !(p.name in inputs)).map((p) => p.name)) expect(planned[output]).toBe(UNKNOWN);
    expect(planned).not.toHaveProperty("databasePassword");
    expect(planned).not.toHaveProperty("config");

    const created = await h.call("create", createRequest(PG, "orders", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ name: inputs.name, status: "Active", desiredState: "active", databaseHostname: "db.internal", tableIncludeList: "public.orders,public.customers", topics: ["public.orders", "public.customers"] });
    expect(outs).not.toHaveProperty("config");
    expect(outs).not.toHaveProperty("connector");
    expect(outs).not.toHaveProperty("databasePassword");
    // The password's digest, kept apart and still a secret; the value itself never comes back.
    expect(outs.secretDigests).toEqual({ databasePassword: secret({ secretDigest: expect.stringMatching(/^[0-9a-f]{32}$/) }) });
    expect(JSON.stringify(outs)).not.toContain(pgProps.databasePassword);
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    expect(live).toMatchObject({ name: inputs.name, connector: "postgresql", created_from: "terraform" });
    expect(live!.config).toMatchObject({ "database.hostname.user.defined": "db.internal", "table.include.list.user.defined": "public.orders,public.customers" });

    const same = await h.call("diff", diffRequest(PG, "orders", id, outs, inputs, inputs));
    expect(same.getChanges()).toBe(Changes.DIFF_NONE);

    // Refresh of a clean source: no inputs back (the engine keeps its own), outputs typed.
    const read = await h.call("read", readRequest(PG, "orders", id, outs, inputs));
    expect(read.getId()).toBe(id);
    expect(read.hasInputs()).toBe(false);
    expect(plain(read.getProperties())).toMatchObject({ databaseHostname: "db.internal", secretDigests: { databasePassword: secret(expect.anything()) } });

    // Fewer tables, and paused: the diff names tableIncludeList and desiredState.
    const news = await checked(PG, "orders", { ...pgProps, tableIncludeList: "public.orders", desiredState: "paused" }, inputs);
    const diff = await h.call("diff", diffRequest(PG, "orders", id, outs, news, inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_SOME);
    expect(detailed(diff)).toEqual({ tableIncludeList: { kind: Kind.UPDATE, inputDiff: true }, desiredState: { kind: Kind.UPDATE, inputDiff: true } });
    expect([...diff.getDiffsList()].sort()).toEqual(["desiredState", "tableIncludeList"]);
    const plannedUpdate = await h.call("update", updateRequest(PG, "orders", id, outs, news, true));
    expect(plain(plannedUpdate.getProperties())).toMatchObject({ tableIncludeList: "public.orders", status: UNKNOWN });
    const updated = await h.call("update", updateRequest(PG, "orders", id, outs, news));
    const updatedOuts = plain(updated.getProperties());
    expect(updatedOuts).toMatchObject({ status: "Paused", desiredState: "paused", tableIncludeList: "public.orders", topics: ["public.orders"] });
    expect(updatedOuts.secretDigests.databasePassword).toEqual(outs.secretDigests.databasePassword);
    expect((await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!.config!["table.include.list.user.defined"]).toBe("public.orders");

    // A value unknown in a preview passes Check and shows in the Diff under its typed name.
    const pending = await checked(PG, "orders", { ...pgProps, desiredState: "paused", tableIncludeList: "public.orders", databaseHostname: UNKNOWN }, news);
    expect(pending.databaseHostname).toBe(UNKNOWN);
    const unknownDiff = await h.call("diff", diffRequest(PG, "orders", id, updatedOuts, pending, news));
    expect(detailed(unknownDiff)).toEqual({ databaseHostname: { kind: Kind.UPDATE, inputDiff: true } });

    await h.call("delete", deleteRequest(PG, "orders", id, updatedOuts));
    expect(await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } })).toBeUndefined();
    expect((await h.call("read", readRequest(PG, "orders", id, updatedOuts, news))).getId()).toBe("");
  });

  it("Snowflake: a console edit is a detailed diff of snowflakeSchemaName; refresh takes it in; an ingestionMode change replaces", async () => {
    const base = { ...snowflakeProps, ingestionMode: "append" };
    const inputs = await checked(SNOWFLAKE, "wh", base);
    expect(inputs.snowflakePrivateKey).toEqual(secret(snowflakeProps.snowflakePrivateKey));
    const created = await h.call("create", createRequest(SNOWFLAKE, "wh", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ status: "Active", snowflakeSchemaName: "RAW", ingestionMode: "append", drift: { baselineOriginal: true } });
    expect(outs).not.toHaveProperty("snowflakePrivateKey");
    expect((await h.call("diff", diffRequest(SNOWFLAKE, "wh", id, outs, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);

    // A person sets another schema in the web console; the next preview has a plugin of its own.
    await h.newOperation();
    await consoleEdit(h.console, "destination", id, { config: { "snowflake.schema.name": "MANUAL" } });
    const drifted = await h.call("diff", diffRequest(SNOWFLAKE, "wh", id, outs, inputs, inputs));
    expect(drifted.getChanges()).toBe(Changes.DIFF_SOME);
    expect(detailed(drifted)).toEqual({ snowflakeSchemaName: { kind: Kind.UPDATE, inputDiff: true } });
    expect(drifted.getDiffsList()).toEqual(["snowflakeSchemaName"]);
    expect(drift).toEqual([expect.stringContaining("+snowflake.schema.name: MANUAL")]);

    await h.newOperation();
    const read = await h.call("read", readRequest(SNOWFLAKE, "wh", id, outs, inputs));
    const readProps = plain(read.getProperties());
    expect(readProps).toMatchObject({ snowflakeSchemaName: "MANUAL", drift: { detected: true, changedKeys: ["snowflake.schema.name"] } });
    const readInputs = plain(read.getInputs());
    expect(readInputs).toMatchObject({ snowflakeSchemaName: "MANUAL", snowflakePrivateKey: secret(expect.anything()) });
    expect(readInputs).not.toHaveProperty("config");
    expect(readInputs).not.toHaveProperty("logicalName");

    // Update puts the program's schema back, with the key Pulumi knows.
    const updated = await h.call("update", updateRequest(SNOWFLAKE, "wh", id, readProps, inputs));
    const updatedOuts = plain(updated.getProperties());
    expect(updatedOuts.snowflakeSchemaName).toBe("RAW");
    const live = await h.console.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id } });
    expect(live!.config!["snowflake.schema.name"]).toBe("RAW");
    expect(JSON.stringify(updatedOuts)).not.toContain(snowflakeProps.snowflakePrivateKey);
    expect((await h.call("diff", diffRequest(SNOWFLAKE, "wh", id, updatedOuts, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);

    // ingestion.mode cannot change in place: the replacement is named by the typed property.
    const upsert = await checked(SNOWFLAKE, "wh", { ...base, ingestionMode: "upsert" }, inputs);
    const replacing = await h.call("diff", diffRequest(SNOWFLAKE, "wh", id, updatedOuts, upsert, inputs));
    expect(replacing.getReplacesList()).toEqual(["ingestionMode"]);
    expect(detailed(replacing).ingestionMode).toEqual({ kind: Kind.UPDATE_REPLACE, inputDiff: true });
    expect(replacing.getDeletebeforereplace()).toBe(false);

    await h.call("delete", deleteRequest(SNOWFLAKE, "wh", id, updatedOuts));
    expect((await h.call("read", readRequest(SNOWFLAKE, "wh", id, updatedOuts, inputs))).getId()).toBe("");
  });

  it("Read for import rebuilds typed inputs as a program writes them, which preview with no changes", async () => {
    const dest = (await h.console.post("/destinations", { body: { name: "warehouse", connector: "snowflake", config: snowflakeConfig }, schema: destinationConnectorSchema })) as { id: string };
    const resp = await h.call("read", readRequest(SNOWFLAKE, "wh", dest.id, {}, {}));
    expect(resp.getId()).toBe(dest.id);
    const inputs = plain(resp.getInputs());
    // No defaults, no default state, the key as the API's mask, still a secret; only the schema's inputs.
    expect(inputs).toEqual({ ...snowflakeProps, snowflakePrivateKey: secret("********"), name: "warehouse" });
    const schemaInputs = TYPED_KINDS[SNOWFLAKE].inputs.map((p) => p.name);
    for (const key of Object.keys(inputs)) expect(schemaInputs).toContain(key);
    const props = plain(resp.getProperties());
    expect(props).toMatchObject({ name: "warehouse", status: "Active", snowflakeSchemaName: "RAW", secretDigests: { snowflakePrivateKey: secret("********") } });

    const check = await h.call("check", checkRequest(SNOWFLAKE, "wh", inputs, inputs));
    expect(failuresOf(check)).toEqual([]);
    const diff = await h.call("diff", diffRequest(SNOWFLAKE, "wh", dest.id, props, plain(check.getInputs()), inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_NONE);

    const pg = (await h.console.post("/sources", { body: { name: "legacy", connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema })) as { id: string };
    const pgRead = plain((await h.call("read", readRequest(PG, "legacy", pg.id, {}, {}))).getInputs());
    // The port is the default (5432): left out, as a program would.
    const { databasePort: _port, ...withoutPort } = pgProps;
    void _port;
    expect(pgRead).toEqual({ ...withoutPort, databasePassword: secret("********"), name: "legacy" });
  });

  it("MapFilter: the name is the platform's transforms.name; Check, Create, Diff, Read and Delete in typed names", async () => {
    const MAP_FILTER = "cdc:transforms:MapFilter";
    const bad = await check(MAP_FILTER, "clean", { transformsInputJobParallelism: 50, transformsLanguage: "Rust", deploy: true });
    expect(bad.requests).toBe(0);
    expect(bad.failures).toEqual(
      expect.arrayContaining([
        { property: "transformsInputJobParallelism", reason: expect.stringContaining("between 1 and 20") },
        { property: "transformsLanguage", reason: expect.stringContaining('"JavaScript"') },
        { property: "implementation", reason: expect.stringContaining("is required to deploy a transform") },
      ]),
    );
    const props = { name: "orders-clean", transformsInputTopicPattern: "public\\.(.*)", transformsOutputTopicPattern: "clean.$1", transformsInputJobParallelism: 4 };
    const inputs = await checked(MAP_FILTER, "clean", props);
    expect(inputs).toEqual({ ...props, autonamed: false, deploy: false, deployTimeoutSec: 600 });
    const created = await h.call("create", createRequest(MAP_FILTER, "clean", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ name: "orders-clean", transformsInputJobParallelism: 4, topics: ["clean.customers", "clean.orders"] });
    expect(outs).not.toHaveProperty("config");
    expect(outs).not.toHaveProperty("transform");
    expect((await h.call("diff", diffRequest(MAP_FILTER, "clean", id, outs, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);
    const wider = await checked(MAP_FILTER, "clean", { ...props, transformsInputJobParallelism: 8 }, inputs);
    expect((await h.call("diff", diffRequest(MAP_FILTER, "clean", id, outs, wider, inputs))).getChanges()).toBe(Changes.DIFF_SOME);

    const imported = plain((await h.call("read", readRequest(MAP_FILTER, "clean", id, {}, {}))).getInputs());
    expect(imported).toEqual({ name: "orders-clean", transformsInputTopicPattern: props.transformsInputTopicPattern, transformsOutputTopicPattern: "clean.$1", transformsInputJobParallelism: 4 });
    await h.call("delete", deleteRequest(MAP_FILTER, "clean", id, outs));
    expect((await h.call("read", readRequest(MAP_FILTER, "clean", id, outs, inputs))).getId()).toBe("");
  });

  it("an import of another connector's object under a typed token says which token it is", async () => {
    const other = (await h.console.post("/destinations", {
      body: { name: "pg-sink", connector: "postgresql", config: requiredConfig(CATALOGUE.destination.postgresql!) },
      schema: destinationConnectorSchema,
    })) as { id: string };
    const err = await rejection(h.call("read", readRequest(SNOWFLAKE, "wrong", other.id, {}, {})));
    expect(err.details).toContain(`destination ${other.id} is a postgresql destination, not snowflake: import it as cdc:destinations:Postgresql`);
  });
});
