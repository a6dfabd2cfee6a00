import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAll } from "../../../cli/check.js";
import { trackedConnectors, type TrackedConnector } from "../../../cli/state.js";
import { secretKeySet, catalogueEntry } from "../../../provider/catalogue.js";
import { AuthError, destinationConnectorSchema, sourceConnectorSchema } from "../../../provider/client/index.js";
import { MASK } from "../../../provider/normalize.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { startHarness, type ProviderHarness } from "../provider/harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";
import { ConsoleClient } from "../../support/web.js";

// The drift checks against the emulator over HTTP, on state produced by the real providers:
// each case creates objects with the provider, turns its outputs into a checkpoint the way the
// engine stores them (secret values encrypted), changes something "in the web console" and
// checks what the drift command would report.

const sources = new ConnectorProvider(SOURCE);
const destinations = new ConnectorProvider(DESTINATION);

const ENCRYPTED = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:opaque" };
const SECRET_VALUES = [pgSourceConfig["database.password"], snowflakeConfig["snowflake.private.key"]];

function stateEntry(kind: "Source" | "Destination", id: string, outs: ConnectorOutputs) {
  const secrets = secretKeySet(catalogueEntry(kind === "Source" ? "source" : "destination", outs.connector), outs.config);
  const config = Object.fromEntries(Object.entries(outs.config).map(([k, v]) => [k, secrets.has(k) ? ENCRYPTED : v]));
  return { urn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/cdc:${kind}::${outs.logicalName}`, type: `pulumi-nodejs:dynamic/cdc:${kind}`, id, outputs: { ...outs, config } };
}

async function create(p: ConnectorProvider, news: Record<string, unknown>): Promise<{ id: string; outs: ConnectorOutputs }> {
  const { inputs, failures } = await p.check({}, news);
  expect(failures).toEqual([]);
  return p.create(inputs as ConnectorInputs);
}

describe("drift checks against the emulator", () => {
  let h: ProviderHarness;
  let api: ConsoleClient;
  let tracked: TrackedConnector[];
  let sourceId: string;
  let destinationId: string;

  beforeAll(async () => {
    h = await startHarness();
    api = new ConsoleClient({ settings: { apiUrl: h.emulator.url, clientId: h.emulator.clientId, clientSecret: h.emulator.clientSecret, createdFrom: "terraform" } });
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  it("reports nothing right after Pulumi's own writes, secrets included", async () => {
    const source = await create(sources, { logicalName: "orders", connector: "postgresql", config: pgSourceConfig });
    const destination = await create(destinations, { logicalName: "warehouse", connector: "snowflake", config: snowflakeConfig, desiredState: "paused" });
    sourceId = source.id;
    destinationId = destination.id;
    tracked = trackedConnectors({ version: 3, deployment: { resources: [stateEntry("Source", source.id, source.outs), stateEntry("Destination", destination.id, destination.outs)] } });
    expect(tracked.map((t) => t.hiddenKeys)).toEqual([["database.password"], ["snowflake.private.key"]]);

    const results = await checkAll(api, tracked);
    expect(results.map((r) => [r.type, r.id, r.drift.detected])).toEqual([
      ["source", sourceId, false],
      ["destination", destinationId, false],
    ]);
    expect(results[1]!.drift.status).toEqual({ desired: "paused", live: "Paused", drifted: false });
  });

  it("reports a destination edited in the console with the API's masked diff, and never the secret", async () => {
    const live = await h.console.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id: destinationId } });
    const config = { ...live!.config, "snowflake.schema.name": "CONSOLE_EDIT", "snowflake.private.key": MASK };
    await h.console.put("/destinations/{id}", { params: { id: destinationId }, body: { name: live!.name, connector: "snowflake", config } });

    const [source, destination] = await checkAll(api, tracked);
    expect(source!.drift.detected).toBe(false);
    expect(destination!.drift).toMatchObject({ detected: true, status: { drifted: false } });
    expect(destination!.drift.maskedDiff).toContain("+snowflake.schema.name: CONSOLE_EDIT");
    expect(Date.parse(destination!.drift.latestTimestamp!)).toBeGreaterThan(Date.parse(destination!.drift.baselineTimestamp!));
    for (const secret of SECRET_VALUES) expect(JSON.stringify([source, destination])).not.toContain(secret);
  });

  it("reports a source edited in the console by key, comparing only keys the program set", async () => {
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id: sourceId } });
    const config = { ...live!.config, "database.hostname.user.defined": "replica.internal", "database.password": "console-typed-new-password" };
    await h.console.put("/sources/{id}", { params: { id: sourceId }, body: { name: live!.name, connector: "postgresql", config } });

    const [source] = await checkAll(api, tracked);
    // The password changed too, but it is encrypted in the state: neither compared nor shown.
    expect(source!.drift).toMatchObject({ detected: true, changedKeys: ["database.hostname.user.defined"] });
    expect(source!.drift.maskedDiff).toContain("-database.hostname.user.defined: db.internal");
    expect(source!.drift.maskedDiff).toContain("+database.hostname.user.defined: replica.internal");
    expect(source!.drift.maskedDiff).not.toContain("console-typed-new-password");
  });

  it("reports a status changed in the console, but not a state the program asked for", async () => {
    await h.console.put("/sources/{id}/pause", { params: { id: sourceId } });
    // The program wants the destination paused: stopping it is drift; resuming and pausing it again is not.
    await h.console.put("/destinations/{id}/stop", { params: { id: destinationId } });
    const [source, destination] = await checkAll(api, tracked);
    expect(source!.drift.status).toEqual({ desired: "active", live: "Paused", drifted: true });
    expect(destination!.drift.status).toEqual({ desired: "paused", live: "Stopped", drifted: true });

    await h.console.put("/destinations/{id}/resume", { params: { id: destinationId } });
    await h.console.put("/destinations/{id}/pause", { params: { id: destinationId } });
    const [, again] = await checkAll(api, tracked);
    expect(again!.drift.status).toEqual({ desired: "paused", live: "Paused", drifted: false });
  });

  it("reports objects deleted outside Pulumi as drift, not as an error", async () => {
    await h.console.delete("/sources/{id}", { params: { id: sourceId } });
    await h.console.delete("/destinations/{id}", { params: { id: destinationId } });
    const results = await checkAll(api, tracked);
    for (const r of results) expect(r.drift).toEqual({ detected: true, deleted: true, maskedDiff: "", changedKeys: [] });
  });

  it("fails as a whole on an API error (here: wrong credentials) rather than reporting a partial result", async () => {
    const wrong = new ConsoleClient({ settings: { apiUrl: h.emulator.url, clientId: h.emulator.clientId, clientSecret: "not-the-secret", createdFrom: "terraform" }, retry: { maxAttempts: 1 } });
    try {
      await expect(checkAll(wrong, tracked)).rejects.toBeInstanceOf(AuthError);
    } finally {
      await wrong.close();
    }
  });
});
