import type { CdcResource, KeySpec } from "pulumi-cdc/policy-support";

/** How a message names a resource: `source "orders" (cdc:sources:Postgresql)`. */
export function resourceText(res: CdcResource, name: string, type: string): string {
  return `${res.noun} "${name}" (${type})`;
}

/** How a message names a connector key as the resource's program sets it: a typed resource's property, or `config["<key>"]`. */
export function keyText(res: CdcResource, key: KeySpec): string {
  return res.typed ? `${key.name} (the platform's "${key.key}")` : `config["${key.key}"]`;
}

/** A config key's value as the connector will have it: the program's, or the catalogue's default. */
export function effective(res: CdcResource, key: KeySpec): { value: unknown; defaulted: boolean } {
  const config = (res.props.config ?? {}) as Record<string, unknown>;
  const set = config[key.key];
  return set === undefined || set === null ? { value: key.default, defaulted: true } : { value: set, defaulted: false };
}
