import type { PropertySpec } from "./spec.js";

/**
 * The outputs a kind declares as echoes of the API's object (`from`), read off `live`: each its
 * field's value, or the declared value when the API leaves the field out. Every kind's rules spread
 * them into their outputs, so an echoed output is an edit of the declaration alone: declared once,
 * computed nowhere else, and in the schema and every SDK after `npm run generate`.
 */
export function liveOutputs(kind: { outputs: readonly PropertySpec[] }, live: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(kind.outputs.flatMap((p) => (p.from ? [[p.name, live[p.from.field] ?? p.from.absent]] : [])));
}
