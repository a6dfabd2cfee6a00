import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE, ORIGIN, findKey } from "../../../catalogue/index.js";
import { parseVendorFile, vendorKeys } from "../../../scripts/generate/vendor-generated.js";
import { BASELINE_COMMIT, groupOf, mergeKeys } from "../../../scripts/generate/vendor-update.js";

const FIXTURE = readFileSync(join(__dirname, "fixtures", "destination_example.go"), "utf8");

describe("vendor-generated: a tfgen file read into catalogue keys", () => {
  const keys = vendorKeys(parseVendorFile(FIXTURE));
  const byKey = Object.fromEntries(keys.map((k) => [k.key, k]));

  it("takes the keys from FieldMappings, in its order, and no resource attribute", () => {
    expect(keys.map((k) => k.key)).toEqual([
      "aws.access.key.id",
      "aws.s3.bucket.name",
      "aws.s3.region",
      "aws.s3.part.size.bytes",
      "tasks.max",
      "format.output.envelope",
      "ingestion.mode",
      "format.output.fields.user.defined",
      "keyfile",
      "topics.config.map",
    ]);
  });

  it("reads the flags from the schema, not from descriptions", () => {
    expect(byKey["aws.access.key.id"]).toEqual({ key: "aws.access.key.id", name: "accessKeyId", type: "string", required: false, secret: true });
    expect(byKey["aws.s3.bucket.name"]).toMatchObject({ required: true, secret: false });
  });

  it("reads defaults in their types, OneOf, Between and AtLeast, and RequiresReplace", () => {
    expect(byKey["aws.s3.region"]).toMatchObject({ default: "us-west-2", enum: ["us-east-1", "us-west-2"] });
    expect(byKey["aws.s3.part.size.bytes"]).toMatchObject({ type: "integer", default: 5242880, min: 5242880, max: 104857600 });
    expect(byKey["tasks.max"]).toMatchObject({ default: -1, min: -1 });
    expect(byKey["tasks.max"]!.max).toBeUndefined();
    expect(byKey["format.output.envelope"]).toMatchObject({ type: "boolean", default: true });
    expect(byKey["ingestion.mode"]).toMatchObject({ enum: ["upsert", "append"], replaceOnChange: true });
  });

  it("reads lists with their item values, JSON strings and maps of objects", () => {
    expect(byKey["format.output.fields.user.defined"]).toEqual({
      key: "format.output.fields.user.defined",
      name: "outputFields",
      type: "list",
      itemType: "string",
      required: false,
      secret: false,
      itemEnum: ["key", "value"],
    });
    expect(byKey["keyfile"]).toEqual({ key: "keyfile", name: "keyfile", type: "string", format: "json", required: true, secret: true });
    expect(byKey["topics.config.map"]).toEqual({
      key: "topics.config.map",
      name: "topicsConfigMap",
      type: "map",
      valueType: "object",
      valueKeys: [{ key: "chunks", name: "chunks", type: "integer", required: true, min: 1 }],
      required: false,
      secret: false,
    });
  });

  it("refuses a file whose mappings name an attribute its schema lacks (a file not read whole)", () => {
    const cut = FIXTURE.replace(/\t\t\t"keyfile": schema\.StringAttribute\{[\s\S]*?\n\t\t\t\},\n/, "");
    expect(() => vendorKeys(parseVendorFile(cut))).toThrow(/keyfile/);
  });
});

describe("vendor-update: merging a newer file into a connector", () => {
  it("keeps pulumi-cdc's own facts of a key, takes the file's, and returns the keys the file dropped", () => {
    const spec = {
      displayName: "Example",
      terraformResource: "streamkap_destination_example",
      keys: [
        { key: "aws.access.key.id", name: "accessKeyId", type: "string", required: true, secret: false },
        { key: "ssh.host", name: "sshHost", type: "string", required: false, secret: false, group: "ssh", computed: true },
        { key: "file.name.prefix", name: "fileNamePrefix", type: "string", required: false, secret: false },
      ],
    };
    const removed = mergeKeys(spec, [
      { key: "aws.access.key.id", name: "accessKeyId", type: "string", required: false, secret: true },
      { key: "ssh.host", name: "sshHost", type: "string", required: false, secret: false },
      { key: "streamkap.snapshot.parallelism", name: "streamkapSnapshotParallelism", type: "integer", required: false, secret: false, default: 1, min: 1, max: 50 },
    ]);
    expect(removed).toEqual(["file.name.prefix"]);
    expect(spec.keys).toEqual([
      { key: "aws.access.key.id", name: "accessKeyId", type: "string", required: false, secret: true },
      { key: "ssh.host", name: "sshHost", type: "string", required: false, secret: false, computed: true, group: "ssh" },
      { key: "streamkap.snapshot.parallelism", name: "streamkapSnapshotParallelism", type: "integer", required: false, secret: false, default: 1, min: 1, max: 50, group: "snapshot" },
    ]);
  });

  it("groups a new key as the catalogue groups the keys it has", () => {
    for (const kind of ["source", "destination"] as const) {
      for (const spec of Object.values(CATALOGUE[kind])) {
        if (spec.family === "api") continue;
        for (const k of spec.keys) expect(groupOf(k.key), `${kind} ${spec.code} ${k.key}`).toBe(k.group);
      }
    }
  });
});

describe("the catalogue at the vendor's newest located versions (about.provenance)", () => {
  const provenance = (ORIGIN as unknown as { provenance: { connectors: Record<string, string>; announced: Array<{ change: string; applied: string[] }> } }).provenance;

  it("names the commit of every connector: the newer file for the eight found, beta.24 for the rest", () => {
    const newer = Object.entries(provenance.connectors).filter(([, c]) => c !== BASELINE_COMMIT);
    expect(Object.fromEntries(newer)).toEqual({
      "destination/clickhouse": "f5094fb5ae6529708d2344c08b44199356132927",
      "destination/databricks": "f5094fb5ae6529708d2344c08b44199356132927",
      "destination/s3": "f5094fb5ae6529708d2344c08b44199356132927",
      "destination/snowflake": "da90fa4f890cf14477cb02d8b4b81eade7324d50",
      "source/dynamodb": "f5094fb5ae6529708d2344c08b44199356132927",
      "source/mysql": "f5094fb5ae6529708d2344c08b44199356132927",
      "source/oracle": "f5094fb5ae6529708d2344c08b44199356132927",
      "source/postgresql": "da90fa4f890cf14477cb02d8b4b81eade7324d50",
    });
    expect(provenance.connectors["source/sqlserveraws"]).toBe(BASELINE_COMMIT);
  });

  it("gives every destination the MaskField keys, with the salt secret", () => {
    for (const spec of Object.values(CATALOGUE.destination)) {
      expect(findKey(spec, "transforms.MaskField.mask.function"), spec.code).toMatchObject({ default: "SHA256_TRUNCATE" });
      expect(findKey(spec, "transforms.MaskField.mask.salt"), spec.code).toMatchObject({ secret: true, default: "" });
    }
  });
});
