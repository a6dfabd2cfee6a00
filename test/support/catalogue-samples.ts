import * as pulumi from "@pulumi/pulumi";
import { isShown, requiredWhenShown, usesConnect, writeOnlyKeys } from "../../catalogue/api-rules.js";
import type { ConnectorSpec, KeySpec } from "../../catalogue/index.js";

/**
 * Values a test can give each catalogued key: the first allowed value, the lower bound, `true`,
 * a JSON document for JSON keys, two `a.b` entries for include lists (so sources get topics).
 */
export function sampleValue(k: KeySpec): string | number | boolean | string[] | Record<string, unknown> {
  switch (k.type) {
    case "integer":
      return k.min ?? (typeof k.default === "number" ? k.default : 1);
    case "boolean":
      return true;
    case "list":
      return k.itemEnum ? k.itemEnum.slice(0, 2) : ["a", "b"];
    case "map":
      if (k.valueType !== "object") return { "db.orders": "db.orders_dedupe" };
      return { "db.orders": Object.fromEntries((k.valueKeys ?? []).map((f) => [f.key, f.type === "integer" ? (f.min ?? 1) : `value-of-${f.name}`])) };
    case "string":
      if (k.enum) return k.enum[0]!;
      if (k.format === "json") return '{"type":"service_account"}';
      if (/include\.list/.test(k.key)) return "db.first,db.second";
      return k.secret ? `secret-of-${k.name}` : `value-of-${k.name}`;
  }
}

/**
 * A config the platform accepts, by API key, from the given keys: for an API source, also the
 * fields its auth mode then requires (and its grant, where it signs in through Connect), and none
 * of the fields that mode hides. Other connectors' keys are taken as they are.
 */
function accepted(spec: ConnectorSpec, keys: readonly KeySpec[]): Record<string, unknown> {
  const config: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k.key, sampleValue(k)]));
  if (spec.family !== "api") return config;
  const sample = (key: string) => sampleValue(spec.keys.find((k) => k.key === key)!);
  // A required field can show another (a mode picked, a toggle off): a few rounds settle it.
  for (let round = 0; round < 3; round++) {
    for (const c of requiredWhenShown(spec, config)) config[c.field] ??= sample(c.field);
    for (const d of spec.dependencies ?? []) if (config[d.field] !== undefined) for (const p of d.requires) config[p] ??= sample(p);
    if (usesConnect(spec, config)) for (const grant of writeOnlyKeys(spec)) config[grant] ??= sample(grant);
  }
  for (const key of Object.keys(config)) if (!isShown(spec, key, config)) delete config[key];
  return config;
}

const byName = (spec: ConnectorSpec, config: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(config).map(([key, v]) => [spec.keys.find((k) => k.key === key)!.name, v]));

/** The required (and settable) keys of a connector, by helper property name. */
export function requiredArgs(spec: ConnectorSpec): Record<string, unknown> {
  return byName(spec, requiredConfig(spec));
}

/** The same, by API key. */
export function requiredConfig(spec: ConnectorSpec): Record<string, unknown> {
  return accepted(spec, spec.keys.filter((k) => k.required && !k.computed));
}

/** The value inside a Pulumi Output (helpers wrap secrets), outside a Pulumi run. */
export function resolved<T>(value: pulumi.Input<T>): Promise<T> {
  return new Promise((resolve) => pulumi.output(value).apply((v) => resolve(v as T)));
}

/** A helper's config with every Output resolved, as the engine would hand it to the provider. */
export async function resolvedConfig(config: Record<string, pulumi.Input<unknown>>): Promise<Record<string, unknown>> {
  const entries = await Promise.all(Object.entries(config).map(async ([k, v]) => [k, await resolved(v)] as const));
  return Object.fromEntries(entries);
}

/** Whether a config value is a Pulumi secret. */
export async function isSecret(value: unknown): Promise<boolean> {
  return pulumi.Output.isInstance(value) ? Boolean(await (value as unknown as { isSecret: Promise<boolean> }).isSecret) : false;
}

/** Every settable key of a connector (for an API source, every one its first auth mode shows), by helper property name. */
export function allArgs(spec: ConnectorSpec): Record<string, unknown> {
  return byName(spec, allConfig(spec));
}

/** The same, by API key. */
export function allConfig(spec: ConnectorSpec): Record<string, unknown> {
  return accepted(spec, spec.keys.filter((k) => !k.computed));
}
