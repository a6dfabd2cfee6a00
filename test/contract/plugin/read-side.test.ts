import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDriftSink } from "../../../provider/drift.js";
import { FUNCTIONS, OBJECT_TYPES, type FunctionToken, type PropertySpec, type TypeSpec } from "../../../provider/kinds/index.js";
import { failuresOf, invokeRequest, plain, rejection, startPluginHarness, type PluginHarness } from "./harness.js";

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Whether a value is what the schema says the property is (nested object types included). */
function conforms(type: TypeSpec, v: unknown): boolean {
  if (type === "any") return true;
  if (type === "string") return typeof v === "string";
  if (type === "integer") return Number.isInteger(v);
  if (type === "number") return typeof v === "number";
  if (type === "boolean") return typeof v === "boolean";
  if ("arrayOf" in type) return Array.isArray(v) && v.every((x) => conforms(type.arrayOf, x));
  if ("mapOf" in type) return typeof v === "object" && v !== null && Object.values(v).every((x) => conforms(type.mapOf, x));
  // The typed resources' enums and map values: no function returns them.
  if ("ref" in type) return false;
  // Types of other tables (references by token) are not this test's: taken as they are.
  return "object" in type ? matchesProperties(OBJECT_TYPES[type.object].properties, v) : true;
}

function matchesProperties(props: readonly PropertySpec[], v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const obj = v as Record<string, unknown>;
  return props.every((p) => !p.required || p.name in obj) && Object.entries(obj).every(([k, x]) => props.some((p) => p.name === k && conforms(p.type, x)));
}

describe("the read side's functions over gRPC (Invoke)", () => {
  let h: PluginHarness;
  let sourceId: string;
  beforeAll(async () => {
    h = await startPluginHarness();
    const source = (await h.console.post("/sources", {
      body: {
        name: "inv-orders",
        connector: "postgresql",
        config: {
          "database.hostname.user.defined": "db",
          "database.user": "u",
          "database.password": "p-invoke",
          "database.dbname": "d",
          "schema.include.list": "public",
          "table.include.list.user.defined": "public.orders",
        },
      },
    })) as { id: string };
    sourceId = source.id;
    await h.console.post("/transforms", {
      body: { transform: "map_filter", config: { "transforms.name": "inv-clean", "transforms.input.topic.pattern": "public\\.(orders)", "transforms.output.topic.pattern": "clean.$1" } },
    });
    await h.console.post("/tags", { body: { name: "inv-tag", type: ["topics"] } });
    await h.console.post("/kafka-access/kafka-users", {
      body: { username: "inv-reader", password: "inv-reader-password", kafka_acls: [{ topic_name: "orders", operation: "READ", resource_pattern_type: "LITERAL" }] },
    });
  });
  afterAll(async () => h?.close());

  const invoke = async (token: FunctionToken, args: Record<string, unknown>) => {
    const resp = await h.call("invoke", invokeRequest(token, args));
    expect(failuresOf(resp)).toEqual([]);
    const value = plain(resp.getReturn());
    // What the function returns is what the schema says it returns.
    expect(matchesProperties(FUNCTIONS[token].outputs, value), `${token}: ${JSON.stringify(value)}`).toBe(true);
    return value as Record<string, any>;
  };

  it("each function answers in the shape its schema declares", async () => {
    expect((await invoke("cdc:index:getTags", { name: "inv-tag" })).tags).toEqual([expect.objectContaining({ name: "inv-tag", type: ["topics"], custom: true })]);
    expect((await invoke("cdc:index:getTags", { type: ["environment"] })).tags).toHaveLength(2);
    const topics = (await invoke("cdc:index:getTopics", { source: "inv-orders" })).topics;
    expect(topics).toEqual([expect.objectContaining({ id: `source_${sourceId}.public.orders`, partitionCount: 3 })]);
    expect(await invoke("cdc:index:getTopic", { id: `source_${sourceId}.public.orders` })).toMatchObject({ name: "public.orders", entityName: "inv-orders" });
    expect((await invoke("cdc:index:getTopicMetrics", { ids: [`source_${sourceId}.public.orders`] })).metrics).toEqual([
      { topicId: `source_${sourceId}.public.orders`, entityId: sourceId, partitionCount: 3, replicationFactor: 3, retentionMs: 604800000, recordErrorTotal: 0 },
    ]);
    expect(await invoke("cdc:index:getTransform", { name: "inv-clean" })).toMatchObject({ transform: "map_filter", topics: ["clean.orders"] });
    const user = await invoke("cdc:index:getKafkaUser", { username: "inv-reader" });
    expect(user).toMatchObject({ username: "inv-reader", kafkaAcls: [{ topicName: "orders", resource: "TOPIC" }] });
    expect(JSON.stringify(user)).not.toContain("inv-reader-password");
  });

  it("getTopicMetrics leaves out a topic not the tenant's and warns through the engine's log, naming it", async () => {
    const warnings: string[] = [];
    // The plugin's warnings go where its drift reports go: the engine's log (plugin/engine-log.ts).
    setDriftSink((text) => void warnings.push(text));
    try {
      const metrics = (await invoke("cdc:index:getTopicMetrics", { ids: ["source_elsewhere.public.orders", `source_${sourceId}.public.orders`] })).metrics;
      expect(metrics.map((m: { topicId: string }) => m.topicId)).toEqual([`source_${sourceId}.public.orders`]);
    } finally {
      setDriftSink((text) => void process.stderr.write(text));
    }
    expect(warnings).toEqual([expect.stringMatching(/^warning: getTopicMetrics: topic "source_elsewhere\.public\.orders" left out of the metrics: not this tenant's/)]);
  });

  it("a bad argument is a check failure naming it, before any API call; nothing found is an error", async () => {
    const before = h.emulator.stats().total;
    const failures = async (token: FunctionToken, args: Record<string, unknown>) => failuresOf(await h.call("invoke", invokeRequest(token, args)));
    expect(await failures("cdc:index:getTags", { type: ["sauces"] })).toEqual([{ property: "type[0]", reason: expect.stringMatching(/must be one of environment/) }]);
    expect(await failures("cdc:index:getTopics", { source: "a", destination: "b" })).toEqual([{ property: "destination", reason: expect.stringMatching(/set one of source, destination or transform/) }]);
    expect(await failures("cdc:index:getTopic", {})).toEqual([{ property: "id", reason: expect.stringMatching(/^is required/) }]);
    expect(await failures("cdc:index:getTopicMetrics", { ids: [] })).toEqual([{ property: "ids", reason: expect.stringMatching(/^is required/) }]);
    expect(await failures("cdc:index:getTransform", {})).toEqual([{ property: "name", reason: expect.stringMatching(/^is required/) }]);
    expect(await failures("cdc:index:getKafkaUser", { username: "" })).toEqual([{ property: "username", reason: expect.stringMatching(/non-empty string/) }]);
    expect(h.emulator.stats().total).toBe(before);
    const missing = await rejection(h.call("invoke", invokeRequest("cdc:index:getKafkaUser", { username: "nobody" })));
    expect(missing.details).toContain('no Kafka user named "nobody" exists');
  });
});
