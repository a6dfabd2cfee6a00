import { CATALOGUE, KINDS, ORIGIN, type CatalogueKind, type ConnectorSpec, type KeySpec } from "../../catalogue/index.js";

/**
 * Renders the SDK's typed helpers (sdk/generated/*.ts) from the catalogue. Pure: the same
 * catalogue always gives the same text, so a test can render in memory and compare with the
 * committed files (they are stale when the two differ).
 */

/** Codes whose run-together words read better split (`kafkadirect` → `kafkaDirect`). */
const WORDS: Readonly<Record<string, string>> = {
  azblob: "azureBlob",
  httpsink: "httpSink",
  kafkadirect: "kafkaDirect",
  mongodbhosted: "mongodbHosted",
  motherduck: "motherDuck",
  oracleaws: "oracleAws",
};

const SUFFIX: Record<CatalogueKind, string> = { source: "Source", destination: "Destination", transform: "Transform" };
const FILE: Record<CatalogueKind, string> = { source: "sources.ts", destination: "destinations.ts", transform: "transforms.ts" };

function camel(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The helper's base name, from the Terraform resource's name (`streamkap_source_sqlserver` → `sqlserver`). */
function baseName(spec: ConnectorSpec): string {
  const tail = spec.terraformResource.replace(/^streamkap_(source|destination|transform)_/, "");
  return WORDS[tail] ?? camel(tail);
}

export function helperName(spec: ConnectorSpec): string {
  return `${baseName(spec)}${SUFFIX[spec.kind]}`;
}

export function argsName(spec: ConnectorSpec): string {
  const name = helperName(spec);
  return `${name[0]!.toUpperCase()}${name.slice(1)}Args`;
}

/** Keys a program sets: the platform's computed keys are read back, never set. */
export function settableKeys(spec: ConnectorSpec): KeySpec[] {
  return spec.keys.filter((k) => !k.computed);
}

function literal(value: string | number | boolean): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function tsType(k: KeySpec): string {
  switch (k.type) {
    case "string":
      return k.enum ? k.enum.map((v) => JSON.stringify(v)).join(" | ") : "string";
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "list":
      return "string[]";
    case "map":
      if (k.valueType === "object") {
        const fields = (k.valueKeys ?? []).map((vk) => `${vk.key}${vk.required ? "" : "?"}: ${vk.type === "integer" ? "number" : "string"}`).join("; ");
        return `Record<string, { ${fields} }>`;
      }
      return "Record<string, string>";
  }
}

function docComment(k: KeySpec, spec: ConnectorSpec): string {
  const facts: string[] = [];
  if (k.required) facts.push("Required.");
  if (k.secret) facts.push("Secret: stored as a Pulumi secret, masked by the API.");
  if (k.type === "integer" && (k.min !== undefined || k.max !== undefined)) {
    const range = k.max === undefined ? `At least ${k.min}` : k.min === undefined ? `At most ${k.max}` : `From ${k.min} to ${k.max}`;
    facts.push(k.rangeSource ? `${range} (${k.rangeWhy ?? "a value"}; this range is pulumi-cdc's, the platform publishes none).` : `${range}.`);
  }
  if (k.default !== undefined) facts.push(`Default ${k.default === "" ? '"" (empty)' : literal(k.default)}.`);
  if (k.replaceOnChange) facts.push(`Changing it replaces the ${spec.kind}.`);
  if (k.format === "json") facts.push("A JSON document, as a string.");
  if (k.type === "list") facts.push("Sent as a JSON list.");
  if (k.encoding === "json-string") facts.push("Sent as a JSON string, as the API expects.");
  return `  /** \`${k.key}\`${facts.length > 0 ? `. ${facts.join(" ")}` : ""} */`;
}

function renderSpec(spec: ConnectorSpec): string {
  const fn = helperName(spec);
  const args = argsName(spec);
  const map = `${fn.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_KEYS`;
  const keys = settableKeys(spec);
  const anyRequired = keys.some((k) => k.required);
  const result = spec.kind === "transform" ? `TransformConfig<${JSON.stringify(spec.code)}>` : `ConnectorConfig<${JSON.stringify(spec.code)}>`;
  const field = spec.kind === "transform" ? "transform" : "connector";
  const lines = [
    `/** Settings of the ${spec.displayName} ${spec.kind} (\`${spec.code}\`), as typed properties. */`,
    `export interface ${args} {`,
    ...keys.flatMap((k) => [docComment(k, spec), `  ${k.name}${k.required ? "" : "?"}: In<${tsType(k)}>;`]),
    "}",
    "",
    `const ${map}: KeyMap = {`,
    ...keys.map((k) => `  ${k.name}: ${JSON.stringify(k.key)},`),
    "};",
    "",
    `/** The ${spec.displayName} ${spec.kind} (\`${spec.code}\`): \`{${field}, config}\` in the API's keys${spec.kind === "transform" ? "" : `, to spread into \`${SUFFIX[spec.kind]}\` args`}. */`,
    `export function ${fn}(args: ${args}${anyRequired ? "" : " = {}"}): ${result} {`,
    `  return { ${field}: ${JSON.stringify(spec.code)}, config: buildConfig(${JSON.stringify(spec.kind)}, ${JSON.stringify(spec.code)}, ${map}, args) };`,
    "}",
  ];
  return lines.join("\n");
}

function renderKind(kind: CatalogueKind): string {
  const specs = Object.values(CATALOGUE[kind]).sort((a, b) => helperName(a).localeCompare(helperName(b)));
  const resultType = kind === "transform" ? "TransformConfig" : "ConnectorConfig";
  const header = [
    "// Generated by `npm run generate` (scripts/generate) from catalogue/connectors.json: do not edit.",
    `// Facts from ${ORIGIN.source} (${ORIGIN.branch} at ${ORIGIN.commit}, ${ORIGIN.release}).`,
    'import type * as pulumi from "@pulumi/pulumi";',
    `import { buildConfig, type ${resultType}, type KeyMap } from "../build-config.js";`,
    "",
    "type In<T> = pulumi.Input<T>;",
  ];
  return `${[...header, ...specs.map((s) => `\n${renderSpec(s)}`)].join("\n")}\n`;
}

function renderIndex(): string {
  const module = (kind: CatalogueKind) => `./${FILE[kind].replace(/\.ts$/, ".js")}`;
  const lines = [
    "// Generated by `npm run generate` (scripts/generate) from catalogue/connectors.json: do not edit.",
    ...KINDS.map((kind) => `import * as ${kind}s from "${module(kind)}";`),
    "",
    ...KINDS.map((kind) => `export * from "${module(kind)}";`),
    "",
    "/** Every generated helper by kind and API code, for tools and tests. */",
    "export const HELPERS = {",
    ...KINDS.map((kind) => {
      const entries = Object.values(CATALOGUE[kind])
        .sort((a, b) => a.code.localeCompare(b.code))
        .map((s) => `    ${JSON.stringify(s.code)}: ${kind}s.${helperName(s)},`);
      return [`  ${kind}: {`, ...entries, "  },"].join("\n");
    }),
    "} as const;",
  ];
  return `${lines.join("\n")}\n`;
}

/** Every generated file: path relative to the repository root → content. */
export function renderAll(): Map<string, string> {
  const files = new Map<string, string>();
  for (const kind of KINDS) files.set(`sdk/generated/${FILE[kind]}`, renderKind(kind));
  files.set("sdk/generated/index.ts", renderIndex());
  return files;
}
