import { describe, expect, it } from "vitest";
import { provider, type ResourceKind } from "../../../provider/index.js";
import { UNKNOWN } from "../../../provider/normalize.js";
import { underUnknown } from "../../../provider/unknowns.js";

type Bag = Record<string, unknown>;
const core = (kind: ResourceKind) =>
  provider(kind) as unknown as {
    check(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: Array<{ property: string; reason: string }> }>;
    diff(id: string, olds: Bag, news: Bag): Promise<{ changes: boolean; replaces?: string[]; diffs?: string[] }>;
  };

const pg = {
  "database.hostname.user.defined": "db",
  "database.user": "cdc",
  "database.password": "pw",
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders",
};

/** A valid program's inputs per kind; each row of the matrix makes one reference in it unknown. */
const valid: Record<string, Bag> = {
  Pipeline: {
    logicalName: "p",
    source: { id: "src-1", name: "orders", connector: "postgresql" },
    destination: { id: "dst-1", name: "warehouse", connector: "snowflake" },
    sourceTopics: ["public.orders"],
    transforms: [{ id: "tr-1", topics: ["clean.orders"] }],
    tags: ["tag-1"],
  },
  Source: { logicalName: "s", connector: "postgresql", config: pg, tags: ["tag-1"] },
  Transform: { logicalName: "t", transform: "map_filter", config: {}, tags: ["tag-1"] },
  Topic: { topicId: "source_1.public.orders", partitionCount: 3, tags: ["tag-1"] },
  Agent: { logicalName: "a", instructions: "watch", llmConnectionId: "llm-1", httpConnectionIds: ["http-1"] },
  KafkaUser: {
    logicalName: "k",
    username: "reader",
    password: "a-long-password-1",
    kafkaAcls: [{ topicName: "orders", operation: "READ", resourcePatternType: "LITERAL" }],
  },
  ClientCredential: { roleIds: ["role_viewer"] },
};

/** kind, what is unknown, and the inputs with it unknown. */
const matrix: Array<[string, string, (b: Bag) => Bag]> = [
  ["Pipeline", "the whole source", (b) => ({ ...b, source: UNKNOWN })],
  ["Pipeline", "the whole destination", (b) => ({ ...b, destination: UNKNOWN })],
  ["Pipeline", "source.id", (b) => ({ ...b, source: { ...(b.source as Bag), id: UNKNOWN } })],
  ["Pipeline", "sourceTopics", (b) => ({ ...b, sourceTopics: UNKNOWN })],
  ["Pipeline", "the whole transforms list", (b) => ({ ...b, transforms: UNKNOWN })],
  ["Pipeline", "a whole transforms entry", (b) => ({ ...b, transforms: [UNKNOWN] })],
  ["Pipeline", "transforms[0].id", (b) => ({ ...b, transforms: [{ id: UNKNOWN, topics: ["clean.orders"] }] })],
  ["Pipeline", "transforms[0].topics (a Transform's topics output)", (b) => ({ ...b, transforms: [{ id: UNKNOWN, topics: UNKNOWN }] })],
  ["Pipeline", "tags from Tags of the same program", (b) => ({ ...b, tags: UNKNOWN })],
  ["Source", "tags from Tags of the same program", (b) => ({ ...b, tags: UNKNOWN })],
  ["Source", "the whole config", (b) => ({ ...b, config: UNKNOWN })],
  ["Source", "a config value", (b) => ({ ...b, config: { ...pg, "database.hostname.user.defined": UNKNOWN } })],
  ["Transform", "tags", (b) => ({ ...b, tags: UNKNOWN })],
  ["Transform", "the whole config", (b) => ({ ...b, config: UNKNOWN })],
  ["Topic", "topicId (a Source's topicIds[0])", (b) => ({ ...b, topicId: UNKNOWN })],
  ["Topic", "tags", (b) => ({ ...b, tags: UNKNOWN })],
  ["Agent", "llmConnectionId", (b) => ({ ...b, llmConnectionId: UNKNOWN })],
  ["Agent", "the whole httpConnectionIds list", (b) => ({ ...b, httpConnectionIds: UNKNOWN })],
  ["Agent", "one HTTP connection id", (b) => ({ ...b, httpConnectionIds: [UNKNOWN] })],
  ["KafkaUser", "the whole ACL list", (b) => ({ ...b, kafkaAcls: UNKNOWN })],
  ["KafkaUser", "a whole ACL", (b) => ({ ...b, kafkaAcls: [UNKNOWN] })],
  ["KafkaUser", "an ACL's topic", (b) => ({ ...b, kafkaAcls: [{ topicName: UNKNOWN, operation: "READ", resourcePatternType: "LITERAL" }] })],
  ["ClientCredential", "the whole roleIds list", (b) => ({ ...b, roleIds: UNKNOWN })],
];

describe("a value unknown during a preview passes check, on every kind that takes a reference", () => {
  it.each(matrix)("%s: %s", async (kind, _what, unknownIn) => {
    expect(await core(kind as ResourceKind).check({}, valid[kind]!)).toMatchObject({ failures: [] });
    const checked = await core(kind as ResourceKind).check({}, unknownIn(valid[kind]!));
    expect(checked.failures).toEqual([]);
  });

  it("names what a missing required input is, not the union's \"Invalid input\"", async () => {
    expect((await core("Agent").check({}, { logicalName: "a", llmConnectionId: UNKNOWN })).failures).toEqual([
      { property: "instructions", reason: "is required: what the agent does, in words" },
    ]);
    expect((await core("TopicDestination").check({}, { topicId: UNKNOWN })).failures).toEqual([
      { property: "destinationId", reason: "is required: the Destination resource, or its id" },
    ]);
  });

  it("still refuses, at preview, a bad value that is known beside an unknown one", async () => {
    const checked = await core("Pipeline").check({}, { ...valid.Pipeline, source: UNKNOWN, snapshotNewTables: "yes" });
    expect(checked.failures).toEqual([{ property: "snapshotNewTables", reason: "must be true or false" }]);
    const tags = await core("Source").check({}, { ...valid.Source, tags: UNKNOWN, config: { ...pg, "database.port.user.defined": "not-a-port" } });
    expect(tags.failures.map((f) => f.property)).toEqual(['config["database.port.user.defined"]']);
  });

  it("plans an update with the known inputs checked as usual and the pending one as given", async () => {
    const olds = (await core("Pipeline").check({}, valid.Pipeline!)).inputs;
    const checked = await core("Pipeline").check(olds, { ...valid.Pipeline, source: UNKNOWN, sourceTopics: ["public.orders", "public.orders"] });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.source).toBe(UNKNOWN);
    expect(checked.inputs.name).toBe(olds.name);
    expect(checked.inputs.snapshotNewTables).toBe(false);
  });

  it("plans an update of a connector whose whole config is unknown, its autoname kept until `up` knows whether it replaces", async () => {
    const olds = (await core("Source").check({}, valid.Source!)).inputs;
    const checked = await core("Source").check(olds, { ...valid.Source, config: UNKNOWN });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ config: UNKNOWN, name: olds.name });
  });

  it("diffs a pending property as a change, and as a replacement where a change of it replaces", async () => {
    const olds = { roleIds: ["role_viewer"], clientId: "c-1", secret: "s" };
    // Roles change in place, a service replaces.
    expect(await core("ClientCredential").diff("c-1", olds, { roleIds: UNKNOWN })).toMatchObject({ changes: true, replaces: [], diffs: ["roleIds"] });
    expect(await core("ClientCredential").diff("c-1", olds, { roleIds: ["role_viewer"], serviceId: UNKNOWN })).toMatchObject({ changes: true, replaces: ["serviceId"] });
  });
});

describe("underUnknown", () => {
  const bag = { source: UNKNOWN, config: { "snowflake.schema.name": UNKNOWN, "a.b": "x" }, list: ["x", UNKNOWN] };
  it.each([
    ["source", true],
    ["source.id", true],
    ['config["snowflake.schema.name"]', true],
    ["config.snowflake.schema.name", true],
    ['config["a.b"]', false],
    ["list[1]", true],
    ["list[0]", false],
    ["missing", false],
  ])("%s → %s", (path, expected) => {
    expect(underUnknown(bag, path)).toBe(expected);
  });
});
