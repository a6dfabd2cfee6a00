import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { terraformConvertMapping } from "../../../provider/terraform/convert-mapping.js";
import { PROVIDER_SCHEMA } from "../../../provider/terraform/mapping.js";

// Issue 41: what the plugin answers to `pulumi convert --from terraform` (GetMapping "terraform"),
// checked against the plugin's own schema: every token a resource of it, every name an input of it.

interface Mapping {
  name: string;
  provider: { resources: Record<string, Record<string, { type: number }>> };
  resources: Record<string, { tok: string; fields: Record<string, { name: string }> }>;
}
const schema = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "generated", "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties?: Record<string, unknown> }>;
};

describe("the mapping pulumi convert --from terraform reads", () => {
  const mapping = terraformConvertMapping("1.2.3") as Mapping;

  it("covers every streamkap_* type of the vendor's schema (and the catalogue's newer ones), each with its attributes in the bridge's shim form", () => {
    const types = Object.keys(PROVIDER_SCHEMA.resources).filter((t) => t.startsWith("streamkap_"));
    expect(types.filter((t) => !mapping.resources[t])).toEqual([]);
    expect(mapping.name).toBe("streamkap");
    expect(mapping.provider.resources.streamkap_source_postgresql?.database_port?.type).toBe(3);
    expect(mapping.provider.resources.streamkap_tag?.type?.type).toBe(7);
  });

  it("names only resources and input properties the plugin's schema has", () => {
    const wrong: string[] = [];
    for (const [type, { tok, fields }] of Object.entries(mapping.resources)) {
      const inputs = schema.resources[tok]?.inputProperties;
      if (!inputs) wrong.push(`${type} → ${tok}`);
      for (const [attribute, { name }] of Object.entries(fields)) if (!inputs?.[name]) wrong.push(`${type}.${attribute} → ${tok}.${name}`);
    }
    expect(wrong).toEqual([]);
  });

  it("names only what a program sets: a computed-only attribute is left to the bridge's naming, which references read", () => {
    const named: string[] = [];
    for (const [type, { fields }] of Object.entries(mapping.resources)) {
      const attributes = (PROVIDER_SCHEMA.resources as Record<string, { attributes: Record<string, { optional?: boolean; required?: boolean }> }>)[type]?.attributes ?? {};
      for (const attribute of Object.keys(fields)) if (!attributes[attribute]?.optional && !attributes[attribute]?.required) named.push(`${type}.${attribute}`);
    }
    expect(named).toEqual([]);
    // The credential's client id is read back (clientId), never the adoptId a program would set.
    expect(mapping.resources.streamkap_client_credential?.fields.client_id).toBeUndefined();
    expect(mapping.resources.streamkap_client_credential?.fields.role_ids).toEqual({ name: "roleIds" });
  });

  it("maps a catalogued connector to its typed resource and its attributes to the typed properties", () => {
    expect(mapping.resources.streamkap_source_postgresql).toMatchObject({
      tok: "cdc:sources:Postgresql",
      fields: { database_hostname: { name: "databaseHostname" }, database_password: { name: "databasePassword" }, name: { name: "name" }, tags: { name: "tags" } },
    });
    expect(mapping.resources.streamkap_destination_snowflake?.tok).toBe("cdc:destinations:Snowflake");
    expect(mapping.resources.streamkap_pipeline).toMatchObject({ tok: "cdc:index:Pipeline", fields: { source: { name: "source" }, destination: { name: "destination" }, snapshot_new_tables: { name: "snapshotNewTables" } } });
    expect(mapping.resources.streamkap_tag).toMatchObject({ tok: "cdc:index:Tag", fields: { name: { name: "name" }, type: { name: "type" } } });
  });
});
