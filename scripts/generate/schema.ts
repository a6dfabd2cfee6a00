import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FUNCTIONS, KINDS, OBJECT_TYPES, PACKAGE, PROVIDER_CONFIG, type PropertySpec, type TypeSpec } from "../../provider/kinds/index.js";
import { TYPED_KINDS, TYPED_TYPES } from "../../provider/typed/kinds.js";

/**
 * The provider plugin's package schema (generated/schema.json), rendered from the kinds' data in
 * provider/kinds/index.ts. Pure: the same data and version always give the same text (properties, types
 * and tokens sorted, 2-space JSON, a trailing newline), so a test renders it in memory and
 * compares with the committed file. Run as a script (`npm run generate`), it writes the file.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Where `pulumi` fetches the plugin when a program needs it and the plugin cache lacks it: the
 * release assets of the project's GitHub repository (pulumi-resource-cdc-v<version>-<os>-<arch>.tar.gz,
 * which scripts/release builds), in the github:// form the engine's plugin sources understand
 * (<API host>/<owner>/<repository>). The generated SDKs carry it (pulumi-plugin.json's "server").
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-cdc/pulumi-cdc";

/** The file the plugin serves from GetSchema, relative to the repository root. */
export const SCHEMA_PATH = "generated/schema.json";

function sorted<T>(entries: Array<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function schemaType(type: TypeSpec): { [key: string]: Json } {
  if (type === "any") return { $ref: "pulumi.json#/Any" };
  if (typeof type === "string") return { type };
  if ("arrayOf" in type) return { type: "array", items: schemaType(type.arrayOf) };
  if ("mapOf" in type) return { type: "object", additionalProperties: schemaType(type.mapOf) };
  if ("ref" in type) return { $ref: `#/types/${type.ref}` };
  return { $ref: `#/types/${type.object}` };
}

function property(p: PropertySpec, input: boolean): { [key: string]: Json } {
  return {
    ...schemaType(p.type),
    description: p.description,
    ...(p.secret ? { secret: true } : {}),
    ...(input && p.replaceOnChange ? { willReplaceOnChanges: true } : {}),
  };
}

/**
 * `owner`: the resource's own name (`Transform` of cdc:index:Transform). C# forbids a member named
 * as its enclosing type (CS0542), so such a property gets another name in .NET only.
 */
function properties(props: readonly PropertySpec[], input: boolean, owner?: string): { [key: string]: Json } {
  const seen = new Set<string>();
  for (const p of props) {
    if (seen.has(p.name)) throw new Error(`property ${p.name} is listed twice`);
    seen.add(p.name);
  }
  const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
  return sorted(
    props.map((p) => {
      const clash = owner !== undefined && pascal(p.name) === owner;
      return [p.name, { ...property(p, input), ...(clash ? { language: { csharp: { name: `${owner}Type` } } } : {}) }];
    }),
  );
}

function required(props: readonly PropertySpec[]): string[] {
  return props
    .filter((p) => p.required)
    .map((p) => p.name)
    .sort();
}

/** An object type's shape (`properties`, `required`), as resources' outputs, object types and function results use it. */
function objectShape(props: readonly PropertySpec[], input: boolean, owner?: string): { [key: string]: Json } {
  const req = required(props);
  return { properties: properties(props, input, owner), ...(req.length > 0 ? { required: req } : {}) };
}

/**
 * What the generated Node.js SDK (generated/sdks/nodejs) is, in one line: its package.json's
 * description and its README's first line. The hand-written TypeScript package says the other half
 * (the root package.json's description).
 */
const NODEJS_SDK_LINE =
  "The generated Node.js SDK of the pulumi-cdc provider plugin (pulumi-resource-cdc): what the programs `pulumi import` writes use, and JavaScript programs on the plugin. TypeScript programs normally want `pulumi-cdc`, the hand-written package with typed connector helpers.";

/** The package schema as an object. */
export function packageSchema(version: string): { [key: string]: Json } {
  const config = PROVIDER_CONFIG.map((c) => [c.name, property(c, false)] as [string, Json]);
  // The generic kinds, then one typed resource per catalogued connector and transform type (provider/typed/kinds.ts).
  const resources = [...Object.values(KINDS), ...Object.values(TYPED_KINDS)].map((k): [string, Json] => {
    const owner = k.token.split(":").pop()!;
    const outputs = objectShape(k.outputs, false, owner);
    const reqInputs = required(k.inputs);
    return [
      k.token,
      {
        description: k.description,
        ...outputs,
        inputProperties: properties(k.inputs, true, owner),
        ...(reqInputs.length > 0 ? { requiredInputs: reqInputs } : {}),
      },
    ];
  });
  const types = Object.values(OBJECT_TYPES).map((t): [string, Json] => [t.token, { description: t.description, type: "object", ...objectShape(t.properties, true) }]);
  // The typed resources' enums (named types: the schema has no inline enums) and map values.
  for (const t of Object.values(TYPED_TYPES)) {
    types.push([
      t.token,
      "enum" in t
        ? { description: t.description, type: "string", enum: t.enum.map((v) => ({ name: v.name, value: v.value })) }
        : { description: t.description, type: "object", ...objectShape(t.properties, true) },
    ]);
  }
  const functions = Object.values(FUNCTIONS).map((f): [string, Json] => [
    f.token,
    {
      description: f.description,
      ...(f.inputs.length > 0 ? { inputs: objectShape(f.inputs, true) } : {}),
      outputs: objectShape(f.outputs, false),
    },
  ]);
  return {
    name: PACKAGE.name,
    displayName: PACKAGE.displayName,
    version,
    description: PACKAGE.description,
    keywords: [...PACKAGE.keywords],
    homepage: PACKAGE.homepage,
    repository: PACKAGE.repository,
    license: PACKAGE.license,
    publisher: PACKAGE.publisher,
    logoUrl: PACKAGE.logoUrl,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    config: { variables: sorted(config) },
    provider: {
      description: PACKAGE.providerDescription,
      inputProperties: sorted(config),
    },
    resources: sorted(resources),
    types: sorted(types),
    functions: sorted(functions),
    language: {
      csharp: { rootNamespace: "PulumiCdc" },
      go: { importBasePath: "github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc", generateResourceContainerTypes: true },
      nodejs: { packageName: "pulumi-cdc-sdk", packageDescription: NODEJS_SDK_LINE, readme: `${NODEJS_SDK_LINE}\n\n${PACKAGE.description}\n` },
      python: { packageName: "pulumi_cdc" },
    },
  };
}

/** The text of generated/schema.json. */
export function renderSchema(version: string): string {
  return `${JSON.stringify(packageSchema(version), null, 2)}\n`;
}

/** The package's version, from the repository's package.json. */
export function packageVersion(root: string): string {
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown }).version;
  if (typeof version !== "string" || version === "") throw new Error(`${join(root, "package.json")} has no version`);
  return version;
}

/** Writes generated/schema.json under `root` when it differs; says whether it did. */
export function writeSchema(root: string): boolean {
  const target = join(root, SCHEMA_PATH);
  const content = renderSchema(packageVersion(root));
  let current: string | undefined;
  try {
    current = readFileSync(target, "utf8");
  } catch {
    current = undefined;
  }
  if (current === content) return false;
  writeFileSync(target, content);
  return true;
}

// `node schema.js <repository root>` (scripts/generate/run.sh) writes the file.
if (typeof require !== "undefined" && typeof module !== "undefined" && require.main === module) {
  const root = process.argv[2] ?? join(__dirname, "..", "..");
  console.log(writeSchema(root) ? `wrote ${SCHEMA_PATH}` : `${SCHEMA_PATH} is up to date`);
}
