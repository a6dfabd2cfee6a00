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
export type ConfigMap = Record<string, ConfigScalar>;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** A config value as the API echoes it: numbers and booleans become strings. */
export function toApiString(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : String(value);
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
      out[key] = toApiString(echoed) === toApiString(value) ? value : toApiString(echoed);
    }
  }
  return out;
}

/** Keys whose normalised values differ between two config maps (added or removed keys included). */
export function changedConfigKeys(olds: ConfigMap | undefined, news: ConfigMap | undefined): string[] {
  const a = olds ?? {};
  const b = news ?? {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !(k in a) || !(k in b) || isUnknown(b[k]) || toApiString(a[k]) !== toApiString(b[k])).sort();
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
