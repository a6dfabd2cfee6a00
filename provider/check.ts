import { z } from "zod";
import { findConnector, type ConnectorKind } from "./catalogue.js";
import { isUnknown, toApiString } from "./normalize.js";

/** One problem with a resource's inputs, named by its property path, as Pulumi shows it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** zod issues as Pulumi check failures: the property path and a sentence that says the fix. */
export function failuresFromZod(error: z.ZodError, prefix = ""): CheckFailure[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p)));
    const property = [prefix, ...path].filter(Boolean).join(".").replace(/\.\[/g, "[");
    return { property: property || "(inputs)", reason: issue.message };
  });
}

/** A string input that may also be unknown during preview (it is checked again when known). */
export const knowable = <T extends z.ZodType>(schema: T) => z.union([z.literal("04da6b54-80e4-46f7-96ec-b56ff0331ba9"), schema]);

const NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9 _.-]*$/;

export const nameSchema = z
  .string({ error: "must be a string" })
  .min(1, { error: "must not be empty: set a name, or leave it unset to get an autonamed one" })
  .max(255, { error: "must be at most 255 characters" })
  .regex(NAME_RULE, { error: "may hold letters, digits, spaces, '_', '.', '-', and must start with a letter or digit" });

export const configScalar = z.union([z.string(), z.number(), z.boolean()], {
  error: "config values must be strings, numbers or booleans",
});

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * Validates a connector config against the catalogue, when the catalogue knows the connector:
 * required keys, unknown keys (with the closest known key), integer, boolean and enum values.
 * Unknown connectors pass: the API is the judge of those.
 */
export function checkConnectorConfig(kind: ConnectorKind, connector: string, config: Record<string, unknown>): CheckFailure[] {
  if (isUnknown(connector)) return [];
  const spec = findConnector(kind, connector);
  if (!spec) return [];
  const failures: CheckFailure[] = [];
  const known = new Map(spec.keys.map((k) => [k.key, k]));
  for (const key of spec.keys) {
    if (key.required && config[key.key] === undefined) {
      failures.push({
        property: `config["${key.key}"]`,
        reason: `is required by the ${connector} ${kind} connector (${key.description}): add it to config`,
      });
    }
  }
  for (const [key, value] of Object.entries(config)) {
    const spec = known.get(key);
    if (!spec) {
      const closest = [...known.keys()].map((k) => [k, levenshtein(k, key)] as const).sort((a, b) => a[1] - b[1])[0];
      const hint = closest && closest[1] <= 3 ? `did you mean "${closest[0]}"?` : `known keys: ${[...known.keys()].join(", ")}`;
      failures.push({ property: `config["${key}"]`, reason: `is not a key of the ${connector} ${kind} connector: ${hint}` });
      continue;
    }
    if (isUnknown(value)) continue;
    const text = toApiString(value);
    if (spec.type === "integer") {
      const n = Number(text);
      if (!/^-?\d+$/.test(text.trim()) || (spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        const range = spec.min !== undefined || spec.max !== undefined ? ` between ${spec.min ?? "-∞"} and ${spec.max ?? "∞"}` : "";
        failures.push({ property: `config["${key}"]`, reason: `must be a whole number${range}, got "${text}"` });
      }
    } else if (spec.type === "boolean" && text !== "true" && text !== "false") {
      failures.push({ property: `config["${key}"]`, reason: `must be true or false, got "${text}"` });
    } else if (spec.type === "enum" && spec.values && !spec.values.includes(text)) {
      failures.push({ property: `config["${key}"]`, reason: `must be one of ${spec.values.join(", ")}; got "${text}"` });
    }
  }
  return failures;
}
