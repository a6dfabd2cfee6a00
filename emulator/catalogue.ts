/**
 * The connector catalogue: which connectors exist, the config keys each one takes, which are
 * required, which defaults the server fills in, and which are secret (masked on every read
 * unless `secret_returned=true`). Exported as plain data so the provider's typed config
 * helpers can mirror it key for key.
 *
 * Values travel as JSON scalars (string, number, boolean) and always come back as strings;
 * `default` is therefore written in its echoed (string) form.
 */

export type ConnectorKind = "source" | "destination";

export type ConfigValueType = "string" | "integer" | "boolean" | "enum";

export interface ConfigKeySpec {
  readonly key: string;
  readonly type: ConfigValueType;
  readonly required: boolean;
  readonly secret: boolean;
  /** Filled in by the server when the key is absent; echoed as this string. */
  readonly default?: string;
  /** Allowed values of an `enum` key. */
  readonly values?: readonly string[];
  /** Inclusive bounds of an `integer` key. */
  readonly min?: number;
  readonly max?: number;
  readonly description: string;
}

export interface ConnectorSpec {
  readonly kind: ConnectorKind;
  readonly connector: string;
  readonly displayName: string;
  readonly keys: readonly ConfigKeySpec[];
  /**
   * Sources only: the key listing the captured tables or collections (comma-separated,
   * `schema.table` / `database.table` / `database.collection`). One topic is derived per entry.
   */
  readonly topicKey?: string;
}

/** What the API returns in place of a secret value, and what a client sends back to keep one. */
export const MASK = "********";

const required = (key: string, description: string, type: ConfigValueType = "string"): ConfigKeySpec => ({
  key,
  type,
  required: true,
  secret: false,
  description,
});
const secret = (key: string, description: string, isRequired = true): ConfigKeySpec => ({
  key,
  type: "string",
  required: isRequired,
  secret: true,
  description,
});
const optional = (key: string, description: string): ConfigKeySpec => ({
  key,
  type: "string",
  required: false,
  secret: false,
  description,
});
const port = (key: string, def: string): ConfigKeySpec => ({
  key,
  type: "integer",
  required: false,
  secret: false,
  default: def,
  min: 1,
  max: 65535,
  description: "TCP port",
});
const integer = (key: string, def: string, min: number, description: string): ConfigKeySpec => ({
  key,
  type: "integer",
  required: false,
  secret: false,
  default: def,
  min,
  description,
});
const flag = (key: string, def: "true" | "false", description: string): ConfigKeySpec => ({
  key,
  type: "boolean",
  required: false,
  secret: false,
  default: def,
  description,
});
const choice = (key: string, values: readonly string[], def: string, description: string): ConfigKeySpec => ({
  key,
  type: "enum",
  required: false,
  secret: false,
  default: def,
  values,
  description,
});
const text = (key: string, def: string, description: string): ConfigKeySpec => ({
  key,
  type: "string",
  required: false,
  secret: false,
  default: def,
  description,
});

export const SOURCE_CONNECTORS: Readonly<Record<string, ConnectorSpec>> = {
  postgresql: {
    kind: "source",
    connector: "postgresql",
    displayName: "PostgreSQL",
    topicKey: "table.include.list",
    keys: [
      required("database.hostname", "Database host name or IP address"),
      port("database.port", "5432"),
      required("database.user", "Database user with replication rights"),
      secret("database.password", "Password of database.user"),
      required("database.dbname", "Database to capture"),
      required("table.include.list", "Comma-separated schema.table list to capture"),
      choice("database.sslmode", ["disable", "require", "verify-ca", "verify-full"], "require", "TLS mode"),
      text("slot.name", "cdc_slot", "Logical replication slot"),
      text("publication.name", "cdc_publication", "Publication used by the slot"),
      choice("snapshot.mode", ["initial", "never", "when_needed", "no_data"], "initial", "Initial snapshot behaviour"),
      flag("heartbeat.enabled", "false", "Emit heartbeat events to advance the slot on idle databases"),
    ],
  },
  mysql: {
    kind: "source",
    connector: "mysql",
    displayName: "MySQL",
    topicKey: "table.include.list",
    keys: [
      required("database.hostname", "Database host name or IP address"),
      port("database.port", "3306"),
      required("database.user", "Database user with replication rights"),
      secret("database.password", "Password of database.user"),
      required("table.include.list", "Comma-separated database.table list to capture"),
      choice(
        "database.ssl.mode",
        ["disabled", "preferred", "required", "verify_ca", "verify_identity"],
        "preferred",
        "TLS mode",
      ),
      integer("database.server.id", "184054", 1, "Replication client server id"),
      text("database.connectionTimeZone", "UTC", "Session time zone"),
      choice("snapshot.mode", ["initial", "when_needed", "never", "no_data"], "initial", "Initial snapshot behaviour"),
      flag("heartbeat.enabled", "false", "Emit heartbeat events on idle databases"),
    ],
  },
  mongodb: {
    kind: "source",
    connector: "mongodb",
    displayName: "MongoDB",
    topicKey: "collection.include.list",
    keys: [
      secret("mongodb.connection.string", "Connection string; it embeds the password"),
      required("collection.include.list", "Comma-separated database.collection list to capture"),
      choice(
        "capture.mode",
        ["change_streams", "change_streams_update_full", "change_streams_with_pre_image", "change_streams_update_full_with_pre_image"],
        "change_streams_update_full",
        "Change stream capture mode",
      ),
      choice("snapshot.mode", ["initial", "never", "no_data"], "initial", "Initial snapshot behaviour"),
      flag("mongodb.ssl.enabled", "true", "Connect with TLS"),
    ],
  },
};

export const DESTINATION_CONNECTORS: Readonly<Record<string, ConnectorSpec>> = {
  snowflake: {
    kind: "destination",
    connector: "snowflake",
    displayName: "Snowflake",
    keys: [
      required("snowflake.url.name", "Account URL, e.g. <account>.snowflakecomputing.com"),
      required("snowflake.user.name", "User authenticating with a key pair"),
      secret("snowflake.private.key", "PEM private key of the user (without header lines)"),
      secret("snowflake.private.key.passphrase", "Passphrase of an encrypted private key", false),
      required("snowflake.database.name", "Target database"),
      required("snowflake.schema.name", "Target schema"),
      text("snowflake.role.name", "PUBLIC", "Role used for ingestion"),
      choice("ingestion.mode", ["append", "upsert"], "append", "Append every change or merge by key"),
      integer("buffer.flush.time", "120", 1, "Seconds between buffer flushes"),
    ],
  },
  clickhouse: {
    kind: "destination",
    connector: "clickhouse",
    displayName: "ClickHouse",
    keys: [
      required("hostname", "ClickHouse host name"),
      port("port", "8443"),
      text("connection.username", "default", "User name"),
      secret("connection.password", "Password of connection.username"),
      text("database", "default", "Target database"),
      flag("ssl", "true", "Connect with TLS"),
      choice("ingestion.mode", ["append", "upsert"], "append", "Append every change or merge by key"),
    ],
  },
  postgresql: {
    kind: "destination",
    connector: "postgresql",
    displayName: "PostgreSQL",
    keys: [
      required("database.hostname", "Database host name or IP address"),
      port("database.port", "5432"),
      required("database.username", "Database user"),
      secret("database.password", "Password of database.username"),
      required("database.dbname", "Target database"),
      text("database.schema", "public", "Target schema"),
      choice("database.sslmode", ["disable", "require", "verify-ca", "verify-full"], "require", "TLS mode"),
      choice("insert.mode", ["insert", "upsert", "update"], "insert", "How rows are written"),
      choice("primary.key.mode", ["none", "record_key", "record_value"], "record_key", "Where primary keys come from"),
      choice("schema.evolution", ["none", "basic"], "basic", "Create and alter tables to follow the source"),
    ],
  },
  s3: {
    kind: "destination",
    connector: "s3",
    displayName: "Amazon S3",
    keys: [
      required("aws.access.key.id", "Access key id (an identifier, not a secret)"),
      secret("aws.secret.access.key", "Secret access key"),
      required("s3.bucket.name", "Target bucket"),
      text("s3.region", "us-east-1", "Bucket region"),
      optional("s3.prefix", "Key prefix inside the bucket"),
      choice("format", ["json", "csv", "parquet", "avro"], "json", "Object format"),
      choice("file.compression.type", ["none", "gzip", "snappy", "zstd"], "gzip", "Object compression"),
      integer("flush.size", "1000", 1, "Records per object"),
    ],
  },
};

export const CATALOGUE: Readonly<Record<ConnectorKind, Readonly<Record<string, ConnectorSpec>>>> = {
  source: SOURCE_CONNECTORS,
  destination: DESTINATION_CONNECTORS,
};

export function findConnector(kind: ConnectorKind, connector: string): ConnectorSpec | undefined {
  const table = CATALOGUE[kind];
  return Object.prototype.hasOwnProperty.call(table, connector) ? table[connector] : undefined;
}

export function connectorNames(kind: ConnectorKind): string[] {
  return Object.keys(CATALOGUE[kind]).sort();
}

export function secretKeys(spec: ConnectorSpec): string[] {
  return spec.keys.filter((k) => k.secret).map((k) => k.key);
}

export function isSecretKey(spec: ConnectorSpec, key: string): boolean {
  return spec.keys.some((k) => k.key === key && k.secret);
}
