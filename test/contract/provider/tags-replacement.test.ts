import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceConnectorSchema } from "../../../provider/client/index.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { startHarness, type ProviderHarness } from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

const sources = new ConnectorProvider(SOURCE);
const destinations = new ConnectorProvider(DESTINATION);

async function checked(p: ConnectorProvider, news: Record<string, unknown>, olds: Partial<ConnectorInputs> = {}) {
  const { inputs, failures } = await p.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as ConnectorInputs;
}

describe("tags on sources and destinations", () => {
  let h: ProviderHarness;
  let tagA: string;
  let tagB: string;
  beforeAll(async () => {
    h = await startHarness();
    const tag = async (name: string) => ((await h.console.post("/tags", { body: { name, type: ["sources", "destinations"] } })) as { id: string }).id;
    tagA = await tag("tag-a");
    tagB = await tag("tag-b");
  });
  afterAll(async () => h?.close());

  const liveTags = async (id: string) => (await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!["tags"] ?? [];

  it("sends tags on create and update; unset leaves them alone, [] clears them", async () => {
    const base = { logicalName: "tagged", connector: "postgresql", config: pgSourceConfig };
    const inputs = await checked(sources, { ...base, tags: [tagA] });
    const { id, outs } = await sources.create(inputs);
    expect(outs.tags).toEqual([tagA]);
    expect(await liveTags(id)).toEqual([tagA]);
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });

    const both = await checked(sources, { ...base, tags: [tagB, tagA] }, inputs);
    expect(await sources.diff(id, outs, both)).toMatchObject({ changes: true, replaces: [] });
    const updated = (await sources.update(id, outs, both)).outs;
    expect(await liveTags(id)).toEqual([tagB, tagA]);

    const unmanaged = await checked(sources, base, both);
    expect(await sources.diff(id, updated, unmanaged)).toMatchObject({ changes: false });
    const left = (await sources.update(id, updated, unmanaged)).outs;
    expect(await liveTags(id)).toEqual([tagB, tagA]);

    const none = await checked(sources, { ...base, tags: [] }, unmanaged);
    await sources.update(id, left, none);
    expect(await liveTags(id)).toEqual([]);
    await sources.delete(id);
  });

  it("sees tags changed outside Pulumi in diff and takes them on refresh", async () => {
    const inputs = await checked(sources, { logicalName: "tag-drift", connector: "postgresql", config: pgSourceConfig, tags: [tagA] });
    const { id, outs } = await sources.create(inputs);
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    await h.console.put("/sources/{id}", { params: { id }, body: { name: live!.name, connector: "postgresql", config: { ...pgSourceConfig, "database.password": "********" }, tags: [tagB] } });
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: true });
    const read = await sources.read(id, outs);
    expect(read.inputs).toMatchObject({ tags: [tagB] });
    // A program that does not manage tags does not see them drift.
    const { tags: _t, ...unmanaged } = outs;
    void _t;
    expect(await sources.diff(id, unmanaged as ConnectorOutputs, { ...inputs, tags: undefined } as ConnectorInputs)).toMatchObject({ changes: false });
    await sources.delete(id);
  });
});

describe("replace-on-change keys", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("replace the connector when changed (a Snowflake destination's ingestion.mode), and renew an autoname", async () => {
    const base = { logicalName: "wh", connector: "snowflake" };
    const inputs = await checked(destinations, { ...base, config: { ...snowflakeConfig, "ingestion.mode": "append" } });
    const { id, outs } = await destinations.create(inputs);
    const upsert = await checked(destinations, { ...base, config: { ...snowflakeConfig, "ingestion.mode": "upsert" } }, inputs);
    expect(upsert.name).not.toBe(inputs.name);
    expect(await destinations.diff(id, outs, upsert)).toEqual({
      changes: true,
      replaces: ['config["ingestion.mode"]'],
      deleteBeforeReplace: false,
      // The renewed autoname is a change too.
      diffs: ['config["ingestion.mode"]', "name"],
    });

    // Other keys update in place; an explicit name is deleted first (names are unique).
    const schema = await checked(destinations, { ...base, config: { ...snowflakeConfig, "ingestion.mode": "append", "snowflake.schema.name": "OTHER" } }, inputs);
    expect(schema.name).toBe(inputs.name);
    expect(await destinations.diff(id, outs, schema)).toMatchObject({ changes: true, replaces: [] });
    const named = await checked(destinations, { ...base, name: inputs.name, config: { ...snowflakeConfig, "ingestion.mode": "upsert" } }, inputs);
    expect(await destinations.diff(id, outs, named)).toMatchObject({ replaces: ['config["ingestion.mode"]'], deleteBeforeReplace: true });
    await destinations.delete(id);
  });
});
