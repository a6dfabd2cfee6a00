/**
 * Our resources' type tokens, from either host: the dynamic classes'
 * `pulumi-nodejs:dynamic/cdc:<Kind>` and the provider plugin's `cdc:index:<Kind>`. The commands
 * read stacks of both the same way: the state holds the same core's inputs and outputs.
 */
const PREFIXES = ["pulumi-nodejs:dynamic/cdc:", "cdc:index:"] as const;

/** `Source`, `Pipeline`, ... for one of our type tokens; undefined for anything else. */
export function cdcKindOf(type: string): string | undefined {
  for (const prefix of PREFIXES) if (type.startsWith(prefix)) return type.slice(prefix.length);
  return undefined;
}
