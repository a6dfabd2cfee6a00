import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { destinationConnectorSchema, sourceConnectorSchema, withBudget } from "../../../provider/client/index.js";
import { DEVELOPMENT_TAG_ID } from "../../../provider/kinds/pipeline.js";
import { PipelineProvider, type PipelineInputs } from "../../../provider/resources/pipeline.js";
import { TopicProvider, type TopicInputs } from "../../../provider/resources/topic.js";
import { TransformProvider, type TransformInputs } from "../../../provider/resources/transform.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

const pipelines = new PipelineProvider();
const transforms = new TransformProvider();
const topics = new TopicProvider();

let n = 0;
const unique = (p: string) => `${p}-${process.pid}-${++n}`;

async function checked<T>(p: { check(o: object, n: Record<string, unknown>): Promise<{ inputs: unknown; failures: unknown[] }> }, news: Record<string, unknown>, olds = {}): Promise<T> {
  const { inputs, failures } = await p.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as T;
}

/** The platform's system tag Production (the emulator has it under the same fixed id). */
const PRODUCTION_TAG_ID = "670e5bab0d119c0d1f8cda9d";

const JS = { language: "JAVASCRIPT", value_transform: "function _stk(record) { return record; }" };

describe("Pipeline, Transform and Topic providers against the emulator", () => {
  let h: ProviderHarness;
  let source: { id: string; name: string };
  let destination: { id: string; name: string };
  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
    source = (await h.console.post("/sources", { body: { name: unique("orders"), connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema })) as typeof source;
    destination = (await h.console.post("/destinations", { body: { name: unique("wh"), connector: "snowflake", config: snowflakeConfig }, schema: destinationConnectorSchema })) as typeof destination;
  });
  afterAll(async () => h?.close());
  afterEach(() => vi.restoreAllMocks());

  const transformInputs = (extra: Record<string, unknown> = {}) =>
    checked<TransformInputs>(transforms, {
      logicalName: "clean",
      transform: "map_filter",
      config: { "transforms.name": unique("clean"), "transforms.input.topic.pattern": "public\\.(.*)", "transforms.output.topic.pattern": "clean.$1" },
      ...extra,
    });

  it("check names the field and the fix before any API call", async () => {
    h.emulator.resetStats();
    const p = await pipelines.check({}, { logicalName: "p", source: { id: "" }, transforms: [{ id: "t", topics: [] }], snapshotNewTables: "yes" });
    expect(p.failures.map((f) => f.property).sort()).toEqual(["destination", "snapshotNewTables", "source.id", "transforms[0].topics"]);
    expect(p.failures.find((f) => f.property === "transforms[0].topics")!.reason).toMatch(/^is empty: the transform has no topics yet/);
    const t = await transforms.check({}, { logicalName: "t", transform: "map_filter", config: { "transforms.input.job.parallelism": 50, "transforms.language": "Rust" }, deploy: true });
    expect(t.failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ property: 'config["transforms.input.job.parallelism"]' }),
        expect.objectContaining({ property: 'config["transforms.language"]', reason: expect.stringContaining("JavaScript") }),
        expect.objectContaining({ property: "implementation" }),
      ]),
    );
    expect((await transforms.check({}, { transform: "blender" })).failures).toEqual([{ property: "transform", reason: expect.stringContaining("map_filter") }]);
    const tp = await topics.check({ topicId: "x.y", partitionCount: 6 }, { topicId: "x.y", partitionCount: 4 });
    expect(tp.failures).toEqual([{ property: "partitionCount", reason: expect.stringContaining("can only be increased") }]);
    expect(h.emulator.stats().total).toBe(0);
  });

  it("a transform is created with its implementation, deployed, waits for RUNNING, updates in place and is deleted", async () => {
    const inputs = await transformInputs({ implementation: JS, deploy: true });
    const { id, outs } = await transforms.create(inputs);
    expect(outs.status).toBe("RUNNING");
    expect(outs.topics).toEqual(["clean.customers", "clean.orders"]);
    expect(outs.topicIds[0]).toBe(`transform_${id}_1.clean.customers`);
    expect((await transforms.diff(id, outs, inputs)).changes).toBe(false);

    const changed = await checked<TransformInputs>(transforms, { ...inputs, implementation: { ...JS, value_transform: "function _stk(r) { r.x = 1; return r; }" }, config: { ...inputs.config, "transforms.input.job.parallelism": 8 } }, inputs);
    expect(await transforms.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await transforms.update(id, outs, changed);
    expect(updated).toMatchObject({ status: "RUNNING", version: 2 });
    const read = await transforms.read(id, updated);
    expect(read.inputs).toMatchObject({ implementation: changed.implementation, config: changed.config });

    const retyped = await checked<TransformInputs>(transforms, { ...changed, transform: "fan_out" }, changed);
    expect((await transforms.diff(id, updated, retyped)).replaces).toEqual(["transform"]);
    await transforms.delete(id, updated);
    expect((await transforms.read(id, updated)).id).toBe("");
  });

  it("a job that fails reports FAILED with the API's words, keeping the transform in the stack", async () => {
    const inputs = await transformInputs({ implementation: { ...JS, value_transform: "function (" }, deploy: true });
    const err = (await transforms.create(inputs).then(() => new Error("created"), (e: unknown) => e)) as Error & { id?: string };
    expect(err.message).toMatch(/its job is FAILED: SyntaxError in value_transform/);
    expect(err.id).toMatch(/^[0-9a-f]{24}$/);
    await transforms.delete(err.id!);
  });

  it("a pipeline from resources' ids: created, no diff when the API echoes prefixed, regrouped, reordered topics, drift seen, updated in place, deleted", async () => {
    const t = await transforms.create(await transformInputs({ implementation: JS, deploy: true }));
    const inputs = await checked<PipelineInputs>(pipelines, {
      logicalName: "orders-pipeline",
      source: { id: source.id },
      destination: { id: destination.id },
      sourceTopics: ["public.orders"],
      transforms: [{ id: t.id, topics: ["clean.orders", "clean.customers"] }],
      snapshotNewTables: true,
    });
    const { id, outs } = await pipelines.create(inputs);
    expect(outs.source).toEqual({ id: source.id });
    // Echoed from the API's created_from, as the declaration says: the stamp every create sends.
    expect((outs as unknown as { createdFrom: string }).createdFrom).toBe("terraform");
    expect((await h.console.get(`/pipelines/${id}`)) as { result: Array<{ created_from: string }> }).toMatchObject({ result: [{ created_from: "terraform" }] });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await pipelines.diff(id, outs, inputs)).toMatchObject({ changes: false });
    expect((await pipelines.read(id, outs)).inputs).toEqual(inputs);

    // A person in the console drops a topic and turns snapshots off.
    const envelope = (await h.console.get(`/pipelines/${id}`)) as { result: any[] };
    const current = envelope.result[0];
    await h.console.put(`/pipelines/${id}`, {
      body: { ...current, snapshot_new_tables: false, transforms: current.transforms.filter((e: any) => e.topic !== "clean.customers"), source: { ...current.source, topics: [] } },
    });
    const drift = await pipelines.diff(id, outs, inputs);
    expect(drift.changes).toBe(true);
    const said = stderr.mock.calls.map((c) => String(c[0])).join("");
    expect(said).toMatch(/selects source topics \[\]/);
    expect(said).toMatch(/sends transform topics/);
    expect(said).toMatch(/snapshotNewTables false/);
    const { outs: fixed } = await pipelines.update(id, outs, inputs);
    expect((await pipelines.diff(id, fixed, inputs)).changes).toBe(false);

    const more = await checked<PipelineInputs>(pipelines, { ...inputs, sourceTopics: ["public.orders", "public.customers"], transforms: [{ id: t.id, topics: ["clean.orders"] }] }, inputs);
    expect(await pipelines.diff(id, fixed, more)).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await pipelines.update(id, fixed, more);
    expect((await pipelines.read(id, updated)).inputs).toMatchObject({ sourceTopics: ["public.orders", "public.customers"], transforms: [{ id: t.id, topics: ["clean.orders"] }] });

    // The transform and source are held by the pipeline until it is gone. The delete sends again
    // while the API answers 409 "used by pipeline", within the operation's retry budget (a run
    // gives every operation one, cdc:resourceTimeoutSec): one second here, not RELEASE_WAIT_MS's
    // minute, after which the API's 409 is the error (test/unit/provider/gone.test.ts pins that bound).
    await expect(withBudget("deleting the transform", 1_000, () => transforms.delete(t.id))).rejects.toThrow(/used by pipeline/);
    await pipelines.delete(id, updated);
    expect((await pipelines.read(id, updated)).id).toBe("");
    await transforms.delete(t.id);
    expect(await pipelines.diff(id, updated, more)).toMatchObject({ changes: true });
    expect(stderr.mock.calls.map((c) => String(c[0])).join("")).toMatch(/was deleted/);
  });

  it("a pipeline without tags gets the platform's Development tag, as the vendor's provider gives it; its tags are then left alone, with no diff", async () => {
    const inputs = await checked<PipelineInputs>(pipelines, { logicalName: unique("untagged"), source: { id: source.id }, destination: { id: destination.id }, sourceTopics: ["public.orders"] });
    expect(inputs).not.toHaveProperty("tags");
    const { id, outs } = await pipelines.create(inputs);
    const live = () => h.console.get(`/pipelines/${id}`) as Promise<{ result: any[] }>;
    expect((await live()).result[0].tags).toEqual([DEVELOPMENT_TAG_ID]);
    expect(outs).toMatchObject({ tagIds: [DEVELOPMENT_TAG_ID] });
    expect(outs).not.toHaveProperty("tags");
    expect(await pipelines.diff(id, outs, inputs)).toMatchObject({ changes: false });
    expect((await pipelines.read(id, outs)).inputs).toEqual(inputs);

    // Moved to Production in the console: the program sets no tags, so that is no drift, and an
    // update of something else keeps it.
    const current = (await live()).result[0];
    await h.console.put(`/pipelines/${id}`, { body: { ...current, tags: [PRODUCTION_TAG_ID] } });
    expect(await pipelines.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const refreshed = (await pipelines.read(id, outs)).props as typeof outs;
    const more = await checked<PipelineInputs>(pipelines, { ...inputs, sourceTopics: ["public.orders", "public.customers"] }, inputs);
    const { outs: updated } = await pipelines.update(id, refreshed, more);
    expect((await live()).result[0].tags).toEqual([PRODUCTION_TAG_ID]);

    // `tags: []` is no tags at all, from the start.
    const bare = await pipelines.create(await checked<PipelineInputs>(pipelines, { logicalName: unique("bare"), source: { id: source.id }, destination: { id: destination.id }, tags: [] }));
    expect(bare.outs.tagIds).toEqual([]);
    await pipelines.delete(bare.id, bare.outs);
    await pipelines.delete(id, updated);
  });

  it("an update carries the pipeline's periodic audit, set in the console, through: the API drops it from a PUT that leaves it out", async () => {
    const inputs = await checked<PipelineInputs>(pipelines, { logicalName: unique("audited"), source: { id: source.id }, destination: { id: destination.id }, sourceTopics: ["public.orders"] });
    const { id, outs } = await pipelines.create(inputs);
    const audit = { enabled: true, interval: "24h", checks: ["row_count"] };
    const current = ((await h.console.get(`/pipelines/${id}`)) as { result: any[] }).result[0];
    // The emulator as the platform: a PUT that leaves the audit out drops it.
    await h.console.put(`/pipelines/${id}`, { body: { ...current, periodic_audit: audit } });
    expect(((await h.console.get(`/pipelines/${id}`)) as { result: any[] }).result[0].periodic_audit).toEqual(audit);
    await h.console.put(`/pipelines/${id}`, { body: current });
    expect(((await h.console.get(`/pipelines/${id}`)) as { result: any[] }).result[0].periodic_audit).toBeUndefined();
    await h.console.put(`/pipelines/${id}`, { body: { ...current, periodic_audit: audit } });

    const more = await checked<PipelineInputs>(pipelines, { ...inputs, sourceTopics: ["public.orders", "public.customers"] }, inputs);
    const { outs: updated } = await pipelines.update(id, outs, more);
    const live = ((await h.console.get(`/pipelines/${id}`)) as { result: any[] }).result[0];
    expect(live.periodic_audit).toEqual(audit);
    expect(live.source.topics).toHaveLength(2);
    await pipelines.delete(id, updated);
  });

  it("a transform created before its source's topics existed: the pipeline says it has no topics yet and how to fix it, and tells that from names that are not its topics", async () => {
    // No source has an `inventory` schema yet: the transform matches nothing, so its topics output is [].
    const early = await transforms.create(
      await checked<TransformInputs>(transforms, {
        logicalName: "inv",
        transform: "map_filter",
        config: { "transforms.name": unique("inv"), "transforms.input.topic.pattern": "inventory\\.(.*)", "transforms.output.topic.pattern": "inv.$1" },
      }),
    );
    expect(early.outs.topics).toEqual([]);
    const base = { logicalName: "inv-pipeline", source: { id: source.id }, destination: { id: destination.id } };

    h.emulator.resetStats();
    const { failures } = await pipelines.check({}, { ...base, transforms: [{ id: early.id, topics: early.outs.topics }] });
    expect(failures).toEqual([{ property: "transforms[0].topics", reason: expect.stringMatching(/^is empty: the transform has no topics yet/) }]);
    expect(failures[0]!.reason).toContain("created before they existed has none");
    expect(failures[0]!.reason).toContain("Give the Transform `dependsOn: [source]`");
    expect(failures[0]!.reason).toContain('or list the topics here by name, e.g. ["clean.orders"]');
    expect(h.emulator.stats().total).toBe(0);

    // Names listed by hand while the transform still has none: the API refuses, and the reason is the transform's.
    const named = await checked<PipelineInputs>(pipelines, { ...base, transforms: [{ id: early.id, topics: ["inv.items"] }] });
    const none = (await pipelines.create(named).then(() => new Error("created"), (e: unknown) => e)) as Error;
    expect(none.message).toMatch(new RegExp(`^transforms\\[0\\]\\.topics: transform "${early.outs.name}" \\(${early.id}\\) has no topics at all yet, so "inv\\.items" is not one of them\\.`));
    expect(none.message).toMatch(/dependsOn: \[source\].*\. The API said: .*422/);

    // The source's topics come to exist; a refresh reads the transform's topics.
    const late = (await h.console.post("/sources", {
      body: { name: unique("inventory"), connector: "postgresql", config: { ...pgSourceConfig, "schema.include.list": "inventory", "table.include.list.user.defined": "inventory.items" } },
      schema: sourceConnectorSchema,
    })) as { id: string };
    const refreshed = await transforms.read(early.id, early.outs);
    expect(refreshed.props).toMatchObject({ topics: ["inv.items"] });

    // A name that is not one of the topics it now has is told apart.
    const wrong = await checked<PipelineInputs>(pipelines, { ...base, source: { id: late.id }, transforms: [{ id: early.id, topics: ["inv.nope"] }] });
    await expect(pipelines.create(wrong)).rejects.toThrow(`transforms[0].topics: none of "inv.nope" is one of the topics of transform "${early.outs.name}" (${early.id}); its topics are "inv.items"`);

    const right = await checked<PipelineInputs>(pipelines, { ...base, source: { id: late.id }, transforms: [{ id: early.id, topics: (refreshed.props as { topics: string[] }).topics }] });
    const made = await pipelines.create(right);
    await pipelines.delete(made.id, made.outs);
    await transforms.delete(early.id);
    await h.console.delete(`/sources/${late.id}`);
  });

  it("reference errors name the field; a lost create answer is found by name; delayed deletes are waited out", async () => {
    const bad = await checked<PipelineInputs>(pipelines, { logicalName: "p", source: { id: "nope" }, destination: { id: destination.id } });
    await expect(pipelines.create(bad)).rejects.toThrow(/source: there is no source with id "nope"/);
    const missingTransform = await checked<PipelineInputs>(pipelines, { logicalName: "p", source: { id: source.id }, destination: { id: destination.id }, transforms: [{ id: "nope", topics: ["x"] }] });
    await expect(pipelines.create(missingTransform)).rejects.toThrow(/transform nope does not exist/);

    const inputs = await checked<PipelineInputs>(pipelines, { logicalName: "lost", source: { id: source.id }, destination: { id: destination.id }, sourceTopics: ["public.orders"] });
    h.emulator.setFaults({ loseNext: 1, routes: ["/pipelines"] });
    const { id, outs } = await pipelines.create(inputs).finally(() => h.emulator.setFaults({ loseNext: 0, routes: ["/"] }));
    expect(((await h.console.get("/pipelines", { query: { partial_name: inputs.name } })) as { total: number }).total).toBe(1);

    h.emulator.setFaults({ deleteDelayReads: 3 });
    try {
      await pipelines.delete(id, outs);
    } finally {
      h.emulator.setFaults({ deleteDelayReads: 0 });
    }
    // Gone for real: its source can be deleted now (the API refuses while a pipeline holds it).
    expect(((await h.console.get(`/pipelines/${id}`)) as { result: unknown[] }).result).toEqual([]);
  });

  it("a destroy that deletes a pipeline and its source at once (imported code names them by id): the source's delete waits until the pipeline is gone", async () => {
    const { SOURCE, ConnectorProvider } = await import("../../../provider/resources/connector.js");
    const sources = new ConnectorProvider(SOURCE);
    const held = (await h.console.post("/sources", { body: { name: unique("held"), connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema })) as { id: string };
    const inputs = await checked<PipelineInputs>(pipelines, { logicalName: "holds", source: { id: held.id }, destination: { id: destination.id }, sourceTopics: ["public.orders"] });
    const { id, outs } = await pipelines.create(inputs);
    h.emulator.setFaults({ deleteDelayReads: 3 });
    try {
      const before = h.emulator.stats().requests[`DELETE /sources/:source_id`] ?? 0;
      // The engine's order when the state records no dependency: both at once.
      await Promise.all([sources.delete(held.id), pipelines.delete(id, outs)]);
      // Refused (409, used by the pipeline) at least once, then sent again once the pipeline was gone.
      expect((h.emulator.stats().requests[`DELETE /sources/:source_id`] ?? 0) - before).toBeGreaterThan(1);
    } finally {
      h.emulator.setFaults({ deleteDelayReads: 0 });
    }
    expect(((await h.console.get(`/sources/${held.id}`)) as { result: unknown[] }).result).toEqual([]);
  });

  it("a topic is tuned: partitions grow, a decrease is refused before any call, tags set; destroy leaves it and says so", async () => {
    const topicId = `source_${source.id}.public.orders`;
    const tag = (await h.console.post("/tags", { body: { name: unique("hot"), type: ["topics"] } })) as { id: string };
    const inputs = await checked<TopicInputs>(topics, { topicId, partitionCount: 6, tags: [tag.id] });
    const { id, outs } = await topics.create(inputs);
    expect(id).toBe(topicId);
    expect(outs).toMatchObject({ partitionCount: 6, tagIds: [tag.id], name: "public.orders" });
    expect((await topics.diff(id, outs, inputs)).changes).toBe(false);
    const grown = await checked<TopicInputs>(topics, { ...inputs, partitionCount: 12 }, inputs);
    const { outs: after } = await topics.update(id, outs, grown);
    expect((await topics.read(id, after)).inputs).toMatchObject({ partitionCount: 12 });
    await expect(topics.create(await checked<TopicInputs>(topics, { topicId, partitionCount: 2 }))).rejects.toThrow(/already has 12 partitions/);
    await expect(topics.create(await checked<TopicInputs>(topics, { topicId: `source_${source.id}.public.nope`, partitionCount: 2 }))).rejects.toThrow(/there is no topic/);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    h.emulator.resetStats();
    await topics.delete(id);
    expect(h.emulator.stats().total).toBe(0);
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(/left in place/);
    expect(((await h.console.get(`/topics/${topicId}`)) as { kafka: { partitions: { count: number } } }).kafka.partitions.count).toBe(12);
  });
});
