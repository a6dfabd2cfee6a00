import { credentialsComment } from "./typescript.js";
import { Reference, Secret, type ProgramModel, type Ref, type Resource, type Value } from "./model.js";

/**
 * The YAML program (`Pulumi.yaml`, runtime yaml) of a ProgramModel, on the provider plugin
 * `pulumi-resource-cdc`: tokens `cdc:index:<Kind>`, the inputs the core's check() takes (the
 * platform's config keys, ids for references as `${resource.id}`), secrets as secret config.
 * Pure: the same model gives the same bytes.
 */

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const KEYWORDS = /^(true|false|yes|no|on|off|null|y|n|~)$/i;

/** A literal string as a YAML scalar; pulumi-yaml reads `${...}` in any string, so a literal `${` is written `$${`. */
export function yamlString(text: string): string {
  // A function, not a replacement string: in one, `$$` would stand for a single `$`.
  const escaped = text.replace(/\$\{/g, () => "$${");
  if (PLAIN.test(escaped) && !KEYWORDS.test(escaped) && escaped === text) return text;
  return JSON.stringify(escaped);
}

function yamlKey(k: string): string {
  return PLAIN.test(k) && !KEYWORDS.test(k) ? k : JSON.stringify(k);
}

/** A `${...}` interpolation, quoted so YAML reads it as a string. */
function interpolation(expr: string): string {
  return JSON.stringify(`\${${expr}}`);
}

function refScalar(ref: Ref): { text: string; comment?: string } {
  return "ident" in ref ? { text: interpolation(`${ref.ident}.id`) } : { text: JSON.stringify(ref.id), comment: ref.note };
}

function scalar(value: Value): { text: string; comment?: string } | undefined {
  if (value instanceof Secret) return { text: interpolation(value.name) };
  if (value instanceof Reference) return refScalar(value.ref);
  if (value === null) return { text: "null" };
  if (typeof value === "string") return { text: yamlString(value) };
  if (typeof value === "number" || typeof value === "boolean") return { text: String(value) };
  if (Array.isArray(value) && value.length === 0) return { text: "[]" };
  if (!Array.isArray(value) && Object.keys(value).length === 0) return { text: "{}" };
  return undefined;
}

/** `key: value` lines at `indent`, nesting as YAML blocks. */
function entry(k: string, value: Value, indent: number): string[] {
  const pad = " ".repeat(indent);
  const s = scalar(value);
  if (s) return [`${pad}${yamlKey(k)}: ${s.text}${s.comment ? ` # ${s.comment}` : ""}`];
  return [`${pad}${yamlKey(k)}:`, ...block(value, indent + 2)];
}

function block(value: Value, indent: number): string[] {
  const pad = " ".repeat(indent);
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const s = scalar(item);
      if (s) return [`${pad}- ${s.text}${s.comment ? ` # ${s.comment}` : ""}`];
      const inner = block(item, indent + 2);
      return [`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1)];
    });
  }
  return Object.entries(value as Record<string, Value>).flatMap(([k, v]) => entry(k, v, indent));
}

function resourceLines(r: Resource): string[] {
  const lines: string[] = [];
  if (r.settings?.form === "raw" && r.settings.why.includes("not in pulumi-cdc's catalogue")) {
    lines.push(`  # ${r.settings.why}`);
  }
  for (const note of r.notes) lines.push(`  # ${note.replace(/\r?\n/g, " ")}`);
  for (const d of r.dependsOn) if (!("ident" in d)) lines.push(`  # It belongs to ${d.note} (${d.id}).`);
  lines.push(`  ${yamlKey(r.ident)}:`, `    type: cdc:index:${r.kind}`, "    properties:");
  for (const [k, v] of Object.entries(r.inputs)) lines.push(...entry(k, v, 6));
  const deps = r.dependsOn.filter((d): d is { ident: string } => "ident" in d);
  if (deps.length > 0) lines.push("    options:", "      dependsOn:", ...deps.map((d) => `        - ${interpolation(d.ident)}`));
  return lines;
}

/** `Pulumi.yaml` of the YAML program. */
export function renderYaml(model: ProgramModel, project: string, header: readonly string[]): string {
  const out: string[] = [...header.map((l) => `# ${l}`.trimEnd())];
  out.push(`name: ${yamlString(project)}`, "runtime: yaml", `description: ${yamlString("Objects of a CDC tenant taken over by pulumi-cdc import (adoptId on each)")}`);
  if (model.secrets.length > 0) {
    out.push("", "# Secrets the API masks: `pulumi config set --secret <name>` (README.md lists them).", "config:");
    for (const s of model.secrets) out.push(`  ${yamlKey(s.name)}:`, "    type: string", "    secret: true");
  }
  out.push("", model.resources.length === 0 ? "resources: {}" : "resources:");
  model.resources.forEach((r, i) => {
    if (i > 0) out.push("");
    out.push(...resourceLines(r));
  });
  const credentials = credentialsComment(model.credentials);
  if (credentials.length > 0) out.push("", ...credentials.map((l) => `#${l.slice(2)}`));
  return `${out.join("\n")}\n`;
}
