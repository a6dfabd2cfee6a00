import * as pulumi from "@pulumi/pulumi";
import { CATALOGUE, type ConnectorKind } from "../catalogue/index.js";
import { looksSecret } from "../provider/normalize.js";
import type { Tag } from "./tag.js";

/** A config value: a scalar, a list of strings, or a map (objects, for the few map keys). */
export type ConfigValue = string | number | boolean | string[] | { [key: string]: unknown };
export type ConfigInput = pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;

/** Tags on a source or destination: `Tag` resources or tag ids (the platform's own tags, say). */
export type TagsInput = Array<Tag | pulumi.Input<string>> | pulumi.Input<pulumi.Input<string>[]>;

function secretKeysOf(kind: ConnectorKind, connector: pulumi.Input<string>): Set<string> {
  // The connector may be known only later (an Output): then every connector's secret keys count.
  const specs = typeof connector === "string" && CATALOGUE[kind][connector] ? [CATALOGUE[kind][connector]!] : Object.values(CATALOGUE[kind]);
  const keys = new Set<string>();
  for (const spec of specs) for (const k of spec.keys) if (k.secret) keys.add(k.key);
  return keys;
}

/**
 * Marks secret config values as Pulumi secrets even when the program passed them in plain, so
 * they are encrypted in state and hidden in previews; each under its own key, so the rest of the
 * config stays readable.
 */
export function protectConfig(kind: ConnectorKind, config: ConfigInput, connector: pulumi.Input<string> = ""): ConfigInput {
  const secretKeys = secretKeysOf(kind, connector);
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

/** Tag resources become their ids; ids pass as they are. */
export function tagIds(tags: TagsInput | undefined): pulumi.Input<pulumi.Input<string>[]> | undefined {
  if (tags === undefined) return undefined;
  if (Array.isArray(tags)) return tags.map((t) => (pulumi.CustomResource.isInstance(t) ? t.id : t));
  return tags;
}

interface ConnectorArgsLike {
  name?: pulumi.Input<string>;
  connector: pulumi.Input<string>;
  config: ConfigInput;
  desiredState?: pulumi.Input<string>;
  adoptId?: pulumi.Input<string>;
  tags?: TagsInput;
}

/**
 * The property bag of a Source or Destination: the inputs (secret config keys protected) and,
 * as undefined, the outputs the provider fills in, so they appear on the resource object.
 */
export function connectorProps(kind: ConnectorKind, logicalName: string, args: ConnectorArgsLike | undefined, outputs: readonly string[]): pulumi.Inputs {
  // No args: a `get()`, which reads the object by id and sets nothing.
  const props: pulumi.Inputs = !args ? { logicalName } : {
    logicalName,
    name: args.name,
    connector: args.connector,
    config: protectConfig(kind, args.config, args.connector),
    desiredState: args.desiredState,
    adoptId: args.adoptId,
    tags: tagIds(args.tags),
  };
  for (const key of ["name", "connector", "config", "desiredState", "tags", "status", "displayName", "createdTimestamp", "drift", ...outputs]) {
    if (!(key in props)) props[key] = undefined;
  }
  return props;
}
