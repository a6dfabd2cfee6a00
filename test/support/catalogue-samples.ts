import * as pulumi from "@pulumi/pulumi";
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

/** The required (and settable) keys of a connector, by helper property name. */
export function requiredArgs(spec: ConnectorSpec): Record<string, unknown> {
  return Object.fromEntries(spec.keys.filter((k) => k.required && !k.computed).map((k) => [k.name, sampleValue(k)]));
}

/** The same, by API key. */
export function requiredConfig(spec: ConnectorSpec): Record<string, unknown> {
  return Object.fromEntries(spec.keys.filter((k) => k.required && !k.computed).map((k) => [k.key, sampleValue(k)]));
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

/** Every settable key of a connector, by helper property name. */
export function allArgs(spec: ConnectorSpec): Record<string, unknown> {
  return Object.fromEntries(spec.keys.filter((k) => !k.computed).map((k) => [k.name, sampleValue(k)]));
}
