import { credentialsComment } from "./typescript.js";
import { Reference, Secret, type ProgramModel, type Ref, type Resource, type Value } from "./model.js";
import { IMPORTED_KINDS } from "./kinds.js";

/**
 * The Python program (`__main__.py`) of a ProgramModel, on the Python SDK generated from the
 * provider plugin's schema (generated/sdks/python, `import pulumi_cdc as cdc`). Like the YAML program it
 * uses the plugin's generic resources (`cdc.Source(connector=..., config={...})`, the platform's
 * config keys), since the model holds every connector's config in those keys; keyword arguments
 * are snake_case as the SDK spells them, references are Python variables (`orders_source.id`),
 * secrets are `config.require_secret(...)`. Pure: the same model gives the same bytes.
 */

/** Words Python reserves, and the names the program itself binds. */
const PY_RESERVED = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
  "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
  "return", "try", "while", "with", "yield", "match", "case", "type", "pulumi", "cdc", "config",
]);

/** `ordersDbSource_1a2b3c` → `orders_db_source_1a2b3c`; `fieldsExclude` → `fields_exclude`. */
export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/_+/g, "_");
}

/** The Python variable of each resource identifier: snake_case, unique, never a keyword. */
export function pythonVariables(idents: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const ident of idents) {
    let v = snakeCase(ident);
    if (PY_RESERVED.has(v)) v = `${v}_`;
    // Two identifiers with one snake_case spelling (`aB` and `a_b`): the later one keeps its own.
    if (used.has(v)) v = ident;
    for (let i = 2; used.has(v); i++) v = `${ident}_${i}`;
    used.add(v);
    out.set(ident, v);
  }
  return out;
}

/** A string as a Python literal (double-quoted; every character outside printable ASCII escaped). */
export function pyString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c <= 0xff) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (c <= 0xffff) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += `\\U${c.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

class Renderer {
  constructor(private readonly vars: ReadonlyMap<string, string>) {}

  ref(ref: Ref): { text: string; comment?: string } {
    return "ident" in ref ? { text: `${this.vars.get(ref.ident)!}.id` } : { text: pyString(ref.id), comment: ref.note };
  }

  /** A value as Python lines, the first one without indentation, the later ones at `indent`. */
  value(value: Value, indent: number): { lines: string[]; comment?: string } {
    if (value instanceof Secret) return { lines: [`config.require_secret(${pyString(value.name)})`] };
    if (value instanceof Reference) {
      const r = this.ref(value.ref);
      return { lines: [r.text], ...(r.comment ? { comment: r.comment } : {}) };
    }
    if (value === null) return { lines: ["None"] };
    if (typeof value === "string") return { lines: [pyString(value)] };
    if (typeof value === "boolean") return { lines: [value ? "True" : "False"] };
    if (typeof value === "number") return { lines: [String(value)] };
    const pad = " ".repeat(indent + 4);
    if (Array.isArray(value)) {
      if (value.length === 0) return { lines: ["[]"] };
      const items = value.map((v) => this.value(v, indent + 4));
      if (items.every((i) => i.lines.length === 1 && !i.comment) && value.every((v) => !(v instanceof Object) || v instanceof Reference)) {
        const flat = `[${items.map((i) => i.lines[0]).join(", ")}]`;
        if (flat.length + indent <= 100) return { lines: [flat] };
      }
      return { lines: ["[", ...items.flatMap((i) => this.item(pad, "", i)), `${" ".repeat(indent)}]`] };
    }
    const entries = Object.entries(value);
    if (entries.length === 0) return { lines: ["{}"] };
    return { lines: ["{", ...entries.flatMap(([k, v]) => this.item(pad, `${pyString(k)}: `, this.value(v, indent + 4))), `${" ".repeat(indent)}}`] };
  }

  /** `pad + lead + value,` with the value's comment after the comma. */
  item(pad: string, lead: string, v: { lines: string[]; comment?: string }): string[] {
    const lines = [`${pad}${lead}${v.lines[0]}`, ...v.lines.slice(1)];
    lines[lines.length - 1] += `,${v.comment ? `  # ${v.comment}` : ""}`;
    return lines;
  }

  /** A call's keyword argument lines at `indent`. */
  kwarg(name: string, value: Value, indent: number): string[] {
    return this.item(" ".repeat(indent), `${name}=`, this.value(value, indent));
  }

  /** `cdc.<Args>(key=..., ...)` for a typed input (a pipeline's source, an SMT chain's entry). */
  args(cls: string, fields: Array<[string, Value]>, indent: number): string[] {
    return [`cdc.${cls}(`, ...fields.flatMap(([k, v]) => this.kwarg(k, v, indent + 4)), `${" ".repeat(indent)})`];
  }
}

type Arg = [string, Value] | [string, { lines: (indent: number) => string[] }];

/** The SDK's `...Args` class of an input of an object type, or of a list of one (`cdc:index:ConnectorRef` → `ConnectorRefArgs`). */
function argsClass(r: Resource, input: string): string | undefined {
  const type = IMPORTED_KINDS[r.kind].inputs.find((p) => p.name === input)?.type;
  const entry = type && typeof type === "object" && "arrayOf" in type ? type.arrayOf : type;
  return entry && typeof entry === "object" && "object" in entry ? `${entry.object.slice(entry.object.lastIndexOf(":") + 1)}Args` : undefined;
}

/** The plugin's inputs as keyword arguments: snake_case, as the SDK spells them, objects as their `...Args` class. */
function keywordArgs(r: Resource, py: Renderer): Arg[] {
  const fields = (v: Value) => Object.entries(v as Record<string, Value>).map(([k, f]): [string, Value] => [snakeCase(k), f]);
  return Object.entries(r.inputs).map(([name, value]): Arg => {
    const cls = argsClass(r, name);
    if (!cls) return [snakeCase(name), value];
    if (!Array.isArray(value)) return [snakeCase(name), { lines: (indent: number) => py.args(cls, fields(value), indent) }];
    return [
      snakeCase(name),
      { lines: (indent: number) => ["[", ...value.flatMap((v) => py.item(" ".repeat(indent + 4), "", { lines: py.args(cls, fields(v), indent + 4) })), `${" ".repeat(indent)}]`] },
    ];
  });
}

function resourceLines(r: Resource, py: Renderer, vars: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  if (r.settings?.form === "raw" && r.settings.why.includes("not in pulumi-cdc's catalogue")) lines.push(`# ${r.settings.why}`);
  for (const note of r.notes) lines.push(`# ${note.replace(/\r?\n/g, " ")}`);
  for (const d of r.dependsOn) if (!("ident" in d)) lines.push(`# It belongs to ${d.note} (${d.id}).`);
  lines.push(`${vars.get(r.ident)!} = cdc.${r.kind}(`, `    ${pyString(r.ident)},`);
  for (const [name, value] of keywordArgs(r, py)) {
    if (value && typeof value === "object" && "lines" in value && typeof value.lines === "function") {
      lines.push(...py.item("    ", `${name}=`, { lines: value.lines(4) }));
    } else lines.push(...py.kwarg(name, value as Value, 4));
  }
  const deps = r.dependsOn.filter((d): d is { ident: string } => "ident" in d);
  if (deps.length > 0) lines.push(`    opts=pulumi.ResourceOptions(depends_on=[${deps.map((d) => vars.get(d.ident)!).join(", ")}]),`);
  lines.push(")");
  return lines;
}

/** `__main__.py`. */
export function renderPython(model: ProgramModel, header: readonly string[]): string {
  const vars = pythonVariables(model.resources.map((r) => r.ident));
  const py = new Renderer(vars);
  const out: string[] = [...header.map((l) => `# ${l}`.trimEnd()), "", "import pulumi", "import pulumi_cdc as cdc", ""];
  if (model.secrets.length > 0) {
    out.push("# Secrets the API masks, set with `pulumi config set --secret <name>` (README.md lists them).", "config = pulumi.Config()", "");
  }
  for (const r of model.resources) out.push(...resourceLines(r, py, vars), "");
  const credentials = credentialsComment(model.credentials);
  if (credentials.length > 0) out.push(...credentials.map((l) => `#${l.slice(2)}`), "");
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}
