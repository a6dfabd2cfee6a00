import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { mustSync } from "../lib/process.js";

/**
 * Completes catalogue/connectors.json with the config keys the vendor's provider can send but
 * its generated files (internal/generated, where the catalogue's keys come from) lack:
 * - keys its hand-written resource code maps (`mappings["attr"] = "api.key"` in
 *   internal/resource/<kind>/*_generated.go), and
 * - attributes of its per-connector schema snapshots (internal/provider/testdata/schemas) that
 *   the generated files no longer have; their API key and type come from the git history of
 *   the generated files, where the mapping once stood.
 * Each added key carries `addedFrom` (where it was found), and `about.additions` lists them.
 * Run by `npm run generate` when PULUMI_CDC_VENDOR_REPO names a clone of the vendor's provider.
 */

type Kind = "source" | "destination" | "transform";
interface Key {
  key: string;
  name: string;
  type: string;
  required: boolean;
  secret: boolean;
  addedFrom?: string;
  [more: string]: unknown;
}
interface Catalogue {
  about: Record<string, unknown>;
  source: Record<string, { keys: Key[] }>;
  destination: Record<string, { keys: Key[] }>;
  transform: Record<string, { keys: Key[] }>;
}
interface Addition {
  kind: Kind;
  code: string;
  key: string;
  attribute: string;
  found: string;
}

// Attributes of a resource that are not connector config.
const NOT_CONFIG = new Set(["id", "name", "connector", "connector_status", "kc_cluster_id", "tags", "timeouts", "created_from", "transform_type", "implementation_json"]);
const GO_TYPES: Record<string, string> = { "types.String": "string", "types.Int64": "integer", "types.Bool": "boolean", "types.List": "list", "types.Map": "map", "jsontypes.Normalized": "string" };

function camel(attr: string): string {
  return attr.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function git(repo: string, args: string[]): string {
  return mustSync("git", ["-C", repo, ...args], { timeoutMs: 10 * 60_000 }).stdout;
}

/** `{ resource name: {kind, code, file} }` from the vendor's hand-written resource files. */
function resources(repo: string): Map<string, { kind: Kind; code: string; file: string; text: string }> {
  const out = new Map<string, { kind: Kind; code: string; file: string; text: string }>();
  for (const kind of ["source", "destination", "transform"] as const) {
    const dir = join(repo, "internal", "resource", kind);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((n) => n.endsWith("_generated.go"))) {
      const text = readFileSync(join(dir, f), "utf8");
      const name = /GetResourceName\(\) string \{\s*return "([^"]+)"/.exec(text)?.[1];
      const code = /Get(?:Connector|Transform)?(?:Code|Type)\(\) string \{\s*return "([^"]+)"/.exec(text)?.[1];
      if (name && code) out.set(name, { kind, code, file: `internal/resource/${kind}/${f}`, text });
    }
  }
  return out;
}

/** Every `"attr": "api.key"` mapping and `Field types.T \`tfsdk:"attr"\`` ever written in a generated file, per file. */
function history(repo: string): { keys: Map<string, Map<string, string>>; types: Map<string, Map<string, string>> } {
  const keys = new Map<string, Map<string, string>>();
  const types = new Map<string, Map<string, string>>();
  const log = git(repo, ["log", "--all", "-p", "--format=commit %h", "--", "internal/generated"]);
  let file = "";
  for (const line of log.split("\n")) {
    const header = /^diff --git a\/(\S+)/.exec(line);
    if (header) {
      file = basename(header[1]!);
      continue;
    }
    const mapping = /^[-+ ]\s*"([a-z0-9_]+)":\s*"([A-Za-z0-9_.${}-]+)",?\s*$/.exec(line);
    if (mapping && mapping[2]!.includes(".")) {
      if (!keys.has(file)) keys.set(file, new Map());
      if (!keys.get(file)!.has(mapping[1]!)) keys.get(file)!.set(mapping[1]!, mapping[2]!);
    }
    const field = /^[-+ ]\s*\w+\s+(types\.\w+|jsontypes\.\w+)\s+`tfsdk:"([a-z0-9_]+)"`/.exec(line);
    if (field) {
      if (!types.has(file)) types.set(file, new Map());
      if (!types.get(file)!.has(field[2]!)) types.get(file)!.set(field[2]!, GO_TYPES[field[1]!] ?? "string");
    }
  }
  return { keys, types };
}

export function completeCatalogue(root: string, repo: string): { written: boolean; additions: Addition[] } {
  const path = join(root, "catalogue", "connectors.json");
  const text = readFileSync(path, "utf8");
  const catalogue = JSON.parse(text) as Catalogue;
  // Start from the generated keys alone, so a rerun gives the same file.
  for (const kind of ["source", "destination", "transform"] as const) {
    for (const spec of Object.values(catalogue[kind])) spec.keys = spec.keys.filter((k) => k.addedFrom === undefined);
  }
  const commit = git(repo, ["rev-parse", "--short", "HEAD"]).trim();
  const additions: Addition[] = [];
  // A key the generated files give another connector keeps that connector's facts (type, shape).
  const elsewhere = (kind: Kind, key: string): Key | undefined => {
    for (const spec of Object.values(catalogue[kind])) {
      const found = spec.keys.find((k) => k.key === key);
      if (found) return found;
    }
    return undefined;
  };
  const add = (kind: Kind, code: string, key: Key, attribute: string) => {
    const spec = catalogue[kind][code];
    if (!spec || spec.keys.some((k) => k.key === key.key)) return;
    const known = elsewhere(kind, key.key);
    if (known) {
      const { name: _name, required: _required, default: _default, ...facts } = known;
      key = { ...facts, name: key.name, required: false, secret: key.secret || known.secret, addedFrom: key.addedFrom! };
    }
    const { key: apiKey, name, type, required, secret, addedFrom, ...rest } = key;
    spec.keys.push({ key: apiKey, name, type, required, secret, ...rest, addedFrom });
    additions.push({ kind, code, key: key.key, attribute, found: key.addedFrom! });
  };
  const byName = resources(repo);

  // 1. Keys the hand-written resource code maps beyond the generated mappings.
  for (const { kind, code, file, text: source } of byName.values()) {
    for (const m of source.matchAll(/mappings\["([a-z0-9_]+)"\]\s*=\s*"([^"]+)"/g)) {
      const [, attribute, key] = m as unknown as [string, string, string];
      const goType = new RegExp(`(types\\.\\w+)\\s+\`tfsdk:"${attribute}"\``).exec(source)?.[1];
      add(kind, code, { key, name: camel(attribute), type: GO_TYPES[goType ?? ""] ?? "string", required: false, secret: false, addedFrom: `${file} (hand-written mapping of ${attribute})` }, attribute);
    }
  }

  // 2. Attributes of the schema snapshots the generated files lack, through their history.
  const snapshots = join(repo, "internal", "provider", "testdata", "schemas");
  const past = history(repo);
  for (const f of readdirSync(snapshots).filter((n) => n.endsWith("_v1.json")).sort()) {
    const resource = byName.get(f.replace(/_v1\.json$/, ""));
    if (!resource) continue;
    const { kind, code } = resource;
    const spec = catalogue[kind][code];
    if (!spec) continue;
    const attrs = (JSON.parse(readFileSync(join(snapshots, f), "utf8")) as { attributes: Record<string, { sensitive?: boolean; computed?: boolean; optional?: boolean; required?: boolean }> }).attributes;
    const generatedFile = `${kind}_${code}.go`;
    for (const [attribute, facts] of Object.entries(attrs).sort(([a], [b]) => a.localeCompare(b))) {
      if (NOT_CONFIG.has(attribute) || spec.keys.some((k) => k.name === camel(attribute))) continue;
      const key = past.keys.get(generatedFile)?.get(attribute);
      if (!key) continue; // no API key was ever written for it: a resource attribute, not config
      add(
        kind,
        code,
        {
          key,
          name: camel(attribute),
          type: past.types.get(generatedFile)?.get(attribute) ?? "string",
          required: false,
          secret: Boolean(facts.sensitive),
          addedFrom: `internal/provider/testdata/schemas/${f} (attribute ${attribute}); API key from the history of internal/generated/${generatedFile}`,
        },
        attribute,
      );
    }
  }
  for (const kind of ["source", "destination", "transform"] as const) {
    for (const spec of Object.values(catalogue[kind])) spec.keys.sort((a, b) => Number(a.addedFrom !== undefined) - Number(b.addedFrom !== undefined));
  }
  additions.sort((a, b) => `${a.kind}/${a.code}/${a.key}`.localeCompare(`${b.kind}/${b.code}/${b.key}`));
  catalogue.about = {
    ...catalogue.about,
    additions: {
      what: "Keys the vendor's provider can send that its generated files lack, added by scripts/generate/vendor-keys.ts; each key also carries addedFrom.",
      commit,
      keys: additions,
    },
  };
  const next = renderCatalogue(catalogue);
  if (next === text) return { written: false, additions };
  writeFileSync(path, next);
  return { written: true, additions };
}

/** The catalogue's own layout: one line per connector head and per key, so a change is a line of diff. */
export function renderCatalogue(catalogue: Pick<Catalogue, "about"> & Record<Kind, Record<string, { keys: object[] }>>): string {
  const about = JSON.stringify(catalogue.about, null, 2).replace(/\n/g, "\n  ");
  const kinds = (["source", "destination", "transform"] as const).map((kind) => {
    const specs = Object.entries(catalogue[kind]).map(([code, spec]) => {
      const { keys, ...head } = spec;
      const headText = inline(head).slice(0, -1);
      const keyLines = keys.map((k) => `        ${inline(k)}`).join(",\n");
      return `    ${JSON.stringify(code)}: ${headText}, "keys": [\n${keyLines}\n    ]}`;
    });
    return `  ${JSON.stringify(kind)}: {\n${specs.join(",\n")}\n  }`;
  });
  return `{\n  "about": ${about},\n${kinds.join(",\n")}\n}\n`;
}

/** JSON on one line with a space after each colon and comma, as the catalogue is written. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}
