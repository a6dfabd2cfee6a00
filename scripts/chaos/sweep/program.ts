import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * The sweep's program: every kind, 41 resources. The dynamic classes' version is
 * test/e2e/fixtures/sweep/index.ts; this writes the same objects as YAML for the provider plugin,
 * and says what the API must hold once either converges.
 */

const ROOT = resolve(__dirname, "..", "..", "..");
export const TS_PROGRAM = join(ROOT, "test", "e2e", "fixtures", "sweep");

const PG_SOURCES = 14;
const PIPELINES = 8;
const TRANSFORM_SOURCES = [8, 9];
const TOPIC_SOURCES = [10, 11];

/** What the API holds of the program once it converged, by kind: names (a Kafka user's username, a credential's description). */
export interface Expected {
  sources: string[];
  destinations: string[];
  tags: string[];
  pipelines: string[];
  transforms: string[];
  llmConnections: string[];
  httpConnections: string[];
  agents: string[];
  kafkaUsers: string[];
  credentials: string[];
  /** Topics tuned to 3 partitions, by the source name whose table they carry. */
  topics: Array<{ source: string; table: string }>;
  /** The API source's topic sent to the destination. */
  binding: { source: string; topic: string; destination: string };
  /** The destination whose SMT chain holds the program's entry. */
  chain: string;
}

export function expected(prefix: string, generation: number): Expected {
  const n = (name: string) => `${prefix}-${name}`;
  return {
    sources: [...Array.from({ length: PG_SOURCES }, (_, i) => n(`pg-${i}`)), n("mysql"), n("crm")],
    destinations: [n("snowflake"), n("clickhouse"), n("s3"), n("replica")],
    tags: [n("team"), n("flows")],
    pipelines: Array.from({ length: PIPELINES }, (_, i) => n(`pipe-${i}`)),
    transforms: TRANSFORM_SOURCES.map((i) => n(`clean-${i}`)),
    llmConnections: [n("gpt")],
    httpConnections: [n("tickets")],
    agents: [n("triage")],
    kafkaUsers: [n(`consumer-${generation}`)],
    credentials: [n("reader")],
    topics: TOPIC_SOURCES.map((i) => ({ source: n(`pg-${i}`), table: `public.orders_${i}` })),
    binding: { source: n("crm"), topic: "hubspot.contacts", destination: n("snowflake") },
    chain: n("clickhouse"),
  };
}

/** The YAML program (JSON is YAML) on this checkout's plugin, in `dir`; the password is stack config (`password`, secret). */
export async function writeYamlProgram(dir: string, prefix: string, generation: number): Promise<void> {
  const n = (name: string) => `${prefix}-${name}`;
  const resources: Record<string, { type: string; properties: Record<string, unknown>; options?: Record<string, unknown> }> = {};
  const add = (name: string, kind: string, properties: Record<string, unknown>, options?: Record<string, unknown>) => {
    resources[name] = { type: `cdc:index:${kind}`, properties, ...(options ? { options } : {}) };
  };
  add("team", "Tag", { name: n("team"), description: "owned by the data team", type: ["sources", "destinations"] });
  add("flows", "Tag", { name: n("flows"), description: "pipelines", type: ["pipelines"] });
  for (let i = 0; i < PG_SOURCES; i++) {
    add(`pg-${i}`, "Source", {
      name: n(`pg-${i}`),
      connector: "postgresql",
      config: {
        "database.hostname.user.defined": `db-${i}.internal`,
        "database.user": "cdc",
        "database.password": "${password}",
        "database.dbname": "shop",
        "schema.include.list": "public",
        "table.include.list.user.defined": `public.orders_${i}`,
      },
      ...(i < 4 ? { tags: ["${team.id}"] } : {}),
    });
  }
  add("mysql", "Source", {
    name: n("mysql"),
    connector: "mysql",
    config: {
      "database.hostname.user.defined": "mysql.internal",
      "database.user": "cdc",
      "database.password": "${password}",
      "database.include.list.user.defined": "shop",
      "table.include.list.user.defined": "shop.customers",
    },
  });
  add("crm", "Source", { name: n("crm"), connector: "hubspot", config: { resources: ["contacts", "deals"], token: "${password}" } });
  const snowflake = (database: string, extra: Record<string, unknown> = {}) => ({
    "snowflake.url.name": "acme.snowflakecomputing.com",
    "snowflake.user.name": "LOADER",
    "snowflake.private.key": "${password}",
    "snowflake.database.name": database,
    "snowflake.schema.name": "RAW",
    ...extra,
  });
  add("snowflake", "Destination", { name: n("snowflake"), connector: "snowflake", config: snowflake("ANALYTICS"), tags: ["${team.id}"] });
  add("clickhouse", "Destination", {
    name: n("clickhouse"),
    connector: "clickhouse",
    config: { hostname: "ch.internal", "connection.username": "loader", "connection.password": "${password}", database: "analytics" },
  });
  add("s3", "Destination", {
    name: n("s3"),
    connector: "s3",
    config: { "aws.s3.bucket.name": "acme-lake", "aws.s3.region": "eu-west-1", "aws.access.key.id": "AKIAEXAMPLE", "aws.secret.access.key": "${password}" },
  });
  add("replica", "Destination", { name: n("replica"), connector: "snowflake", config: snowflake("REPLICA", { "ingestion.mode": generation % 2 === 0 ? "upsert" : "append" }) });
  for (let i = 0; i < PIPELINES; i++) {
    add(`pipe-${i}`, "Pipeline", {
      name: n(`pipe-${i}`),
      source: { id: `\${pg-${i}.id}` },
      destination: { id: i % 2 === 0 ? "${snowflake.id}" : "${clickhouse.id}" },
      sourceTopics: [`public.orders_${i}`],
      ...(i < 2 ? { tags: ["${flows.id}"] } : {}),
    });
  }
  for (const i of TRANSFORM_SOURCES) {
    add(
      `clean-${i}`,
      "Transform",
      { name: n(`clean-${i}`), transform: "map_filter", config: { "transforms.input.topic.pattern": `public\\.orders_${i}`, "transforms.output.topic.pattern": `clean.orders_${i}` } },
      { dependsOn: [`\${pg-${i}}`] },
    );
  }
  for (const i of TOPIC_SOURCES) add(`topic-${i}`, "Topic", { topicId: `source_\${pg-${i}.id}.public.orders_${i}`, partitionCount: 3 });
  add("contacts", "TopicDestination", { topicId: "source_${crm.id}.hubspot.contacts", destinationId: "${snowflake.id}" });
  add("routing", "DestinationSmtChain", { destination: "${clickhouse.id}", transforms: [{ type: "regex_router", name: "Route orders", regex: "(.*)_orders", replacement: "$1" }] });
  add("reader", "ClientCredential", { roleIds: ["role_viewer"], description: n("reader") });
  add("consumer", "KafkaUser", { username: n(`consumer-${generation}`), password: "${password}", kafkaAcls: [{ topicName: "source_", operation: "READ", resourcePatternType: "PREFIXED" }] });
  add("gpt", "LlmConnection", { name: n("gpt"), provider: "openai", model: "gpt-4o", apiKey: "${password}" });
  add("tickets", "HttpConnection", { name: n("tickets"), url: "https://tickets.example.com/api", headers: { Authorization: "${password}" } });
  add("triage", "Agent", { name: n("triage"), instructions: "Watch the pipelines.", llmConnectionId: "${gpt.id}", httpConnectionIds: ["${tickets.id}"] });
  const program = {
    name: "cdc-sweep-yaml",
    runtime: "yaml",
    description: "The crash-point sweep's program on the provider plugin (scripts/chaos/sweep/program.ts).",
    plugins: { providers: [{ name: "cdc", path: join(ROOT, "bin") }] },
    config: { password: { type: "string", secret: true } },
    resources,
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "Pulumi.yaml"), `${JSON.stringify(program, null, 2)}\n`);
}
