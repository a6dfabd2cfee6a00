import * as pulumi from "@pulumi/pulumi";

// The floor for ../cdc-plugin: the same property bags, registered the same way, on the no-op
// provider plugin pulumi-resource-bench (../../noop-plugin), which makes no API call and returns
// its inputs. The difference between the two runs is what pulumi-resource-cdc adds.
const SOURCE = "bench:index:NoopSource";
const DESTINATION = "bench:index:NoopDestination";

type Config = Record<string, pulumi.Input<string | number>>;

/**
 * The property bag a generated SDK registers for a Source or Destination: the schema's inputs
 * (name, connector, config, desiredState, adoptId, tags) and its outputs as placeholders. The two
 * plugin programs register the same bags, with the same secrets, as ../cdc and ../noop do.
 */
function connectorProps(name: string, connector: string, config: Config): pulumi.Inputs {
  const props: pulumi.Inputs = { name, connector, config, desiredState: undefined, adoptId: undefined, tags: undefined };
  for (const key of ["status", "displayName", "createdTimestamp", "tenantId", "topics", "topicIds", "topicMap", "drift"]) props[key] = undefined;
  return props;
}

/** A resource of a provider's token, as a generated SDK's class is (CustomResource itself is abstract). */
class Connector extends pulumi.CustomResource {
  constructor(type: string, name: string, props: pulumi.Inputs) {
    super(type, name, props);
  }
}

const config = new pulumi.Config("bench");
const sources = config.requireNumber("sources");
const destinations = config.requireNumber("destinations");
const stack = pulumi.getStack();

for (let i = 0; i < sources; i++) {
  // Explicit, stack-scoped names: names are unique per tenant and several stacks share one emulator.
  // The config is what postgresqlTables() gives ../cdc: the platform's keys, the password a secret.
  new Connector(SOURCE, `src-${i}`, connectorProps(`${stack}-src-${i}`, "postgresql", {
    "database.hostname.user.defined": "db.internal",
    "database.port.user.defined": 5432,
    "database.user": "cdc",
    "database.password": pulumi.secret("bench-password"),
    "database.dbname": "shop",
    "table.include.list.user.defined": `public.orders_${i}`,
    "schema.include.list": "public",
  }));
}

for (let i = 0; i < destinations; i++) {
  // What snowflakeDestination() gives ../cdc.
  new Connector(DESTINATION, `dst-${i}`, connectorProps(`${stack}-dst-${i}`, "snowflake", {
    "snowflake.url.name": "acme.snowflakecomputing.com",
    "snowflake.user.name": "LOADER",
    "snowflake.private.key": pulumi.secret("bench-private-key"),
    "snowflake.database.name": "ANALYTICS",
    "snowflake.schema.name": `RAW_${i}`,
  }));
}

export const counts = { sources, destinations };
