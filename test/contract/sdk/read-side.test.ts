import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { resetClients } from "../../../provider/client/index.js";
import { getKafkaUser, getTags, getTopic, getTopicMetrics, getTopics, getTransform } from "../../../sdk/lookups.js";
import { ConsoleClient, webClient } from "../../support/web.js";

const PG_CONFIG = {
  "database.hostname.user.defined": "db",
  "database.user": "u",
  "database.password": "p-read-side",
  "database.dbname": "d",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders,public.customers",
};

// The lookups of the platform's Terraform data sources, as a program calls them: outside a
// Pulumi run they take the CDC_* variables, as a program does when the stack sets no cdc:* keys.
describe("the read side: tags, topics, topic metrics, a transform, a Kafka user", () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  const saved = { ...process.env };
  let source: { id: string; name: string };
  let transform: { id: string; name: string };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    Object.assign(process.env, { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret });
    web = webClient(emulator);
    source = (await web.post("/sources", { body: { name: "rs-orders", connector: "postgresql", config: PG_CONFIG } })) as typeof source;
    // A second source whose name starts like the first: exact matches only.
    await web.post("/sources", { body: { name: "rs-orders-2", connector: "postgresql", config: { ...PG_CONFIG, "table.include.list.user.defined": "public.orders" } } });
    transform = (await web.post("/transforms", {
      body: {
        transform: "map_filter",
        config: { "transforms.name": "rs-clean", "transforms.input.topic.pattern": "public\\.(orders)", "transforms.output.topic.pattern": "clean.$1" },
      },
    })) as typeof transform;
    await web.put("/topics/{id}", { params: { id: `source_${source.id}.public.orders` }, body: { payload: { partition_count: 6 } } });
  });
  afterAll(async () => {
    for (const k of ["CDC_API_URL", "CDC_CLIENT_ID", "CDC_CLIENT_SECRET"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await web?.close();
    await resetClients();
    await emulator?.stop();
  });

  it("getTags lists tags by exact name and by type; none matching is an empty list", async () => {
    await web.post("/tags", { body: { name: "rs-pii", description: "personal data", type: ["sources", "destinations"] } });
    await web.post("/tags", { body: { name: "rs-pii-extra", description: null, type: ["topics"] } });
    const all = await getTags();
    expect(all.map((t) => t.name)).toEqual(expect.arrayContaining(["rs-pii", "rs-pii-extra", "Production", "Development"]));
    // The API's tag_name is a substring match: the lookup keeps only the exact one.
    expect(await getTags({ name: "rs-pii" })).toEqual([
      { id: expect.any(String), name: "rs-pii", type: ["sources", "destinations"], description: "personal data", system: false, custom: true },
    ]);
    expect((await getTags({ type: "environment" })).map((t) => t.name).sort()).toEqual(["Development", "Production"]);
    expect((await getTags({ type: ["topics", "destinations"] })).map((t) => t.name).sort()).toEqual(["rs-pii", "rs-pii-extra"]);
    expect(await getTags({ name: "rs-pii", type: "topics" })).toEqual([]);
    expect(await getTags({ name: "nothing-by-this-name" })).toEqual([]);
    await expect(getTags({ type: "Sources" })).rejects.toThrow(/type must be one of environment, general, sources/);
  });

  it("getTopics lists a source's or a transform's topics with partition counts; getTopic reads one by id", async () => {
    const topics = await getTopics({ source: "rs-orders" });
    expect(topics.map((t) => t.id).sort()).toEqual([`source_${source.id}.public.customers`, `source_${source.id}.public.orders`]);
    expect(topics.find((t) => t.name === "public.orders")).toEqual({
      id: `source_${source.id}.public.orders`,
      name: "public.orders",
      prefix: `source_${source.id}`,
      entityType: "sources",
      entityId: source.id,
      entityName: "rs-orders",
      partitionCount: 6,
      // Sent as the strings `retention_ms` and `cleanup_policy` (the vendor's beta.28).
      retentionMs: 604800000,
      cleanupPolicy: "delete",
      tagIds: [],
    });
    expect(topics.find((t) => t.name === "public.customers")?.partitionCount).toBe(3);
    expect(await getTopics({ source: "rs-orders", name: "public.customers" })).toHaveLength(1);
    expect(await getTopics({ source: "rs-orders", name: "public.nothing" })).toEqual([]);
    const fromTransform = await getTopics({ transform: "rs-clean" });
    expect(fromTransform.map((t) => [t.name, t.entityType, t.entityId])).toEqual(expect.arrayContaining([["clean.orders", "transforms", transform.id]]));
    // All topics: both sources' and the transform's.
    expect((await getTopics()).length).toBeGreaterThanOrEqual(4);

    await expect(getTopics({ source: "rs-ord" })).rejects.toThrow('no source named "rs-ord" exists');
    await expect(getTopics({ source: "rs-orders", transform: "rs-clean" })).rejects.toThrow(/transform cannot be set with source/);
    await expect(getTopics({ destination: "nowhere" })).rejects.toThrow('no destination named "nowhere" exists');

    const one = await getTopic({ id: `source_${source.id}.public.orders` });
    expect(one).toMatchObject({ name: "public.orders", partitionCount: 6, entityName: "rs-orders" });
    await expect(getTopic({ id: "source_nope.public.orders" })).rejects.toThrow('no topic with id "source_nope.public.orders" exists');
    await expect(getTopic({} as { id: string })).rejects.toThrow(/id is required/);
  });

  it("getTopicMetrics reads the metrics of topics by id, in the order asked; a topic not the tenant's is left out with a warning", async () => {
    const ids = [`source_${source.id}.public.orders`, `source_${source.id}.public.customers`];
    const transformTopic = (await getTransform({ name: "rs-clean" })).topicIds[0]!;
    emulator.resetStats();
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const metrics = await getTopicMetrics({ ids: [...ids, transformTopic] });
      // The service's fields (the vendor's beta.31); what it reports as null is absent, a zero stays.
      const table = { replicationFactor: 3, retentionMs: 604800000, recordErrorTotal: 0 };
      expect(metrics).toEqual([
        { topicId: ids[0], entityId: source.id, partitionCount: 6, ...table },
        { topicId: ids[1], entityId: source.id, partitionCount: 3, ...table },
        { topicId: transformTopic, entityId: transform.id, partitionCount: 3, ...table },
      ]);
      // One metrics request for all of them.
      expect(emulator.stats().requests["POST /topics/table_metrics"]).toBe(1);
      expect(warned).not.toHaveBeenCalled();

      // A topic of a source the tenant does not have: left out, named in a warning, not an error.
      const some = await getTopicMetrics({ ids: ["source_nope.t", ids[0]!] });
      expect(some.map((m) => m.topicId)).toEqual([ids[0]]);
      expect(warned).toHaveBeenCalledTimes(1);
      expect(String(warned.mock.calls[0]![0])).toMatch(/getTopicMetrics: topic "source_nope\.t" left out of the metrics: not this tenant's/);
      // None of them the tenant's: an empty list, and no metrics request.
      emulator.resetStats();
      expect(await getTopicMetrics({ ids: ["source_nope.t", "transform_nope_1.x"] })).toEqual([]);
      expect(String(warned.mock.calls[1]![0])).toContain('topics "source_nope.t", "transform_nope_1.x" left out');
      expect(emulator.stats().requests["POST /topics/table_metrics"]).toBeUndefined();
    } finally {
      warned.mockRestore();
    }
    await expect(getTopicMetrics({ ids: [] })).rejects.toThrow(/ids is required/);
  });

  it("getTransform finds one by its exact name, with its topics", async () => {
    const found = await getTransform({ name: "rs-clean" });
    expect(found).toMatchObject({ id: transform.id, name: "rs-clean", transform: "map_filter", topics: ["clean.orders"] });
    expect(found.topicMap).toEqual([{ id: found.topicIds[0], name: "clean.orders" }]);
    expect(found.config["transforms.input.topic.pattern"]).toBe("public\\.(orders)");
    await expect(getTransform({ name: "rs-cle" })).rejects.toThrow('no transform named "rs-cle" exists');
  });

  it("getKafkaUser finds one by its exact username, never with a password", async () => {
    await web.post("/kafka-access/kafka-users", {
      body: { username: "rs-reader", password: "rs-reader-password", whitelist_ips: "10.0.0.0/8", kafka_acls: [{ topic_name: `source_${source.id}.`, operation: "READ", resource_pattern_type: "PREFIXED" }] },
    });
    const user = await getKafkaUser({ username: "rs-reader" });
    expect(user).toEqual({
      username: "rs-reader",
      whitelistIps: ["10.0.0.0/8"],
      isCreateSchemaRegistry: false,
      kafkaAcls: [{ topicName: `source_${source.id}.`, operation: "READ", resourcePatternType: "PREFIXED", resource: "TOPIC" }],
      kafkaProxyEndpoint: expect.stringMatching(/^rs-reader\..*:9092$/),
      schemaProxyEndpoint: "",
    });
    expect(JSON.stringify(user)).not.toContain("rs-reader-password");
    await expect(getKafkaUser({ username: "rs-read" })).rejects.toThrow('no Kafka user named "rs-read" exists');
  });
});
