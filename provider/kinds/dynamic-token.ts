// Apart from the registry, so the SDK's classes take it without loading the declarations (and zod).

/**
 * The type token of a kind's TypeScript dynamic class (sdk/dynamic.ts): pulumi.dynamic's
 * `pulumi-nodejs:dynamic/<module>:<type>` form, with the kind's name as the type.
 */
export function dynamicToken<K extends string>(kind: K): `${typeof DYNAMIC_TOKEN_PREFIX}${K}` {
  return `${DYNAMIC_TOKEN_PREFIX}${kind}`;
}
export const DYNAMIC_TOKEN_PREFIX = "pulumi-nodejs:dynamic/cdc:";
