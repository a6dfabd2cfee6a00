import { DYNAMIC_TOKEN_PREFIX, isKindName, KINDS, type Registered } from "./kinds/index.js";
import { typedKindOf } from "./typed/kinds.js";
import { toCoreProps } from "./typed/props.js";

/**
 * Our resources' type tokens, from either host: the dynamic classes'
 * `pulumi-nodejs:dynamic/cdc:<Kind>`, the plugin's `cdc:index:<Kind>` and its typed resources
 * (`cdc:sources:Postgresql`, `cdc:destinations:Snowflake`, `cdc:transforms:MapFilter`). The
 * commands read stacks of all of them the same way: the state holds the same core's inputs and
 * outputs, a typed resource's with its properties typed (coreProps() maps them back). The CLI's
 * commands and the policy pack (policy/) read them through this module.
 */
const PREFIXES = [DYNAMIC_TOKEN_PREFIX, "cdc:index:"] as const;

/** `Source`, `Pipeline`, ... for one of our type tokens (a typed resource's generic kind); undefined for anything else. */
export function cdcKindOf(type: string): Registered["name"] | undefined {
  for (const prefix of PREFIXES) {
    if (!type.startsWith(prefix)) continue;
    const kind = type.slice(prefix.length);
    return isKindName(kind) ? kind : undefined;
  }
  return typedKindOf(type)?.kind;
}

/** The declaration of the kind of one of our type tokens; undefined for anything else. */
export function declarationOf(type: string): Registered | undefined {
  const kind = cdcKindOf(type);
  return kind === undefined ? undefined : KINDS[kind];
}

/**
 * A resource's recorded inputs or outputs as its core has them: a typed resource's properties as
 * the generic kind's `connector` (or `transform`) and `config` (values the state keeps encrypted
 * stay encrypted objects, under their keys); any other resource's as they are.
 */
export function coreProps(type: string, props: Record<string, unknown>): Record<string, unknown> {
  const typed = typedKindOf(type);
  return typed ? toCoreProps(typed, props) : props;
}
