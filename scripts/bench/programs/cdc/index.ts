import * as pulumi from "@pulumi/pulumi";
import { Destination, postgresqlSource, snowflakeDestination, Source } from "pulumi-cdc";

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
    ...postgresqlSource({
      hostname: "db.internal",
      port: 5432,
      user: "cdc",
      // A fixed sandbox value; the provider still stores it as a Pulumi secret, as it would a real one.
      password: "bench-password",
      dbname: "shop",
      tables: [`public.orders_${i}`],
    }),
  });
}

for (let i = 0; i < destinations; i++) {
  new Destination(`dst-${i}`, {
    name: `${stack}-dst-${i}`,
    ...snowflakeDestination({
      urlName: "acme.snowflakecomputing.com",
      userName: "LOADER",
      privateKey: "bench-private-key",
      databaseName: "ANALYTICS",
      schemaName: `RAW_${i}`,
    }),
  });
}

export const counts = { sources, destinations };
