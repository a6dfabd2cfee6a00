import { z } from "zod";
import { CATALOGUE } from "../../catalogue/index.js";
import { agentSchema, clientCredentialSchema, destinationConnectorSchema, httpConnectionSchema, llmConnectionSchema, sourceConnectorSchema, tagSchema } from "../../provider/client/index.js";
import { pipelineSchema, transformSchema } from "../../provider/pipelines/schemas.js";
import { requiredConfig } from "./catalogue-samples.js";
import { ConsoleClient } from "./web.js";

/**
 * A tenant as people build one in the web console over months, through the API with a client
 * that stamps `created_from: web`: tags, sources of several connectors (paused, tagged, one
 * with settings away from the defaults), destinations (one edited after it was made, one
 * stopped, one with a chain of single message transforms), transforms with their code or SQL
 * (one deployed), pipelines through transforms,
 * HTTP and LLM connections, agents (one a draft), topics tuned, and a client credential. The
 * secrets are sentinels no program may ever hold in plain text.
 */

export const SEED_SECRETS = {
  pgPassword: "SEED-PG-PASSWORD-7c1e",
  mysqlPassword: "SEED-MYSQL-PASSWORD-2a9d",
  mongoUri: "mongodb+srv://cdc:SEED-MONGO-5e0f@cluster0.example.net",
  sqlserverPassword: "SEED-SQLSERVER-PASSWORD-8b3a",
  dynamoSecret: "SEED-DYNAMO-SECRET-4f6c",
  snowflakeKey: "SEED-SNOWFLAKE-KEY-1d7b",
  s3Secret: "SEED-S3-SECRET-9e2f",
  pgDestPassword: "SEED-PGDEST-PASSWORD-6a4c",
  ticketsToken: "Bearer SEED-TICKETS-3c8d",
  ticketsKey: "SEED-TICKETS-KEY-0b5e",
  gptKey: "sk-SEED-GPT-7f2a",
  maskSalt: "SEED-MASK-SALT-5d3e",
  claudeKey: "sk-ant-SEED-CLAUDE-1e9b",
} as const;

export interface SeededTenant {
  /** Every object a program adopts, by kind: ids. */
  ids: {
    tags: string[];
    sources: string[];
    destinations: string[];
    transforms: string[];
    pipelines: string[];
    httpConnections: string[];
    llmConnections: string[];
    agents: string[];
    /** Topics tuned away from what the platform made. */
    topics: string[];
    /** Destinations whose SMT chain a program takes over (its id is theirs). */
    smtChains: string[];
  };
  credential: string;
  /** How many objects an import of the whole tenant adopts. */
  count: number;
}

const SNOWFLAKE = {
  "snowflake.url.name": "acme.snowflakecomputing.com",
  "snowflake.user.name": "LOADER",
  "snowflake.private.key": SEED_SECRETS.snowflakeKey,
  "snowflake.database.name": "ANALYTICS",
  "snowflake.schema.name": "RAW",
};

export async function seedTenant(web: ConsoleClient, prefix = "seed"): Promise<SeededTenant> {
  const n = (name: string) => `${prefix}-${name}`;
  const tag = (name: string, type: string[], description?: string) =>
    web.post("/tags", { body: { name, type, ...(description ? { description } : {}) }, schema: tagSchema });
  const pii = await tag(n("pii"), ["sources", "destinations", "pipelines", "topics"], "Carries personal data");
  const finance = await tag(n("finance"), ["sources", "destinations"]);
  const team = await tag(n("team-data"), ["pipelines", "transforms"], "Owned by the data team");
  const eu = await tag(n("EU region"), ["general", "sources"]);

  const source = (name: string, connector: string, config: Record<string, unknown>, tags?: string[]) =>
    web.post("/sources", { query: { wait: false }, body: { name, connector, config, ...(tags ? { tags } : {}) }, schema: sourceConnectorSchema });
  const orders = await source(
    n("orders"),
    "postgresql",
    {
      "database.hostname.user.defined": "orders-db.internal",
      "database.port.user.defined": 5433,
      "database.user": "cdc",
      "database.password": SEED_SECRETS.pgPassword,
      "database.dbname": "shop",
      "schema.include.list": "public",
      "table.include.list.user.defined": "public.orders,public.customers",
      "database.sslmode": "disable",
      "slot.name": "cdc_orders",
    },
    [pii.id, eu.id, "670e5bab0d119c0d1f8cda9d"],
  );
  const inventory = await source(n("inventory"), "mysql", {
    "database.hostname.user.defined": "inventory-db.internal",
    "database.user": "cdc",
    "database.password": SEED_SECRETS.mysqlPassword,
    "database.include.list.user.defined": "shop",
    "table.include.list.user.defined": "shop.items,shop.stock",
  }, [finance.id]);
  await web.put(`/sources/${inventory.id}/pause`, {});
  const events = await source(n("events"), "mongodb", {
    ...requiredConfig(CATALOGUE.source.mongodb!),
    "mongodb.connection.string.user.defined": SEED_SECRETS.mongoUri,
    "database.include.list": "app",
    "collection.include.list.user.defined": "app.events,app.sessions",
  });
  // Written as raw config by the import (--raw-config 'legacy-*'): the emulator, like the
  // platform, refuses a connector its catalogue does not have, so a catalogued one stands in.
  const crm = await source(n("legacy-crm"), "sqlserveraws", {
    ...requiredConfig(CATALOGUE.source.sqlserveraws!),
    "database.password": SEED_SECRETS.sqlserverPassword,
  });
  const dynamo = await source(n("sessions"), "dynamodb", {
    ...requiredConfig(CATALOGUE.source.dynamodb!),
    "aws.secret.key": SEED_SECRETS.dynamoSecret,
  });

  const destination = (name: string, connector: string, config: Record<string, unknown>, tags?: string[]) =>
    web.post("/destinations", { query: { wait: false }, body: { name, connector, config, ...(tags ? { tags } : {}) }, schema: destinationConnectorSchema });
  const warehouse = await destination(n("warehouse"), "snowflake", SNOWFLAKE, [pii.id, finance.id]);
  // Edited in the console since: its history's latest entry is not the original.
  await web.put(`/destinations/${warehouse.id}`, {
    query: { wait: false },
    body: { name: warehouse.name, connector: "snowflake", config: { ...SNOWFLAKE, "snowflake.private.key": "********", "snowflake.schema.name": "STAGING" }, tags: [pii.id, finance.id] },
  });
  // A chain saved in the console: the whole user chain, the salt as a secret operation.
  await web.put("/destinations/{id}/smt-chain", {
    params: { id: warehouse.id! },
    body: {
      transforms: [
        { type: "mask_field", name: "Mask email", enabled: true, config: { fields_include: ["customers.email"], mask_function: "SHA256" }, secret_operations: [{ pointer: "/mask_salt", operation: "replace", value: SEED_SECRETS.maskSalt }] },
        { type: "regex_router", name: "Route orders", enabled: true, config: { regex: "(.*)_orders", replacement: "$1" } },
      ],
    },
  });
  const lake = await destination(n("lake"), "s3", {
    ...requiredConfig(CATALOGUE.destination.s3!),
    "aws.secret.access.key": SEED_SECRETS.s3Secret,
    "aws.s3.bucket.name": "acme-cdc-lake",
  });
  await web.put(`/destinations/${lake.id}/stop`, {});
  const replica = await destination(n("replica"), "postgresql", {
    ...requiredConfig(CATALOGUE.destination.postgresql!),
    "connection.password": SEED_SECRETS.pgDestPassword,
  });

  const transform = (body: Record<string, unknown>) => web.post("/transforms", { query: { secret_returned: true }, body, schema: transformSchema });
  const clean = await transform({
    transform: "map_filter",
    config: { "transforms.name": n("clean-orders"), "transforms.input.topic.pattern": "public\\.(orders|customers)", "transforms.output.topic.pattern": "clean.$1", "transforms.input.job.parallelism": 3 },
    implementation: { language: "JAVASCRIPT", value_transform: "function _stk(record) {\n  // drop test orders\n  return record.value.test ? null : record;\n}" },
    tags: [team.id],
  });
  await web.put(`/transforms/${clean.id}/deploy-job-live/no-version`, {});
  // The job reads DEPLOYING once, then RUNNING.
  await web.get(`/transforms/${clean.id}/job_status`);
  await web.get(`/transforms/${clean.id}/job_status`);
  const enrich = await transform({
    transform: "enrich",
    config: { "transforms.name": n("enrich-items"), "transforms.input.topic.pattern": "shop\\.(.*)", "transforms.output.topic.pattern": "enriched.$1" },
    implementation: { language: "SQL", value_transform: "SELECT i.*, s.qty FROM items i JOIN stock s ON i.id = s.item_id" },
  });
  const router = await transform({
    transform: "topic_router",
    config: { "transforms.name": n("route-events"), "transforms.input.topic.pattern": "app.events", "transforms.output.topic.pattern": "routed.events" },
  });
  const cleanLive = (await web.findOne(`/transforms/${clean.id}`, transformSchema))!;

  const pipeline = (body: Record<string, unknown>) => web.post("/pipelines", { query: { wait: false }, body, schema: pipelineSchema });
  const ref = (c: { id?: string | null; name?: string | null; connector?: string | null }) => ({ id: c.id, name: c.name, connector: c.connector });
  const p1 = await pipeline({
    name: n("orders-to-warehouse"),
    source: { ...ref(orders), topics: ["public.orders"] },
    destination: ref(warehouse),
    transforms: cleanLive.topics.map((topic) => ({ id: clean.id, name: clean.name, topic })),
    snapshot_new_tables: true,
    tags: [team.id, pii.id],
  });
  const p2 = await pipeline({ name: n("inventory-to-lake"), source: { ...ref(inventory), topics: ["shop.items", "shop.stock"] }, destination: ref(lake) });
  const p3 = await pipeline({ name: n("events-to-replica"), source: { ...ref(events), topics: ["app.sessions"] }, destination: ref(replica) });

  const tickets = await web.post("/agents/connections/http", {
    body: { name: n("tickets"), url: "https://tickets.example.com/api/v2", headers: { Authorization: SEED_SECRETS.ticketsToken, "X-Api-Key": SEED_SECRETS.ticketsKey } },
    schema: httpConnectionSchema,
  });
  const status = await web.post("/agents/connections/http", { body: { name: n("status-page"), url: "https://status.example.com" }, schema: httpConnectionSchema });
  const gpt = await web.post("/agents/connections/llm", { body: { name: n("gpt"), provider: "openai", model: "gpt-4o", api_key: SEED_SECRETS.gptKey }, schema: llmConnectionSchema });
  const claude = await web.post("/agents/connections/llm", {
    body: { name: n("claude"), provider: "anthropic", model: "claude-sonnet", api_key: SEED_SECRETS.claudeKey, base_url: "https://llm-proxy.example.com" },
    schema: llmConnectionSchema,
  });
  const triage = await web.post("/agents", {
    body: {
      name: n("triage"),
      description: "Turns connector errors into tickets",
      instructions: "Read the connector logs.\nOpen a ticket for each new error, with the summary.",
      llm_connection_id: gpt.connection_id,
      http_connection_ids: [tickets.connection_id, status.connection_id],
    },
    schema: agentSchema,
  });
  const digest = await web.post("/agents", {
    body: { name: n("digest"), instructions: "Write a daily digest of pipeline health.", llm_connection_id: claude.connection_id, deploy: false },
    schema: agentSchema,
  });

  // Topics tuned in the console: more partitions for the busy table, a tag on a transform's topic.
  const ordersTopic = orders.topic_ids!.find((t) => t.endsWith(".public.orders"))!;
  await web.put("/topics/{id}", { params: { id: ordersTopic }, body: { payload: { partition_count: 6 } } });
  const cleanTopic = cleanLive.topic_ids.find((t) => t.endsWith(".clean.orders"))!;
  await web.put("/topics/{id}", { params: { id: cleanTopic }, body: { payload: { tags: [pii.id] } } });

  const credential = await web.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: "dbt reads pipeline status" }, schema: clientCredentialSchema });
  z.string().parse(credential.client_id);

  const ids = {
    tags: [pii.id, finance.id, team.id, eu.id],
    sources: [orders.id!, inventory.id!, events.id!, crm.id!, dynamo.id!],
    destinations: [warehouse.id!, lake.id!, replica.id!],
    transforms: [clean.id, enrich.id, router.id],
    pipelines: [p1.id, p2.id, p3.id],
    httpConnections: [tickets.connection_id, status.connection_id],
    llmConnections: [gpt.connection_id, claude.connection_id],
    agents: [triage.job_id, digest.job_id],
    topics: [ordersTopic, cleanTopic],
    smtChains: [warehouse.id!],
  };
  return { ids, credential: credential.client_id, count: Object.values(ids).reduce((sum, list) => sum + list.length, 0) };
}
