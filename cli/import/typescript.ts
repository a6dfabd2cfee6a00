import { IMPORTED_KINDS } from "./kinds.js";
import { helpersUsed, KIND_ORDER, Reference, Secret, type CredentialNote, type ProgramModel, type Ref, type Resource, type Settings, type Value } from "./model.js";

/**
 * The TypeScript program (`index.ts`) of a ProgramModel: one `new Kind(...)` per object, on the
 * dynamic classes of `pulumi-cdc`. Pure: the same model gives the same bytes.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const WIDTH = 100;

/** A string literal: JSON's, or a template literal for text of several lines (code, instructions). */
export function tsString(text: string): string {
  if (!text.includes("\n")) return JSON.stringify(text);
  return `\`${text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${")}\``;
}

function key(k: string): string {
  return IDENTIFIER.test(k) ? k : JSON.stringify(k);
}

/** `/* ... *\/` text that cannot end the comment early. */
function inlineComment(text: string): string {
  return `/* ${text.replace(/\*\//g, "* /")} */`;
}

/** A comment line's text, on one line. */
function lineComment(text: string): string {
  return text.replace(/\r?\n/g, " ");
}

export function tsRef(ref: Ref): string {
  return "ident" in ref ? ref.ident : `${JSON.stringify(ref.id)} ${inlineComment(ref.note)}`;
}

/** A value as TypeScript, indented for a property at `indent` spaces. */
export function tsValue(value: Value, indent: number): string {
  if (value instanceof Secret) return `config.requireSecret(${JSON.stringify(value.name)})`;
  if (value instanceof Reference) return tsRef(value.ref);
  if (value === null) return "null";
  if (typeof value === "string") return tsString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const pad = " ".repeat(indent + 2);
  const end = " ".repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => tsValue(v, indent + 2));
    const inline = `[${items.join(", ")}]`;
    if (inline.length + indent <= WIDTH && !inline.includes("\n") && !inline.includes("/*")) return inline;
    return `[\n${items.map((i) => `${pad}${i},`).join("\n")}\n${end}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const inline = `{ ${entries.map(([k, v]) => `${key(k)}: ${tsValue(v, indent + 2)}`).join(", ")} }`;
  if (inline.length + indent <= WIDTH && !inline.includes("\n") && entries.every(([, v]) => typeof v !== "object" || v === null)) return inline;
  return `{\n${entries.map(([k, v]) => `${pad}${key(k)}: ${tsValue(v, indent + 2)},`).join("\n")}\n${end}}`;
}

/** Properties of an object literal, one per line, at `indent`. */
function props(entries: ReadonlyArray<[string, string] | string>, indent: number): string {
  const pad = " ".repeat(indent);
  return entries.map((e) => (typeof e === "string" ? `${pad}${e}` : `${pad}${key(e[0])}: ${e[1]},`)).join("\n");
}

/** The lines a connector's or transform's settings take in its args. */
function settingsLines(settings: Settings, field: string, code: string): Array<[string, string] | string> {
  if (settings.form === "raw") {
    const config = Object.fromEntries(settings.settings.map((s) => [s.key, s.value]));
    return [`// ${lineComment(settings.why)}`, [field, JSON.stringify(code)], ["config", tsValue(config, 2)]];
  }
  const args: Array<[string, Value]> = settings.settings.map((s) => [s.property!, s.value]);
  if (settings.form === "tables") args.push([settings.listProperty, settings.list]);
  const body = args.length === 0 ? "{}" : `{\n${args.map(([k, v]) => `    ${key(k)}: ${tsValue(v, 4)},`).join("\n")}\n  }`;
  return [`...${settings.fn}(${body}),`];
}

/**
 * How the dynamic classes take an input that one of the SDK's converters (sdk/kind-types.ts, an
 * input's `ts.convert`) makes of their argument: the argument, written back from the input. Any
 * other input is its value (a reference is the resource's variable, whichever the class takes).
 */
const ARGUMENTS: Readonly<Record<string, (value: Value) => string>> = {
  /** A pipeline's `{id}` of its source or destination: the resource. */
  connectorRef: (value) => tsValue((value as { id: Value }).id, 2),
  /** A pipeline's `[{id, topics}]`: each transform as `{transform, topics}`, one a line. */
  pipelineTransforms: (value) =>
    `[\n${(value as Array<{ id: Value; topics: Value }>).map((t) => `    { transform: ${tsValue(t.id, 4)}, topics: ${tsValue(t.topics, 4)} },`).join("\n")}\n  ]`,
};

/** A resource's arguments, by the class's names (an input's `ts.arg`), with a catalogued kind's settings where its code is. */
function resourceArgs(r: Resource): Array<[string, string] | string> {
  const declaration = IMPORTED_KINDS[r.kind];
  const catalogue = "catalogue" in declaration ? declaration.catalogue : undefined;
  return Object.entries(r.inputs).flatMap(([name, value]): Array<[string, string] | string> => {
    if (catalogue && name === catalogue.codeProperty) {
      if (!r.settings) throw new Error(`${r.ident}: a ${r.kind} without settings`);
      return settingsLines(r.settings, catalogue.codeProperty, value as string);
    }
    // The config is written with the code (through the helper, or raw beside it), and the name where its key holds it.
    if (catalogue && (name === "config" || ("nameKey" in catalogue && name === "name"))) return [];
    const ts = declaration.inputs.find((p) => p.name === name)?.ts;
    const argument = ts && "convert" in ts && ts.convert ? ARGUMENTS[ts.convert] : undefined;
    return [[(ts && "arg" in ts && ts.arg) || name, argument ? argument(value) : tsValue(value, 2)]];
  });
}

function renderResource(r: Resource): string {
  const lines: string[] = [];
  for (const note of r.notes) lines.push(`// ${lineComment(note)}`);
  const deps = r.dependsOn.filter((d): d is { ident: string } => "ident" in d).map((d) => d.ident);
  const literalDeps = r.dependsOn.filter((d): d is { id: string; note: string } => !("ident" in d));
  for (const d of literalDeps) lines.push(`// It belongs to ${lineComment(d.note)} (${d.id}).`);
  const opts = deps.length > 0 ? `, { dependsOn: [${deps.join(", ")}] }` : "";
  lines.push(`const ${r.ident} = new ${r.kind}(${JSON.stringify(r.ident)}, {`);
  lines.push(props(resourceArgs(r), 2));
  lines.push(`}${opts});`);
  return lines.join("\n");
}

function credentialLine(c: CredentialNote): string {
  const parts = [`${c.clientId}`, `roles ${c.roles.join(", ") || "(none)"}`];
  if (c.description) parts.push(`description ${JSON.stringify(c.description)}`);
  if (c.serviceId) parts.push(`service ${c.serviceId}`);
  if (c.createdFrom) parts.push(`created from ${c.createdFrom}`);
  return `//   ${lineComment(parts.join("; "))}${c.used ? " (the credential this import read the tenant with)" : ""}`;
}

export function credentialsComment(credentials: readonly CredentialNote[]): string[] {
  if (credentials.length === 0) return [];
  return [
    "// Client credentials of the tenant, not adopted: the API shows a credential's secret only when",
    "// it is created, so a stack could never hand it out. To manage one with Pulumi, create a",
    "// ClientCredential with the same roles, move its users to the new secret, then delete the old one.",
    ...credentials.map(credentialLine),
  ];
}

/** `index.ts`. */
export function renderTypeScript(model: ProgramModel, header: readonly string[]): string {
  const kinds = KIND_ORDER.filter((k) => model.resources.some((r) => r.kind === k));
  const classes = kinds as string[];
  const imports = [...classes, ...helpersUsed(model)].sort((a, b) => a.localeCompare(b, "en"));
  const out: string[] = [...header.map((l) => `// ${l}`.trimEnd())];
  if (model.secrets.length > 0) out.push('import * as pulumi from "@pulumi/pulumi";');
  if (imports.length > 0) out.push(`import { ${imports.join(", ")} } from "pulumi-cdc";`);
  out.push("");
  if (model.secrets.length > 0) {
    out.push("// Secrets the API masks, set with `pulumi config set --secret <name>` (README.md lists them).");
    out.push("const config = new pulumi.Config();");
    out.push("");
  }
  for (const kind of kinds) {
    const of = model.resources.filter((r) => r.kind === kind);
    out.push(`// ${IMPORTED_KINDS[kind].imported.section}: ${of.length}`);
    out.push("");
    for (const r of of) {
      out.push(renderResource(r));
      out.push("");
    }
  }
  if (model.resources.length === 0) {
    out.push("// Nothing of the tenant matched: the program manages no objects.");
    out.push("");
  }
  const credentials = credentialsComment(model.credentials);
  if (credentials.length > 0) out.push(...credentials, "");
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}
