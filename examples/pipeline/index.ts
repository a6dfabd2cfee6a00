import * as pulumi from "@pulumi/pulumi";
import { codeImplementation, Destination, mapFilterTransform, Pipeline, postgresqlTables, snowflakeDestination, Source, Tag, Topic, Transform } from "pulumi-cdc";

// Every knob is stack config, so one program serves the first deploy, selecting other tables
// and changing the transform's code (see README.md).
const config = new pulumi.Config();
const env = pulumi.getStack();

const team = new Tag("team", { name: `orders-team-${env}`, description: "Owned by the orders team", type: ["sources", "destinations", "pipelines", "transforms", "topics"] });

const orders = new Source("orders", {
  name: `orders-${env}`,
  ...postgresqlTables({
    databaseHostname: config.get("dbHost") ?? "orders-db.internal",
    databaseUser: "cdc_reader",
    databasePassword: config.requireSecret("dbPassword"),
    databaseDbname: "shop",
    tables: ["public.orders", "public.customers", "public.payments"],
  }),
  tags: [team],
});

const warehouse = new Destination("warehouse", {
  name: `warehouse-${env}`,
  ...snowflakeDestination({
    snowflakeUrlName: "acme.snowflakecomputing.com",
    snowflakeUserName: "CDC_LOADER",
    snowflakePrivateKey: config.requireSecret("snowflakePrivateKey"),
    snowflakeDatabaseName: "ANALYTICS",
    snowflakeSchemaName: "RAW",
  }),
  tags: [team],
});

// Drops test orders and writes each table's records to `clean.<table>`. The input pattern is
// matched against the source's topic names; `$1` is its group.
const clean = new Transform(
  "clean",
  {
    ...mapFilterTransform({
      name: `orders-clean-${env}`,
      transformsInputTopicPattern: "public\\.(orders|customers)",
      transformsOutputTopicPattern: "clean.$1",
      transformsInputJobParallelism: config.getNumber("parallelism") ?? 2,
    }),
    implementation: codeImplementation({
      valueTransform: config.get("valueTransform") ?? "function _stk(record) { return record.is_test ? null : record; }",
    }),
    // Deploy, and wait (up to deployTimeoutSec) until the job is RUNNING.
    deploy: true,
    deployTimeoutSec: 300,
    tags: [team],
  },
  { dependsOn: [orders] },
);

const pipeline = new Pipeline("orders-to-warehouse", {
  name: `orders-to-warehouse-${env}`,
  source: orders,
  destination: warehouse,
  // Straight from the source, as the source names them.
  sourceTopics: config.getObject<string[]>("sourceTopics") ?? ["public.payments"],
  // And through the transform: the topics of it that go to the warehouse.
  transforms: [{ transform: clean, topics: config.getObject<string[]>("cleanTopics") ?? ["clean.orders", "clean.customers"] }],
  snapshotNewTables: true,
  tags: [team],
});

// More partitions for the busiest topic. Destroy leaves the topic (it belongs to the source).
const paymentsTopic = new Topic("payments-topic", {
  topicId: pulumi.interpolate`source_${orders.id}.public.payments`,
  partitionCount: config.getNumber("paymentsPartitions") ?? 6,
  tags: [team],
});

export const pipelineId = pipeline.id;
export const pipelineTopicIds = pipeline.topicIds;
export const transformId = clean.id;
export const transformStatus = clean.status;
export const transformTopics = clean.topics;
export const paymentsTopicId = paymentsTopic.id;
export const sourceId = orders.id;
