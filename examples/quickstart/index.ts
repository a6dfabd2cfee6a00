import * as pulumi from "@pulumi/pulumi";
import { ClientCredential, Destination, postgresqlTables, snowflakeDestination, Source, Tag } from "pulumi-cdc";

// Program settings live under the explicit "quickstart" namespace (not the project name) so
// the same keys work whether this folder is run on its own or as the repository's root program.
// The API connection itself is `cdc:apiUrl`, `cdc:clientId`, `cdc:clientSecret` (or the
// CDC_API_URL / CDC_CLIENT_ID / CDC_CLIENT_SECRET environment variables).
const config = new pulumi.Config("quickstart");
const env = config.get("env") ?? pulumi.getStack();

// Tags organise objects in the platform's console; `type` says what a tag is for, in the
// platform's words (sources, destinations, pipelines, topics, environment, ...).
const ownerTag = new Tag("owner", {
  name: `team-data-${env}`,
  description: "Owned by the data platform team",
  type: ["sources", "destinations", "pipelines"],
});
const piiTag = new Tag("pii", {
  name: `pii-${env}`,
  description: "Carries personal data: restricted access",
  type: ["sources", "destinations", "topics"],
});

// The operational database. requireSecret: the password is encrypted in the stack's state and
// never printed; the SDK also marks the connector's secret keys as secrets on its own.
const orders = new Source("orders", {
  name: `orders-${env}`,
  // The generated helper has one typed property per platform key (databaseHostname is
  // `database.hostname.user.defined`); postgresqlTables also fills both include lists from `tables`.
  ...postgresqlTables({
    databaseHostname: config.get("dbHost") ?? "orders-db.internal",
    databasePort: config.getNumber("dbPort") ?? 5432,
    databaseUser: config.get("dbUser") ?? "cdc_reader",
    databasePassword: config.requireSecret("dbPassword"),
    databaseDbname: config.get("dbName") ?? "shop",
    tables: config.getObject<string[]>("tables") ?? ["public.orders", "public.customers"],
    // A dedicated slot per environment, so two stacks never consume each other's changes.
    slotName: `cdc_orders_${env.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}`,
  }),
  tags: [ownerTag, piiTag],
});

// The warehouse. Key-pair authentication: the private key is a secret config value.
const warehouse = new Destination(
  "warehouse",
  {
    name: `warehouse-${env}`,
    ...snowflakeDestination({
      snowflakeUrlName: config.get("snowflakeAccountUrl") ?? "acme.snowflakecomputing.com",
      snowflakeUserName: config.get("snowflakeUser") ?? "CDC_LOADER",
      snowflakePrivateKey: config.requireSecret("snowflakePrivateKey"),
      snowflakeDatabaseName: config.get("snowflakeDatabase") ?? "ANALYTICS",
      snowflakeSchemaName: config.get("snowflakeSchema") ?? "RAW",
      // upsert keeps one row per key in the warehouse instead of a change log. The platform
      // cannot change it in place: changing it later replaces the destination.
      ingestionMode: "upsert",
    }),
    tags: [ownerTag],
  },
  // Nothing should land in the warehouse before the source exists to feed it.
  { dependsOn: [orders] },
);

// A read-only API credential for a downstream service (here: dbt reading pipeline status).
// The API shows the secret once, at creation; Pulumi keeps it as an encrypted output.
const dbt = new ClientCredential("dbt", {
  roleIds: ["role_viewer"],
  description: `dbt (${env}): reads pipeline status`,
});

export const tags = [ownerTag.name, piiTag.name];
export const sourceId = orders.id;
export const sourceTopics = orders.topics;
export const destinationId = warehouse.id;
export const destinationName = warehouse.name;
export const destinationStatus = warehouse.status;
// Changes made outside Pulumi as of the last refresh (`pulumi preview --refresh` or `pulumi refresh`).
export const destinationDrift = warehouse.drift;
export const dbtClientId = dbt.clientId;
// A secret output: shown as [secret]; read it with `pulumi stack output dbtClientSecret --show-secrets`.
export const dbtClientSecret = dbt.secret;
