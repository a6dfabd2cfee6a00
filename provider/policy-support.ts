/**
 * What the CDC policy pack (the pulumi-cdc-policy package, policy/) reads of pulumi-cdc, in one
 * module (`pulumi-cdc/policy-support`): our resources' kinds from their type tokens on either host,
 * their properties in the core's form, which secret settings their programs gave in plain, and the catalogue's
 * facts. The pack restates none of them.
 */
import { findConnector, type CatalogueKind, type ConnectorSpec } from "../catalogue/index.js";
import { GUARDRAILS, guardrailKeys } from "../catalogue/guardrails.js";
import { KINDS, type KindName, type Path } from "./kinds/index.js";
import { PLAIN_SECRETS } from "./plain-secrets.js";
import { cdcKindOf, coreProps } from "./resource-types.js";
import { typedKindOf } from "./typed/kinds.js";

export { GUARDRAILS, guardrailKeys, KINDS, cdcKindOf, PLAIN_SECRETS };
export type { CatalogueKind, ConnectorSpec, KeySpec } from "../catalogue/index.js";
export type { KindName, Path };

/** One of our resources as a policy reads it: its kind, its core properties, its catalogue entry. */
export interface CdcResource {
  kind: KindName;
  /** How messages name one object of the kind (`source`). */
  noun: string;
  /** The properties in the core's form: a typed resource's as `connector` (or `transform`) and `config`. */
  props: Record<string, unknown>;
  /** The connector's (or transform type's) catalogue entry, for a catalogued kind with a known code. */
  spec?: ConnectorSpec;
  /** A typed resource's token (`cdc:sources:Postgresql`): its properties are named, not keyed. */
  typed?: string;
}

/** The resource of one of our type tokens, on either host; undefined for anything else. */
export function cdcResource(type: string, props: Record<string, unknown>): CdcResource | undefined {
  const kind = cdcKindOf(type);
  if (kind === undefined) return undefined;
  const declaration = KINDS[kind];
  const core = coreProps(type, props);
  const catalogue = "catalogue" in declaration ? declaration.catalogue : undefined;
  const spec = catalogue ? findConnector(catalogue.kind as CatalogueKind, String(core[catalogue.codeProperty] ?? "")) : undefined;
  const typed = typedKindOf(type);
  return { kind, noun: declaration.noun, props: core, ...(spec ? { spec } : {}), ...(typed ? { typed: typed.token } : {}) };
}
