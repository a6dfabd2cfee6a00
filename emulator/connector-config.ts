import { MASK, derivedKeys, findConnector, type ConnectorKind, type ConnectorSpec, type KeySpec } from "./catalogue.js";
import { randomHex, type Vault } from "./crypto.js";
import type { ConfigValue, ConnectorRecord } from "./store.js";
import { err, parseLaxBool, type ValidationDetail } from "./validation.js";

/**
 * Connector config against the catalogue, as the platform treats it: exactly the catalogued keys
 * are accepted, each value is checked against its key's type, allowed values and range
 * (pydantic-shaped errors), and what is stored is what Kafka Connect stores, a string per key:
 * integers and booleans as text, lists comma-separated, maps as JSON. Secrets are sealed, keys
 * the platform computes are filled in by the server.
 */

export interface CheckedConfig {
  /** Every non-secret value in its stored (string) form, defaults and computed values included. */
  config: Record<string, ConfigValue>;
  /** Secret values, sealed. */
  secrets: Record<string, string>;
}

const INTEGER = /^[+-]?\d+$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

type Stored = { ok: ConfigValue } | { problem: ValidationDetail };

/** One non-secret value against its key: its stored form, or what the API says is wrong with it. */
export function storeValue(keySpec: KeySpec, value: unknown, loc: (string | number)[]): Stored {
  switch (keySpec.type) {
    case "integer": {
      let n: number;
      if (typeof value === "number") {
        if (!Number.isInteger(value)) return { problem: err.intFromFloat(loc, value) };
        n = value;
      } else if (typeof value === "string") {
        if (!INTEGER.test(value.trim())) return { problem: err.intParsing(loc, value) };
        n = Number(value.trim());
      } else {
        return { problem: err.intType(loc, value) };
      }
      // Only the platform's own ranges: one pulumi-cdc added (rangeSource) is its client's rule, not the API's.
      if (keySpec.rangeSource === undefined) {
        if (keySpec.min !== undefined && n < keySpec.min) return { problem: err.greaterThanEqual(loc, value, keySpec.min) };
        if (keySpec.max !== undefined && n > keySpec.max) return { problem: err.lessThanEqual(loc, value, keySpec.max) };
      }
      return { ok: String(n) };
    }
    case "boolean": {
      // pydantic's lax booleans: true/false, 1/0, yes/no, on/off, in any case.
      const parsed = parseLaxBool(value);
      if (parsed !== undefined) return { ok: String(parsed) };
      return { problem: typeof value === "string" ? err.boolParsing(loc, value) : err.boolType(loc, value) };
    }
    case "string": {
      if (typeof value !== "string") return { problem: err.stringType(loc, value) };
      if (keySpec.enum && !keySpec.enum.includes(value)) return { problem: err.enumError(loc, value, keySpec.enum) };
      if (keySpec.required && value === "") return { problem: err.stringTooShort(loc, value, 1) };
      if (keySpec.format === "json" && value.trim() !== "") {
        try {
          JSON.parse(value);
        } catch (e) {
          return { problem: err.valueError(loc, value, `invalid JSON: ${(e as Error).message}`) };
        }
      }
      return { ok: value };
    }
    case "list": {
      if (!Array.isArray(value)) return { problem: err.listType(loc, value) };
      const bad = value.findIndex((v) => typeof v !== "string");
      if (bad >= 0) return { problem: err.stringType([...loc, bad], value[bad]) };
      return { ok: value.join(",") };
    }
    case "map": {
      // json-string maps travel as a JSON string of an object whose values are JSON strings.
      const map = typeof value === "string" && keySpec.encoding === "json-string" ? parseObject(value) : value;
      if (!isObject(map)) return { problem: err.dictType(loc, value) };
      for (const [k, v] of Object.entries(map)) {
        if (keySpec.valueType === "string" && typeof v !== "string") return { problem: err.stringType([...loc, k], v) };
        if (keySpec.valueType === "object") {
          const inner = typeof v === "string" ? parseObject(v) : v;
          if (!isObject(inner)) return { problem: err.dictType([...loc, k], v) };
          const fields = keySpec.valueKeys ?? [];
          const extra = Object.keys(inner).find((ik) => !fields.some((f) => f.key === ik));
          if (extra !== undefined) return { problem: { loc: [...loc, k, extra], msg: "Extra inputs are not permitted", type: "extra_forbidden", input: inner[extra] } };
          for (const f of fields) {
            const at = [...loc, k, f.key];
            const v = inner[f.key];
            if (v === undefined) {
              if (f.required) return { problem: err.missing(at, inner) };
              continue;
            }
            if (f.type === "string" && typeof v !== "string") return { problem: err.stringType(at, v) };
            if (f.type === "integer") {
              if (typeof v !== "number" || !Number.isInteger(v)) return { problem: err.intType(at, v) };
              if (f.min !== undefined && v < f.min) return { problem: err.greaterThanEqual(at, v, f.min) };
            }
          }
        }
      }
      // A json-string map stays the string it travels as; any other map is kept, and echoed, as
      // the JSON object the platform's Terraform client reads back (helper.GetTfCfgMapString).
      if (keySpec.encoding === "json-string") return { ok: typeof value === "string" ? value : JSON.stringify(map) };
      return { ok: map };
    }
  }
}

/** Splits a comma-separated include list into its entries. */
export function listEntries(value: ConfigValue | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(String(value).split(",").map((s) => s.trim()).filter((s) => s !== ""))];
}

/** The host of a MongoDB connection string (`mongodb[+srv]://user:pw@host[:port][,...]/db?...`). */
function mongoHost(connectionString: string | undefined): string {
  const match = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?,:]+)/.exec(connectionString ?? "");
  return match?.[1] ?? "";
}

/**
 * Values of the keys the platform computes: an SSH public key to install on a bastion, a
 * webhook's URL and API key, a MongoDB host read from the connection string. Generated once
 * and kept across updates, as the platform keeps them.
 */
function computedValue(keySpec: KeySpec, previous: string | undefined, plainSecrets: Record<string, string>): string | undefined {
  switch (keySpec.key) {
    case "ssh.public.key.user.displayed":
      return previous ?? `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${randomHex(22)} cdc-emulator`;
    case "webhook.url":
      return previous ?? `https://webhooks.cdc.local/${randomHex(16)}`;
    case "api.key":
      return previous ?? `whk_${randomHex(20)}`;
    case "mongodb.connection.hostname":
      return mongoHost(plainSecrets["mongodb.connection.string.user.defined"] ?? plainSecrets["mongodb.connection.string"]);
    default:
      return previous;
  }
}

/**
 * Validates a config object. `previous` is the stored record of an update: a secret sent as the
 * mask keeps its stored value, computed values are kept. Returns the stored form or the
 * validation errors.
 */
export function checkConfig(
  spec: ConnectorSpec,
  raw: Record<string, unknown>,
  vault: Vault,
  previous?: Pick<ConnectorRecord, "secrets" | "config">,
): { ok: true; value: CheckedConfig } | { ok: false; details: ValidationDetail[] } {
  const details: ValidationDetail[] = [];
  const config: Record<string, ConfigValue> = {};
  const secrets: Record<string, string> = {};
  const plainSecrets: Record<string, string> = {};
  const keys = new Map(spec.keys.map((k) => [k.key, k]));
  const derived = derivedKeys(spec);
  for (const [key, value] of Object.entries(raw)) {
    const loc = ["body", "config", key];
    const keySpec = keys.get(key);
    // A plain key the server derives comes back in every GET, so a client that sends back what
    // it read (the web console does) sends it too: it is the server's, and ignored like a computed key.
    if (!keySpec && derived.has(key)) continue;
    // A key the platform has since dropped (removedKeys) is what an older client still sends: the
    // platform accepts the request and no longer keeps the key, so it is not stored or echoed.
    if (!keySpec && spec.removedKeys?.includes(key)) continue;
    if (!keySpec) {
      details.push({ loc, msg: "Extra inputs are not permitted", type: "extra_forbidden", input: value });
      continue;
    }
    // null means "not set": the key is dropped and a default, if any, applies. Computed keys
    // are the server's: whatever a client sends for them is ignored.
    if (value === null || keySpec.computed) continue;
    if (keySpec.secret) {
      if (typeof value !== "string") {
        details.push(err.stringType(loc, value));
        continue;
      }
      if (value === MASK) {
        const stored = previous?.secrets[key];
        if (stored === undefined) details.push(err.valueError(loc, value, `'${MASK}' only keeps a stored secret; send the real value for ${key}`));
        else {
          secrets[key] = stored;
          plainSecrets[key] = vault.open(stored);
        }
        continue;
      }
      if (value === "" && keySpec.required) {
        details.push(err.stringTooShort(loc, value, 1));
        continue;
      }
      // An empty secret is kept as sent and echoed as "" (see echoConfig), as the platform's
      // Terraform client expects of an optional secret it sends empty.
      secrets[key] = vault.seal(value);
      plainSecrets[key] = value;
      continue;
    }
    const stored = storeValue(keySpec, value, loc);
    if ("problem" in stored) details.push(stored.problem);
    else config[key] = stored.ok;
  }
  for (const keySpec of spec.keys) {
    const present = keySpec.secret ? keyIn(secrets, keySpec.key) : keyIn(config, keySpec.key);
    const rejected = details.some((d) => d.loc[2] === keySpec.key);
    if (present || rejected) continue;
    if (keySpec.computed) {
      const value = computedValue(keySpec, previous ? echoedPrevious(previous, keySpec, vault) : undefined, plainSecrets);
      if (value === undefined) continue;
      if (keySpec.secret) secrets[keySpec.key] = vault.seal(value);
      else config[keySpec.key] = value;
    } else if (keySpec.required) details.push(err.missing(["body", "config", keySpec.key], raw));
    else if (keySpec.default !== undefined && keySpec.secret) {
      // An empty default of a secret means "none"; anything else is kept sealed like a sent value.
      if (String(keySpec.default) !== "") secrets[keySpec.key] = vault.seal(String(keySpec.default));
    } else if (keySpec.default !== undefined) config[keySpec.key] = String(keySpec.default);
  }
  if (spec.topicKey && keyIn(config, spec.topicKey) && listEntries(config[spec.topicKey]).length === 0) {
    details.push(err.valueError(["body", "config", spec.topicKey], config[spec.topicKey], "list at least one table or collection"));
  }
  if (details.length > 0) return { ok: false, details };
  return { ok: true, value: { config, secrets } };
}

function echoedPrevious(previous: Pick<ConnectorRecord, "secrets" | "config">, keySpec: KeySpec, vault: Vault): string | undefined {
  if (keySpec.secret) return previous.secrets[keySpec.key] === undefined ? undefined : vault.open(previous.secrets[keySpec.key]!);
  const value = previous.config[keySpec.key];
  return value === undefined ? undefined : String(value);
}

function keyIn(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * The config as the API echoes it: every value a string, keys sorted, secrets masked unless
 * revealed, and the plain keys the platform derives from `.user.defined` ones (see
 * derivedKeys) alongside the keys that were set.
 */
export function echoConfig(record: Pick<ConnectorRecord, "config" | "secrets" | "kind" | "connector">, vault: Vault, revealSecrets: boolean): Record<string, string | ConfigValue> {
  const entries: [string, string | ConfigValue][] = Object.entries(record.config).map(([k, v]) => [k, typeof v === "object" ? v : String(v)]);
  const spec = findConnector(record.kind, record.connector);
  if (spec) {
    for (const [plain, from] of derivedKeys(spec)) {
      if (keyIn(record.config, from)) {
        const v = record.config[from]!;
        entries.push([plain, typeof v === "object" ? v : String(v)]);
      }
    }
  }
  for (const [k, sealed] of Object.entries(record.secrets)) {
    const plain = vault.open(sealed);
    // Nothing is hidden in an empty secret: a mask would claim a value that is not there.
    entries.push([k, revealSecrets || plain === "" ? plain : MASK]);
  }
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
  // An API source makes one topic per resource it reads, named `<connector>.<resource>`.
  const api = record.kind === "source" && spec?.family === "api";
  if (record.kind !== "source" || (!spec?.topicKey && !api)) return { topic_ids: [], topics: [], topic_map: {} };
  const entries = api ? listEntries(record.config.resources).map((r) => `${record.connector}.${r}`) : listEntries(record.config[spec!.topicKey!]);
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

/** The echoed config with every value as text (maps as JSON), for the config history and its diff. */
export function echoConfigText(record: Pick<ConnectorRecord, "config" | "secrets" | "kind" | "connector">, vault: Vault): Record<string, string> {
  return Object.fromEntries(Object.entries(echoConfig(record, vault, false)).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}
