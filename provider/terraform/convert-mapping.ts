import { KINDS, type PropertySpec } from "../kinds/index.js";
import { typedKindFor } from "../typed/kinds.js";
import { mapAttribute, PROVIDER_SCHEMA, terraformTypes, type TerraformType } from "./mapping.js";

/**
 * The mapping `pulumi convert --from terraform` asks the installed resource plugins for
 * (GetMapping with key "terraform", provider "streamkap"): the vendor's Terraform provider as the
 * Terraform bridge's converter reads it (its `MarshallableProviderInfo` JSON: the provider's
 * schema in the bridge's shim form, and per resource type its Pulumi token and the Pulumi name of
 * each attribute). Derived from the same mapping `pulumi-cdc import --from-terraform` uses
 * (mapping.ts) and the committed schema of the vendor's provider; nothing here names a type.
 */

/** The Terraform provider whose programs convert to pulumi-cdc ones. */
export const TERRAFORM_PROVIDER = "streamkap";

/** The bridge's shim value types (pkg/tfshim ValueType), as its JSON numbers them. */
const SHIM = { bool: 1, int: 2, float: 3, string: 4, list: 5, map: 6, set: 7 } as const;

interface ShimSchema {
  type: number;
  optional?: boolean;
  required?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: string;
  element?: { schema?: ShimSchema; resource?: Record<string, ShimSchema> };
}

/** A `terraform providers schema -json` type as the committed schema writes it. */
type SchemaType = string | [string, unknown] | { nested: string; attributes: string[] };

interface SchemaAttribute {
  type?: SchemaType;
  optional?: boolean;
  required?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: string | boolean;
}

function shimType(type: SchemaType | undefined): ShimSchema {
  if (type === undefined || type === "string" || type === "dynamic") return { type: SHIM.string };
  if (type === "bool") return { type: SHIM.bool };
  if (type === "number") return { type: SHIM.float };
  if (Array.isArray(type)) {
    const [outer, inner] = type;
    if (outer === "object") {
      const fields = inner as Record<string, SchemaType>;
      return { type: SHIM.map, element: { resource: Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, { ...shimType(t), optional: true }])) } };
    }
    const collection = outer === "set" ? SHIM.set : outer === "map" ? SHIM.map : SHIM.list;
    return { type: collection, element: { schema: shimType(inner as SchemaType) } };
  }
  if (typeof type === "object") {
    // A nested attribute: the committed schema keeps only its attributes' names (types are the bridge's guess, strings).
    const resource = Object.fromEntries(type.attributes.map((a) => [a, { type: SHIM.string, optional: true }]));
    return type.nested === "single" ? { type: SHIM.map, element: { resource } } : { type: type.nested === "set" ? SHIM.set : SHIM.list, element: { resource } };
  }
  return { type: SHIM.string };
}

function shimAttribute(a: SchemaAttribute): ShimSchema {
  return {
    ...shimType(a.type),
    ...(a.optional ? { optional: true } : {}),
    ...(a.required ? { required: true } : {}),
    ...(a.computed ? { computed: true } : {}),
    ...(a.sensitive ? { sensitive: true } : {}),
    ...(typeof a.deprecated === "string" ? { deprecated: a.deprecated } : {}),
  };
}

/** The resource a type converts to: its token and input properties (a catalogued connector's typed resource). */
function target(t: TerraformType): { token: string; inputs: readonly PropertySpec[] } {
  const typed = t.spec ? typedKindFor(t.spec.kind, t.spec.code) : undefined;
  if (typed) return { token: typed.token, inputs: typed.inputs };
  const kind = KINDS[t.kind];
  return { token: kind.token, inputs: kind.inputs };
}

/**
 * The property an attribute sets, where the mapping names one the resource has: a config key's
 * typed property (the catalogue's `name`), or what the kind's declaration says the attribute
 * becomes (its first word: `source (a reference to the adopted source) ...`).
 */
function propertyOf(t: TerraformType, attribute: string, inputs: ReadonlySet<string>): string | undefined {
  const m = mapAttribute(t, attribute);
  if (!m) return undefined;
  const name = m.to === "config" || m.to === "alias" ? m.key.name : m.to === "kind" ? /^[a-z][A-Za-z0-9]*/.exec(m.what)?.[0] : undefined;
  return name !== undefined && inputs.has(name) ? name : undefined;
}

/** The bridge's JSON for the vendor's provider, at pulumi-cdc's `version`. */
export function terraformConvertMapping(version: string): object {
  const shimResources: Record<string, Record<string, ShimSchema>> = {};
  const resources: Record<string, { tok: string; fields: Record<string, { name: string }> }> = {};
  const schema = PROVIDER_SCHEMA.resources as Record<string, { attributes: Record<string, SchemaAttribute> }>;
  for (const [type, t] of [...terraformTypes()].sort(([a], [b]) => a.localeCompare(b))) {
    const attributes = schema[type]?.attributes ?? {};
    const { token, inputs } = target(t);
    const names = new Set(inputs.map((p) => p.name));
    const fields: Record<string, { name: string }> = {};
    // Only what a program sets is named here. `id` stays the resource's id (the kinds read it as
    // adoptId, which an import sets, not a program), and a computed-only attribute is only ever
    // read, so the bridge's own naming (its lowerCamelCase, an output's name) serves references to it.
    for (const attribute of Object.keys(attributes).filter((a) => a !== "id" && (attributes[a]!.optional || attributes[a]!.required))) {
      const name = propertyOf(t, attribute, names);
      if (name !== undefined) fields[attribute] = { name };
    }
    shimResources[type] = Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, shimAttribute(a)]));
    resources[type] = { tok: token, fields };
  }
  return { name: TERRAFORM_PROVIDER, version, provider: { schema: {}, resources: shimResources }, resources };
}
