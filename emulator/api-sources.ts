import { hiddenSecrets, normalizeValue, usesConnect, writeOnlyKeys } from "../catalogue/api-rules.js";
import { MASK, type ConnectorSpec } from "./catalogue.js";
import { storeValue, listEntries } from "./connector-config.js";
import { randomHex, type Vault } from "./crypto.js";
import type { ConfigValue, ConnectorRecord } from "./store.js";
import { err, type ValidationDetail } from "./validation.js";

/**
 * The platform's write contract for API sources (catalogue family "api"), as the vendor's local
 * fixture describes the backend: the stored config is the body stringified (lists as CSV,
 * booleans and numbers as text), with only the keys that were sent, after the service's
 * normalisations; an update replaces it wholesale except a secret the body leaves out, which is
 * kept; an explicit null clears a secret; `oauth_grant_id` is consumed, never stored or echoed,
 * and a spent one is refused; a mode switch drops the secrets the new mode does not show. Where
 * the vendor is silent, README.md ("API sources") says what the emulator decided.
 */

/** What an API source record keeps beyond a connector's: the cluster the service picked and the digests of the grants it spent. */
export type ApiSourceRecord = ConnectorRecord & { kc_cluster_id?: string; spent_grants?: string[] };

/** A resource named with this prefix has "no data yet": the save answers a connection warning (README.md, "API sources"). */
export const NO_DATA_PREFIX = "nodata_";

export interface StoredApiConfig {
  config: Record<string, ConfigValue>;
  secrets: Record<string, string>;
  /** Digests of the grants spent by this write, added to the record's. */
  spent: string[];
}

/**
 * Validates and stores an API source's config. `previous` is the record of an update. Returns the
 * stored form or the validation errors (pydantic-shaped, as the service answers).
 */
export function storeApiConfig(
  spec: ConnectorSpec,
  raw: Record<string, unknown>,
  vault: Vault,
  previous?: ApiSourceRecord,
): { ok: true; value: StoredApiConfig } | { ok: false; details: ValidationDetail[] } {
  const details: ValidationDetail[] = [];
  const config: Record<string, ConfigValue> = {};
  const secrets: Record<string, string> = {};
  const cleared = new Set<string>();
  const spent: string[] = [];
  const grants = new Set(writeOnlyKeys(spec));
  for (const [key, value] of Object.entries(raw)) {
    const loc = ["body", "config", key];
    const keySpec = spec.keys.find((k) => k.key === key);
    if (!keySpec) {
      details.push({ loc, msg: "Extra inputs are not permitted", type: "extra_forbidden", input: value });
      continue;
    }
    if (value === null) {
      if (keySpec.secret) cleared.add(key);
      continue;
    }
    if (grants.has(key)) {
      if (typeof value !== "string" || value === "") {
        details.push(typeof value === "string" ? err.stringTooShort(loc, value, 1) : err.stringType(loc, value));
        continue;
      }
      const digest = vault.digest(value);
      if (previous?.spent_grants?.includes(digest)) details.push(err.valueError(loc, MASK, `${key} has already been used: start Connect again for a new grant`));
      else spent.push(digest);
      continue;
    }
    if (keySpec.secret) {
      if (typeof value !== "string") details.push(err.stringType(loc, value));
      else if (value === MASK && previous?.secrets[key] !== undefined) secrets[key] = previous.secrets[key]!;
      else if (value === MASK) details.push(err.valueError(loc, value, `'${MASK}' only keeps a stored secret; send the real value for ${key}`));
      else secrets[key] = vault.seal(value);
      continue;
    }
    const stored = storeValue(keySpec, value, loc);
    if ("problem" in stored) details.push(stored.problem);
    else config[key] = normalizeValue(keySpec, stored.ok) as ConfigValue;
  }
  // Left out of an update, a secret is kept; cleared by an explicit null.
  for (const [key, sealed] of Object.entries(previous?.secrets ?? {})) {
    if (!(key in secrets) && !cleared.has(key) && !(key in raw)) secrets[key] = sealed;
  }
  for (const keySpec of spec.keys) {
    const present = keySpec.secret ? key(secrets, keySpec.key) : key(config, keySpec.key);
    if (keySpec.required && !present && !details.some((d) => d.loc[2] === keySpec.key)) details.push(err.missing(["body", "config", keySpec.key], raw));
  }
  if (key(config, "resources") && listEntries(config.resources).length === 0) {
    details.push(err.valueError(["body", "config", "resources"], raw.resources, "select at least one resource"));
  }
  // A new source that signs in through Connect needs a grant to sign in with.
  const grant = [...grants][0];
  if (!previous && grant && usesConnect(spec, config) && spent.length === 0 && !details.some((d) => d.loc[2] === grant)) {
    details.push(err.valueError(["body", "config", grant], null, `${grant} is required to create a ${spec.displayName} source that signs in through Connect`));
  }
  if (details.length > 0) return { ok: false, details };
  // A mode switch: the secrets the stored config no longer shows are dropped.
  for (const hidden of hiddenSecrets(spec, config)) delete secrets[hidden];
  return { ok: true, value: { config, secrets, spent } };
}

function key(obj: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, k);
}

/** The fields an API source's answers carry beyond a connector's: the cluster the service picked. */
export function apiSourceFields(record: ApiSourceRecord): { kc_cluster_id: string | null } {
  return { kc_cluster_id: record.kc_cluster_id ?? null };
}

/** The cluster the service picks for a new API source. */
export function pickCluster(): string {
  return `api-cluster-${randomHex(4)}`;
}

/** The save-time connection warning of a write: one line per selected resource with no data yet. */
export function connectionWarningOf(record: ConnectorRecord): string | undefined {
  const empty = listEntries(record.config.resources).filter((r) => r.startsWith(NO_DATA_PREFIX));
  return empty.length === 0 ? undefined : empty.map((r) => `${r}: the account has no data for this resource yet`).join("; ");
}

/** An API source's topics: one per selected resource, `source_<id>.<connector>.<resource>`. */
export function apiSourceTopics(record: ConnectorRecord): { topic_ids: string[]; topics: string[]; topic_map: Record<string, string> } {
  const entries = listEntries(record.config.resources);
  const map = entries.map((r) => [r, `source_${record.id}.${record.connector}.${r}`] as const);
  return { topic_ids: map.map(([, t]) => t), topics: entries, topic_map: Object.fromEntries(map) };
}
