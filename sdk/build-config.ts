import * as pulumi from "@pulumi/pulumi";
import { findConnector, type CatalogueKind } from "../catalogue/index.js";
import { recordPlainKeys, type ConfigValue } from "./inputs.js";

/** What a connector helper returns: spread it into `Source` or `Destination` args. */
export interface ConnectorConfig<C extends string = string> {
  connector: C;
  config: Record<string, pulumi.Input<ConfigValue>>;
}

/** What a transform helper returns: the transform type and its config, in the API's keys. */
export interface TransformConfig<T extends string = string> {
  transform: T;
  config: Record<string, pulumi.Input<ConfigValue>>;
}

/** Helper property → API config key, for one connector or transform type. */
export type KeyMap = Readonly<Record<string, string>>;

/**
 * A generated helper's arguments as a config in the API's keys. Unset properties stay unset, so
 * the platform's defaults stay the platform's (and never cause a diff); secret keys are made
 * Pulumi secrets even when given in plain.
 */
export function buildConfig(kind: CatalogueKind, code: string, keys: KeyMap, args: object): Record<string, pulumi.Input<ConfigValue>> {
  const spec = findConnector(kind, code);
  const config: Record<string, pulumi.Input<ConfigValue>> = {};
  const given: Record<string, unknown> = {};
  const secrets: string[] = [];
  for (const [property, value] of Object.entries(args)) {
    // null is "unset" on the wire as well: nothing to send.
    if (value === undefined || value === null) continue;
    const key = Object.prototype.hasOwnProperty.call(keys, property) ? keys[property] : undefined;
    if (key === undefined) {
      // Only a JavaScript caller (or a cast) gets here; TypeScript rejects the property.
      throw new Error(`${code} ${kind}: "${property}" is not a setting of this ${kind}; pass unknown keys in a raw config map instead`);
    }
    const secret = spec?.keys.some((k) => k.key === key && k.secret) ?? false;
    given[key] = value;
    if (secret) secrets.push(key);
    config[key] = secret ? pulumi.secret(value as pulumi.Input<ConfigValue>) : (value as pulumi.Input<ConfigValue>);
  }
  // Which secret keys came in plain, judged before they are wrapped (for policy packs).
  recordPlainKeys(config, given, secrets);
  return config;
}
