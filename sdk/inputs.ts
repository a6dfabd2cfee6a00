import * as pulumi from "@pulumi/pulumi";
import { CATALOGUE, type ConnectorKind } from "../provider/catalogue.js";
import { looksSecret } from "../provider/normalize.js";

export type ConfigValue = string | number | boolean;
export type ConfigInput = pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;

function secretKeysOf(kind: ConnectorKind): Set<string> {
  const keys = new Set<string>();
  for (const spec of Object.values(CATALOGUE[kind])) for (const k of spec.keys) if (k.secret) keys.add(k.key);
  return keys;
}

/**
 * Marks secret config values as Pulumi secrets even when the program passed them in plain, so
 * they are encrypted in state and hidden in previews; each under its own key, so the rest of the
 * config stays readable.
 */
export function protectConfig(kind: ConnectorKind, config: ConfigInput): ConfigInput {
  const secretKeys = secretKeysOf(kind);
  const isSecret = (key: string) => secretKeys.has(key) || looksSecret(key);
  if (config && typeof config === "object" && !pulumi.Output.isInstance(config) && !(config instanceof Promise)) {
    const out: Record<string, pulumi.Input<ConfigValue>> = {};
    for (const [key, value] of Object.entries(config as Record<string, pulumi.Input<ConfigValue>>)) {
      out[key] = isSecret(key) ? pulumi.secret(value) : value;
    }
    return out;
  }
  // A config that is itself an Output: its keys are known only later, so protect it whole.
  return pulumi.output(config).apply((c) => (Object.keys(c ?? {}).some(isSecret) ? pulumi.secret(c) : c));
}

interface ConnectorArgsLike {
  name?: pulumi.Input<string>;
  connector: pulumi.Input<string>;
  config: ConfigInput;
  desiredState?: pulumi.Input<string>;
  adoptId?: pulumi.Input<string>;
}

/**
 * The property bag of a Source or Destination: the inputs (secret config keys protected) and,
 * as undefined, the outputs the provider fills in, so they appear on the resource object.
 */
export function connectorProps(kind: ConnectorKind, logicalName: string, args: ConnectorArgsLike, outputs: readonly string[]): pulumi.Inputs {
  const props: pulumi.Inputs = {
    logicalName,
    name: args.name,
    connector: args.connector,
    config: protectConfig(kind, args.config),
    desiredState: args.desiredState,
    adoptId: args.adoptId,
  };
  for (const key of ["status", "displayName", "createdTimestamp", "drift", ...outputs]) props[key] = undefined;
  return props;
}
