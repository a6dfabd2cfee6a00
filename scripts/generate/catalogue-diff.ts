import { readSmtData, type SmtData } from "./vendor-smt.js";

/**
 * What a vendor sync changed in the catalogue, key by key: connectors.json, api-sources.json and
 * smt-data.ts before and after. Each change says whether a stack deployed before it needs an
 * upgrade test (docs/vendor-sync.md says why for each kind of change): a key removed or renamed,
 * newly secret, a changed default or type, a key newly required, fewer allowed values, a narrower
 * range, a key whose change now replaces the connector. pulumi-cdc's own fields of a key (group,
 * computed, encoding, addedFrom, rangeWhy, normalize, writeOnly) are not the vendor's facts and are
 * not reported; a range of pulumi-cdc's is reported as such.
 */

type Key = Record<string, unknown> & { key: string; name: string };
type Spec = Record<string, unknown> & { keys: Key[]; removedKeys?: string[]; displayName?: string };
type Table = Record<string, Record<string, Spec>>;

export interface CatalogueFiles {
  /** catalogue/connectors.json's text. */
  readonly connectors: string;
  /** catalogue/api-sources.json's text. */
  readonly apiSources: string;
  /** catalogue/smt-data.ts's text. */
  readonly smt: string;
}

export type Category =
  | "connector added"
  | "connector no longer in the vendor's provider"
  | "key added"
  | "key removed"
  | "key renamed"
  | "key newly secret"
  | "key no longer secret"
  | "default changed"
  | "type changed"
  | "required changed"
  | "allowed values changed"
  | "range changed"
  | "replace on change changed"
  | "other fact changed"
  | "contract changed";

export interface Change {
  /** `destination/s3`, `smt/mask_field`. */
  readonly where: string;
  readonly category: Category;
  readonly text: string;
  /** A stack deployed before the change needs an upgrade test (test/e2e/upgrade.test.ts). */
  readonly upgrade: boolean;
}

// Fields of a key that are pulumi-cdc's, not the vendor's.
const ANNOTATIONS = new Set(["group", "computed", "encoding", "addedFrom", "rangeSource", "rangeWhy", "normalize", "writeOnly", "name", "key"]);
const HEAD_FACTS = ["conditions", "dependencies", "oauth"] as const;

function specs(files: CatalogueFiles): Map<string, Spec> {
  const c = JSON.parse(files.connectors) as Table;
  const api = JSON.parse(files.apiSources) as { source: Record<string, Spec> };
  const out = new Map<string, Spec>();
  for (const kind of ["source", "destination", "transform"]) for (const [code, spec] of Object.entries(c[kind] ?? {})) out.set(`${kind}/${code}`, spec);
  for (const [code, spec] of Object.entries(api.source)) out.set(`source/${code}`, spec);
  for (const [where, spec] of smtSpecs(readSmtData(files.smt))) out.set(where, spec);
  return out;
}

/** SMT types as connectors of keys, so that one comparison serves both. */
function smtSpecs(data: SmtData): Map<string, Spec> {
  const out = new Map<string, Spec>();
  for (const t of data.types) {
    const schema = t["data_schema"] as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    const secret = new Set(((t["secret_paths"] as string[]) ?? []).map((p) => p.replace(/^\//, "")));
    const keys = Object.entries(schema.properties).map(([key, p]) => {
      const k: Key = { key, name: key, type: p["type"], required: (schema.required ?? []).includes(key), secret: secret.has(key) };
      if (p["default"] !== undefined) k["default"] = p["default"];
      if (p["enum"] !== undefined) k["enum"] = p["enum"];
      const items = p["items"] as Record<string, unknown> | undefined;
      if (items?.["pattern"] !== undefined) k["itemPattern"] = items["pattern"];
      return k;
    });
    out.set(`smt/${String(t["type_id"])}`, { displayName: String(t["label"]), keys });
  }
  return out;
}

const show = (v: unknown) => (v === undefined ? "none" : v === "" ? "empty" : JSON.stringify(v));

function range(k: Key): string {
  if (k["min"] === undefined && k["max"] === undefined) return "none";
  const text = `${show(k["min"])}..${k["max"] === undefined ? "∞" : show(k["max"])}`;
  return k["rangeSource"] ? `${text} (pulumi-cdc's)` : text;
}

function narrower(before: Key, after: Key): boolean {
  const lo = (k: Key) => (typeof k["min"] === "number" ? k["min"] : -Infinity);
  const hi = (k: Key) => (typeof k["max"] === "number" ? k["max"] : Infinity);
  return lo(after) > lo(before) || hi(after) < hi(before);
}

function compareKey(where: string, before: Key, after: Key): Change[] {
  const out: Change[] = [];
  const add = (category: Category, text: string, upgrade: boolean) => out.push({ where, category, text: `\`${after.key}\`: ${text}`, upgrade });
  if (before.name !== after.name) add("key renamed", `its property is now \`${after.name}\` (was \`${before.name}\`)`, true);
  if (before["secret"] !== after["secret"]) {
    if (after["secret"]) add("key newly secret", "now secret", true);
    else add("key no longer secret", "no longer secret", true);
  }
  if (JSON.stringify(before["default"]) !== JSON.stringify(after["default"])) add("default changed", `default ${show(before["default"])} → ${show(after["default"])}`, true);
  if (before["type"] !== after["type"]) add("type changed", `type ${show(before["type"])} → ${show(after["type"])}`, true);
  if (before["required"] !== after["required"]) add("required changed", after["required"] ? "now required" : "no longer required", Boolean(after["required"]));
  for (const field of ["enum", "itemEnum"] as const) {
    const b = (before[field] as string[] | undefined) ?? [];
    const a = (after[field] as string[] | undefined) ?? [];
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    const gone = before[field] === undefined ? [] : b.filter((v) => !a.includes(v));
    const label = field === "enum" ? "allowed values" : "allowed item values";
    const restricted = (before[field] === undefined && after[field] !== undefined) || gone.length > 0;
    add("allowed values changed", `${label} ${before[field] === undefined ? "any" : b.join(", ")} → ${after[field] === undefined ? "any" : a.join(", ")}`, restricted);
  }
  if (range(before) !== range(after)) add("range changed", `range ${range(before)} → ${range(after)}`, narrower(before, after));
  if (Boolean(before["replaceOnChange"]) !== Boolean(after["replaceOnChange"])) {
    add("replace on change changed", after["replaceOnChange"] ? "a change now replaces the connector" : "a change no longer replaces the connector", Boolean(after["replaceOnChange"]));
  }
  const done = new Set(["secret", "default", "type", "required", "enum", "itemEnum", "min", "max", "replaceOnChange"]);
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (done.has(field) || ANNOTATIONS.has(field)) continue;
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) add("other fact changed", `${field} ${show(before[field])} → ${show(after[field])}`, true);
  }
  return out;
}

function describeNew(k: Key): string {
  const facts = [String(k["type"]), k["required"] ? "required" : "optional"];
  if (k["secret"]) facts.push("secret");
  if (k["default"] !== undefined) facts.push(`default ${show(k["default"])}`);
  return facts.join(", ");
}

export function diffCatalogue(before: CatalogueFiles, after: CatalogueFiles): Change[] {
  const b = specs(before);
  const a = specs(after);
  const out: Change[] = [];
  for (const [where, spec] of a) {
    if (!b.has(where)) out.push({ where, category: "connector added", text: `${spec.displayName ?? where} (${spec.keys.length} keys)`, upgrade: false });
  }
  for (const where of b.keys()) {
    if (!a.has(where)) out.push({ where, category: "connector no longer in the vendor's provider", text: "removed from the catalogue", upgrade: true });
  }
  for (const [where, old] of b) {
    const next = a.get(where);
    if (!next) continue;
    const oldKeys = new Map(old.keys.map((k) => [k.key, k]));
    const newKeys = new Map(next.keys.map((k) => [k.key, k]));
    const added = next.keys.filter((k) => !oldKeys.has(k.key));
    const removed = old.keys.filter((k) => !newKeys.has(k.key));
    // A key whose API name changed while its property stayed: a rename on the wire.
    const renamed = new Set<string>();
    for (const r of removed) {
      const to = added.find((k) => k.name === r.name && !renamed.has(k.key));
      if (!to) continue;
      renamed.add(to.key);
      renamed.add(r.key);
      out.push({ where, category: "key renamed", text: `\`${r.key}\` → \`${to.key}\` (property \`${r.name}\`)`, upgrade: true });
      out.push(...compareKey(where, { ...r, key: to.key }, to).filter((c) => c.category !== "key renamed"));
    }
    for (const k of added) {
      if (renamed.has(k.key)) continue;
      out.push({ where, category: "key added", text: `\`${k.key}\` (\`${k.name}\`, ${describeNew(k)})`, upgrade: Boolean(k["required"]) });
    }
    for (const k of removed) {
      if (renamed.has(k.key)) continue;
      out.push({ where, category: "key removed", text: `\`${k.key}\` (\`${k.name}\`)${next.removedKeys?.includes(k.key) ? "; listed in removedKeys, so a stack that holds it sees no diff" : ""}`, upgrade: true });
    }
    for (const [key, k] of newKeys) {
      const o = oldKeys.get(key);
      if (o) out.push(...compareKey(where, o, k));
    }
    for (const field of HEAD_FACTS) {
      if (JSON.stringify(old[field]) !== JSON.stringify(next[field])) {
        out.push({ where, category: "contract changed", text: `${field}: ${show(old[field])} → ${show(next[field])}`, upgrade: true });
      }
    }
  }
  const order: Category[] = [
    "connector added",
    "connector no longer in the vendor's provider",
    "key added",
    "key removed",
    "key renamed",
    "key newly secret",
    "key no longer secret",
    "default changed",
    "type changed",
    "required changed",
    "allowed values changed",
    "range changed",
    "replace on change changed",
    "contract changed",
    "other fact changed",
  ];
  return out.sort((x, y) => order.indexOf(x.category) - order.indexOf(y.category) || x.where.localeCompare(y.where) || x.text.localeCompare(y.text));
}

/** The changes as Markdown, grouped by kind of change; each that needs an upgrade test is marked. */
export function renderChanges(changes: readonly Change[]): string {
  if (changes.length === 0) return "No key of the catalogue changed.\n";
  const upgrade = changes.filter((c) => c.upgrade).length;
  const lines = [`${changes.length} change(s), ${upgrade} of them marked **upgrade test** (see docs/vendor-sync.md).`, ""];
  let category: Category | undefined;
  for (const c of changes) {
    if (c.category !== category) {
      category = c.category;
      lines.push("", `#### ${category[0]!.toUpperCase()}${category.slice(1)}`, "");
    }
    lines.push(`- ${c.where}: ${c.text}${c.upgrade ? " — **upgrade test**" : ""}`);
  }
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n")}\n`;
}
