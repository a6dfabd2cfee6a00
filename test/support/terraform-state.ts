import { mapAttribute, PROVIDER_SCHEMA, terraformTypes } from "../../provider/terraform/mapping.js";

/**
 * Terraform states as the vendor's provider (beta.24) writes them, for tests that need no vendor
 * build: each instance holds every attribute of its type's schema (catalogue/terraform-schema.json),
 * unset ones null, config defaults as the provider plans them, sensitive ones listed in
 * sensitive_attributes and held in plain text, as a state test/e2e/import-terraform-vendor.test.ts
 * produced holds them.
 */

/** One instance of `type`: every attribute of its schema, its defaults, then `values`. */
export function tfInstance(type: string, values: Record<string, unknown>, indexKey?: number | string) {
  const t = terraformTypes().get(type);
  const schema = PROVIDER_SCHEMA.resources[type];
  if (!t || !schema) throw new Error(`no mapped type ${type} in the committed schema`);
  const attributes: Record<string, unknown> = {};
  for (const name of Object.keys(schema.attributes)) {
    const m = mapAttribute(t, name);
    attributes[name] = m?.to === "config" && m.key.default !== undefined ? m.key.default : null;
  }
  Object.assign(attributes, values);
  const sensitive = Object.entries(schema.attributes).filter(([n, a]) => (a as { sensitive?: boolean }).sensitive && attributes[n] !== null);
  return { ...(indexKey !== undefined ? { index_key: indexKey } : {}), schema_version: 0, attributes, sensitive_attributes: sensitive.map(([n]) => [{ type: "get_attr", value: n }]) };
}

/** The connection of the tests' PostgreSQL source in the platform's keys (made through the API), with its password. */
export function pgConnectionConfig(password: string): Record<string, unknown> {
  return {
    "database.hostname.user.defined": "orders.db.internal",
    "database.port.user.defined": 5432,
    "database.user": "cdc",
    "database.password": password,
    "database.dbname": "shop",
    "schema.include.list": "public",
    "table.include.list.user.defined": "public.orders",
    "signal.data.collection.schema.or.database": "public.streamkap_signal",
  };
}

/**
 * A PostgreSQL source's instance as the vendor's provider records it, on that connection (in
 * Terraform's names); `values` give its id, name, password, tags and anything else of the test's.
 */
export function tfPostgresqlSource(values: Record<string, unknown>, indexKey?: number) {
  return tfInstance(
    "streamkap_source_postgresql",
    {
      connector: "postgresql",
      connector_status: "Active",
      database_hostname: "orders.db.internal",
      database_port: 5432,
      database_user: "cdc",
      database_dbname: "shop",
      schema_include_list: "public",
      table_include_list: "public.orders",
      signal_data_collection_schema_or_database: "public.streamkap_signal",
      ...values,
    },
    indexKey,
  );
}

/**
 * A managed resource of a state, with its instances. Terraform writes the provider's address with
 * its registry's host in front; the import never reads it, so the host is left out here.
 */
export const tfResource = (type: string, name: string, instances: unknown[]) => ({ mode: "managed", type, name, provider: 'provider["streamkap-com/streamkap"]', instances });

/** A terraform.tfstate (format version 4) of `resources`, as text. */
export function tfState(resources: unknown[]): string {
  return `${JSON.stringify({ version: 4, terraform_version: "1.11.4", serial: 9, lineage: "5f1d6a4e-0000-4000-8000-000000000041", outputs: {}, resources, check_results: null }, null, 2)}\n`;
}
