/**
 * The emulator's view of the platform's connector catalogue (catalogue/connectors.json, shared
 * with the SDK and the provider) plus what only a server needs: which key lists a source's
 * tables (its topics), which plain keys the platform derives from `.user.defined` ones, and the
 * values of keys the platform computes itself.
 */
import {
  CATALOGUE as SHARED,
  USER_DEFINED_SUFFIX,
  connectorCodes,
  findConnector as findShared,
  type CatalogueKind,
  type ConnectorKind,
  type ConnectorSpec as SharedSpec,
  type KeySpec,
} from "../catalogue/index.js";

export type { CatalogueKind, ConnectorKind, KeySpec };
export type ConfigKeySpec = KeySpec;
export type ConfigValueType = KeySpec["type"];

export interface ConnectorSpec extends SharedSpec {
  readonly kind: ConnectorKind;
  /** Same as `code`: the `connector` value. */
  readonly connector: string;
  /**
   * Sources only: the key listing the captured tables or collections (comma-separated,
   * `schema.table` / `database.table` / `database.collection`). One topic is derived per entry.
   */
  readonly topicKey?: string;
}

/** What the API returns in place of a secret value, and what a client sends back to keep one. */
export const MASK = "********";

/** Keys that list what a source captures, in order of preference; the first one a connector has names its topics. */
const TOPIC_KEYS = [
  "table.include.list.user.defined",
  "collection.include.list.user.defined",
  "topic.include.list.user.defined",
  "table.include.list",
  "collection.include.list",
  "topic.include.list",
  "kafka.topics",
];

function withServerFacts(spec: SharedSpec, kind: ConnectorKind): ConnectorSpec {
  const topicKey = kind === "source" ? TOPIC_KEYS.find((k) => spec.keys.some((s) => s.key === k && !s.computed)) : undefined;
  return { ...spec, kind, connector: spec.code, ...(topicKey ? { topicKey } : {}) };
}

function table(kind: ConnectorKind): Readonly<Record<string, ConnectorSpec>> {
  return Object.fromEntries(Object.entries(SHARED[kind]).map(([code, spec]) => [code, withServerFacts(spec, kind)]));
}

export const SOURCE_CONNECTORS: Readonly<Record<string, ConnectorSpec>> = table("source");
export const DESTINATION_CONNECTORS: Readonly<Record<string, ConnectorSpec>> = table("destination");

export const CATALOGUE: Readonly<Record<ConnectorKind, Readonly<Record<string, ConnectorSpec>>>> = {
  source: SOURCE_CONNECTORS,
  destination: DESTINATION_CONNECTORS,
};

export function findConnector(kind: ConnectorKind, connector: string): ConnectorSpec | undefined {
  return findShared(kind, connector) ? CATALOGUE[kind][connector] : undefined;
}

export function connectorNames(kind: ConnectorKind): string[] {
  return connectorCodes(kind);
}

export function secretKeys(spec: ConnectorSpec): string[] {
  return spec.keys.filter((k) => k.secret).map((k) => k.key);
}

export function isSecretKey(spec: ConnectorSpec, key: string): boolean {
  return spec.keys.some((k) => k.key === key && k.secret);
}

/**
 * The plain keys the platform derives from the keys a client sets: `X` from `X.user.defined`,
 * unless the connector maps `X` itself. The platform's resolver functions are not public, so
 * the emulator derives the simplest thing, a copy of the value.
 */
export function derivedKeys(spec: ConnectorSpec): ReadonlyMap<string, string> {
  const own = new Set(spec.keys.map((k) => k.key));
  const derived = new Map<string, string>();
  for (const k of spec.keys) {
    if (!k.key.endsWith(USER_DEFINED_SUFFIX) || k.secret) continue;
    const plain = k.key.slice(0, -USER_DEFINED_SUFFIX.length);
    if (!own.has(plain)) derived.set(plain, k.key);
  }
  return derived;
}

