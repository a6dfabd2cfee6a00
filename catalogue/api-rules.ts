import type { ConnectorSpec, FieldCondition, KeySpec, Normalization } from "./index.js";

/**
 * The API sources' rules read from their data (api-sources.json): which fields a config shows,
 * which secrets belong to which auth mode, and how the service rewrites values. Pure, and shared
 * by the provider (checks, wire form, drift) and the emulator (storage), so the two read one
 * account of the contract.
 */

type Config = Readonly<Record<string, unknown>>;

/**
 * A config value as the service compares condition values: `false`, `"false"` and `"False"` alike;
 * unset or empty is undefined. A list or a map as its JSON, which no condition holds for (the key's
 * own check refuses it): String() of a map with its own `toString` key throws.
 */
function conditionText(value: unknown): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  const text = typeof value === "object" ? JSON.stringify(value) : String(value).trim();
  return /^(true|false)$/i.test(text) ? text.toLowerCase() : text;
}

/** The value a condition's key holds in a config, or the condition's default when it is unset. */
export function conditionValue(condition: FieldCondition, config: Config): string | undefined {
  return conditionText(config[condition.when.key]) ?? condition.when.default;
}

/** Whether the console shows a field's condition as holding for this config. */
export function conditionHolds(condition: FieldCondition, config: Config): boolean {
  const value = conditionValue(condition, config);
  return value !== undefined && condition.when.values.includes(value);
}

/** The key that picks how a connector signs in (`auth_mode`), if it has one. */
const MODE_KEY = "auth_mode";

/** The auth mode a config signs in with (the key's default when unset); undefined for a connector without modes. */
export function authMode(spec: ConnectorSpec, config: Config): string | undefined {
  const key = spec.keys.find((k) => k.key === (spec.oauth?.modeKey ?? MODE_KEY));
  if (!key) return undefined;
  return conditionText(config[key.key]) ?? (key.default === undefined ? undefined : String(key.default));
}

/** Whether a config signs in through Connect (an OAuth grant): the OAuth mode, or a connector whose only way in is Connect. */
export function usesConnect(spec: ConnectorSpec, config: Config): boolean {
  const oauth = spec.oauth;
  if (!oauth) return false;
  if (!oauth.modeKey) return true;
  return (conditionText(config[oauth.modeKey]) ?? oauth.modeDefault) === oauth.modeValue;
}

/** The single-use, write-only keys (`oauth_grant_id`). */
export function writeOnlyKeys(spec: ConnectorSpec): string[] {
  return spec.keys.filter((k) => k.writeOnly).map((k) => k.key);
}

/**
 * Whether a field is shown for this config: every condition on it holds; a write-only grant only
 * while the config signs in through Connect. A field without conditions is always shown.
 */
export function isShown(spec: ConnectorSpec, field: string, config: Config): boolean {
  const key = spec.keys.find((k) => k.key === field);
  if (key?.writeOnly && spec.oauth) return usesConnect(spec, config);
  return (spec.conditions ?? []).filter((c) => c.field === field).every((c) => conditionHolds(c, config));
}

/** Fields the console requires for this config: shown, and a condition on them says required. */
export function requiredWhenShown(spec: ConnectorSpec, config: Config): FieldCondition[] {
  return (spec.conditions ?? []).filter((c) => c.required && conditionHolds(c, config));
}

/** The secrets (write-only grants included) a config does not show: the service drops them when the config is saved. */
export function hiddenSecrets(spec: ConnectorSpec, config: Config): string[] {
  return spec.keys.filter((k) => k.secret && !isShown(spec, k.key, config)).map((k) => k.key);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function normalizeScalar(rule: Normalization, text: string): string {
  switch (rule) {
    case "strip-act-prefix":
      return text.startsWith("act_") ? text.slice("act_".length) : text;
    case "strip-dashes":
      return text.replace(/-/g, "");
    case "date-at-midnight-utc":
      // A date alone is midnight UTC; a `Z` offset is the same instant as the service writes it.
      return DATE_ONLY.test(text) ? `${text}T00:00:00+00:00` : text.replace(/Z$/, "+00:00");
  }
}

/**
 * A value as the service stores it after its normalisation (`act_123` → `123`), in its own
 * shape: a list item by item. Values of keys without a rule, and non-text values, as they are.
 */
export function normalizeValue(key: KeySpec | undefined, value: unknown): unknown {
  const rule = key?.normalize;
  if (!rule) return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? normalizeScalar(rule, v.trim()) : v));
  if (typeof value === "string") {
    // A list stored as CSV is normalised entry by entry.
    return key.type === "list" ? value.split(",").map((v) => normalizeScalar(rule, v.trim())).join(",") : normalizeScalar(rule, value);
  }
  return value;
}
