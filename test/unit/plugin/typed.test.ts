import { readFileSync } from "node:fs";
import { catalogueEntry } from "../../../provider/catalogue.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { helperName } from "../../../catalogue/helpers.js";
import { CATALOGUE, KINDS as CATALOGUE_KINDS, type ConnectorSpec } from "../../../catalogue/index.js";
import { toWireConfig } from "../../../provider/check.js";
import { ConnectorProvider, DESTINATION, SOURCE } from "../../../provider/resources/connector.js";
import { TransformProvider } from "../../../provider/resources/transform.js";
import { KINDS } from "../../../provider/kinds/index.js";
import { core, kindOfToken } from "../../../provider/served.js";
import { SECRET_DIGESTS, TYPED_KINDS, TYPED_TYPES, enumValueName, typedKindFor, type TypedKind, type TypedToken } from "../../../provider/typed/kinds.js";
import { fromCoreProps, toCoreProps, typedFailure, typedPath, unknownProperties } from "../../../provider/typed/props.js";
import { SCHEMA_PATH } from "../../../scripts/generate/schema.js";
import { HELPERS } from "../../../generated/typescript/index.js";
import { allArgs, requiredArgs, resolvedConfig } from "../../support/catalogue-samples.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const root = join(__dirname, "..", "..", "..");
const schema = JSON.parse(readFileSync(join(root, SCHEMA_PATH), "utf8")) as Json;
const typedKinds = Object.values(TYPED_KINDS);
const specOf = (t: TypedKind): ConnectorSpec => CATALOGUE[t.catalogueKind][t.code]!;
const pg = TYPED_KINDS["cdc:sources:Postgresql"]!;
const snowflake = TYPED_KINDS["cdc:destinations:Snowflake"]!;
const mapFilter = TYPED_KINDS["cdc:transforms:MapFilter"]!;
const clickhouse = TYPED_KINDS["cdc:destinations:Clickhouse"]!;

/** A typed resource's properties with a sample value each (the catalogue's), less a carried key (a transform's name). */
function sampleProps(t: TypedKind, all = true): Record<string, unknown> {
  const args = all ? allArgs(specOf(t)) : requiredArgs(specOf(t));
  for (const name of Object.values(t.carried)) delete args[name];
  // A map's object values: the helper takes the platform's field names, the typed resource the catalogue's names.
  for (const k of specOf(t).keys) {
    if (k.valueKeys && k.name in args) {
      const rename = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).map(([f, v]) => [k.valueKeys!.find((vk) => vk.key === f)?.name ?? f, v]));
      args[k.name] = Object.fromEntries(Object.entries(args[k.name] as Record<string, Record<string, unknown>>).map(([n, entry]) => [n, rename(entry)]));
    }
  }
  return args;
}

/** The config the TypeScript helper builds from the same properties, in the platform's wire form. */
async function helperConfig(t: TypedKind, props: Record<string, unknown>): Promise<Record<string, unknown>> {
  const helper = (HELPERS[t.catalogueKind] as Record<string, (args: object) => { config: Record<string, unknown> }>)[t.code]!;
  // The helper takes a map's object values in the platform's field names.
  const args = { ...props };
  for (const k of specOf(t).keys) {
    if (k.valueKeys && k.name in args) {
      const rename = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).map(([f, v]) => [k.valueKeys!.find((vk) => vk.name === f)?.key ?? f, v]));
      args[k.name] = Object.fromEntries(Object.entries(args[k.name] as Record<string, Record<string, unknown>>).map(([n, entry]) => [n, rename(entry)]));
    }
  }
  return toWireConfig(catalogueEntry(t.catalogueKind, t.code), await resolvedConfig(helper(args).config as never));
}

describe("typed resources: one per catalogued connector and transform type", () => {
  it("exist for every source, destination and transform type, as cdc:<kind>s:<Name>", () => {
    for (const kind of CATALOGUE_KINDS) {
      const codes = typedKinds.filter((t) => t.catalogueKind === kind).map((t) => t.code);
      expect(codes.sort()).toEqual(Object.keys(CATALOGUE[kind]).sort());
    }
    expect(typedKinds).toHaveLength(64);
    expect(Object.keys(TYPED_KINDS)).toEqual(expect.arrayContaining(["cdc:sources:Postgresql", "cdc:destinations:Snowflake", "cdc:transforms:MapFilter", "cdc:sources:KafkaDirect", "cdc:destinations:AzureBlob"]));
    for (const t of typedKinds) {
      // The TypeScript helper's name, PascalCase, without its kind: postgresqlSource → Postgresql.
      const helper = helperName(specOf(t));
      expect(t.token, t.code).toBe(`cdc:${t.catalogueKind}s:${helper[0]!.toUpperCase()}${helper.slice(1).replace(/(Source|Destination|Transform)$/, "")}`);
      expect(t.token).toMatch(/^cdc:(sources|destinations|transforms):[A-Z][A-Za-z0-9]*$/);
      expect(typedKindFor(t.catalogueKind, t.code)).toBe(t);
      expect(kindOfToken(t.token)).toEqual({ kind: t.kind, typed: t });
    }
  });

  it("are rendered into the schema with their enum and map-value types", () => {
    for (const t of typedKinds) expect(schema.resources[t.token], t.token).toBeDefined();
    for (const token of Object.keys(TYPED_TYPES)) expect(schema.types[token], token).toBeDefined();
    expect(schema.types["cdc:sources:PostgresqlSnapshotReadOnly"]).toEqual({
      description: expect.stringContaining("snapshot.read.only.user.defined"),
      type: "string",
      enum: [
        { name: "Yes", value: "Yes" },
        { name: "No", value: "No" },
      ],
    });
    const port = schema.resources["cdc:sources:Postgresql"].inputProperties.databasePort;
    expect(port).toEqual({ type: "integer", description: expect.stringMatching(/database\.port\.user\.defined.*from 1 to 65535.*Default `5432`/) });
    expect(schema.resources["cdc:sources:Postgresql"].inputProperties.snapshotReadOnly.$ref).toBe("#/types/cdc:sources:PostgresqlSnapshotReadOnly");
    expect(schema.resources["cdc:sources:Postgresql"].inputProperties.databasePassword).toMatchObject({ type: "string", secret: true });
    expect(schema.resources["cdc:destinations:Snowflake"].inputProperties.ingestionMode.willReplaceOnChanges).toBe(true);
    expect(schema.resources["cdc:destinations:Clickhouse"].inputProperties.topicsConfigMap).toMatchObject({
      type: "object",
      additionalProperties: { $ref: "#/types/cdc:destinations:ClickhouseTopicsConfigMapEntry" },
    });
    expect(schema.types["cdc:destinations:ClickhouseTopicsConfigMapEntry"].properties).toHaveProperty("deleteSqlExecute");
    expect(schema.resources["cdc:destinations:Gcs"].inputProperties.formatOutputFields).toMatchObject({ type: "array", items: { type: "string" } });
    expect(schema.resources["cdc:destinations:Snowflake"].inputProperties.autoQaDedupeTableMapping).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
  });

  describe.each(typedKinds.map((t) => [t.token, t] as const))("%s", (_token, t) => {
    const spec = specOf(t);
    const generic = KINDS[t.kind];
    const byName = new Map(t.properties.map((p) => [p.name, p]));

    it("has the generic kind's inputs but connector/transform and config, and a property per settable key, named as the TypeScript helper names it", () => {
      const replaced = [t.codeProperty, "config"];
      const common = generic.inputs.filter((p) => !replaced.includes(p.name)).map((p) => p.name);
      const settable = spec.keys.filter((k) => !k.computed && !(k.key in t.carried));
      expect(t.inputs.map((p) => p.name)).toEqual([...common, ...settable.map((k) => k.name)]);
      expect(t.properties.map((p) => [p.name, p.key])).toEqual(settable.map((k) => [k.name, k.key]));
      if (t.kind === "Transform") {
        expect(t.inputs.map((p) => p.name)).toEqual(expect.arrayContaining(["name", "implementation", "deploy", "deployTimeoutSec", "replayWindow", "tags", "adoptId"]));
        expect(t.carried).toEqual({ "transforms.name": "name" });
      } else {
        expect(t.inputs.map((p) => p.name)).toEqual(expect.arrayContaining(["name", "desiredState", "tags", "adoptId"]));
        expect(t.carried).toEqual({});
      }
    });

    it("types each key, requires the required ones, makes secrets secret and says defaults, ranges and allowed values", () => {
      for (const k of spec.keys.filter((key) => !key.computed && !(key.key in t.carried))) {
        const p = byName.get(k.name)!.property;
        expect(Boolean(p.required), k.name).toBe(k.required);
        expect(Boolean(p.secret), k.name).toBe(k.secret);
        expect(Boolean(p.replaceOnChange), k.name).toBe(Boolean(k.replaceOnChange));
        expect(p.description).toContain(`\`${k.key}\``);
        if (k.default !== undefined && k.default !== "") expect(p.description, k.name).toContain(`Default \`${String(k.default)}\``);
        if (k.min !== undefined) expect(p.description, k.name).toContain(String(k.min));
        if (k.max !== undefined) expect(p.description, k.name).toContain(String(k.max));
        const expected =
          k.type === "string" ? (k.enum ? { ref: `${t.token}${k.name[0]!.toUpperCase()}${k.name.slice(1)}` } : "string")
          : k.type === "list" ? { arrayOf: "string" }
          : k.type === "map" ? (k.valueType === "object" ? { mapOf: { ref: `${t.token}${k.name[0]!.toUpperCase()}${k.name.slice(1)}Entry` } } : { mapOf: "string" })
          : k.type;
        expect(p.type, k.name).toEqual(expected);
        if (k.enum) {
          const named = TYPED_TYPES[(p.type as { ref: TypedToken }).ref]!;
          expect("enum" in named && named.enum.map((v) => v.value)).toEqual(k.enum);
        }
      }
    });

    it("has the generic kind's outputs but connector/transform and config, with the typed properties echoed but for secrets", () => {
      const replaced = [t.codeProperty, "config"];
      const common = generic.outputs.filter((p) => !replaced.includes(p.name)).map((p) => p.name);
      expect(t.outputs.map((p) => p.name)).toEqual([...common, ...t.properties.filter((p) => !p.spec.secret).map((p) => p.name)]);
      const names = t.outputs.map((p) => p.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names).not.toContain(SECRET_DIGESTS);
    });

    it("maps its properties to the config the TypeScript helper builds, and back", async () => {
      for (const all of [true, false]) {
        const props = sampleProps(t, all);
        const coreProps = toCoreProps(t, { name: "x", tags: ["t1"], ...props });
        expect(coreProps[t.codeProperty]).toBe(t.code);
        expect(coreProps).toMatchObject({ name: "x", tags: ["t1"] });
        // A transform's helper takes its name as a setting (transforms.name); the typed resource as its name.
        const carried = Object.fromEntries(Object.values(t.carried).map((input) => [input, "x"]));
        expect(coreProps.config).toEqual(await helperConfig(t, { ...props, ...carried }));
        // Inputs come back as they were given; outputs keep secret values apart.
        expect(fromCoreProps(t, coreProps, "inputs")).toEqual({ name: "x", tags: ["t1"], ...props });
        const outputs = fromCoreProps(t, coreProps, "outputs");
        const secrets = t.properties.filter((p) => p.spec.secret && p.name in props).map((p) => p.name);
        for (const name of secrets) expect(outputs).not.toHaveProperty(name);
        expect(Object.keys((outputs[SECRET_DIGESTS] ?? {}) as object).sort()).toEqual(secrets.sort());
        expect(toCoreProps(t, outputs)).toEqual(coreProps);
      }
    });

    it("with only its required properties, passes the core's check", async () => {
      const provider =
        t.kind === "Transform" ? new TransformProvider()
        : new ConnectorProvider(t.kind === "Source" ? SOURCE : DESTINATION);
      const checked = await (provider as unknown as { check(o: object, n: object): Promise<{ failures: unknown[] }> }).check({}, toCoreProps(t, { logicalName: "res", ...sampleProps(t, false) }));
      expect(checked.failures).toEqual([]);
    });
  });
});

describe("names the SDKs of Go, Python and .NET can hold", () => {
  const upper = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;
  const lower = (s: string) => `${s[0]!.toLowerCase()}${s.slice(1)}`;
  const pyName = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2").toLowerCase();
  const CONTAINERS = ["", "Input", "Output", "Array", "ArrayInput", "ArrayOutput", "Map", "MapInput", "MapOutput"];

  it("no two of a module's resources, enums, enum values and object types make the same Go identifier", () => {
    for (const module of ["sources", "destinations", "transforms"]) {
      const seen = new Map<string, string>();
      const add = (id: string, what: string) => {
        expect(seen.get(id), `${id}: ${what} and ${seen.get(id)}`).toBeUndefined();
        seen.set(id, what);
      };
      for (const t of typedKinds.filter((k) => k.token.startsWith(`cdc:${module}:`))) {
        const r = t.token.split(":")[2]!;
        for (const suffix of [...CONTAINERS, "Args", "State"]) add(`${r}${suffix}`, t.token);
        for (const id of [`New${r}`, `Get${r}`, `${lower(r)}Args`, `${lower(r)}State`]) add(id, t.token);
      }
      for (const [token, type] of Object.entries(TYPED_TYPES).filter(([k]) => k.startsWith(`cdc:${module}:`))) {
        const name = token.split(":")[2]!;
        // An enum's Array and Map types exist only where a list or map holds it, which no typed property does.
        const suffixes = "enum" in type ? ["", "Input", "Output", "Ptr", "PtrInput", "PtrOutput"] : [...CONTAINERS, "Ptr", "PtrInput", "PtrOutput", "Args"];
        for (const suffix of suffixes) add(`${name}${suffix}`, token);
        add(`${lower(name)}Ptr`, token);
        if ("enum" in type) for (const v of type.enum) add(`${name}${v.name}`, `${token} ${v.value}`);
      }
    }
    for (const t of typedKinds) {
      for (const p of t.inputs) {
        const type = p.type;
        if (typeof type === "object" && ("arrayOf" in type || "mapOf" in type)) {
          const inner = "arrayOf" in type ? type.arrayOf : type.mapOf;
          if (typeof inner === "object" && "ref" in inner) expect("enum" in TYPED_TYPES[inner.ref as TypedToken]!, `${t.token}.${p.name}`).toBe(false);
        }
      }
    }
  });

  it("every enum value has an identifier of letters and digits, unique in its enum however cased", () => {
    for (const type of Object.values(TYPED_TYPES)) {
      if (!("enum" in type)) continue;
      const names = type.enum.map((v) => v.name);
      for (const n of names) expect(n).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(new Set(names.map((n) => pyName(n).replace(/_/g, ""))).size, type.token).toBe(names.length);
    }
    expect(["base64-url-safe", "At Least Once", "us-east-1", "TRUNCATE", "JavaScript", "10000", "Africa/Cairo", "text2vec-openai"].map(enumValueName)).toEqual([
      "Base64UrlSafe",
      "AtLeastOnce",
      "UsEast1",
      "Truncate",
      "JavaScript",
      "Value10000",
      "AfricaCairo",
      "Text2vecOpenai",
    ]);
  });

  it("a resource's properties stay distinct in Python (snake_case) and .NET (PascalCase, never the class's own name)", () => {
    for (const t of typedKinds) {
      const r = t.token.split(":")[2]!;
      const names = [...new Set([...t.inputs, ...t.outputs].map((p) => p.name))];
      expect(new Set(names.map(pyName)).size, t.token).toBe(names.length);
      expect(new Set(names.map(upper)).size, t.token).toBe(names.length);
      expect(names.map(upper), t.token).not.toContain(r);
      // Python's constructor takes resource_name and opts; Go's resources have ElementType().
      for (const reserved of ["resource_name", "opts", "id", "urn", "element_type"]) expect(names.map(pyName), t.token).not.toContain(reserved);
    }
    // Python module files (snake_case of the resource's name) are distinct per module.
    for (const module of ["sources", "destinations", "transforms"]) {
      const files = typedKinds.filter((k) => k.token.startsWith(`cdc:${module}:`)).map((k) => pyName(k.token.split(":")[2]!));
      expect(new Set(files).size).toBe(files.length);
    }
  });
});

describe("typed property paths and check failures", () => {
  it("name the typed property, in either of the core's path forms, and a carried key as its input", () => {
    expect(typedPath(pg, 'config["database.port.user.defined"]')).toBe("databasePort");
    expect(typedPath(pg, "config.database.port.user.defined")).toBe("databasePort");
    expect(typedPath(snowflake, 'config["auto.qa.dedupe.table.mapping"]["public.orders"]')).toBe('autoQaDedupeTableMapping["public.orders"]');
    expect(typedPath(snowflake, 'config["ingestion.mode"]')).toBe("ingestionMode");
    expect(typedPath(mapFilter, 'config["transforms.name"]')).toBe("name");
    for (const p of ["name", "tags[1]", "desiredState", "config", 'config["not.a.key"]']) expect(typedPath(pg, p)).toBe(p);
  });

  it("reword the core's failures without the config's vocabulary", () => {
    expect(
      typedFailure(pg, { property: 'config["database.user"]', reason: "is required by the postgresql source connector: add it to config (helper property databaseUser)" }),
    ).toEqual({ property: "databaseUser", reason: "is required by the postgresql source connector: set it" });
    expect(
      typedFailure(pg, { property: 'config["database.port.user.defined"]', reason: "must be a whole number between 1 and 65535 (a TCP port), got 99999: set a value in that range (helper property databasePort)" }),
    ).toEqual({ property: "databasePort", reason: "must be a whole number between 1 and 65535 (a TCP port), got 99999: set a value in that range" });
    expect(typedFailure(pg, { property: "tags[0]", reason: "must not be empty" })).toEqual({ property: "tags[0]", reason: "must not be empty" });
  });

  it("refuse a property the typed resource does not have, suggesting the one meant", () => {
    expect(unknownProperties(pg, { databaseport: 1, "database.user": "x", nope: 1, logicalName: "x", name: "n" }, ["logicalName"])).toEqual([
      { property: "databaseport", reason: 'is not a property of cdc:sources:Postgresql: did you mean "databasePort"?' },
      { property: "database.user", reason: 'is not a property of cdc:sources:Postgresql: did you mean "databaseUser"?' },
      { property: "nope", reason: "is not a property of cdc:sources:Postgresql" },
    ]);
  });
});

describe("the typed mapping's wire forms", () => {
  it("a JSON-string map (ClickHouse topicsConfigMap) is an object of objects in typed names, the platform's double-encoded JSON in the core's", () => {
    const props = { topicsConfigMap: { "db.orders": { deleteSqlExecute: "DELETE FROM x" } } };
    const coreProps = toCoreProps(clickhouse, props);
    const wire = (coreProps.config as Record<string, unknown>)["topics.config.map"];
    expect(typeof wire).toBe("string");
    expect(JSON.parse(JSON.parse(wire as string)["db.orders"])).toEqual({ delete_sql_execute: "DELETE FROM x" });
    expect(fromCoreProps(clickhouse, coreProps, "inputs")).toEqual(props);
  });

  it("values unknown in a preview pass through both ways; the API's mask of a secret stays a secret apart in outputs", () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const coreProps = toCoreProps(pg, { databaseHostname: unknown, databasePassword: "********", tags: [unknown] });
    expect(coreProps).toEqual({ connector: "postgresql", tags: [unknown], config: { "database.hostname.user.defined": unknown, "database.password": "********" } });
    expect(fromCoreProps(pg, coreProps, "inputs")).toEqual({ databaseHostname: unknown, databasePassword: "********", tags: [unknown] });
    expect(fromCoreProps(pg, coreProps, "outputs")).toEqual({ databaseHostname: unknown, tags: [unknown], [SECRET_DIGESTS]: { databasePassword: "********" } });
  });

  it("config keys the catalogue does not know have no typed property: left out", () => {
    expect(fromCoreProps(pg, { connector: "postgresql", config: { "database.user": "u", "some.new.key": "v" } }, "inputs")).toEqual({ databaseUser: "u" });
  });

  it("core() serves a typed token with its generic kind's provider, through the mapping", () => {
    expect(kindOfToken("cdc:index:Source")).toEqual({ kind: "Source" });
    expect(typeof core(kindOfToken("cdc:sources:Postgresql")).check).toBe("function");
    expect(() => kindOfToken("cdc:sources:Nope")).toThrow(/unknown resource type "cdc:sources:Nope".*cdc:index:Source.*cdc:sources:<Connector>/);
  });
});
