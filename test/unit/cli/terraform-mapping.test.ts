import { describe, expect, it } from "vitest";
import { attributeName, mapAttribute, mapInstance, PROVIDER_SCHEMA, terraformTypes } from "../../../provider/terraform/mapping.js";
import { addressLabel, handover, stateTenant } from "../../../cli/import/terraform/tenant.js";
import { parseTerraformState, TerraformInputError, withoutKeys } from "../../../cli/import/terraform/state.js";
import { buildProgram } from "../../../cli/import/model.js";

// Issue 41: the Terraform state as a source of the import's program. The mapping is derived from
// the kinds' declarations and the catalogue; this checks it covers every resource type and every
// attribute of the vendor's provider as its beta.24 build declares them (catalogue/terraform-schema.json,
// written by scripts/generate/terraform-schema.ts), with no vendor build needed.

describe("the Terraform mapping covers the vendor's provider", () => {
  const types = terraformTypes();

  it("maps every streamkap_* resource type of the committed schema to a kind", () => {
    const unmapped = Object.keys(PROVIDER_SCHEMA.resources).filter((t) => t.startsWith("streamkap_") && !types.has(t));
    expect(unmapped).toEqual([]);
    expect(Object.keys(PROVIDER_SCHEMA.resources).length).toBeGreaterThanOrEqual(59);
  });

  it("maps every attribute of every type to a property, a config key, an alias or a reason it is not carried", () => {
    const unmapped: string[] = [];
    for (const [type, { attributes, blocks }] of Object.entries(PROVIDER_SCHEMA.resources)) {
      const t = types.get(type);
      if (!t) continue;
      for (const name of [...Object.keys(attributes), ...(blocks ?? [])]) if (!mapAttribute(t, name)) unmapped.push(`${type}.${name}`);
    }
    expect(unmapped).toEqual([]);
  });

  it("maps the types newer than the build, from the vendor's schema snapshots: Kafka users and client credentials adopted with their secrets apart, topic destinations", () => {
    expect(PROVIDER_SCHEMA.about.later?.types).toEqual(["streamkap_client_credential", "streamkap_kafka_user", "streamkap_topic_destination"]);
    expect(types.get("streamkap_kafka_user")?.kind).toBe("KafkaUser");
    expect(types.get("streamkap_client_credential")?.kind).toBe("ClientCredential");
    expect(types.get("streamkap_topic_destination")?.kind).toBe("TopicDestination");
    const instances = parseTerraformState(
      JSON.stringify({
        version: 4,
        resources: [
          { mode: "managed", type: "streamkap_kafka_user", name: "reader", instances: [{ attributes: { id: "reader", username: "reader", password: "kafka-user-password" } }] },
          { mode: "managed", type: "streamkap_client_credential", name: "ci", instances: [{ attributes: { id: "c1", client_id: "c1", secret: "cred-secret", role_ids: ["viewer"] } }] },
          { mode: "managed", type: "streamkap_topic_destination", name: "contacts", instances: [{ attributes: { id: "x", topic_id: "source_a1.hubspot.contacts", destination_id: "d1" } }] },
        ],
      }),
      "s.tfstate",
    );
    const state = stateTenant(instances);
    expect(state.warnings).toEqual([]);
    expect([...state.addresses.values()].map((i) => i.address)).toEqual(["streamkap_kafka_user.reader", "streamkap_client_credential.ci", "streamkap_topic_destination.contacts"]);
    expect(state.tenant.TopicDestination).toEqual([{ topicId: "source_a1.hubspot.contacts", destinationId: "d1", sourceId: "a1" }]);
    expect(state.tenant.KafkaUser).toMatchObject([{ username: "reader", whitelist_ips: "", kafka_acls: [] }]);
    expect(state.tenant.ClientCredential).toMatchObject([{ client_id: "c1", roles: [{ id: "viewer" }] }]);
    // The secrets the API never shows are held apart, by what the kinds' imports name them.
    expect(state.secretValue("KafkaUser", "reader", "password")).toBe("kafka-user-password");
    expect(state.secretValue("ClientCredential", "c1", "secret")).toBe("cred-secret");
    const { secretValue: _values, ...held } = state;
    expect(JSON.stringify(held)).not.toMatch(/kafka-user-password|cred-secret/);
  });

  it("maps the newer types of the catalogue too (API sources up to 3.0.1)", () => {
    expect(types.get("streamkap_source_hubspot")?.kind).toBe("Source");
    expect(types.get("streamkap_transform_topic_router")?.kind).toBe("Transform");
  });

  it("reads config attributes through the catalogue, deprecated aliases to what they stand for, secrets apart", () => {
    expect(attributeName("database_hostname")).toBe("databaseHostname");
    const pg = types.get("streamkap_source_postgresql")!;
    expect(mapAttribute(pg, "database_hostname")).toMatchObject({ to: "config", key: { key: "database.hostname.user.defined" } });
    expect(mapAttribute(pg, "insert_static_key_field_1")).toMatchObject({ to: "alias", of: "transforms_insert_static_key1_static_field" });
    expect(mapAttribute(pg, "kc_cluster_id")).toMatchObject({ to: "dropped" });
    expect(mapAttribute(pg, "no_such_attribute")).toBeUndefined();
    const read = mapInstance(pg, { id: "a1", name: "orders", connector: "postgresql", database_hostname: "db", database_password: "s3cret", insert_static_key_field_1: "k", kc_cluster_id: "c9", made_up: "x" })!;
    expect(read.id).toBe("a1");
    const live = read.live as { config: Record<string, unknown> };
    expect(live.config["database.hostname.user.defined"]).toBe("db");
    expect(live.config["database.password"]).toBe("********");
    expect(live.config["transforms.InsertStaticKey1.static.field"]).toBe("k");
    expect([...read.secrets]).toEqual([["database.password", "s3cret"]]);
    expect(read.dropped.map((d) => d.attribute)).toEqual(["kc_cluster_id"]);
    expect(read.unmapped).toEqual(["made_up"]);
  });
});

describe("a v2 state", () => {
  const types = terraformTypes();

  it("has every rename of the vendor's migration guide land on a config key, and every removal said", () => {
    const v2 = PROVIDER_SCHEMA.v2!;
    expect(Object.keys(v2.renames).length).toBeGreaterThanOrEqual(5);
    for (const [type, renames] of Object.entries(v2.renames)) {
      for (const [old, now] of Object.entries(renames)) expect(mapAttribute(types.get(type)!, old), `${type}.${old}`).toMatchObject({ to: "alias", of: now, key: { name: attributeName(now) } });
    }
    for (const [type, removed] of Object.entries(v2.removed)) for (const a of removed) expect(mapAttribute(types.get(type)!, a), `${type}.${a}`).toMatchObject({ to: "dropped" });
  });

  it("imports a v2 PostgreSQL destination: renamed attributes, ssh_port as a string, the password a secret", () => {
    const dest = types.get("streamkap_destination_postgresql")!;
    const v2 = { id: "d1", name: "replica", connector: "postgresql", database_hostname: "db", database_dbname: "replica", database_username: "loader", database_password: "v2-pw", database_schema_name: "public", hard_delete: true, custom_primary_key: "id", ssh_port: "22" };
    const read = mapInstance(dest, v2)!;
    expect(read.unmapped).toEqual([]);
    const config = (read.live as { config: Record<string, unknown> }).config;
    expect(config).toMatchObject({ "database.database.user.defined": "replica", "connection.username": "loader", "connection.password": "********", "table.name.prefix": "public", "delete.enabled": true, "primary.key.fields": "id", "ssh.port": 22 });
    expect([...read.secrets]).toEqual([["connection.password", "v2-pw"]]);
  });

  it("reads a v2 MySQL snapshot_gtid boolean as the v3 Yes/No, and drops what v3 removed", () => {
    const mysql = mapInstance(types.get("streamkap_source_mysql")!, { id: "m1", name: "m", snapshot_gtid: false })!;
    expect((mysql.live as { config: Record<string, unknown> }).config["snapshot.gtid"]).toBe("No");
    const s3 = mapInstance(types.get("streamkap_destination_s3")!, { id: "s1", name: "s", filename_prefix: "x/", bucket_name: "b" })!;
    expect(s3.dropped.map((d) => d.attribute)).toEqual(["filename_prefix"]);
    expect((s3.live as { config: Record<string, unknown> }).config["aws.s3.bucket.name"]).toBe("b");
  });
});

describe("Terraform addresses", () => {
  it("make readable, stable identifiers' labels", () => {
    expect(addressLabel("streamkap_tag.team")).toBe("team");
    expect(addressLabel("streamkap_tag.team[1]")).toBe("team-1");
    expect(addressLabel('module.a.streamkap_source_postgresql.orders["eu"]')).toBe("a-orders-eu");
    expect(addressLabel("module.a[0].module.b.streamkap_source_postgresql.orders[2]")).toBe("a-0-b-orders-2");
  });

  it("lose their instance keys for a removed block", () => {
    expect(withoutKeys('module.a[0].streamkap_tag.t["x.y"]')).toBe("module.a.streamkap_tag.t");
  });

  it("give one removed block per resource and one state rm per instance", () => {
    const inst = (address: string) => ({ address, resource: withoutKeys(address), type: "streamkap_tag", attributes: {} });
    const h = handover([inst("streamkap_tag.t[0]"), inst("streamkap_tag.t[1]"), inst("streamkap_tag.u")]);
    expect(h.file.match(/removed \{/g)).toHaveLength(2);
    expect(h.file).toContain("from = streamkap_tag.t\n");
    expect(h.file).toContain("destroy = false");
    expect(h.stateRm).toEqual(["terraform state rm 'streamkap_tag.t[0]'", "terraform state rm 'streamkap_tag.t[1]'", "terraform state rm 'streamkap_tag.u'"]);
  });
});

const TAG = { id: "t1", name: "team", description: "", type: ["sources"], system: false, custom: true };
const SOURCE = { id: "s1", name: "orders", connector: "postgresql", database_hostname: "db", database_user: "u", database_password: "pw", database_dbname: "d", schema_include_list: "public", table_include_list: "public.orders", tags: ["t1"] };

describe("the three input forms", () => {
  it("reads a terraform.tfstate of version 4, count instances and modules", () => {
    const state = {
      version: 4,
      resources: [
        { mode: "managed", type: "streamkap_tag", name: "team", instances: [{ index_key: 0, attributes: TAG }] },
        { module: "module.db", mode: "managed", type: "streamkap_source_postgresql", name: "orders", instances: [{ attributes: SOURCE }] },
        { mode: "data", type: "streamkap_tags", name: "all", instances: [{ attributes: {} }] },
      ],
    };
    const read = parseTerraformState(JSON.stringify(state), "terraform.tfstate");
    expect(read.map((i) => [i.address, i.resource])).toEqual([
      ["streamkap_tag.team[0]", "streamkap_tag.team"],
      ["module.db.streamkap_source_postgresql.orders", "module.db.streamkap_source_postgresql.orders"],
    ]);
  });

  it("reads terraform show -json through child modules, and an empty state", () => {
    const shown = {
      format_version: "1.0",
      values: {
        root_module: {
          resources: [{ address: 'streamkap_tag.team["a"]', mode: "managed", type: "streamkap_tag", values: TAG }],
          child_modules: [{ address: "module.db", resources: [{ address: "module.db.streamkap_source_postgresql.orders", mode: "managed", type: "streamkap_source_postgresql", values: SOURCE }] }],
        },
      },
    };
    expect(parseTerraformState(JSON.stringify(shown), "show.json").map((i) => i.resource)).toEqual(["streamkap_tag.team", "module.db.streamkap_source_postgresql.orders"]);
    expect(parseTerraformState('{"format_version":"1.0"}', "show.json")).toEqual([]);
  });

  it("refuses bad input with the file, the field and the fix", () => {
    expect(() => parseTerraformState("{", "x.tfstate")).toThrow(/x\.tfstate is not JSON/);
    expect(() => parseTerraformState('{"version":3}', "old.tfstate")).toThrow(/"version" is 3.*format version 4/);
    expect(() => parseTerraformState('{"version":4}', "s.tfstate")).toThrow(/"resources" is missing/);
    expect(() => parseTerraformState("{}", "s.json")).toThrow(TerraformInputError);
  });
});

describe("a state as the import's program", () => {
  it("names resources from addresses, refers to adopted objects, and keeps secret values out of the model's text", () => {
    const instances = parseTerraformState(
      JSON.stringify({
        version: 4,
        resources: [
          { mode: "managed", type: "streamkap_tag", name: "team", instances: [{ index_key: 0, attributes: TAG }] },
          { mode: "managed", type: "streamkap_source_postgresql", name: "orders", instances: [{ attributes: SOURCE }] },
          { mode: "managed", type: "streamkap_unknown_thing", name: "x", instances: [{ attributes: { id: "u" } }] },
        ],
      }),
      "s.tfstate",
    );
    const state = stateTenant(instances);
    expect(state.unmapped).toEqual(["streamkap_unknown_thing.x: the resource type streamkap_unknown_thing has no pulumi-cdc kind: not adopted, and not in the handover"]);
    const model = buildProgram(state.tenant, { label: state.label, secretValue: state.secretValue });
    expect(model.resources.map((r) => r.ident)).toEqual(["team0Tag", "ordersSource"]);
    const source = model.resources[1]!;
    expect(JSON.stringify(source.inputs.tags)).toContain('"ident":"team0Tag"');
    expect(model.secrets.map((s) => s.name)).toEqual(["ordersSourceDatabasePassword"]);
    expect(model.secretValues?.get("ordersSourceDatabasePassword")).toBe("pw");
    expect(JSON.stringify(model.resources)).not.toContain('"pw"');
  });
});
