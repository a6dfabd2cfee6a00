import * as pulumi from "@pulumi/pulumi";

// The floor for the benchmark: the same resources as ../cdc, declared with the same properties
// as pulumi-cdc's Source and Destination (the same inputs, connector configs holding one secret
// each, and the same output properties, which every dynamic resource registers with the engine),
// on a provider that makes no API call and returns its inputs. The difference between the two
// runs is what pulumi-cdc adds: loading the package, its checks, HTTP, the emulator's work, and
// the outputs it stores.
const provider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    return { changes: JSON.stringify([olds.name, olds.config]) !== JSON.stringify([news.name, news.config]) };
  },
  async create(inputs) {
    return { id: `noop-${inputs.name}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};

type Config = Record<string, pulumi.Input<string | number>>;

/** The property bag pulumi-cdc's SDK registers for a connector (sourceProps and destinationProps of generated/typescript/kinds.ts), outputs as placeholders. */
function connectorProps(logicalName: string, name: string, connector: string, config: Config, outputs: string[]): pulumi.Inputs {
  const props: pulumi.Inputs = { logicalName, name, connector, config, desiredState: undefined, adoptId: undefined, tags: undefined };
  for (const key of ["status", "displayName", "createdTimestamp", "drift", ...outputs]) props[key] = undefined;
  return props;
}

class NoopSource extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string; connector: string; config: Config }) {
    super(provider, name, connectorProps(name, args.name, args.connector, args.config, ["topics", "topicIds", "topicMap"]), undefined, "bench", "NoopSource");
  }
}

class NoopDestination extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string; connector: string; config: Config }) {
    super(provider, name, connectorProps(name, args.name, args.connector, args.config, []), undefined, "bench", "NoopDestination");
  }
}

const config = new pulumi.Config("bench");
const sources = config.requireNumber("sources");
const destinations = config.requireNumber("destinations");
const stack = pulumi.getStack();

for (let i = 0; i < sources; i++) {
  new NoopSource(`src-${i}`, {
    name: `${stack}-src-${i}`,
    connector: "postgresql",
    // What postgresqlTables() gives ../cdc: the platform's keys.
    config: {
      "database.hostname.user.defined": "db.internal",
      "database.port.user.defined": 5432,
      "database.user": "cdc",
      "database.password": pulumi.secret("bench-password"),
      "database.dbname": "shop",
      "table.include.list.user.defined": `public.orders_${i}`,
      "schema.include.list": "public",
    },
  });
}

for (let i = 0; i < destinations; i++) {
  new NoopDestination(`dst-${i}`, {
    name: `${stack}-dst-${i}`,
    connector: "snowflake",
    config: {
      "snowflake.url.name": "acme.snowflakecomputing.com",
      "snowflake.user.name": "LOADER",
      "snowflake.private.key": pulumi.secret("bench-private-key"),
      "snowflake.database.name": "ANALYTICS",
      "snowflake.schema.name": `RAW_${i}`,
    },
  });
}

export const counts = { sources, destinations };
