import * as pulumi from "@pulumi/pulumi";
import { CATALOGUE, type ConnectorKind } from "../catalogue/index.js";
import { looksSecret } from "../provider/normalize.js";
import { pathText } from "../provider/plain-secrets.js";

/**
 * What the dynamic classes (generated/typescript/kinds.ts) take besides plain values, and the converters
 * their property bags call (`(value, args)`, named by the kinds' declarations' `ts.convert`).
 */

/** A config value: a scalar, a list of strings, or a map (objects, for the few map keys). */
export type ConfigValue = string | number | boolean | string[] | { [key: string]: unknown };
export type ConfigInput = pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;

/**
 * Tags on an object: `Tag` resources or tag ids (the platform's own tags, say). Of the `Tag`
 * class, `TagsInput` (sdk/index.ts): the class is generated, and this module comes before it.
 */
export type TagsOf<Tag> = Array<Tag | pulumi.Input<string>> | pulumi.Input<pulumi.Input<string>[]>;

/**
 * The secret keys a program gave in plain, judged before they are wrapped: by each config a
 * connector helper (buildConfig) or protectConfig returned, a promise of those keys. The dynamic
 * classes record them as the resource's PLAIN_SECRETS input (provider/plain-secrets.ts), for
 * policy packs.
 */
const PLAIN_KEYS = new WeakMap<object, Promise<string[]>>();

/** A value is plain unless it is a secret Output; a promise cannot carry secrecy. */
async function isPlain(value: unknown): Promise<boolean> {
  return pulumi.Output.isInstance(value) ? !(await pulumi.isSecret(value as pulumi.Output<unknown>)) : true;
}

/**
 * Records, for the config `wrapped` made of `given`, which of the keys it wraps as secrets were
 * given in plain; with what was recorded of `given` itself (a helper's config passed on).
 */
export function recordPlainKeys(wrapped: object, given: Record<string, unknown>, secretKeys: Iterable<string>): void {
  const judged = [...secretKeys].filter((k) => given[k] !== undefined && given[k] !== null).map(async (k) => ((await isPlain(given[k])) ? [k] : []));
  const before = PLAIN_KEYS.get(given) ?? Promise.resolve([]);
  PLAIN_KEYS.set(wrapped, Promise.all([before, ...judged]).then((lists) => [...new Set(lists.flat())].sort()));
}

/**
 * The PLAIN_SECRETS input of a resource whose config protectConfig returned: the names of the keys
 * given in plain (`config["database.password"]`), or undefined (no input) when there are none.
 */
export function plainSecretsInput(config: unknown): pulumi.Input<string[] | undefined> | undefined {
  const keys = config && typeof config === "object" ? PLAIN_KEYS.get(config) : undefined;
  if (!keys) return undefined;
  return pulumi.output(keys.then((list) => (list.length > 0 ? list.map((k) => pathText(["config", k])) : undefined)));
}

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
    const given = config as Record<string, pulumi.Input<ConfigValue>>;
    const out: Record<string, pulumi.Input<ConfigValue>> = {};
    for (const [key, value] of Object.entries(given)) {
      out[key] = isSecret(key) ? pulumi.secret(value) : value;
    }
    recordPlainKeys(out, given, Object.keys(given).filter(isSecret));
    return out;
  }
  // A config that is itself an Output: its keys are known only later, so protect it whole.
  return pulumi.output(config).apply((c) => (Object.keys(c ?? {}).some(isSecret) ? pulumi.secret(c) : c));
}

/** Tag resources become their ids; ids pass as they are. */
export function tagIds(tags: TagsOf<pulumi.CustomResource>, _args?: object): pulumi.Input<pulumi.Input<string>[]> {
  if (Array.isArray(tags)) return tags.map((t) => (pulumi.CustomResource.isInstance(t) ? t.id : t));
  return tags;
}

/** A resource becomes its id; an id passes as it is. */
export function idOf(r: pulumi.CustomResource | pulumi.Input<string>, _args?: object): pulumi.Input<string> {
  return pulumi.CustomResource.isInstance(r) ? (r.id as pulumi.Output<string>) : (r as pulumi.Input<string>);
}

/** Resources become their ids; ids pass as they are. */
export function idsOf(rs: Array<pulumi.CustomResource | pulumi.Input<string>>, _args?: object): pulumi.Input<string>[] {
  return rs.map((r) => idOf(r));
}

/** A source's config, its secret keys (of its connector, by the catalogue) protected. */
export function sourceConfig(config: ConfigInput, args: { connector: pulumi.Input<string> }): ConfigInput {
  return protectConfig("source", config, args.connector);
}

/** A destination's config, its secret keys (of its connector, by the catalogue) protected. */
export function destinationConfig(config: ConfigInput, args: { connector: pulumi.Input<string> }): ConfigInput {
  return protectConfig("destination", config, args.connector);
}
