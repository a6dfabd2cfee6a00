import * as pulumi from "@pulumi/pulumi";

// The floor for the benchmark: the same resources as ../cdc, with the same inputs (connector
// configs holding one secret each), on a provider that makes no API call. The difference between
// the two runs is what pulumi-cdc adds: loading the package, HTTP, the emulator's work.
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

class NoopSource extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string; connector: string; config: Config }) {
    super(provider, name, args, undefined, "bench", "NoopSource");
  }
}

class NoopDestination extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string; connector: string; config: Config }) {
    super(provider, name, args, undefined, "bench", "NoopDestination");
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
    config: {
      "database.hostname": "db.internal",
      "database.port": 5432,
      "database.user": "cdc",
      "database.password": pulumi.secret("bench-password"),
      "database.dbname": "shop",
      "table.include.list": `public.orders_${i}`,
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
