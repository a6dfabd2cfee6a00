import schemaData = require("../../catalogue/terraform-schema.json");
import { CATALOGUE, type CatalogueKind, type ConnectorSpec, type KeySpec } from "../../catalogue/index.js";
import type { KindTerraform, TerraformAttributes } from "../kinds/terraform.js";
import { MASK } from "../normalize.js";
import { DECLARATIONS, type KindName } from "../kinds/index.js";

/**
 * What each resource type of the vendor's Terraform provider, and each of its attributes,
 * becomes in pulumi-cdc: derived from the kinds' declarations (KindSpec.terraform) and the
 * catalogue (each connector's `terraformResource`, each key's `name`, the lowerCamelCase of the
 * vendor's attribute), with the deprecated aliases the provider's schema names
 * (catalogue/terraform-schema.json, `Use '<new>' instead`). Nothing here names a kind or type.
 */

export interface TerraformType {
  type: string;
  /** The kind: one a program adopts (its declaration says how it is imported). */
  kind: KindName;
  terraform: KindTerraform;
  /** A catalogued kind's connector or transform type. */
  spec?: ConnectorSpec;
  /** The config key that holds the object's name, where the kind has one (a transform's `transforms.name`). */
  nameKey?: string;
}

/** What one attribute of a type becomes. */
export type AttributeMapping =
  | { to: "kind"; what: string }
  | { to: "config"; key: KeySpec }
  /** A deprecated alias of another attribute: read when that one is unset. */
  | { to: "alias"; of: string; key: KeySpec }
  | { to: "dropped"; why: string };

interface SchemaAttribute {
  sensitive?: boolean;
  deprecated?: string | boolean;
}
const SCHEMA = schemaData as unknown as {
  about: { commit: string; release: string; later?: { commit: string; types: string[] } };
  resources: Record<string, { attributes: Record<string, SchemaAttribute>; blocks?: string[] }>;
  /** The v2 attributes the vendor's migration guide renames (to their v3 name) or removes, per type. */
  v2?: { from: string; renames: Record<string, Record<string, string>>; removed: Record<string, string[]> };
};

/** The committed schema of the vendor's provider (its beta.24 build): every type and attribute the mapping must cover. */
export const PROVIDER_SCHEMA = SCHEMA;

let types: ReadonlyMap<string, TerraformType> | undefined;

/** Every resource type pulumi-cdc maps, by name. */
export function terraformTypes(): ReadonlyMap<string, TerraformType> {
  if (types) return types;
  const out = new Map<string, TerraformType>();
  for (const declaration of DECLARATIONS) {
    const kind = declaration.name;
    const terraform = "terraform" in declaration ? (declaration.terraform as KindTerraform) : undefined;
    if (!terraform) continue;
    if (!("imported" in declaration)) throw new Error(`${kind} declares terraform but no import of its objects (KindSpec.imported)`);
    for (const type of terraform.types ?? []) out.set(type, { type, kind, terraform });
    const catalogue = "catalogue" in declaration ? (declaration.catalogue as { kind: CatalogueKind; nameKey?: string }) : undefined;
    if (catalogue) {
      for (const spec of Object.values(CATALOGUE[catalogue.kind])) {
        if (spec.terraformResource) out.set(spec.terraformResource, { type: spec.terraformResource, kind, terraform, spec, ...(catalogue.nameKey ? { nameKey: catalogue.nameKey } : {}) });
      }
    }
  }
  types = out;
  return out;
}

/** `database_hostname` → `databaseHostname`: the catalogue's name of the key the attribute sets. */
export function attributeName(attribute: string): string {
  return attribute.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The attribute a deprecated one stands for, as the provider's schema says (`DEPRECATED: Use
 * 'format' instead.`), or a v2 one the migration guide renames: a v2 state may still hold it.
 */
function aliasOf(type: string, attribute: string): string | undefined {
  const deprecated = SCHEMA.resources[type]?.attributes[attribute]?.deprecated;
  return (typeof deprecated === "string" ? /Use '([a-z0-9_]+)'/.exec(deprecated)?.[1] : undefined) ?? SCHEMA.v2?.renames[type]?.[attribute];
}

/** The key a connector's attribute sets, by the catalogue's name of it. */
function configKey(spec: ConnectorSpec, attribute: string): KeySpec | undefined {
  const name = attributeName(attribute);
  return spec.keys.find((k) => k.name === name);
}

/** The removed key an attribute names: its dots as underscores, without `.user.defined`, and the vendor's `streamkap_` prefix optional. */
function removedKey(spec: ConnectorSpec, attribute: string): string | undefined {
  return spec.removedKeys?.find((k) => {
    const flat = k.replace(/\.user\.defined$/, "").replace(/\./g, "_").toLowerCase();
    return flat === attribute || flat === `streamkap_${attribute}`;
  });
}

/** What `attribute` of `t` becomes; undefined when nothing maps it (reported, never dropped silently). */
export function mapAttribute(t: TerraformType, attribute: string): AttributeMapping | undefined {
  const own = t.terraform.attributes[attribute];
  if (own !== undefined) return { to: "kind", what: own };
  const dropped = t.terraform.dropped?.[attribute];
  if (dropped !== undefined) return { to: "dropped", why: dropped };
  if (!t.spec) return undefined;
  const key = configKey(t.spec, attribute);
  if (key) return { to: "config", key };
  const of = aliasOf(t.type, attribute);
  const target = of ? configKey(t.spec, of) : undefined;
  if (of && target) return { to: "alias", of, key: target };
  // A key the platform dropped in a newer version (the catalogue's removedKeys), set by the attribute or by what it is an alias of: the state may still hold it.
  const removed = removedKey(t.spec, attribute) ?? (of ? removedKey(t.spec, of) : undefined);
  if (removed) return { to: "dropped", why: `the platform dropped ${removed} in a newer version: an object no longer uses it` };
  if (SCHEMA.v2?.removed[t.type]?.includes(attribute)) return { to: "dropped", why: "a v2 attribute that v3 removed with no replacement (the vendor's migration guide): an object no longer uses it" };
  return undefined;
}

/** What one instance of a state reads as: the object for the kind's import, its secrets, what was not carried. */
export interface MappedInstance {
  id: string;
  live: unknown;
  /** Secret values by the platform's key (a config key), or by what the kind's import names its own. */
  secrets: Map<string, string>;
  /** Attributes set in the state that pulumi-cdc does not carry, each with why. */
  dropped: { attribute: string; why: string }[];
  /** Attributes set in the state that nothing maps. */
  unmapped: string[];
}

/**
 * A value in its key's type: v2 held some attributes in another type than v3 (the migration
 * guide's "Attribute types": `ssh_port` "22" → 22, MySQL's `snapshot_gtid` true → "Yes", a
 * number → its string). Anything else as it is.
 */
export function asKeyType(key: KeySpec, value: unknown): unknown {
  if (key.type === "integer" && typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value);
  if (key.type === "string" && typeof value === "number") return String(value);
  if (key.type === "string" && typeof value === "boolean" && key.enum?.includes("Yes") && key.enum.includes("No")) return value ? "Yes" : "No";
  return value;
}

const isSet = (v: unknown) => v !== null && v !== undefined && !(typeof v === "string" && v === "") && !(Array.isArray(v) && v.length === 0);

/** Reads one instance of a mapped type; undefined when it names no object (no id). */
export function mapInstance(t: TerraformType, attributes: TerraformAttributes): MappedInstance | undefined {
  const config: Record<string, unknown> = {};
  const secrets = new Map<string, string>();
  const dropped: MappedInstance["dropped"] = [];
  const unmapped: string[] = [];
  const aliases: { attribute: string; key: KeySpec }[] = [];
  const set = (key: KeySpec, given: unknown) => {
    const value = asKeyType(key, given);
    if (key.secret && typeof value === "string") {
      secrets.set(key.key, value);
      config[key.key] = MASK;
    } else config[key.key] = value;
  };
  for (const [attribute, value] of Object.entries(attributes)) {
    const m = mapAttribute(t, attribute);
    if (!m) {
      if (isSet(value)) unmapped.push(attribute);
      continue;
    }
    if (m.to === "config" && isSet(value)) set(m.key, value);
    else if (m.to === "alias" && isSet(value)) aliases.push({ attribute, key: m.key });
    else if (m.to === "dropped" && isSet(value) && !/^Terraform's own/.test(m.why)) dropped.push({ attribute, why: m.why });
  }
  // An alias counts only where the attribute it stands for is unset (the provider's own rule).
  for (const { attribute, key } of aliases) if (!(key.key in config)) set(key, attributes[attribute]);
  // The API keeps the name in the config too; the provider sends it from `name`.
  if (t.nameKey && typeof attributes.name === "string") config[t.nameKey] = attributes.name;
  // The resource type says what the state may leave unset (a transform's computed type).
  const code = t.spec?.code;
  const withCode = code ? { ...attributes, connector: attributes.connector ?? code, transform_type: attributes.transform_type ?? code } : attributes;
  const read = t.terraform.live(withCode, config);
  if (!read) return undefined;
  for (const [what, value] of Object.entries(read.secrets ?? {})) secrets.set(what, value);
  return { id: read.id, live: read.live, secrets, dropped, unmapped };
}
