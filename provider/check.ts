import { z } from "zod";
import type { ConnectorSpec, KeySpec } from "./catalogue.js";
import { isRemovedKey, USER_DEFINED_SUFFIX } from "../catalogue/index.js";
import { containsUnknown, isMasked, MASK, sameConfigValue, type ConfigMap } from "./normalize.js";

/** One problem with a resource's inputs, named by its property path, as Pulumi shows it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** zod issues as Pulumi check failures: the property path and a sentence that says the fix. */
export function failuresFromZod(error: z.ZodError, prefix = ""): CheckFailure[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p)));
    const property = [prefix, ...path].filter(Boolean).join(".").replace(/\.\[/g, "[");
    return { property: property || "(inputs)", reason: issue.message };
  });
}

/**
 * A string input that may also be unknown during preview (it is checked again when known). A
 * union's own message for a missing value is "Invalid input": the schema's own says what to set.
 */
export const knowable = <T extends z.ZodType>(schema: T) => {
  const missing = schema.safeParse(undefined).error?.issues[0]?.message;
  return z.union([z.literal("04da6b54-80e4-46f7-96ec-b56ff0331ba9"), schema], missing ? { error: (issue) => (issue.input === undefined ? missing : undefined) } : undefined);
};

const NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9 _.-]*$/;

export const nameSchema = z
  .string({ error: "must be a string" })
  .min(1, { error: "must not be empty: set a name, or leave it unset to get an autonamed one" })
  .max(255, { error: "must be at most 255 characters" })
  .regex(NAME_RULE, { error: "may hold letters, digits, spaces, '_', '.', '-', and must start with a letter or digit" });

/** A config value as a program may give it: a scalar, a list of strings, a map, or null (unset). */
export const configValue = z.union(
  [z.string(), z.number(), z.boolean(), z.null(), z.array(z.string()), z.record(z.string(), z.unknown())],
  { error: "config values must be strings, numbers, booleans, lists of strings, maps or null" },
);

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * The catalogued key a config key not in the catalogue was most likely meant to be: a typo, the
 * plain form of a `.user.defined` key (the platform derives the plain one itself), or a helper
 * property name used as a key. Undefined when nothing is close: then the key is passed through.
 */
export function nearMiss(spec: ConnectorSpec, key: string): string | undefined {
  const exact = spec.keys.find(
    (k) => k.key === `${key}${USER_DEFINED_SUFFIX}` || `${k.key}${USER_DEFINED_SUFFIX}` === key || k.name === key || k.key.toLowerCase() === key.toLowerCase(),
  );
  if (exact) return exact.key;
  const ranked = spec.keys.map((k) => [k.key, levenshtein(k.key, key)] as const).sort((a, b) => a[1] - b[1]);
  const closest = ranked[0];
  return closest && closest[1] <= Math.min(3, Math.floor(key.length / 4)) ? closest[0] : undefined;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const BOOLEAN = /^\s*(true|false)\s*$/i;

function describe(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : Array.isArray(value) ? "a list" : value && typeof value === "object" ? "a map" : String(value);
}

function quoteAll(values: readonly string[]): string {
  return values.length > 12 ? `${values.slice(0, 12).map((v) => `"${v}"`).join(", ")}, ... (${values.length} in all)` : values.map((v) => `"${v}"`).join(", ");
}

/** What is wrong with one value of a catalogued key, as a sentence ending in the fix; undefined when nothing is. */
function valueProblem(spec: KeySpec, value: unknown): string | undefined {
  switch (spec.type) {
    case "integer": {
      const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : undefined;
      if (text === undefined || !INTEGER.test(text)) return `must be a whole number, got ${describe(value)}: write it as a number, e.g. ${spec.default ?? spec.min ?? 1}`;
      const n = Number(text);
      const range = spec.min !== undefined || spec.max !== undefined ? ` between ${spec.min ?? "-∞"} and ${spec.max ?? "∞"}` : "";
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        return `must be a whole number${range}${spec.rangeWhy ? ` (${spec.rangeWhy})` : ""}, got ${n}: set a value in that range (helper property ${spec.name})`;
      }
      return undefined;
    }
    case "boolean":
      if (typeof value === "boolean" || (typeof value === "string" && BOOLEAN.test(value))) return undefined;
      return `must be true or false, got ${describe(value)}`;
    case "string": {
      if (typeof value !== "string") {
        const hint = typeof value === "number" || typeof value === "boolean" ? `: write it as a string, "${value}"` : "";
        return `must be a string, got ${describe(value)}${hint}`;
      }
      if (spec.enum && !spec.enum.includes(value)) {
        const same = spec.enum.find((v) => v.toLowerCase() === value.toLowerCase());
        return `must be one of ${quoteAll(spec.enum)}; got "${value}"${same ? `: did you mean "${same}"?` : ""}`;
      }
      if (spec.required && value === "") return "must not be empty";
      if (spec.format === "json") {
        try {
          JSON.parse(value);
        } catch {
          return "must hold a JSON document (e.g. the contents of a key file), got text that is not JSON";
        }
      }
      return undefined;
    }
    case "list": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return `must be a list of strings, got ${describe(value)}`;
      const bad = spec.itemEnum ? value.find((v) => !spec.itemEnum!.includes(v)) : undefined;
      return bad === undefined ? undefined : `may hold only ${quoteAll(spec.itemEnum!)}; got "${bad}"`;
    }
    case "map": {
      const map = typeof value === "string" && spec.encoding === "json-string" ? parseJsonObject(value) : value;
      if (!map || typeof map !== "object" || Array.isArray(map)) return `must be a map (an object), got ${describe(value)}`;
      for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
        if (spec.valueType === "string" && typeof v !== "string") return `["${k}"] must be a string, got ${describe(v)}`;
        if (spec.valueType === "object") {
          const inner = typeof v === "string" ? parseJsonObject(v) : v;
          if (!inner || typeof inner !== "object" || Array.isArray(inner)) return `["${k}"] must be an object, got ${describe(v)}`;
          const fields = spec.valueKeys ?? [];
          const extra = Object.keys(inner).find((ik) => !fields.some((f) => f.key === ik));
          if (extra) return `["${k}"] may hold only ${quoteAll(fields.map((f) => f.key))}; got "${extra}"`;
          for (const f of fields) {
            const v = (inner as Record<string, unknown>)[f.key];
            if (v === undefined) {
              if (f.required) return `["${k}"] needs "${f.key}"`;
              continue;
            }
            if (f.type === "integer" && (typeof v !== "number" || !Number.isInteger(v) || (f.min !== undefined && v < f.min))) {
              return `["${k}"].${f.key} must be a whole number${f.min !== undefined ? ` of at least ${f.min}` : ""}, got ${describe(v)}`;
            }
            if (f.type === "string" && typeof v !== "string") return `["${k}"].${f.key} must be a string, got ${describe(v)}`;
          }
        }
      }
      return undefined;
    }
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Validates a connector (or transform) config against the catalogue, before any API call:
 * required keys, keys the platform sets itself, near-miss keys (with the key meant), and each
 * value's type, allowed values and range. Keys of a known connector that are nowhere near a
 * catalogued one, and every key of a connector the catalogue does not know, are passed through
 * for the API to judge (the platform may know keys this catalogue does not yet).
 */
export function checkConnectorConfig(spec: ConnectorSpec | undefined, config: Record<string, unknown>): CheckFailure[] {
  if (!spec) return [];
  const failures: CheckFailure[] = [];
  const what = `the ${spec.code} ${spec.kind}${spec.kind === "transform" ? "" : " connector"}`;
  for (const key of spec.keys) {
    if (key.required && !key.computed && (config[key.key] === undefined || config[key.key] === null)) {
      failures.push({ property: `config["${key.key}"]`, reason: `is required by ${what}: add it to config (helper property ${key.name})` });
    }
  }
  for (const [key, value] of Object.entries(config)) {
    const keySpec = spec.keys.find((k) => k.key === key);
    // A key the platform has since dropped is no typo: a program written for the older version
    // may still set it, and it is neither sent nor compared (withoutRemovedKeys).
    if (!keySpec && isRemovedKey(spec, key)) continue;
    if (!keySpec) {
      const meant = nearMiss(spec, key);
      if (meant) failures.push({ property: `config["${key}"]`, reason: `is not a key of ${what}: did you mean "${meant}"?` });
      continue;
    }
    if (value === null || value === undefined || containsUnknown(value)) continue;
    if (keySpec.computed) {
      failures.push({ property: `config["${key}"]`, reason: `is set by the platform and read back, never set: remove it from config` });
      continue;
    }
    const problem = valueProblem(keySpec, value);
    if (problem) failures.push({ property: `config["${key}"]`, reason: problem });
  }
  return failures;
}

/**
 * A checked config in the platform's wire form: `null` (unset) dropped, integers as JSON
 * numbers and booleans as JSON booleans (whatever form the program wrote them in), an empty map
 * dropped, and a map whose catalogue encoding is `json-string` encoded so. Values unknown during
 * preview and keys outside the catalogue are kept as given.
 */
export function toWireConfig(spec: ConnectorSpec | undefined, config: Record<string, unknown>): ConfigMap {
  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === null || value === undefined) continue;
    const keySpec = spec?.keys.find((k) => k.key === key);
    const wire = keySpec && !containsUnknown(value) ? wireValue(keySpec, value) : (value as ConfigMap[string]);
    if (wire !== undefined) out[key] = wire;
  }
  return out;
}

/**
 * The config without the keys a newer version of the platform dropped (the catalogue's
 * `removedKeys`). A stack deployed before the upgrade still records them (and a program written
 * for the older version may still set them), but the platform no longer keeps them: comparing
 * them would plan an update that changes nothing, or report as drift a key the platform
 * dropped, and sending them asks the platform for a setting it no longer has. The same object
 * when there is nothing to drop.
 */
export function withoutRemovedKeys<T extends Record<string, unknown>>(spec: ConnectorSpec | undefined, config: T): T {
  if (!spec?.removedKeys || !Object.keys(config).some((key) => isRemovedKey(spec, key))) return config;
  return Object.fromEntries(Object.entries(config).filter(([key]) => !isRemovedKey(spec, key))) as T;
}

/**
 * The config a write sends, as the platform's own provider sends it: every catalogued key, with
 * the program's value where it set one, else the catalogue's default, else `null`. So a
 * connector made by pulumi-cdc equals one made in the console or by Terraform, whether or not
 * the service fills in defaults itself. Keys the platform sets (computed) go only when given;
 * an uncatalogued connector's config goes as given. Diff and drift still compare only the keys
 * the program set (the stack keeps `inputs.config`, not this).
 */
export function wireConfigWithDefaults(spec: ConnectorSpec | undefined, config: ConfigMap): Record<string, ConfigMap[string] | null> {
  if (!spec) return config;
  const out: Record<string, ConfigMap[string] | null> = {};
  for (const keySpec of spec.keys) {
    if (keySpec.computed || Object.prototype.hasOwnProperty.call(config, keySpec.key)) continue;
    out[keySpec.key] = keySpec.default === undefined ? null : (wireValue(keySpec, keySpec.default) ?? null);
  }
  return { ...out, ...withoutRemovedKeys(spec, config) };
}

/**
 * A live config as a program would write it, for `pulumi import`: the keys a program can set
 * whose value differs from the catalogue's default, in their own types (`"5432"` → 5432); keys
 * the platform sets (computed), the plain keys it derives from `.user.defined` ones and the keys
 * it has since dropped (removedKeys) are left out; a secret the API masks stays `********`, the
 * API's own "keep what is stored". Keys the catalogue does not know are kept as the API shows them.
 */
export function configAsProgram(spec: ConnectorSpec | undefined, live: Record<string, unknown> | null | undefined): ConfigMap {
  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(live ?? {})) {
    if (value === null || value === undefined || value === "") continue;
    const keySpec = spec?.keys.find((k) => k.key === key);
    if (!keySpec) {
      if (spec?.keys.some((k) => k.key === `${key}${USER_DEFINED_SUFFIX}`)) continue;
      // An object last written by an older version may still show a key the platform dropped: no program sets it now.
      if (spec && isRemovedKey(spec, key)) continue;
      out[key] = value as ConfigMap[string];
      continue;
    }
    if (keySpec.computed) continue;
    if (keySpec.secret && isMasked(value)) {
      out[key] = MASK;
      continue;
    }
    if (keySpec.default !== undefined && sameConfigValue(keySpec.default, value)) continue;
    // The API echoes a list as "a,b" and a map as its JSON text.
    const typed =
      typeof value !== "string" ? value
      : keySpec.type === "map" ? (parseJsonObject(value) ?? value)
      : keySpec.type === "list" ? value.split(",").map((v) => v.trim()).filter((v) => v !== "")
      : value;
    out[key] = wireValue(keySpec, typed) ?? (typed as ConfigMap[string]);
  }
  return out;
}

function wireValue(spec: KeySpec, value: unknown): ConfigMap[string] | undefined {
  if (spec.type === "integer" && typeof value === "string" && INTEGER.test(value)) return Number(value);
  if (spec.type === "boolean" && typeof value === "string" && BOOLEAN.test(value)) return value.trim().toLowerCase() === "true";
  if (spec.type === "map" && value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return undefined;
    if (spec.encoding === "json-string") {
      // The platform's double encoding: a JSON string of an object whose values are JSON strings.
      return JSON.stringify(Object.fromEntries(entries.map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])));
    }
  }
  return value as ConfigMap[string];
}
