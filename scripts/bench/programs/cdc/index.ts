import * as pulumi from "@pulumi/pulumi";
import { Destination, postgresqlTables, snowflakeDestination, Source } from "pulumi-cdc";

// bench:sources PostgreSQL sources and bench:destinations Snowflake destinations against the
// emulator. noop/index.ts declares the same resources, with the same inputs, on a provider that
// does nothing: the floor the engine itself costs.
const config = new pulumi.Config("bench");
const sources = config.requireNumber("sources");
const destinations = config.requireNumber("destinations");
const stack = pulumi.getStack();

for (let i = 0; i < sources; i++) {
  new Source(`src-${i}`, {
    // Explicit, stack-scoped names: names are unique per tenant and several stacks share one emulator.
    name: `${stack}-src-${i}`,
    ...postgresqlTables({
      databaseHostname: "db.internal",
      databasePort: 5432,
      databaseUser: "cdc",
      // A fixed sandbox value; the provider still stores it as a Pulumi secret, as it would a real one.
      databasePassword: "bench-password",
      databaseDbname: "shop",
      tables: [`public.orders_${i}`],
    }),
  });
}

for (let i = 0; i < destinations; i++) {
  new Destination(`dst-${i}`, {
    name: `${stack}-dst-${i}`,
    ...snowflakeDestination({
      snowflakeUrlName: "acme.snowflakecomputing.com",
      snowflakeUserName: "LOADER",
      snowflakePrivateKey: "bench-private-key",
      snowflakeDatabaseName: "ANALYTICS",
      snowflakeSchemaName: `RAW_${i}`,
    }),
  });
}

export const counts = { sources, destinations };
