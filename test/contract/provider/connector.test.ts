import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { destinationConnectorSchema, sourceConnectorSchema } from "../../../provider/client/index.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { postgresqlSource } from "../../../generated/typescript/index.js";
import { resolvedConfig } from "../../support/catalogue-samples.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

/** pgSourceConfig as the generated helper's properties. */
const pgArgs = {
  databaseHostname: pgSourceConfig["database.hostname.user.defined"],
  databaseUser: pgSourceConfig["database.user"],
  databasePassword: pgSourceConfig["database.password"],
  databaseDbname: pgSourceConfig["database.dbname"],
  schemaIncludeList: pgSourceConfig["schema.include.list"],
  tableIncludeList: pgSourceConfig["table.include.list.user.defined"],
};

const sources = new ConnectorProvider(SOURCE);
const destinations = new ConnectorProvider(DESTINATION);

async function checked(p: ConnectorProvider, news: Record<string, unknown>, olds: Partial<ConnectorInputs> = {}) {
  const { inputs, failures } = await p.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as ConnectorInputs;
}

describe("Source provider against the emulator", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("creates with created_from stamped, reads, updates, pauses and deletes", async () => {
    const inputs = await checked(sources, { logicalName: "orders", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);
    // Outputs keep a digest of each secret value, never the value: they come back to the program,
    // and `pulumi up --debug` prints them.
    const withDigest = { ...pgSourceConfig, "database.password": { secretDigest: expect.stringMatching(/^[0-9a-f]{32}$/) } };
    expect(outs).toMatchObject({ name: inputs.name, status: "Active", desiredState: "active", config: withDigest });
    expect(JSON.stringify(outs)).not.toContain(pgSourceConfig["database.password"]);
    expect(outs.topics.length).toBe(2);
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    expect(live).toMatchObject({ created_from: "terraform", name: inputs.name });
    expect(live!.config!["database.password"]).toBe("********");

    // No diff against itself, nor after a refresh that reads the API's string echo and defaults.
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const read = await sources.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ config: withDigest, drift: { detected: false } });
    // A changed secret is still a change, seen through its digest.
    expect(await sources.diff(id, outs, { ...inputs, config: { ...inputs.config, "database.password": "rotated" } })).toMatchObject({ changes: true });
    expect(await sources.diff(id, read.props as ConnectorOutputs, inputs)).toMatchObject({ changes: false });

    const news = await checked(sources, { logicalName: "orders", connector: "postgresql", config: { ...pgSourceConfig, "table.include.list.user.defined": "public.orders" }, desiredState: "paused" }, inputs);
    expect(news.name).toBe(inputs.name);
    expect(await sources.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await sources.update(id, outs, news);
    expect(updated.outs).toMatchObject({ status: "Paused", topics: [expect.stringContaining("orders")] });
    expect(await sources.diff(id, updated.outs, news)).toMatchObject({ changes: false });

    await sources.delete(id);
    expect((await sources.read(id, updated.outs)).id).toBe("");
    await expect(sources.delete(id)).resolves.toBeUndefined(); // a 404 on delete is success
  });

  it("outputs the API's task statuses (taskStatuses), as of the create, an update and a refresh", async () => {
    const inputs = await checked(sources, { logicalName: "tasks", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);
    const asApi = async () => (await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!.task_statuses;
    expect(outs).toHaveProperty("taskStatuses", await asApi());
    expect(outs).toHaveProperty("taskStatuses", { "0": { state: "RUNNING" } });
    const paused = await sources.update(id, outs, { ...inputs, desiredState: "paused" });
    expect(paused.outs).toHaveProperty("taskStatuses", { "0": { state: "PAUSED" } });
    expect((await sources.read(id, paused.outs)).props).toMatchObject({ taskStatuses: await asApi() });
    await sources.delete(id);
  });

  it("an object read with no recorded config (pulumi import, get()): the masked secret is taken to hold the program's value, so the program as written previews clean", async () => {
    const made = await h.console.post("/sources", { body: { name: `imported-${process.pid}`, connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema });
    const read = await sources.read(made.id!, {} as ConnectorOutputs);
    expect((read.inputs as ConnectorInputs).config["database.password"]).toBe("********");
    // The program supplies the password (from config): no change, no update planned.
    const program = await checked(sources, { ...(read.inputs as object), config: { ...(read.inputs as ConnectorInputs).config, "database.password": "from-config" } });
    expect(await sources.diff(made.id!, read.props as ConnectorOutputs, program)).toMatchObject({ changes: false });
    // Any other key the program changes still is a change.
    const other = await checked(sources, { ...(program as object), config: { ...program.config, "database.dbname": "other" } });
    expect(await sources.diff(made.id!, read.props as ConnectorOutputs, other)).toMatchObject({ changes: true, diffs: ['config["database.dbname"]'] });
  });

  it("replaces on a connector change, deleting first when the name is explicit", async () => {
    const inputs = await checked(sources, { logicalName: "x", name: "named-source", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);
    const mysql = {
      "database.hostname.user.defined": "m",
      "database.user": "u",
      "database.password": "p",
      "database.include.list.user.defined": "shop",
      "table.include.list.user.defined": "shop.orders",
    };
    const news = await checked(sources, { logicalName: "x", name: "named-source", connector: "mysql", config: mysql }, inputs);
    // diffs: the property paths a host can show (the plugin's detailedDiff): here every key the mysql config changes.
    expect(await sources.diff(id, outs, news)).toEqual({
      changes: true,
      replaces: ["connector"],
      deleteBeforeReplace: true,
      diffs: expect.arrayContaining(['config["database.hostname.user.defined"]', 'config["table.include.list.user.defined"]']),
    });
    await sources.delete(id);
  });

  it("detects a source changed outside Pulumi and reconciles it", async () => {
    const inputs = await checked(sources, { logicalName: "drifty", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);
    await h.console.put("/sources/{id}", {
      params: { id },
      body: { name: inputs.name, connector: "postgresql", config: { ...pgSourceConfig, "database.password": "********", "database.hostname.user.defined": "db-replica" } },
    });
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: true });
    const read = await sources.read(id, outs);
    const drift = (read.props as ConnectorOutputs).drift;
    expect(drift).toMatchObject({ detected: true, changedKeys: ["database.hostname.user.defined"] });
    expect(drift.maskedDiff).toContain("+database.hostname.user.defined: db-replica");
    expect(drift.maskedDiff).not.toContain("pg-very-secret");
    const reconciled = await sources.update(id, read.props as ConnectorOutputs, inputs);
    expect(await sources.diff(id, reconciled.outs, inputs)).toMatchObject({ changes: false });
    await sources.delete(id);
  });

  it("adopts an existing source instead of creating one", async () => {
    const made = await h.console.post("/sources", {
      body: { name: "legacy-orders", connector: "postgresql", config: pgSourceConfig, created_from: "web" },
      schema: sourceConnectorSchema,
    });
    const inputs = await checked(sources, { logicalName: "adopted", name: "legacy-orders", connector: "postgresql", config: { ...pgSourceConfig, "database.dbname": "shop2" }, adoptId: made.id });
    const { id, outs } = await sources.create(inputs);
    expect(id).toBe(made.id);
    expect(outs.config["database.dbname"]).toBe("shop2");
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    expect(live!.config!["database.dbname"]).toBe("shop2");
    await expect(sources.create({ ...inputs, adoptId: "no-such-id" })).rejects.toThrow(/adoptId: there is no source with id "no-such-id"/);
    await sources.delete(id);
  });

  it("check() refuses databasePort 99999 naming the field and the fix, before any API call", async () => {
    const built = postgresqlSource({ ...pgArgs, databasePort: 99999 });
    h.emulator.resetStats();
    const { failures } = await sources.check({}, { logicalName: "far-port", connector: built.connector, config: await resolvedConfig(built.config) });
    expect(failures).toEqual([
      { property: 'config["database.port.user.defined"]', reason: "must be a whole number between 1 and 65535 (a TCP port), got 99999: set a value in that range (helper property databasePort)" },
    ]);
    expect(h.emulator.stats().total).toBe(0);
  });

  it("surfaces a duplicate name as a conflict naming the object", async () => {
    const inputs = await checked(sources, { logicalName: "dup", name: "dup-source", connector: "postgresql", config: pgSourceConfig });
    const { id } = await sources.create(inputs);
    await expect(sources.create(inputs)).rejects.toThrow(new RegExp(`409 Conflict.*choose another name, or take it over with adoptId: "${id}"`));
    await sources.delete(id);
  });

  it("after an interrupted pulumi up, a plain create's 409 also says to run pulumi-cdc recover, naming the stack when it is known", async () => {
    // The killed run created the source and never recorded it: the next `pulumi up` creates it again.
    const inputs = await checked(sources, { logicalName: "killed", name: "killed-run-source", connector: "postgresql", config: pgSourceConfig });
    const { id } = await sources.create(inputs);
    vi.stubEnv("PULUMI_STACK", "");
    try {
      const err = (await sources.create(inputs).then(() => new Error("created"), (e: unknown) => e)) as Error;
      expect(err.message).toMatch(new RegExp(`409 Conflict.*Source names are unique: choose another name, or take it over with adoptId: "${id}"\\.`));
      expect(err.message).toContain('created by an IaC tool (created_from "terraform") under this very name: if a `pulumi up` was interrupted');
      expect(err.message).toContain("run `npx pulumi-cdc recover --stack <your stack>` to take it into the stack.");
      vi.stubEnv("PULUMI_STACK", "prod-eu");
      await expect(sources.create(inputs)).rejects.toThrow("run `npx pulumi-cdc recover --stack prod-eu` to take it into the stack.");
    } finally {
      vi.unstubAllEnvs();
    }
    await sources.delete(id);

    // A source someone made in the console: adopt it or rename, but recover has nothing to do with it.
    const made = (await h.console.post("/sources", { body: { name: "console-made-source", connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema })) as { id: string };
    const clash = await checked(sources, { logicalName: "clash", name: "console-made-source", connector: "postgresql", config: pgSourceConfig });
    const refused = (await sources.create(clash).then(() => new Error("created"), (e: unknown) => e)) as Error;
    expect(refused.message).toMatch(new RegExp(`409 Conflict.*choose another name, or take it over with adoptId: "${made.id}"\\.$`));
    expect(refused.message).not.toMatch(/recover/);
    await sources.delete(made.id);
  });

  it("explains an update of an object deleted outside Pulumi", async () => {
    const inputs = await checked(sources, { logicalName: "gone", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);
    await h.console.delete("/sources/{id}", { params: { id } });
    await expect(sources.update(id, outs, inputs)).rejects.toThrow(/deleted outside Pulumi.*pulumi refresh/);
  });
});

describe("Destination provider against the emulator", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    // The back-off in tens of milliseconds (the same policy, eight attempts): the pause that fails
    // below is retried as a run's would be, without waiting the default's ~20 s of back-off.
    h = await startHarness({}, FAST_RETRIES);
  });
  afterAll(async () => h?.close());

  /** A person sets the destination's schema in the web console; the private key sent as the mask keeps its value. */
  const editSchema = (id: string, name: string, schema: string) =>
    h.console.put("/destinations/{id}", {
      params: { id },
      body: { name, connector: "snowflake", config: { ...snowflakeConfig, "snowflake.private.key": "********", "snowflake.schema.name": schema } },
    });

  it("reports drift only for changes made outside Pulumi, never after its own updates", async () => {
    const inputs = await checked(destinations, { logicalName: "wh", connector: "snowflake", config: snowflakeConfig });
    const created = await destinations.create(inputs);
    const id = created.id;
    // Created by Pulumi: the baseline is the original config, with no comparison asked for it.
    expect(created.outs.drift).toMatchObject({ baselineOriginal: true });
    expect(created.outs.drift.baselineTimestamp).toBeUndefined();
    expect(await destinations.diff(id, created.outs, inputs)).toMatchObject({ changes: false });

    // Pulumi's own update: original != current now, and still no drift.
    const news = await checked(destinations, { logicalName: "wh", connector: "snowflake", config: { ...snowflakeConfig, "snowflake.schema.name": "STAGING" } }, inputs);
    const updated = await destinations.update(id, created.outs, news);
    expect(await destinations.diff(id, updated.outs, news)).toMatchObject({ changes: false });
    const clean = await destinations.read(id, updated.outs);
    expect((clean.props as ConnectorOutputs).drift.detected).toBe(false);

    // A person changes it in the console.
    await editSchema(id, news.name, "MANUAL");
    expect(await destinations.diff(id, updated.outs, news)).toMatchObject({ changes: true });
    const drifted = await destinations.read(id, updated.outs);
    const props = drifted.props as ConnectorOutputs;
    expect(props.drift).toMatchObject({ detected: true });
    expect(props.drift.maskedDiff).toContain("MANUAL");
    expect(props.drift.maskedDiff).not.toContain("MIIEvQ");
    expect(props.config["snowflake.schema.name"]).toBe("MANUAL");
    expect(props.config["snowflake.private.key"]).toEqual({ secretDigest: expect.any(String) });
    expect(JSON.stringify(props)).not.toContain(snowflakeConfig["snowflake.private.key"]);

    // Refresh took the live config into the stack: the program still differs from it (a change),
    // but a program that accepts the live config has nothing left to do.
    expect(props.drift.baselineTimestamp).toBe(props.drift.latestTimestamp);
    expect(props.drift.baselineTimestamp).not.toBe(updated.outs.drift.baselineTimestamp);
    expect(await destinations.diff(id, props, news)).toMatchObject({ changes: true });
    const accepting = { ...news, config: { ...news.config, "snowflake.schema.name": "MANUAL" } };
    expect(await destinations.diff(id, props, accepting)).toMatchObject({ changes: false });

    // `pulumi up` puts the program's config back and takes a new baseline.
    const reconciled = await destinations.update(id, props, news);
    expect(await destinations.diff(id, reconciled.outs, news)).toMatchObject({ changes: false });
    const live = await h.console.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id } });
    expect(live!.config!["snowflake.schema.name"]).toBe("STAGING");
    await destinations.delete(id);
  });

  it("a map-valued key comes back as the JSON object the platform echoes: no diff, no drift, and an edit to one entry is seen", async () => {
    const mapping = { users: "JUNIT.USERS", orders: "JUNIT.ORDERS" };
    const inputs = await checked(destinations, { logicalName: "mapped", connector: "snowflake", config: { ...snowflakeConfig, "auto.qa.dedupe.table.mapping": mapping } });
    const { id, outs } = await destinations.create(inputs);
    const live = await h.console.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id } });
    expect(live!.config!["auto.qa.dedupe.table.mapping"]).toEqual(mapping);
    expect(await destinations.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const read = await destinations.read(id, outs);
    expect((read.props as ConnectorOutputs).drift.detected).toBe(false);
    expect(read).not.toHaveProperty("inputs");
    const edited = { ...mapping, orders: "JUNIT.ORDERS_V2" };
    await h.console.put("/destinations/{id}", { params: { id }, body: { name: inputs.name, connector: "snowflake", config: { ...snowflakeConfig, "auto.qa.dedupe.table.mapping": edited } } });
    expect(await destinations.diff(id, outs, inputs)).toMatchObject({ changes: true });
    await destinations.delete(id);
  });

  it("creates a destination in one round trip and still sees an edit made right after it", async () => {
    const inputs = await checked(destinations, { logicalName: "fresh", connector: "snowflake", config: snowflakeConfig });
    h.emulator.resetStats();
    const created = await destinations.create(inputs);
    const id = created.id;
    // The create alone: no config comparison to learn the baseline's timestamp.
    const calls = Object.entries(h.emulator.stats().requests).filter(([route]) => !route.includes("/auth/"));
    expect(Object.fromEntries(calls)).toEqual({ "POST /destinations": 1 });
    expect(await destinations.diff(id, created.outs, inputs)).toMatchObject({ changes: false });
    const cleanRead = await destinations.read(id, created.outs);
    expect((cleanRead.props as ConnectorOutputs).drift.detected).toBe(false);
    // Nothing moved: the engine keeps the stack's inputs (with the program's secret), so none are sent.
    expect(cleanRead).not.toHaveProperty("inputs");

    // An edit in the console before any other Pulumi run is drift, against the original.
    await editSchema(id, inputs.name, "EDITED");
    expect(await destinations.diff(id, created.outs, inputs)).toMatchObject({ changes: true });
    const driftedRead = await destinations.read(id, created.outs);
    const drifted = driftedRead.props as ConnectorOutputs;
    expect(drifted.drift).toMatchObject({ detected: true, baselineTimestamp: drifted.drift.latestTimestamp });
    expect(drifted.drift.maskedDiff).toContain("EDITED");
    // The live config is taken into the stack's inputs too, so the program now differs from them.
    expect(driftedRead.inputs).toMatchObject({ config: { "snowflake.schema.name": "EDITED" } });
    await destinations.delete(id);
  });

  it("follows desiredState through stop, resume and pause", async () => {
    const inputs = await checked(destinations, { logicalName: "life", connector: "snowflake", config: snowflakeConfig, desiredState: "stopped" });
    const { id, outs } = await destinations.create(inputs);
    expect(outs.status).toBe("Stopped");
    const paused = await destinations.update(id, outs, { ...inputs, desiredState: "paused" });
    expect(paused.outs.status).toBe("Paused");
    const active = await destinations.update(id, paused.outs, { ...inputs, desiredState: "active" });
    expect(active.outs.status).toBe("Active");
    await destinations.delete(id);
  });

  it("keeps a half-done destination in state: the partial failure carries its id", async () => {
    const inputs = await checked(destinations, { logicalName: "half", connector: "snowflake", config: snowflakeConfig });
    const { id, outs } = await destinations.create(inputs);
    // The config update goes through; pausing the destination then fails.
    h.emulator.setFaults({ failRate: 1, routes: [`/destinations/${id}/pause`] });
    let error: unknown;
    try {
      await destinations.update(id, outs, { ...inputs, desiredState: "paused", __provider: "serialized-provider" } as ConnectorInputs);
    } catch (err) {
      error = err;
    } finally {
      h.emulator.setFaults({ failRate: 0, routes: ["/"] });
    }
    expect(error).toMatchObject({
      name: "PartialFailure",
      id,
      properties: { name: inputs.name, __provider: "serialized-provider" },
      message: expect.stringMatching(/could not be completed.*503/),
    });
    await destinations.delete(id);
  });
});

describe("changes outside Pulumi that are not config", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("a connector paused by hand shows in diff, and update resumes it", async () => {
    const inputs = await checked(destinations, { logicalName: "paused-by-hand", connector: "snowflake", config: snowflakeConfig });
    const { id, outs } = await destinations.create(inputs);
    await h.console.put("/destinations/{id}/pause", { params: { id } });
    expect(await destinations.diff(id, outs, inputs)).toMatchObject({ changes: true });
    const updated = await destinations.update(id, outs, inputs);
    expect(updated.outs.status).toBe("Active");
    expect(await destinations.diff(id, updated.outs, inputs)).toMatchObject({ changes: false });
    await destinations.delete(id);
  });

  it("a source renamed by hand shows in diff, and update renames it back", async () => {
    const inputs = await checked(sources, { logicalName: "renamed", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);
    await h.console.put("/sources/{id}", {
      params: { id },
      body: { name: "someone-else", connector: "postgresql", config: { ...pgSourceConfig, "database.password": "********" } },
    });
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: true });
    const updated = await sources.update(id, outs, inputs);
    expect(updated.outs.name).toBe(inputs.name);
    expect(await sources.diff(id, updated.outs, inputs)).toMatchObject({ changes: false });
    await sources.delete(id);
  });
});
