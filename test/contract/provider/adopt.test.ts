import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogueEntry } from "../../../provider/catalogue.js";
import type { RunningEmulator } from "../../../emulator/index.js";
import { z } from "zod";
import {
  agentSchema,
  clientCredentialSchema,
  destinationConnectorSchema,
  httpConnectionSchema,
  llmConnectionSchema,
  sourceConnectorSchema,
  tagSchema,
} from "../../../provider/client/index.js";
import { compareToOriginal } from "../../../provider/drift.js";
import { pipelineSchema, transformSchema } from "../../../provider/pipelines/schemas.js";
import { AgentProvider, type AgentInputs } from "../../../provider/resources/agent.js";
import { adoptionChanges, ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs } from "../../../provider/resources/connector.js";
import { ClientCredentialProvider, type ClientCredentialInputs } from "../../../provider/resources/clientCredential.js";
import { HttpConnectionProvider, type HttpConnectionInputs } from "../../../provider/resources/httpConnection.js";
import { kafkaUserSchema } from "../../../provider/kafka/api.js";
import { KafkaUserProvider, type KafkaUserInputs } from "../../../provider/resources/kafkaUser.js";
import { LlmConnectionProvider, type LlmConnectionInputs } from "../../../provider/resources/llmConnection.js";
import { PipelineProvider, type PipelineInputs } from "../../../provider/resources/pipeline.js";
import { TagProvider, type TagInputs } from "../../../provider/resources/tag.js";
import { TopicProvider, type TopicInputs } from "../../../provider/resources/topic.js";
import { TransformProvider, type TransformInputs } from "../../../provider/resources/transform.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

// Adoption of an object made in the web console (issue 21, point 3): when the live object already
// equals the program, adopting it writes nothing (no PUT, PATCH, pause, resume or deploy); it
// records the drift baseline and takes the object over. Where it differs, adoption updates it.

const sources = new ConnectorProvider(SOURCE);
const destinations = new ConnectorProvider(DESTINATION);
const tags = new TagProvider();
const transforms = new TransformProvider();
const pipelines = new PipelineProvider();
const topics = new TopicProvider();
const https = new HttpConnectionProvider();
const llms = new LlmConnectionProvider();
const agents = new AgentProvider();
const kafkaUsers = new KafkaUserProvider();
const credentials = new ClientCredentialProvider();

let n = 0;
const unique = (p: string) => `${p}-${process.pid}-${++n}`;

const WRITE = /^(POST|PUT|PATCH|DELETE) /;
const TOKEN_ROUTES = /^POST \/auth\/access-token/;

/** The writes the API received since `before` (token requests aside), by route; {} when none. */
function writesSince(emulator: RunningEmulator, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, count] of Object.entries(emulator.stats().requests)) {
    const added = count - (before[route] ?? 0);
    if (added > 0 && WRITE.test(route) && !TOKEN_ROUTES.test(route)) out[route] = added;
  }
  return out;
}

async function checked<T>(p: { check(o: object, n: Record<string, unknown>): Promise<{ inputs: unknown; failures: unknown[] }> }, news: Record<string, unknown>): Promise<T> {
  const { inputs, failures } = await p.check({}, news);
  expect(failures).toEqual([]);
  return inputs as T;
}

const JS = { language: "JAVASCRIPT", value_transform: "function _stk(record) { return record; }" };

describe("adoption writes nothing when the object already equals the program", () => {
  let h: ProviderHarness;
  /** Counts from just before the adoption under test. */
  let before: Record<string, number>;
  const mark = () => {
    before = { ...h.emulator.stats().requests };
  };
  const writes = () => writesSince(h.emulator, before);

  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
  });
  afterAll(async () => h?.close());

  it("a source: no PUT, no pause or resume; no diff after; a later change of its secret in the program is an update", async () => {
    const name = unique("orders");
    const made = await h.console.post("/sources", { body: { name, connector: "postgresql", config: pgSourceConfig, created_from: "web" }, schema: sourceConnectorSchema });
    await h.console.put(`/sources/${made.id}/pause`, {});
    // The program supplies a password the API masks: it cannot be compared, so it is taken as the stored one.
    const inputs = await checked<ConnectorInputs>(sources, { logicalName: "orders", name, connector: "postgresql", config: { ...pgSourceConfig, "database.password": "what-the-program-says" }, desiredState: "paused", adoptId: made.id });
    mark();
    const { id, outs } = await sources.create(inputs);
    expect(writes()).toEqual({});
    expect(id).toBe(made.id);
    expect(outs).toMatchObject({ status: "Paused", desiredState: "paused", drift: { detected: false } });
    expect(JSON.stringify(outs)).not.toContain("what-the-program-says");
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });
    // The stack holds the program's digest: a new value in the program is an update.
    const rotated = { ...inputs, config: { ...inputs.config, "database.password": "rotated" } };
    expect(await sources.diff(id, outs, rotated)).toMatchObject({ changes: true, diffs: ['config["database.password"]'] });
    mark();
    await sources.update(id, outs, rotated);
    expect(writes()).toEqual({ "PUT /sources/:source_id": 1 });
  });

  it("a destination: no write, the comparison's latest timestamp as the baseline, so a later console edit is drift", async () => {
    const name = unique("warehouse");
    const made = await h.console.post("/destinations", { body: { name, connector: "snowflake", config: snowflakeConfig, created_from: "web" }, schema: destinationConnectorSchema });
    // Edited in the console since it was made: original ≠ current, which is no drift for an adopted object.
    await h.console.put(`/destinations/${made.id}`, { body: { name, connector: "snowflake", config: { ...snowflakeConfig, "snowflake.private.key": "********", "snowflake.schema.name": "STAGING" } } });
    const inputs = await checked<ConnectorInputs>(destinations, { logicalName: "wh", name, connector: "snowflake", config: { ...snowflakeConfig, "snowflake.schema.name": "STAGING" }, adoptId: made.id });
    mark();
    const { id, outs } = await destinations.create(inputs);
    expect(writes()).toEqual({});
    const latest = String((await compareToOriginal(h.console, id)).latest_timestamp);
    expect(outs.drift).toMatchObject({ detected: false, baselineTimestamp: latest });
    expect(await destinations.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await h.console.put(`/destinations/${made.id}`, { body: { name, connector: "snowflake", config: { ...snowflakeConfig, "snowflake.private.key": "********", "snowflake.schema.name": "HOTFIX" } } });
      expect(await destinations.diff(id, outs, inputs)).toMatchObject({ changes: true });
    } finally {
      stderr.mockRestore();
    }
  });

  it("a connector that differs is updated as before: one PUT; its status alone is a pause, with no PUT", async () => {
    const name = unique("differs");
    const made = await h.console.post("/sources", {
      body: { name, connector: "postgresql", config: { ...pgSourceConfig, "database.sslmode": "disable" }, created_from: "web" },
      schema: sourceConnectorSchema,
    });
    const inputs = await checked<ConnectorInputs>(sources, { logicalName: "d", name, connector: "postgresql", config: pgSourceConfig, adoptId: made.id });
    // The program leaves sslmode unset: a write puts it back to its default, so it differs.
    expect(adoptionChanges(catalogueEntry("source", inputs.connector), made, inputs)).toEqual(['config["database.sslmode"]']);
    expect(adoptionChanges(catalogueEntry("source", inputs.connector), made, { ...inputs, name: "other", config: { ...inputs.config, "database.sslmode": "disable", "database.dbname": "shop2" } })).toEqual(["name", 'config["database.dbname"]']);
    mark();
    await sources.create(inputs);
    expect(writes()).toEqual({ "PUT /sources/:source_id": 1 });
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id: made.id! } });
    expect(live!.config!["database.sslmode"]).toBe("require");

    const paused = await checked<ConnectorInputs>(sources, { ...inputs, desiredState: "paused" });
    mark();
    const { outs } = await sources.create(paused);
    expect(writes()).toEqual({ "PUT /sources/:source_id/pause": 1 });
    expect(outs.status).toBe("Paused");
  });

  it("a secret the program sets that the object lacks, or one it has that the program leaves out, is a change", async () => {
    const made = await h.console.post("/sources", { body: { name: unique("s"), connector: "postgresql", config: pgSourceConfig, created_from: "web" }, schema: sourceConnectorSchema });
    const inputs = await checked<ConnectorInputs>(sources, { logicalName: "s", name: made.name, connector: "postgresql", config: pgSourceConfig, adoptId: made.id });
    expect(adoptionChanges(catalogueEntry("source", inputs.connector), made, inputs)).toEqual([]);
    const { ["database.password"]: _password, ...withoutPassword } = inputs.config;
    expect(adoptionChanges(catalogueEntry("source", inputs.connector), made, { ...inputs, config: withoutPassword })).toEqual(['config["database.password"]']);
    const { ["database.password"]: _masked, ...liveWithout } = made.config!;
    expect(adoptionChanges(catalogueEntry("source", inputs.connector), { ...made, config: liveWithout }, inputs)).toEqual(['config["database.password"]']);
  });

  it("a tag: no PUT when equal, one when its description differs", async () => {
    const made = await h.console.post("/tags", { body: { name: unique("pii"), description: "personal data", type: ["sources"], created_from: "web" }, schema: tagSchema });
    const inputs = await checked<TagInputs>(tags, { logicalName: "pii", name: made.name, description: "personal data", type: ["sources"], adoptId: made.id });
    mark();
    const { id, outs } = await tags.create(inputs);
    expect(writes()).toEqual({});
    expect(id).toBe(made.id);
    expect(await tags.diff(id, outs, inputs)).toMatchObject({ changes: false });
    mark();
    await tags.create({ ...inputs, description: "PII" });
    expect(writes()).toEqual({ "PUT /tags/:tag_id": 1 });
  });

  it("a deployed transform: no PUT, no new version, no deployment; a changed implementation is a new version and a redeploy", async () => {
    const source = await h.console.post("/sources", { body: { name: unique("src"), connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema });
    const config = {
      "transforms.name": unique("clean"),
      "transforms.input.topic.pattern": `source_${source.id}\\.public\\.(.*)`,
      "transforms.output.topic.pattern": "clean.$1",
      "transforms.input.job.parallelism": 3,
    };
    const made = await h.console.post("/transforms", { body: { transform: "map_filter", config, implementation: JS, created_from: "web" }, schema: transformSchema });
    await h.console.put(`/transforms/${made.id}/deploy-job-live/no-version`, {});
    await h.console.get(`/transforms/${made.id}/job_status`);
    const inputs = await checked<TransformInputs>(transforms, { logicalName: "clean", transform: "map_filter", config, implementation: JS, deploy: true, adoptId: made.id });
    mark();
    const { id, outs } = await transforms.create(inputs);
    expect(writes()).toEqual({});
    expect(outs).toMatchObject({ status: "RUNNING", version: 1, deploy: true });
    expect(await transforms.diff(id, outs, inputs)).toMatchObject({ changes: false });

    const recoded = await checked<TransformInputs>(transforms, { ...inputs, implementation: { ...JS, value_transform: "function _stk(r) { r.x = 1; return r; }" } });
    mark();
    const { outs: updated } = await transforms.create(recoded);
    expect(updated).toMatchObject({ status: "RUNNING", version: 2 });
    expect(writes()).toMatchObject({ "PUT /transforms": 1, "PUT /transforms/:transform_id/implementation_details": 1, "PUT /transforms/:transform_id/deploy-job-live/:version": 1 });
    await expect(transforms.create({ ...inputs, transform: "fan_out" })).rejects.toThrow(/is a map_filter transform, not fan_out/);
  });

  it("a pipeline: no PUT when equal (topics as sets, transforms regrouped), one when it differs; a topic as the platform made it, no PUT", async () => {
    const source = await h.console.post("/sources", { body: { name: unique("src"), connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema });
    const destination = await h.console.post("/destinations", { body: { name: unique("dst"), connector: "snowflake", config: snowflakeConfig }, schema: destinationConnectorSchema });
    const made = await h.console.post("/pipelines", {
      body: {
        name: unique("orders-to-wh"),
        source: { id: source.id, name: source.name, connector: "postgresql", topics: ["public.customers", "public.orders"] },
        destination: { id: destination.id, name: destination.name, connector: "snowflake" },
        snapshot_new_tables: true,
        created_from: "web",
      },
      schema: pipelineSchema,
    });
    const inputs = await checked<PipelineInputs>(pipelines, {
      logicalName: "p",
      name: made.name,
      source: { id: source.id },
      destination: { id: destination.id },
      sourceTopics: ["public.orders", "public.customers"],
      snapshotNewTables: true,
      adoptId: made.id,
    });
    mark();
    const { id, outs } = await pipelines.create(inputs);
    expect(writes()).toEqual({});
    expect(await pipelines.diff(id, outs, inputs)).toMatchObject({ changes: false });
    mark();
    await pipelines.create({ ...inputs, snapshotNewTables: false });
    expect(writes()).toEqual({ "PUT /pipelines/:pipeline_id": 1 });

    const topicId = source.topic_ids![0]!;
    mark();
    const t = await topics.create(await checked<TopicInputs>(topics, { topicId, partitionCount: 3 }));
    expect(writes()).toEqual({});
    expect(t.outs).toMatchObject({ partitionCount: 3 });
    await topics.create(await checked<TopicInputs>(topics, { topicId, partitionCount: 6 }));
    expect(writes()).toEqual({ "PUT /topics/:topic_id": 1 });
  });

  it("HTTP and LLM connections and an agent: no write when equal; header values and the API key are the program's, kept as digests", async () => {
    const http = await h.console.post("/agents/connections/http", {
      body: { name: unique("tickets"), url: "https://tickets.example.com/api", headers: { Authorization: "Bearer console-token" }, created_from: "web" },
      schema: httpConnectionSchema,
    });
    const llm = await h.console.post("/agents/connections/llm", {
      body: { name: unique("gpt"), provider: "openai", model: "gpt-4o", api_key: "sk-console", created_from: "web" },
      schema: llmConnectionSchema,
    });
    const agent = await h.console.post("/agents", {
      body: { name: unique("triage"), instructions: "Summarise the logs.", llm_connection_id: llm.connection_id, http_connection_ids: [http.connection_id], created_from: "web" },
      schema: agentSchema,
    });
    const httpInputs = await checked<HttpConnectionInputs>(https, { logicalName: "tickets", name: http.name, url: http.url, headers: { Authorization: "Bearer from-config" }, adoptId: http.connection_id });
    const llmInputs = await checked<LlmConnectionInputs>(llms, { logicalName: "gpt", name: llm.name, provider: "openai", model: "gpt-4o", apiKey: "sk-from-config", adoptId: llm.connection_id });
    const agentInputs = await checked<AgentInputs>(agents, {
      logicalName: "triage",
      name: agent.name,
      instructions: "Summarise the logs.",
      llmConnectionId: llm.connection_id,
      httpConnectionIds: [http.connection_id],
      adoptId: agent.job_id,
    });
    mark();
    const adoptedHttp = await https.create(httpInputs);
    const adoptedLlm = await llms.create(llmInputs);
    const adoptedAgent = await agents.create(agentInputs);
    expect(writes()).toEqual({});
    expect(adoptedAgent.outs).toMatchObject({ status: "running", deployed: true });
    expect(JSON.stringify([adoptedHttp.outs, adoptedLlm.outs])).not.toMatch(/from-config/);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await https.diff(adoptedHttp.id, adoptedHttp.outs, httpInputs)).toMatchObject({ changes: false });
      expect(await llms.diff(adoptedLlm.id, adoptedLlm.outs, llmInputs)).toMatchObject({ changes: false });
      expect(await agents.diff(adoptedAgent.id, adoptedAgent.outs, agentInputs)).toMatchObject({ changes: false });
      // A new header value in the program is an update.
      expect(await https.diff(adoptedHttp.id, adoptedHttp.outs, { ...httpInputs, headers: { Authorization: "Bearer rotated" } })).toMatchObject({ changes: true });
    } finally {
      stderr.mockRestore();
    }

    // Differences: the HTTP connection is patched keeping the stored header value; the agent is patched; an LLM connection cannot be.
    mark();
    await https.create({ ...httpInputs, url: "https://tickets.example.com/api/v2" });
    await agents.create({ ...agentInputs, deployed: false });
    expect(writes()).toEqual({ "PATCH /agents/connections/http/:connection_id": 1, "PUT /agents/:job_id/cancel": 1 });
    const patched = await h.console.get(`/agents/connections/http/${http.connection_id}`, { schema: httpConnectionSchema });
    expect(patched).toMatchObject({ url: "https://tickets.example.com/api/v2", headers: { Authorization: "********" } });
    await expect(llms.create({ ...llmInputs, model: "gpt-4.1" })).rejects.toThrow(/differs from the program in model .* cannot update an LLM connection/);
    await expect(agents.create({ ...agentInputs, adoptId: "no-such-agent" })).rejects.toThrow(/no agent with id "no-such-agent"/);
  });
  it("a Kafka user: no write when equal, the program's password taken as the user's; one PUT with the password when its ACLs differ", async () => {
    const username = `ku-${process.pid.toString(36)}-${++n}`;
    const acl = { topic_name: "orders", operation: "READ", resource_pattern_type: "PREFIXED", resource: "TOPIC" };
    await h.console.post("/kafka-access/kafka-users", {
      body: { username, password: "made-in-terraform", whitelist_ips: "10.0.0.0/8", kafka_acls: [acl], is_create_schema_registry: false, created_from: "terraform" },
      schema: kafkaUserSchema,
    });
    const program = { logicalName: "reader", username, password: "made-in-terraform", whitelistIps: ["10.0.0.0/8"], kafkaAcls: [{ topicName: "orders", operation: "READ", resourcePatternType: "PREFIXED" }] };
    const inputs = await checked<KafkaUserInputs>(kafkaUsers, { ...program, adoptId: username });
    mark();
    const adopted = await kafkaUsers.create(inputs);
    expect(writes()).toEqual({});
    expect(adopted.id).toBe(username);
    expect(JSON.stringify(adopted.outs)).not.toMatch(/made-in-terraform/);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await kafkaUsers.diff(adopted.id, adopted.outs, inputs)).toMatchObject({ changes: false });
      // The digest is the program's password's: a new one in the program is an update.
      expect(await kafkaUsers.diff(adopted.id, adopted.outs, { ...inputs, password: "rotated-password" })).toMatchObject({ changes: true, diffs: ["password"] });
    } finally {
      stderr.mockRestore();
    }

    mark();
    await kafkaUsers.create({ ...inputs, kafkaAcls: [...inputs.kafkaAcls, { topicName: "orders", operation: "DESCRIBE", resourcePatternType: "PREFIXED", resource: "TOPIC" }] });
    expect(writes()).toEqual({ "PUT /kafka-access/kafka-users/:username": 1 });
    await expect(kafkaUsers.create({ ...inputs, username: "nobody-here", adoptId: "nobody-here" })).rejects.toThrow(/no Kafka user "nobody-here" to adopt/);
    const { failures } = await kafkaUsers.check({}, { ...program, adoptId: "someone-else" });
    expect(failures).toEqual([{ property: "adoptId", reason: expect.stringMatching(/must equal username .* Set adoptId to /) }]);
  });

  it("a client credential: no write when equal, its secret the program's; one PATCH when its roles differ; another service is refused", async () => {
    const made = await h.console.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: unique("dbt reads") }, schema: clientCredentialSchema });
    const program = { roleIds: ["role_viewer"], description: made.description, adoptId: made.client_id, secret: made.secret };
    const inputs = await checked<ClientCredentialInputs>(credentials, program);
    mark();
    const adopted = await credentials.create(inputs);
    expect(writes()).toEqual({});
    expect(adopted).toMatchObject({ id: made.client_id, outs: { clientId: made.client_id, secret: made.secret, roleIds: ["role_viewer"] } });
    expect(await credentials.diff(adopted.id, adopted.outs, inputs)).toMatchObject({ changes: false });
    // Adopted without its secret: the output is absent, not made up. Given later, it is an update of the stack alone.
    const { secret: _secret, ...withoutSecret } = inputs;
    const bare = await credentials.create(withoutSecret);
    expect(bare.outs).not.toHaveProperty("secret");
    expect(await credentials.diff(bare.id, bare.outs, inputs)).toMatchObject({ changes: true, diffs: ["secret"] });
    mark();
    expect((await credentials.update(bare.id, bare.outs, inputs)).outs).toMatchObject({ secret: made.secret, roleIds: ["role_viewer"] });
    expect(writes()).toEqual({});

    mark();
    const updated = await credentials.create({ ...inputs, roleIds: ["role_editor"] });
    expect(writes()).toEqual({ "PATCH /auth/client-credentials/:client_id": 1 });
    expect(updated.outs).toMatchObject({ roleIds: ["role_editor"], secret: made.secret });
    const listed = await h.console.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    expect(listed.filter((c) => c.description === made.description)).toHaveLength(1);

    await expect(credentials.create({ ...inputs, serviceId: "svc-1" })).rejects.toThrow(/belongs to no service, and a credential's service cannot change: set serviceId to nothing/);
    await expect(credentials.create({ ...inputs, adoptId: "no-such-client" })).rejects.toThrow(/no client credential "no-such-client" to adopt/);
    const { failures } = await credentials.check({}, { roleIds: ["role_viewer"], secret: "s3cret" });
    expect(failures).toEqual([{ property: "secret", reason: expect.stringMatching(/only with adoptId/) }]);
  });
});
