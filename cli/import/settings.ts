import { helperName } from "../../catalogue/helpers.js";
import { connectorCodes, findConnector, type CatalogueKind, type KeySpec } from "../../catalogue/index.js";
import { checkConnectorConfig, configAsProgram } from "../../provider/check.js";
import { Secret, type Value } from "../../provider/kinds/imported.js";
import { isMasked, MASK, toApiString, type ConfigMap } from "../../provider/normalize.js";

/**
 * How a written program sets a catalogued object's config (a source's, a destination's, a
 * transform's): in TypeScript through the catalogue's typed helper where every value fits it,
 * otherwise (and in YAML and Python always) as a map in the platform's keys.
 */

/** A setting of a connector or transform: its API key, its helper property, its value. */
export interface Setting {
  key: string;
  /** The generated helper's property; undefined in raw config. */
  property?: string;
  value: Value;
}

/** How a connector's or transform's settings are written in TypeScript. */
export type Settings = (
  | { form: "helper"; fn: string; settings: Setting[] }
  /** postgresqlTables, mysqlTables, mongodbCollections: the include lists from one list of names. */
  | { form: "tables"; fn: string; listProperty: "tables" | "collections"; list: string[]; settings: Setting[] }
  | { form: "raw"; settings: Setting[]; why: string }
) & {
  /** Every setting in the platform's keys, as a raw config map holds it (what YAML writes). */
  config: Setting[];
};

/** Whether a value can be given to the helper property of `spec` as its TypeScript type says. */
function fitsHelper(spec: KeySpec, value: unknown): boolean {
  switch (spec.type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "list":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "map":
      return helperMap(spec, value) !== undefined;
    case "string":
      return typeof value === "string" && (!spec.enum || spec.enum.includes(value));
  }
}

/** A map value in the helper's type (an object; a `json-string` map's JSON text decoded, values too). */
function helperMap(spec: KeySpec, value: unknown): Record<string, Value> | undefined {
  let map: unknown = value;
  if (typeof value === "string") {
    try {
      map = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!map || typeof map !== "object" || Array.isArray(map)) return undefined;
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
    let inner: unknown = v;
    if (spec.valueType === "object" && typeof v === "string") {
      try {
        inner = JSON.parse(v);
      } catch {
        return undefined;
      }
    }
    out[k] = inner as Value;
  }
  return out;
}

const TABLES_HELPERS: Readonly<Record<string, { fn: string; list: "tables" | "collections"; listProperty: string; prefixProperty: string; listKey: string; prefixKey: string }>> = {
  postgresql: { fn: "postgresqlTables", list: "tables", listProperty: "tableIncludeList", prefixProperty: "schemaIncludeList", listKey: "table.include.list.user.defined", prefixKey: "schema.include.list" },
  mysql: { fn: "mysqlTables", list: "tables", listProperty: "tableIncludeList", prefixProperty: "databaseIncludeList", listKey: "table.include.list.user.defined", prefixKey: "database.include.list.user.defined" },
  mongodb: { fn: "mongodbCollections", list: "collections", listProperty: "collectionIncludeList", prefixProperty: "databaseIncludeList", listKey: "collection.include.list.user.defined", prefixKey: "database.include.list" },
};

/** `a,b` → [a, b] when the helper's comma-joined list of it gives back exactly `text`; otherwise undefined. */
function exactList(text: string): string[] | undefined {
  const entries = text.split(",").map((e) => e.trim());
  if (entries.some((e) => e === "")) return undefined;
  const distinct = [...new Set(entries)];
  return distinct.join(",") === text ? distinct : undefined;
}

/**
 * A connector's or transform's live config as the program's settings: only what differs from
 * the catalogue's defaults (configAsProgram), each masked secret read from config, in the typed
 * helper's properties when the connector is catalogued and every value fits them; otherwise in
 * the platform's keys (raw), with why. Values pulumi-cdc's own check would refuse are noted.
 */
export function connectorSettings(
  kind: CatalogueKind,
  code: string,
  live: Record<string, unknown>,
  forceRaw: boolean,
  secret: (key: string, property: string | undefined) => Secret,
  notes: string[],
): Settings {
  const spec = findConnector(kind, code);
  const config: ConfigMap = configAsProgram(spec, live);
  const keyOrder = spec ? spec.keys.map((k) => k.key) : [];
  const keys = Object.keys(config).sort((a, b) => {
    const ia = keyOrder.indexOf(a);
    const ib = keyOrder.indexOf(b);
    if (ia !== ib) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const isSecret = (key: string, value: unknown) => (spec ? spec.keys.some((k) => k.key === key && k.secret) && (value === MASK || isMasked(value)) : isMasked(value));
  const settings: Setting[] = keys.map((key) => {
    const value = config[key]!;
    const keySpec = spec?.keys.find((k) => k.key === key);
    return { key, ...(keySpec ? { property: keySpec.name } : {}), value: isSecret(key, value) ? secret(key, keySpec?.name) : (value as Value) };
  });

  // What pulumi-cdc's check() will say of this config, before any API call (a secret stands in as a string).
  const checkable = Object.fromEntries(settings.map((s) => [s.key, s.value instanceof Secret ? "x" : s.value]));
  for (const f of checkConnectorConfig(spec, checkable)) {
    notes.push(`pulumi-cdc's check refuses ${f.property}: it ${f.reason}. \`pulumi preview\` fails until it is fixed, here or in the console.`);
  }

  const what = kind === "transform" ? "transform type" : `${kind} connector`;
  const rawConfig = settings.map(({ key, value }) => ({ key, value }));
  if (!spec) {
    return { form: "raw", config: rawConfig, settings: rawConfig, why: `the ${what} "${code}" is not in pulumi-cdc's catalogue, so it has no typed helper: its config is written in the platform's keys, as the API shows it.` };
  }
  if (forceRaw) return { form: "raw", config: rawConfig, settings: rawConfig, why: "--raw-config: its config is written in the platform's keys, not with the typed helper." };
  const misfit = settings.find((s) => {
    const keySpec = spec.keys.find((k) => k.key === s.key);
    return !keySpec || (!(s.value instanceof Secret) && !fitsHelper(keySpec, s.value));
  });
  if (misfit) {
    const keySpec = spec.keys.find((k) => k.key === misfit.key);
    const why = keySpec
      ? `config["${misfit.key}"] is ${JSON.stringify(toApiString(misfit.value))}, which the typed helper's ${keySpec.name} (${keySpec.type}${keySpec.enum ? `: ${keySpec.enum.join(", ")}` : ""}) cannot take`
      : `config["${misfit.key}"] is not a setting the typed helper knows`;
    return { form: "raw", config: rawConfig, settings: rawConfig, why: `${why}: its config is written in the platform's keys.` };
  }
  const typed = settings.map((s) => {
    const keySpec = spec.keys.find((k) => k.key === s.key)!;
    return keySpec.type === "map" && !(s.value instanceof Secret) ? { ...s, value: helperMap(keySpec, s.value) as Value } : s;
  });
  const fn = helperName(spec);
  const tables = kind === "source" ? TABLES_HELPERS[code] : undefined;
  if (tables) {
    const list = typed.find((s) => s.key === tables.listKey);
    const prefixes = typed.find((s) => s.key === tables.prefixKey);
    const entries = list && typeof list.value === "string" ? exactList(list.value) : undefined;
    if (entries && prefixes && typeof prefixes.value === "string") {
      const derived = [...new Set(entries.map((e) => e.split(".")[0] ?? "").filter((p) => p !== ""))].join(",");
      if (derived === prefixes.value && entries.every((e) => e.includes("."))) {
        return { form: "tables", fn: tables.fn, listProperty: tables.list, list: entries, settings: typed.filter((s) => s !== list && s !== prefixes), config: rawConfig };
      }
    }
  }
  return { form: "helper", fn, settings: typed, config: rawConfig };
}

/** The names of every typed helper of a part of the catalogue, and of the include-list helpers: what an identifier must not shadow. */
export function helperNames(kind: CatalogueKind): string[] {
  const tables = kind === "source" ? Object.values(TABLES_HELPERS).map((t) => t.fn) : [];
  return [...connectorCodes(kind).map((code) => helperName(findConnector(kind, code)!)), ...tables];
}
