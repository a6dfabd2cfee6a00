import * as pulumi from "@pulumi/pulumi";
import { postgresqlSource, Source } from "pulumi-cdc";

// bench:count PostgreSQL sources: one POST each on create, one GET each in a preview's diff
// (the drift check), one DELETE each on destroy. noop/index.ts declares the same resources on a
// provider that does nothing, as the floor the engine itself costs.
const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const stack = pulumi.getStack();

for (let i = 0; i < count; i++) {
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

export const sources = count;
