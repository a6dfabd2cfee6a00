import * as pulumi from "@pulumi/pulumi";

// The floor for the benchmark: the same number of dynamic resources, with the same inputs as
// ../cdc (a connector config holding one secret), on a provider that makes no API call. The
// difference between the two runs is what pulumi-cdc adds: loading the package, HTTP, the emulator.
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

class NoopSource extends pulumi.dynamic.Resource {
  constructor(name: string, args: { name: string; connector: string; config: Record<string, pulumi.Input<string | number>> }) {
    super(provider, name, args, undefined, "bench", "NoopSource");
  }
}

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const stack = pulumi.getStack();

for (let i = 0; i < count; i++) {
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

export const sources = count;
