import * as pulumi from "@pulumi/pulumi";
import {
  clickhouseDestination,
  Destination,
  mysqlSource,
  s3Destination,
  snowflakeDestination,
  Source,
  Tag,
  type ConnectorConfig,
} from "pulumi-cdc";

// One MySQL source delivered to as many destinations as the stack lists. Adding, removing or
// changing a destination is a config change (`pulumi config set --path ...`), not a code change,
// so every environment (stack) can fan out to a different set of systems from the same program.

const config = new pulumi.Config("fanout");
// Every object name is prefixed, because source, destination and tag names are unique per tenant
// and several stacks usually share one tenant.
const prefix = config.get("prefix") ?? pulumi.getStack();

type DesiredState = "active" | "paused" | "stopped";

interface Common {
  /** Short name, unique in the list: `[a-z0-9-]`. The API name becomes `<prefix>-<name>`. */
  name: string;
  desiredState?: DesiredState;
  /** The config key (in the `fanout` namespace) holding this destination's secret. Default `<name>Secret`. */
  secretKey?: string;
}
interface S3Entry extends Common {
  connector: "s3";
  bucket: string;
  accessKeyId: string;
  region?: string;
  prefix?: string;
  format?: "json" | "csv" | "parquet" | "avro";
  compression?: "none" | "gzip" | "snappy" | "zstd";
  flushSize?: number;
}
interface ClickhouseEntry extends Common {
  connector: "clickhouse";
  hostname: string;
  port?: number;
  username?: string;
  database?: string;
  ssl?: boolean;
  ingestionMode?: "append" | "upsert";
}
interface SnowflakeEntry extends Common {
  connector: "snowflake";
  urlName: string;
  userName: string;
  databaseName: string;
  schemaName: string;
  roleName?: string;
  ingestionMode?: "append" | "upsert";
  bufferFlushSeconds?: number;
}
type DestinationEntry = S3Entry | ClickhouseEntry | SnowflakeEntry;

// What each connector needs in its list entry (its secret is separate, see secretKey).
const REQUIRED: Record<DestinationEntry["connector"], string[]> = {
  s3: ["bucket", "accessKeyId"],
  clickhouse: ["hostname"],
  snowflake: ["urlName", "userName", "databaseName", "schemaName"],
};
// The one secret setting of each connector, for the error message.
const SECRET_NAME: Record<DestinationEntry["connector"], string> = {
  s3: "its secret access key",
  clickhouse: "its password",
  snowflake: "its private key",
};

/**
 * Checks the whole list before any resource is declared, and reports every problem at once,
 * so a typo in stack config fails the preview with a clear message instead of a half-applied
 * fan-out or an API error.
 */
function validate(raw: unknown): { entries: DestinationEntry[]; secrets: Map<string, pulumi.Output<string>> } {
  const problems: string[] = [];
  const entries: DestinationEntry[] = [];
  const secrets = new Map<string, pulumi.Output<string>>();
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new pulumi.RunError(
      "fanout:destinations must be a non-empty list, e.g. `pulumi config set --path 'fanout:destinations[0].name' lake` (see README.md)",
    );
  }
  const seen = new Set<string>();
  raw.forEach((item: unknown, i: number) => {
    const at = `fanout:destinations[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const e = item as Record<string, unknown>;
    if (typeof e.name !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(e.name)) {
      problems.push(`${at}.name must be lower-case letters, digits and '-', got ${JSON.stringify(e.name)}`);
      return;
    }
    if (seen.has(e.name)) problems.push(`${at}.name '${e.name}' is used twice: names must be unique`);
    seen.add(e.name);
    const connector = e.connector as DestinationEntry["connector"];
    if (!Object.hasOwn(REQUIRED, connector)) {
      problems.push(`${at}.connector must be one of ${Object.keys(REQUIRED).join(", ")}, got ${JSON.stringify(e.connector)}`);
      return;
    }
    for (const field of REQUIRED[connector]) {
      if (typeof e[field] !== "string" || e[field] === "") problems.push(`${at}.${field} is required for ${connector}`);
    }
    if (e.desiredState !== undefined && !["active", "paused", "stopped"].includes(e.desiredState as string)) {
      problems.push(`${at}.desiredState must be active, paused or stopped, got ${JSON.stringify(e.desiredState)}`);
    }
    // Numbers set with `--path` arrive as numbers, from a JSON string they may arrive as text.
    for (const field of ["port", "flushSize", "bufferFlushSeconds"]) {
      if (e[field] !== undefined && !Number.isInteger(Number(e[field]))) problems.push(`${at}.${field} must be an integer`);
      else if (e[field] !== undefined) e[field] = Number(e[field]);
    }
    const secretKey = typeof e.secretKey === "string" && e.secretKey !== "" ? e.secretKey : `${e.name}Secret`;
    // getSecret, not requireSecret: collect every missing secret into one message.
    const secret = config.getSecret(secretKey);
    if (secret === undefined) {
      problems.push(`${at} (${e.name}) needs ${SECRET_NAME[connector]}: pulumi config set --secret fanout:${secretKey} <value>`);
    } else {
      secrets.set(e.name, secret);
    }
    entries.push(e as unknown as DestinationEntry);
  });
  if (problems.length > 0) throw new pulumi.RunError(`invalid fan-out config:\n  - ${problems.join("\n  - ")}`);
  return { entries, secrets };
}

/** The connector config of one entry, through the SDK's typed helpers. */
function connectorConfig(entry: DestinationEntry, secret: pulumi.Output<string>): ConnectorConfig {
  switch (entry.connector) {
    case "s3":
      return s3Destination({
        bucket: entry.bucket,
        accessKeyId: entry.accessKeyId,
        secretAccessKey: secret,
        region: entry.region,
        // Each stack writes under its own prefix unless the entry says otherwise.
        prefix: entry.prefix ?? `cdc/${prefix}/`,
        format: entry.format,
        compression: entry.compression,
        flushSize: entry.flushSize,
      });
    case "clickhouse":
      return clickhouseDestination({
        hostname: entry.hostname,
        port: entry.port,
        username: entry.username,
        password: secret,
        database: entry.database,
        ssl: entry.ssl,
        ingestionMode: entry.ingestionMode,
      });
    case "snowflake":
      return snowflakeDestination({
        urlName: entry.urlName,
        userName: entry.userName,
        privateKey: secret,
        databaseName: entry.databaseName,
        schemaName: entry.schemaName,
        roleName: entry.roleName,
        ingestionMode: entry.ingestionMode,
        bufferFlushSeconds: entry.bufferFlushSeconds,
      });
  }
}

const { entries, secrets } = validate(config.requireObject<unknown>("destinations"));

interface SourceSettings {
  hostname?: string;
  port?: number;
  user?: string;
  tables?: string[];
  serverId?: number;
}
const sourceSettings = config.getObject<SourceSettings>("source") ?? {};

const tag = new Tag("fanout", {
  name: `${prefix}-fanout`,
  description: `Objects of the ${prefix} fan-out`,
  type: ["source", "destination"],
});

const source = new Source("shop", {
  name: `${prefix}-shop`,
  ...mysqlSource({
    hostname: sourceSettings.hostname ?? "shop-db.internal",
    port: sourceSettings.port,
    user: sourceSettings.user ?? "cdc",
    password: config.requireSecret("sourcePassword"),
    tables: sourceSettings.tables ?? ["shop.orders", "shop.order_items"],
    serverId: sourceSettings.serverId,
  }),
});

// Resource names are the entry names: renaming an entry replaces that destination (and only it),
// reordering the list changes nothing.
const destinations = entries.map(
  (entry) =>
    new Destination(
      entry.name,
      {
        name: `${prefix}-${entry.name}`,
        ...connectorConfig(entry, secrets.get(entry.name)!),
        desiredState: entry.desiredState,
      },
      { dependsOn: [source] },
    ),
);

export const tagName = tag.name;
export const sourceId = source.id;
export const sourceTopics = source.topics;
/** name -> {id, connector, status} of every destination. */
export const fanout = pulumi
  .all(destinations.map((d) => pulumi.all([d.name, d.id, d.connector, d.status])))
  .apply((rows) => Object.fromEntries(rows.map(([name, id, connector, status]) => [name, { id, connector, status }])));
/** Destinations changed outside Pulumi as of the last refresh. */
export const drifted = pulumi
  .all(destinations.map((d) => pulumi.all([d.name, d.drift])))
  .apply((rows) => rows.filter(([, drift]) => drift?.detected).map(([name]) => name));
