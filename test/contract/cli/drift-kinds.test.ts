import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkObject } from "../../../cli/check.js";
import type { ObjectKind, TrackedObject } from "../../../cli/state.js";
import { getClient } from "../../../provider/client/index.js";
import { AgentProvider } from "../../../provider/resources/agent.js";
import { ClientCredentialProvider } from "../../../provider/resources/clientCredential.js";
import { HttpConnectionProvider } from "../../../provider/resources/httpConnection.js";
import { KafkaUserProvider } from "../../../provider/resources/kafkaUser.js";
import { LlmConnectionProvider } from "../../../provider/resources/llmConnection.js";
import { TagProvider } from "../../../provider/resources/tag.js";
import { TopicProvider } from "../../../provider/resources/topic.js";
import { TransformProvider } from "../../../provider/resources/transform.js";
import { MASK } from "../../../provider/normalize.js";
import { startHarness, type ProviderHarness } from "../provider/harness.js";

// `pulumi-cdc drift`'s checks of the kinds beyond connectors and pipelines, against the emulator:
// each object made by its core (so its outputs are what a stack records), then changed and
// deleted by a person in the console. Each finding is its core's own, as a plain preview says it.

type Core = { check(o: object, n: Record<string, unknown>): Promise<{ inputs: unknown; failures: unknown[] }>; create(i: never): Promise<{ id: string; outs: unknown }> };

async function made(kind: ObjectKind, core: Core, news: Record<string, unknown>): Promise<TrackedObject> {
  const { inputs, failures } = await core.check({}, { logicalName: kind, ...news });
  expect(failures).toEqual([]);
  const { id, outs } = await core.create(inputs as never);
  const outputs = JSON.parse(JSON.stringify(outs)) as Record<string, unknown>;
  return { kind, urn: `urn:pulumi:dev::p::cdc:index:X::${kind}`, id, name: String(outputs.name ?? outputs.username ?? outputs.topicId ?? kind), outputs };
}

describe("pulumi-cdc drift's checks of tags, client credentials, transforms, topics, agents, connections and Kafka users", () => {
  let h: ProviderHarness;
  const objects = {} as Record<ObjectKind, TrackedObject>;
  let sourceId: string;

  beforeAll(async () => {
    h = await startHarness();
    const source = (await h.console.post("/sources", {
      body: {
        name: "dk-orders",
        connector: "postgresql",
        config: {
          "database.hostname.user.defined": "db",
          "database.user": "u",
          "database.password": "p",
          "database.dbname": "d",
          "schema.include.list": "public",
          "table.include.list.user.defined": "public.orders",
        },
      },
    })) as { id: string };
    sourceId = source.id;
    objects.tag = await made("tag", new TagProvider() as unknown as Core, { description: "personal data", type: ["sources"] });
    objects.transform = await made("transform", new TransformProvider() as unknown as Core, {
      transform: "map_filter",
      config: { "transforms.input.topic.pattern": "public\\.(orders)", "transforms.output.topic.pattern": "clean.$1" },
    });
    objects.topic = await made("topic", new TopicProvider() as unknown as Core, { topicId: `source_${sourceId}.public.orders`, partitionCount: 4 });
    const llm = await made("llm_connection", new LlmConnectionProvider() as unknown as Core, { provider: "openai", model: "gpt-4o", apiKey: "sk-drift-kinds" });
    objects.llm_connection = llm;
    objects.http_connection = await made("http_connection", new HttpConnectionProvider() as unknown as Core, { url: "https://hook.example.com", headers: { Authorization: "Bearer dk" } });
    objects.agent = await made("agent", new AgentProvider() as unknown as Core, { instructions: "Watch the pipelines", llmConnectionId: llm.id });
    objects.client_credential = await made("client_credential", new ClientCredentialProvider() as unknown as Core, { roleIds: ["role_viewer"], description: "dbt" });
    objects.kafka_user = await made("kafka_user", new KafkaUserProvider() as unknown as Core, {
      username: "dk-reader",
      password: "dk-reader-password",
      kafkaAcls: [{ topicName: `source_${sourceId}.`, operation: "READ", resourcePatternType: "PREFIXED" }],
    });
  });
  afterAll(async () => h?.close());

  const check = (kind: ObjectKind) => checkObject(getClient(), objects[kind]);

  it("finds every one clean right after its create", async () => {
    for (const kind of Object.keys(objects) as ObjectKind[]) {
      expect((await check(kind)).drift, kind).toEqual({ detected: false, maskedDiff: "", changedKeys: [] });
    }
  });

  it("reports each change made in the console in its core's words", async () => {
    const { tag, transform, topic, agent, http_connection, kafka_user, client_credential } = objects;
    await h.console.put("/tags/{id}", { params: { id: tag.id }, body: { name: tag.name, description: "by hand", type: ["sources", "topics"] } });
    const liveTransform = (await h.console.get("/transforms/{id}", { params: { id: transform.id } })) as { result: Array<{ config: Record<string, unknown> }> };
    await h.console.put("/transforms", {
      body: { id: transform.id, transform: "map_filter", config: { ...liveTransform.result[0]!.config, "transforms.output.topic.pattern": "edited.$1" } },
    });
    await h.console.put("/topics/{id}", { params: { id: topic.id }, body: { payload: { partition_count: 8 } } });
    await h.console.patch("/auth/client-credentials/{id}", { params: { id: client_credential.id }, body: { role_ids: ["role_editor"], description: "dbt and loads" } });
    await h.console.patch("/agents/{id}", { params: { id: agent.id }, body: { instructions: "Something else" } });
    await h.console.patch("/agents/connections/http/{id}", { params: { id: http_connection.id }, body: { headers: { Authorization: MASK, "X-Extra": "by hand" } } });
    await h.console.put("/kafka-access/kafka-users/{u}", {
      params: { u: kafka_user.id },
      body: { whitelist_ips: "192.0.2.1", kafka_acls: [{ topic_name: `source_${sourceId}.`, operation: "WRITE", resource_pattern_type: "PREFIXED" }] },
    });

    const findings = async (kind: ObjectKind) => {
      const checked = await check(kind);
      expect(checked.drift.detected, kind).toBe(true);
      expect(checked.drift.deleted).toBeUndefined();
      return checked.drift.maskedDiff.split("\n");
    };
    expect(await findings("tag")).toEqual(['description was changed to "by hand"', "type was changed to [sources, topics]"]);
    expect(await findings("transform")).toEqual(['config was changed: transforms.output.topic.pattern = "edited.$1"']);
    expect(await findings("topic")).toEqual(["has 8 partitions; the program wants 4"]);
    expect(await findings("client_credential")).toEqual(["roles were changed to [role_editor]", 'description was changed to "dbt and loads"']);
    expect(await findings("agent")).toEqual(["instructions were changed"]);
    expect(await findings("http_connection")).toEqual(["header added: X-Extra"]);
    expect(await findings("kafka_user")).toEqual([
      `ACLs were changed: added WRITE on TOPIC source_${sourceId}.*; removed READ on TOPIC source_${sourceId}.*`,
      "whitelist IPs were changed to 192.0.2.1",
    ]);
    // The LLM connection was not touched.
    expect((await check("llm_connection")).drift.detected).toBe(false);
  });

  it("reports objects deleted in the console as deleted", async () => {
    const { tag, agent, http_connection, llm_connection, kafka_user, transform, client_credential } = objects;
    await h.console.delete("/auth/client-credentials/{id}", { params: { id: client_credential.id } });
    await h.console.delete("/agents/{id}", { params: { id: agent.id } });
    await h.console.delete("/agents/connections/http/{id}", { params: { id: http_connection.id } });
    await h.console.delete("/agents/connections/llm/{id}", { params: { id: llm_connection.id } });
    await h.console.delete("/kafka-access/kafka-users/{u}", { params: { u: kafka_user.id } });
    await h.console.delete("/tags/{id}", { params: { id: tag.id } });
    await h.console.delete("/transforms", { query: { id: transform.id } });
    for (const kind of ["agent", "http_connection", "llm_connection", "kafka_user", "tag", "transform", "client_credential"] as ObjectKind[]) {
      expect((await check(kind)).drift, kind).toEqual({ detected: true, deleted: true, maskedDiff: "", changedKeys: [] });
    }
  });
});
