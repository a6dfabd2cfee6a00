import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectorSchema } from "../../../provider/client/index.js";
import { setDriftSink } from "../../../provider/drift.js";
import { provider } from "../../../provider/index.js";
import { UNKNOWN } from "../../../provider/normalize.js";
import { getTopicDestination, TopicDestinationProvider, type TopicDestinationOutputs } from "../../../provider/resources/topicDestination.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { snowflakeConfig } from "../../support/fixtures.js";

// The TopicDestination kind against the emulator over HTTP: check, create, read (refresh and
// import), diff (a console detach is drift), update (attaches again), delete (404 is done).
const bindings = new TopicDestinationProvider();

describe("TopicDestination provider against the emulator", () => {
  let h: ProviderHarness;
  let sourceId: string;
  let destinationId: string;
  let topicId: string;

  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
    const source = await h.console.post("/sources", {
      body: { name: "crm", connector: "hubspot", config: { resources: ["contacts", "deals"], token: "pat-secret" }, created_from: "web" },
      schema: connectorSchema("source"),
    });
    const destination = await h.console.post("/destinations", {
      body: { name: "warehouse", connector: "snowflake", config: snowflakeConfig, created_from: "web" },
      schema: connectorSchema("destination"),
    });
    sourceId = String(source.id);
    destinationId = String(destination.id);
    topicId = `source_${sourceId}.hubspot.contacts`;
  });
  afterAll(async () => h?.close());

  it("check() names a bad topic id and a missing destination, with the fix, before any API call", async () => {
    h.emulator.resetStats();
    const bad = await bindings.check({}, { topicId: "public.orders" });
    expect(bad.failures).toEqual([
      { property: "topicId", reason: "must be an API source's topic id, source_<source id>.<connector>.<resource> (e.g. source_<id>.hubspot.contacts)" },
      { property: "destinationId", reason: "is required: the Destination resource, or its id" },
    ]);
    expect(h.emulator.stats().requests).toEqual({});
    // Both unknown in a first preview (the source and destination are created in the same run).
    expect((await provider("TopicDestination").check({}, { topicId: UNKNOWN, destinationId: UNKNOWN })).failures).toEqual([]);
  });

  it("creates, reads back, imports by <topic_id>|<destination_id>, and sees a console detach as drift that up repairs", async () => {
    const { inputs } = await bindings.check({}, { topicId, destinationId });
    const created = await bindings.create(inputs as never);
    expect(created.id).toBe(`${topicId}|${destinationId}`);
    expect(created.outs).toMatchObject({ topicId, destinationId, sourceId });
    expect(created.outs.bindingId).not.toBe("");
    const outs = created.outs as TopicDestinationOutputs;

    const refreshed = await bindings.read(created.id, outs);
    expect(refreshed).toMatchObject({ id: created.id, props: outs, inputs: { topicId, destinationId } });
    const imported = await bindings.read(created.id, {});
    expect(imported.inputs).toEqual({ topicId, destinationId });
    expect(await bindings.diff(created.id, outs, { topicId, destinationId })).toMatchObject({ changes: false, replaces: [] });

    // Detached in the console: a plain preview shows it, and up attaches it again.
    await h.console.delete("/topics/{t}/destinations/{d}", { params: { t: topicId, d: destinationId } });
    const warnings: string[] = [];
    setDriftSink((text) => void warnings.push(text));
    try {
      expect(await bindings.diff(created.id, outs, { topicId, destinationId })).toMatchObject({ changes: true, replaces: [] });
    } finally {
      setDriftSink((text) => process.stderr.write(text));
    }
    expect(warnings.join("")).toContain("is no longer sent to destination");
    await bindings.update(created.id, outs, { topicId, destinationId });
    expect(await getTopicDestination(h.console, { topicId, destinationId })).toBeDefined();

    // Another topic replaces; so does another destination.
    expect(await bindings.diff(created.id, outs, { topicId: `source_${sourceId}.hubspot.deals`, destinationId })).toMatchObject({ replaces: ["topicId"] });

    await bindings.delete(created.id, outs);
    expect(await getTopicDestination(h.console, { topicId, destinationId })).toBeUndefined();
    // Already detached: a delete is done, not an error.
    await bindings.delete(created.id, outs);
    expect((await bindings.read(created.id, outs)).id).toBe("");
  });

  it("fails create for a CDC source's topic with the API's reason", async () => {
    const pg = await h.console.post("/sources", {
      body: {
        name: "orders",
        connector: "postgresql",
        config: {
          "database.hostname.user.defined": "db",
          "database.user": "cdc",
          "database.password": "pw",
          "database.dbname": "shop",
          "schema.include.list": "public",
          "table.include.list.user.defined": "public.orders",
        },
        created_from: "web",
      },
      schema: connectorSchema("source"),
    });
    await expect(bindings.create({ topicId: `source_${pg.id}.public.orders`, destinationId })).rejects.toThrow(/API sources only/);
  });
});
