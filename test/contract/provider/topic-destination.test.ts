import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectorSchema } from "../../../provider/client/index.js";
import { setDriftSink } from "../../../provider/drift.js";
import { provider } from "../../../provider/index.js";
import { UNKNOWN } from "../../../provider/normalize.js";
import { getTopicDestination, LINK_TURNS, TopicDestinationProvider, type TopicDestinationOutputs } from "../../../provider/resources/topicDestination.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { snowflakeConfig } from "../../support/fixtures.js";

// The TopicDestination kind against the emulator over HTTP: check, create, read (refresh and
// import), diff (a console detach is drift), update (attaches again), delete (404 is done); the
// links of one destination take turns (the API's read-modify-write of the shared binding), the
// links of different destinations do not.
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

  describe("links of one destination take turns; links of different destinations do not", () => {
    const PUT = "PUT /topics/:topic_id/destinations/:destination_id";
    const links = provider("TopicDestination");
    let fanSource: string;
    const resources = Array.from({ length: 20 }, (_, i) => `r${String(i + 1).padStart(2, "0")}`);
    const topic = (r: string) => `source_${fanSource}.hubspot.${r}`;
    const newDestination = async (name: string) =>
      String((await h.console.post("/destinations", { body: { name, connector: "snowflake", config: snowflakeConfig, created_from: "web" }, schema: connectorSchema("destination") })).id);
    const sentTo = async (destination: string) => (await getTopicDestination(h.console, { topicId: topic(resources[0]!), destinationId: destination }))?.topic_ids ?? [];

    beforeAll(async () => {
      const source = await h.console.post("/sources", {
        body: { name: "fan", connector: "hubspot", config: { resources, token: "pat-secret" }, created_from: "web" },
        schema: connectorSchema("source"),
      });
      fanSource = String(source.id);
    });

    it("a second link to a destination waits for the first: its PUT is not sent while the first's is unanswered", async () => {
      const destination = await newDestination("turns");
      const hold = h.emulator.hold(PUT, 0);
      const both = Promise.all(resources.slice(0, 2).map((r) => links.create({ topicId: topic(r), destinationId: destination })));
      try {
        await hold.reached;
        // The first link's PUT waits at the server; the second link waits its turn in the provider.
        expect(hold.waiting()).toBe(1);
        expect(LINK_TURNS.waiting(destination)).toBe(1);
      } finally {
        // The held PUT loses its connection unanswered and is sent again (a PUT is idempotent).
        hold.release();
      }
      await both;
      expect((await sentTo(destination)).sort()).toEqual(resources.slice(0, 2).map(topic).sort());
    });

    it("twenty links to one destination made at once all hold, and twenty deletes at once detach them all", async () => {
      const destination = await newDestination("fan-in");
      const made = await Promise.all(resources.map((r) => links.create({ topicId: topic(r), destinationId: destination })));
      expect((await sentTo(destination)).sort()).toEqual(resources.map(topic).sort());
      await Promise.all(made.map((m) => links.delete(m.id, m.outs as TopicDestinationOutputs)));
      for (const r of resources) expect(await getTopicDestination(h.console, { topicId: topic(r), destinationId: destination })).toBeUndefined();
    });

    it("links to two destinations are written at once: both PUTs read their bindings before either writes", async () => {
      const [east, west] = [await newDestination("east"), await newDestination("west")];
      // Reached only when two binding changes are in flight together: a turn shared by the two
      // destinations would leave the first waiting here for a second that never comes.
      const together = h.emulator.gatherBindingWrites(2);
      const made = Promise.all([east, west].map((d) => links.create({ topicId: topic(resources[0]!), destinationId: d })));
      await together.reached;
      await made;
      expect(await sentTo(east)).toEqual([topic(resources[0]!)]);
      expect(await sentTo(west)).toEqual([topic(resources[0]!)]);
    });
  });
});
