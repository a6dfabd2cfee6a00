import { MASK, findConnector, type ConnectorKind, type ConnectorSpec } from "./catalogue.js";
import type { Vault } from "./crypto.js";
import type { ConfigScalar, ConnectorRecord } from "./store.js";
import { err, type ValidationDetail } from "./validation.js";

/**
 * Connector config against the catalogue: validation with pydantic-shaped errors, defaults,
 * sealing of secret values, and the echoed (all-strings, masked) form.
 */

export interface CheckedConfig {
  config: Record<string, ConfigScalar>;
  /** Secret values, sealed. */
  secrets: Record<string, string>;
}

const INTEGER = /^[+-]?\d+$/;

/** Checks one non-secret value against its key's declared type. */
function checkValue(spec: ConnectorSpec, key: string, value: ConfigScalar, loc: (string | number)[]): ValidationDetail | undefined {
  const keySpec = spec.keys.find((k) => k.key === key);
  if (!keySpec) return undefined;
  switch (keySpec.type) {
    case "integer": {
      let n: number;
      if (typeof value === "number") {
        if (!Number.isInteger(value)) return err.intFromFloat(loc, value);
        n = value;
      } else if (typeof value === "string") {
        if (!INTEGER.test(value.trim())) return err.intParsing(loc, value);
        n = Number(value.trim());
      } else {
        return err.intType(loc, value);
      }
      if (keySpec.min !== undefined && n < keySpec.min) return err.greaterThanEqual(loc, value, keySpec.min);
      if (keySpec.max !== undefined && n > keySpec.max) return err.lessThanEqual(loc, value, keySpec.max);
      return undefined;
    }
    case "boolean":
      if (typeof value === "boolean") return undefined;
      if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) return undefined;
      return typeof value === "string" ? err.boolParsing(loc, value) : err.boolType(loc, value);
    case "enum":
      return typeof value === "string" && keySpec.values?.includes(value) ? undefined : err.enumError(loc, value, keySpec.values ?? []);
    case "string":
      if (keySpec.required && String(value) === "") return err.stringTooShort(loc, value, 1);
      return undefined;
  }
}

/** Splits a comma-separated include list into its entries. */
export function listEntries(value: ConfigScalar | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(String(value).split(",").map((s) => s.trim()).filter((s) => s !== ""))];
}

/**
 * Validates a config object. `previous` is the stored config of an update: a secret sent as the
 * mask keeps its stored value. Returns the stored form or the validation errors.
 */
export function checkConfig(
  spec: ConnectorSpec,
  raw: Record<string, unknown>,
  vault: Vault,
  previous?: Pick<ConnectorRecord, "secrets">,
): { ok: true; value: CheckedConfig } | { ok: false; details: ValidationDetail[] } {
  const details: ValidationDetail[] = [];
  const config: Record<string, ConfigScalar> = {};
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const loc = ["body", "config", key];
    // null means "not set": the key is dropped and a default, if any, applies.
    if (value === null) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      details.push(err.stringType(loc, value));
      continue;
    }
    const keySpec = spec.keys.find((k) => k.key === key);
    if (keySpec?.secret) {
      if (value === MASK) {
        const stored = previous?.secrets[key];
        if (stored === undefined) {
          details.push(err.valueError(loc, value, `'${MASK}' only keeps a stored secret; send the real value for ${key}`));
        } else {
          secrets[key] = stored;
        }
        continue;
      }
      if (String(value) === "") {
        if (keySpec.required) details.push(err.stringTooShort(loc, value, 1));
        continue;
      }
      secrets[key] = vault.seal(String(value));
      continue;
    }
    const problem = checkValue(spec, key, value, loc);
    if (problem) details.push(problem);
    else config[key] = value;
  }
  for (const keySpec of spec.keys) {
    const present = keySpec.secret ? keyIn(secrets, keySpec.key) : keyIn(config, keySpec.key);
    const rejected = details.some((d) => d.loc[2] === keySpec.key);
    if (present || rejected) continue;
    if (keySpec.required) details.push(err.missing(["body", "config", keySpec.key], raw));
    else if (keySpec.default !== undefined) config[keySpec.key] = keySpec.default;
  }
  if (spec.topicKey && keyIn(config, spec.topicKey) && listEntries(config[spec.topicKey]).length === 0) {
    details.push(err.valueError(["body", "config", spec.topicKey], config[spec.topicKey], "list at least one table or collection"));
  }
  if (details.length > 0) return { ok: false, details };
  return { ok: true, value: { config, secrets } };
}

function keyIn(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The config as the API echoes it: every value a string, keys sorted, secrets masked unless revealed. */
export function echoConfig(record: Pick<ConnectorRecord, "config" | "secrets">, vault: Vault, revealSecrets: boolean): Record<string, string> {
  const entries: [string, string][] = Object.entries(record.config).map(([k, v]) => [k, String(v)]);
  for (const [k, sealed] of Object.entries(record.secrets)) entries.push([k, revealSecrets ? vault.open(sealed) : MASK]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

export interface DerivedTopics {
  topic_ids: string[];
  topics: string[];
  topic_map: Record<string, string>;
}

/** One topic per captured table or collection, prefixed with the source's id. */
export function deriveTopics(record: ConnectorRecord): DerivedTopics {
  const spec = findConnector(record.kind, record.connector);
  if (record.kind !== "source" || !spec?.topicKey) return { topic_ids: [], topics: [], topic_map: {} };
  const entries = listEntries(record.config[spec.topicKey]);
  const map = entries.map((entry) => [entry, `source_${record.id}.${entry}`] as const);
  return {
    topic_ids: map.map(([, topic]) => topic),
    topics: entries,
    topic_map: Object.fromEntries(map),
  };
}

export function kindLabel(kind: ConnectorKind): "Source" | "Destination" {
  return kind === "source" ? "Source" : "Destination";
}
