import * as pulumi from "@pulumi/pulumi";
import { clickhouseDestination, Destination, postgresqlTables, Source, Tag } from "pulumi-cdc";

// A small but real pipeline, the kind of stack a scheduled CI job guards: PostgreSQL into
// ClickHouse. The interesting part of this example is check-drift.sh beside this file; the
// program only has to be deployed once so that there is something to check.

const config = new pulumi.Config("driftcheck");
const env = config.get("env") ?? pulumi.getStack();

const tag = new Tag("managed", {
  name: `${env}-managed-by-pulumi`,
  // The console shows tags: this one tells whoever opens the object there where to change it.
  description: "Managed by Pulumi: change the stack's program or config, not this object; CI reports drift",
  type: ["sources", "destinations"],
});

const billing = new Source("billing", {
  name: `${env}-billing`,
  ...postgresqlTables({
    databaseHostname: config.get("dbHost") ?? "billing-db.internal",
    databaseUser: config.get("dbUser") ?? "cdc_reader",
    databasePassword: config.requireSecret("dbPassword"),
    databaseDbname: "billing",
    tables: ["public.invoices", "public.payments"],
  }),
  tags: [tag],
});

const analytics = new Destination(
  "analytics",
  {
    name: `${env}-analytics`,
    ...clickhouseDestination({
      hostname: config.get("clickhouseHost") ?? "clickhouse.internal",
      port: 8443,
      connectionUsername: "cdc_writer",
      connectionPassword: config.requireSecret("clickhousePassword"),
      database: "billing",
      ingestionMode: "upsert",
    }),
    tags: [tag],
  },
  { dependsOn: [billing] },
);

export const tagName = tag.name;
export const sourceId = billing.id;
export const destinationId = analytics.id;
// As of the last refresh: `detected` and the API's masked diff (secrets shown as ********).
export const destinationDrift = analytics.drift;
