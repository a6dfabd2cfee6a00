import data = require("./guardrails.json");
import { CATALOGUE, findKey, type CatalogueKind, type ConnectorSpec, type KeySpec } from "./index.js";

/**
 * The connector keys the CDC policy pack (policy/) reads (guardrails.json beside this file): keys
 * only; which connectors have them, their defaults and their secrecy stay connectors.json's.
 */
export interface Guardrails {
  /** Keys naming a source's replication resource on its database server (a PostgreSQL slot, a publication). */
  readonly replication: readonly { readonly key: string; readonly what: string }[];
  /** Keys that identify a source's database server: two sources share a replication resource only on the same one. */
  readonly server: readonly string[];
  /** Keys choosing what a source captures (databases, schemas, tables, collections). */
  readonly selection: readonly string[];
  /** Keys that make a destination delete rows when the source deletes them. */
  readonly hardDelete: readonly string[];
}

export const GUARDRAILS: Guardrails = data as unknown as Guardrails;

/** A guardrail key of one connector, with the catalogue's spec of it; only the keys the connector has. */
export function guardrailKeys(spec: ConnectorSpec, keys: readonly string[]): KeySpec[] {
  return keys.flatMap((k) => findKey(spec, k) ?? []);
}

/** The guardrail keys no connector of the catalogue has (a stale guardrails.json): [] when every key is some connector's. */
export function unknownGuardrailKeys(): string[] {
  const all = [...GUARDRAILS.replication.map((r) => r.key), ...GUARDRAILS.server, ...GUARDRAILS.selection, ...GUARDRAILS.hardDelete];
  const kinds: CatalogueKind[] = ["source", "destination"];
  return all.filter((key) => !kinds.some((kind) => Object.values(CATALOGUE[kind]).some((spec) => findKey(spec, key))));
}
