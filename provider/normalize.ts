/**
 * Pure helpers that put user inputs and API echoes into one comparable form. The API echoes
 * every config scalar as a string and masks secrets, so comparisons happen on strings and
 * never on a masked value.
 */

/** The value the Pulumi SDK sends a dynamic provider in place of a value not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** What the API returns in place of a secret (and accepts back to keep the stored one). */
export const MASK = "********";

export type ConfigScalar = string | number | boolean;
/** A config value on the wire: a scalar, a list of strings, or a map (an object). */
export type ConfigValue = ConfigScalar | string[] | { [key: string]: unknown };
export type ConfigMap = Record<string, ConfigValue>;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** JSON with object keys sorted at every level, so two renderings of one value compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A string that holds a JSON object (how the API may echo a map), parsed; otherwise undefined. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A config value as the API echoes it (Kafka Connect stores every setting as a string): numbers
 * and booleans become strings, a list its comma-separated form, a map (an object, or a string
 * holding one) its canonical JSON.
 */
export function toApiString(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(toApiString).join(",");
  if (typeof value === "object") return canonicalJson(value);
  if (typeof value === "string") {
    const map = jsonObject(value);
    return map ? canonicalJson(map) : value;
  }
  return String(value);
}

/**
 * Whether a value the program set and a value the API holds (or two planned values) are the
 * same setting: `true` and "true" (or "True"), `5432` and "5432" are.
 */
export function sameConfigValue(a: unknown, b: unknown): boolean {
  const x = toApiString(a);
  const y = toApiString(b);
  if (x === y) return true;
  if (typeof a === "boolean" || typeof b === "boolean") return x.trim().toLowerCase() === y.trim().toLowerCase();
  if (typeof a === "number" || typeof b === "number") return x.trim() !== "" && y.trim() !== "" && Number(x) === Number(y);
  return false;
}

export function isMasked(value: unknown): boolean {
  return value === null || value === MASK || (typeof value === "string" && /^\*+$/.test(value) && value.length >= 3);
}

/**
 * The live values of exactly the keys the user set. Secret keys and masked echoes keep the
 * planned value: the API never shows them, so they can neither drift nor be compared.
 */
export function alignLiveConfig(planned: ConfigMap, live: Record<string, unknown> | null | undefined, secretKeys: ReadonlySet<string>): ConfigMap {
  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(planned)) {
    const echoed = live?.[key];
    if (secretKeys.has(key) || echoed === undefined || isMasked(echoed)) {
      // A key the server dropped is drift, but only when it is not a secret we cannot see.
      out[key] = echoed === undefined && !secretKeys.has(key) ? "" : value;
    } else {
      // Same value in the API's string form: keep the program's type, so a refresh shows no 5432 => "5432".
      out[key] = sameConfigValue(value, echoed) ? value : toApiString(echoed);
    }
  }
  return out;
}

/**
 * Keys whose normalised values differ between two config maps (added or removed keys included).
 * What is no map (a stack edited by hand, or written by an older version) holds no key.
 */
export function changedConfigKeys(olds: ConfigMap | undefined, news: ConfigMap | undefined): string[] {
  const map = (c: ConfigMap | undefined): ConfigMap => (c !== null && typeof c === "object" && !Array.isArray(c) ? c : {});
  const a = map(olds);
  const b = map(news);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !(k in a) || !(k in b) || isUnknown(b[k]) || !sameConfigValue(a[k], b[k])).sort();
}

/** Secret-looking key names, for connectors the catalogue does not know. */
const SECRET_NAME = /(password|passphrase|secret|private[._-]?key|token|credential|connection[._-]?string|api[._-]?key)/i;

export function looksSecret(key: string): boolean {
  return SECRET_NAME.test(key);
}

/** A config map rendered as sorted `key: value` lines, secrets masked, for unified diffs. */
export function renderConfig(config: ConfigMap, secretKeys: ReadonlySet<string>): string {
  return (
    Object.keys(config)
      .sort()
      .map((k) => `${k}: ${secretKeys.has(k) ? MASK : toApiString(config[k])}`)
      .join("\n") + "\n"
  );
}

/** A copy without undefined values, which the engine's wire format (protobuf Struct) cannot carry. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    ) as T;
  }
  return value;
}

/** Whether two lists hold the same strings, in any order (tag types, role ids). */
export function sameMembers(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());
}
