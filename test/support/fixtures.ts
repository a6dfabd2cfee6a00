// The connector configs the suites share, in the API's keys.

/** A PostgreSQL source as a program writes it: the provider's and the plugin's contract suites, the bundled plugin's check. */
export const pgSourceConfig = {
  "database.hostname.user.defined": "db.internal",
  "database.port.user.defined": 5432,
  "database.user": "cdc",
  "database.password": "pg-very-secret",
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders,public.customers",
};

/** A Snowflake destination as a program writes it (the same suites). */
export const snowflakeConfig = {
  "snowflake.url.name": "acme.snowflakecomputing.com",
  "snowflake.user.name": "LOADER",
  "snowflake.private.key": "MIIEvQ-snowflake-private-key",
  "snowflake.database.name": "ANALYTICS",
  "snowflake.schema.name": "RAW",
};

/**
 * The emulator's own suite's PostgreSQL source (test/contract/emulator): other values (a port
 * that is not the default, the heartbeat on) that its assertions name, a fresh copy each call.
 */
export const emulatorPgSourceConfig = () => ({
  "database.hostname.user.defined": "db.internal",
  "database.port.user.defined": 5433,
  "database.user": "cdc",
  "database.password": "pg-s3cret",
  "database.dbname": "app",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.users,public.orders",
  "heartbeat.enabled": true,
});

/** The emulator's own suite's Snowflake destination, a fresh copy each call. */
export const emulatorSnowflakeConfig = () => ({
  "snowflake.url.name": "acme.snowflakecomputing.com",
  "snowflake.user.name": "LOADER",
  "snowflake.private.key": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-private",
  "snowflake.database.name": "RAW",
  "snowflake.schema.name": "CDC",
});
