import type * as pulumi from "@pulumi/pulumi";
import type { ConfigValue } from "./inputs.js";

/**
 * Typed config helpers for the catalogued connectors. Each returns `{connector, config}` to
 * spread into `Source` or `Destination` args; for any other connector pass `connector` and a
 * raw `config` map instead.
 */
export interface ConnectorConfig {
  connector: string;
  config: Record<string, pulumi.Input<ConfigValue>>;
}

type In<T> = pulumi.Input<T>;

/** Drops unset keys so that server defaults stay server defaults (and never cause a diff). */
function compact(config: Record<string, In<ConfigValue> | undefined>): Record<string, In<ConfigValue>> {
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as Record<string, In<ConfigValue>>;
}

const list = (tables: In<string> | string[]): In<string> => (Array.isArray(tables) ? tables.join(",") : tables);

export interface PostgresqlSourceConfig {
  hostname: In<string>;
  port?: In<number>;
  user: In<string>;
  password: In<string>;
  dbname: In<string>;
  /** `schema.table` entries (array or comma-separated string); one topic each. */
  tables: In<string> | string[];
  sslMode?: In<"disable" | "require" | "verify-ca" | "verify-full">;
  slotName?: In<string>;
  publicationName?: In<string>;
  snapshotMode?: In<"initial" | "never" | "when_needed" | "no_data">;
  heartbeatEnabled?: In<boolean>;
}

export function postgresqlSource(c: PostgresqlSourceConfig): ConnectorConfig {
  return {
    connector: "postgresql",
    config: compact({
      "database.hostname": c.hostname,
      "database.port": c.port,
      "database.user": c.user,
      "database.password": c.password,
      "database.dbname": c.dbname,
      "table.include.list": list(c.tables),
      "database.sslmode": c.sslMode,
      "slot.name": c.slotName,
      "publication.name": c.publicationName,
      "snapshot.mode": c.snapshotMode,
      "heartbeat.enabled": c.heartbeatEnabled,
    }),
  };
}

export interface MysqlSourceConfig {
  hostname: In<string>;
  port?: In<number>;
  user: In<string>;
  password: In<string>;
  /** `database.table` entries (array or comma-separated string). */
  tables: In<string> | string[];
  sslMode?: In<"disabled" | "preferred" | "required" | "verify_ca" | "verify_identity">;
  serverId?: In<number>;
  snapshotMode?: In<"initial" | "when_needed" | "never" | "no_data">;
}

export function mysqlSource(c: MysqlSourceConfig): ConnectorConfig {
  return {
    connector: "mysql",
    config: compact({
      "database.hostname": c.hostname,
      "database.port": c.port,
      "database.user": c.user,
      "database.password": c.password,
      "table.include.list": list(c.tables),
      "database.ssl.mode": c.sslMode,
      "database.server.id": c.serverId,
      "snapshot.mode": c.snapshotMode,
    }),
  };
}

export interface SnowflakeDestinationConfig {
  /** `<account>.snowflakecomputing.com` */
  urlName: In<string>;
  userName: In<string>;
  /** PEM private key body of the user's key pair. */
  privateKey: In<string>;
  privateKeyPassphrase?: In<string>;
  databaseName: In<string>;
  schemaName: In<string>;
  roleName?: In<string>;
  ingestionMode?: In<"append" | "upsert">;
  bufferFlushSeconds?: In<number>;
}

export function snowflakeDestination(c: SnowflakeDestinationConfig): ConnectorConfig {
  return {
    connector: "snowflake",
    config: compact({
      "snowflake.url.name": c.urlName,
      "snowflake.user.name": c.userName,
      "snowflake.private.key": c.privateKey,
      "snowflake.private.key.passphrase": c.privateKeyPassphrase,
      "snowflake.database.name": c.databaseName,
      "snowflake.schema.name": c.schemaName,
      "snowflake.role.name": c.roleName,
      "ingestion.mode": c.ingestionMode,
      "buffer.flush.time": c.bufferFlushSeconds,
    }),
  };
}

export interface ClickhouseDestinationConfig {
  hostname: In<string>;
  port?: In<number>;
  username?: In<string>;
  password: In<string>;
  database?: In<string>;
  ssl?: In<boolean>;
  ingestionMode?: In<"append" | "upsert">;
}

export function clickhouseDestination(c: ClickhouseDestinationConfig): ConnectorConfig {
  return {
    connector: "clickhouse",
    config: compact({
      hostname: c.hostname,
      port: c.port,
      "connection.username": c.username,
      "connection.password": c.password,
      database: c.database,
      ssl: c.ssl,
      "ingestion.mode": c.ingestionMode,
    }),
  };
}

export interface S3DestinationConfig {
  accessKeyId: In<string>;
  secretAccessKey: In<string>;
  bucket: In<string>;
  region?: In<string>;
  prefix?: In<string>;
  format?: In<"json" | "csv" | "parquet" | "avro">;
  compression?: In<"none" | "gzip" | "snappy" | "zstd">;
  flushSize?: In<number>;
}

export function s3Destination(c: S3DestinationConfig): ConnectorConfig {
  return {
    connector: "s3",
    config: compact({
      "aws.access.key.id": c.accessKeyId,
      "aws.secret.access.key": c.secretAccessKey,
      "s3.bucket.name": c.bucket,
      "s3.region": c.region,
      "s3.prefix": c.prefix,
      format: c.format,
      "file.compression.type": c.compression,
      "flush.size": c.flushSize,
    }),
  };
}
