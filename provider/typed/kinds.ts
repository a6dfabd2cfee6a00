import { helperName } from "../../catalogue/helpers.js";
import { CATALOGUE, KINDS as CATALOGUE_KINDS, type CatalogueKind, type ConnectorSpec, type KeySpec } from "../../catalogue/index.js";
import { DECLARATIONS, type CatalogueKindName, type KindSpec, type PropertySpec, type TypeSpec } from "../kinds/index.js";

/**
 * The typed resources of the plugin's schema, as data generated from the catalogue: one per
 * catalogued source, destination and transform type (`cdc:sources:Postgresql`,
 * `cdc:destinations:Snowflake`, `cdc:transforms:MapFilter`). Each is its generic kind (Source,
 * Destination, Transform) with `connector`/`transform` fixed and `config` spread into typed
 * properties named as the TypeScript helpers name them (the catalogue's `name`). The plugin serves
 * them with the generic kind's core (provider/served.ts maps the properties, with the functions of
 * provider/typed/props.ts); scripts/generate/schema.ts renders them. Like kinds.ts, it imports no
 * third-party module.
 */

export type TypedModule = "sources" | "destinations" | "transforms";
export type TypedToken = `cdc:${TypedModule}:${string}`;
/** The kinds whose objects are the catalogue's: a typed resource is one of them. */
export type GenericKind = CatalogueKindName;

/** A connector key as a typed property. */
export interface TypedProperty {
  /** The property's name: the catalogue's `name`, the TypeScript helper's property. */
  name: string;
  /** The key in the platform's config. */
  key: string;
  spec: KeySpec;
  /** The property's schema spec (its type may refer to an enum or object type of TYPED_TYPES). */
  property: PropertySpec;
}

export interface TypedKind {
  token: TypedToken;
  /** The generic kind whose core serves it. */
  kind: GenericKind;
  catalogueKind: CatalogueKind;
  /** Its catalogue entry. */
  spec: ConnectorSpec;
  /** The connector (or transform type) code it fixes. */
  code: string;
  /** The generic kind's property that holds the code: `connector`, or `transform`. */
  codeProperty: "connector" | "transform";
  description: string;
  /** The connector's settable keys as properties, in catalogue order. */
  properties: TypedProperty[];
  /**
   * Keys a common input carries instead of a typed property (a transform's `transforms.name` is
   * its `name`): key → input. The core fills them in from the input.
   */
  carried: Readonly<Record<string, string>>;
  inputs: PropertySpec[];
  outputs: PropertySpec[];
}

export interface EnumValueSpec {
  /** The value's identifier in the SDKs, a PascalCase name (`Base64UrlSafe` for `base64-url-safe`). */
  name: string;
  value: string;
}

/** A named type of a typed resource: the allowed values of a key, or the object values of a map key. */
export type TypedTypeSpec =
  | { token: TypedToken; description: string; enum: EnumValueSpec[] }
  | { token: TypedToken; description: string; properties: PropertySpec[]; keys: Readonly<Record<string, string>> };

/**
 * Outputs of the typed kinds the schema does not declare: the digests that stand for secret
 * values (outputs never carry a secret, and a secret property has no output of its own), by
 * property name.
 */
export const SECRET_DIGESTS = "secretDigests";

/** The kind of each part of the catalogue (Source, Destination, Transform), from the registry. */
const GENERIC = Object.fromEntries(
  DECLARATIONS.flatMap((d) => ((d as KindSpec).catalogue ? [[(d as KindSpec).catalogue!.kind, d as KindSpec<GenericKind>]] : [])),
) as Record<CatalogueKind, KindSpec<GenericKind> & { catalogue: NonNullable<KindSpec["catalogue"]> }>;

const upperFirst = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;

/** `Postgresql`, `KafkaDirect`, `MapFilter`: the resource's name, the TypeScript helper's without its kind. */
export function typedName(spec: ConnectorSpec): string {
  return upperFirst(helperName(spec).slice(0, -GENERIC[spec.kind].name.length));
}

export function typedToken(spec: ConnectorSpec): TypedToken {
  return `cdc:${GENERIC[spec.kind].catalogue.module}:${typedName(spec)}`;
}

/**
 * An enum value's identifier: its words in PascalCase (`At Least Once` → `AtLeastOnce`,
 * `us-east-1` → `UsEast1`, `TRUNCATE` → `Truncate`, `JavaScript` as it is), prefixed `Value`
 * when it would start with a digit (`10000` → `Value10000`).
 */
export function enumValueName(value: string): string {
  const words = value.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const name = words.map((w) => (w === w.toUpperCase() ? upperFirst(w.toLowerCase()) : upperFirst(w))).join("");
  if (name === "") return "Empty";
  return /^[0-9]/.test(name) ? `Value${name}` : name;
}

const code = (s: string | number | boolean) => `\`${typeof s === "string" ? s : String(s)}\``;

function keyDescription(k: KeySpec, spec: ConnectorSpec): string {
  const facts: string[] = [`The platform's \`${k.key}\`.`];
  if (k.required) facts.push("Required.");
  if (k.enum) facts.push(`One of ${k.enum.map((v) => code(v)).join(", ")}.`);
  if (k.type === "integer") {
    const range =
      k.min !== undefined && k.max !== undefined ? `A whole number from ${k.min} to ${k.max}`
      : k.min !== undefined ? `A whole number of at least ${k.min}`
      : k.max !== undefined ? `A whole number of at most ${k.max}`
      : "A whole number";
    facts.push(k.rangeSource ? `${range} (${k.rangeWhy ?? "a value"}; this range is pulumi-cdc's, the platform publishes none).` : `${range}.`);
  }
  if (k.type === "list") facts.push("A list of strings.");
  if (k.format === "json") facts.push("A JSON document, as a string.");
  if (k.type === "map") facts.push(k.valueType === "object" ? "A map of objects, by name." : "A map of strings.");
  if (k.default !== undefined) facts.push(k.default === "" ? "Default: empty." : `Default ${code(k.default)}.`);
  else if (!k.required) facts.push("Unset: the platform's default.");
  if (k.secret) facts.push("A secret: encrypted in the stack, masked by the API, and not among the outputs.");
  if (k.replaceOnChange) facts.push(`Changing it replaces the ${spec.kind}.`);
  return facts.join(" ");
}

/** The generic `name`'s description, less its mention of the config a typed kind does not have. */
function typedNameDescription(description: string): string {
  return description.replace("; the same as config `transforms.name`, which it fills in", " (the platform's `transforms.name`)");
}


/** Property names the SDKs reserve or generate themselves (`id`, `urn`; Python's constructor parameters; Go's ElementType()). */
const RESERVED = new Set(["id", "urn", "pulumi", "opts", "resourceName", "elementType", SECRET_DIGESTS]);

function build(): { kinds: Record<TypedToken, TypedKind>; types: Record<TypedToken, TypedTypeSpec> } {
  const kinds: Record<TypedToken, TypedKind> = {};
  const types: Record<TypedToken, TypedTypeSpec> = {};
  const addType = (t: TypedTypeSpec) => {
    if (types[t.token] || kinds[t.token]) throw new Error(`typed schema: ${t.token} is defined twice`);
    types[t.token] = t;
  };
  for (const catalogueKind of CATALOGUE_KINDS) {
    for (const spec of Object.values(CATALOGUE[catalogueKind]).sort((a, b) => a.code.localeCompare(b.code))) {
      const generic = GENERIC[catalogueKind];
      const kind = generic.name;
      const { codeProperty, module } = generic.catalogue;
      /** Inputs of the generic kind that a typed kind does not have: the code is the token's, the config its properties. */
      const replaced = [codeProperty, "config"];
      const name = typedName(spec);
      const token = typedToken(spec);
      if (kinds[token] || types[token]) throw new Error(`typed schema: ${token} is defined twice (${spec.code})`);
      const typedCommon = (p: PropertySpec): PropertySpec => (p.name === "name" ? { ...p, description: typedNameDescription(p.description) } : p);
      const common = generic.inputs.filter((p) => !replaced.includes(p.name)).map(typedCommon);
      const commonOutputs = generic.outputs.filter((p) => !replaced.includes(p.name)).map(typedCommon);
      const taken = new Set([...generic.inputs, ...generic.outputs].map((p) => p.name));
      const carried: Record<string, string> = {};
      const properties: TypedProperty[] = [];
      for (const k of spec.keys) {
        if (k.computed) continue;
        if (taken.has(k.name)) {
          // The key that holds the object's name (a transform's `transforms.name`): the input carries it. Any other clash is a catalogue to fix.
          const nameKey = "nameKey" in generic.catalogue ? generic.catalogue.nameKey : undefined;
          if (!common.some((p) => p.name === k.name) || k.key !== nameKey) throw new Error(`typed schema: ${spec.kind} ${spec.code}: key ${k.key} is named ${k.name}, as a common property is`);
          carried[k.key] = k.name;
          continue;
        }
        if (RESERVED.has(k.name) || !/^[a-z][A-Za-z0-9]*$/.test(k.name)) throw new Error(`typed schema: ${spec.kind} ${spec.code}: ${k.name} is not a usable property name`);
        if (upperFirst(k.name) === name) throw new Error(`typed schema: ${token}: property ${k.name} has the resource's own name (C# forbids it)`);
        const typeToken = `cdc:${module}:${name}${upperFirst(k.name)}` as TypedToken;
        let type: TypeSpec;
        switch (k.type) {
          case "string":
            if (k.enum) {
              const values = k.enum.map((value) => ({ name: enumValueName(value), value }));
              const seen = new Set<string>();
              for (const v of values) {
                const folded = v.name.toLowerCase();
                if (seen.has(folded)) throw new Error(`typed schema: ${typeToken}: two values are named ${v.name}`);
                seen.add(folded);
              }
              addType({ token: typeToken, description: `The allowed values of the ${spec.displayName} ${spec.kind}'s \`${k.name}\` (\`${k.key}\`).`, enum: values });
              type = { ref: typeToken };
            } else type = "string";
            break;
          case "integer":
          case "boolean":
            type = k.type;
            break;
          case "list":
            type = { arrayOf: "string" };
            break;
          case "map":
            if (k.valueType === "object") {
              const entry = `${typeToken}Entry` as TypedToken;
              addType({
                token: entry,
                description: `One entry of the ${spec.displayName} ${spec.kind}'s \`${k.name}\` (\`${k.key}\`).`,
                properties: (k.valueKeys ?? []).map((vk) => ({
                  name: vk.name,
                  type: vk.type,
                  ...(vk.required ? { required: true } : {}),
                  description: `The platform's \`${vk.key}\`.${vk.required ? " Required." : ""}${vk.type === "integer" ? (vk.min !== undefined ? ` A whole number of at least ${vk.min}.` : " A whole number.") : ""}`,
                })),
                keys: Object.fromEntries((k.valueKeys ?? []).map((vk) => [vk.name, vk.key])),
              });
              type = { mapOf: { ref: entry } };
            } else type = { mapOf: "string" };
            break;
        }
        properties.push({
          name: k.name,
          key: k.key,
          spec: k,
          property: {
            name: k.name,
            type,
            ...(k.required ? { required: true } : {}),
            ...(k.secret ? { secret: true } : {}),
            ...(k.replaceOnChange ? { replaceOnChange: true } : {}),
            description: keyDescription(k, spec),
          },
        });
      }
      const what = `${spec.displayName} ${spec.kind}`;
      kinds[token] = {
        token,
        kind,
        catalogueKind,
        spec,
        code: spec.code,
        codeProperty,
        description:
          `A ${what} (${codeProperty === "transform" ? "transform type" : "connector"} \`${spec.code}\`), its settings as typed properties named as the TypeScript helper \`${helperName(spec)}\` names them: ` +
          `a \`${generic.token}\` with \`${codeProperty}\` \`${spec.code}\`, served by the same provider (the same checks before any API call, diff, drift detection in a plain \`pulumi preview\`, retries and recovery).`,
        properties,
        carried,
        inputs: [...common, ...properties.map((p) => p.property)],
        outputs: [
          ...commonOutputs,
          // Secret values never come back: the outputs keep a digest of them, undeclared.
          ...properties.filter((p) => !p.spec.secret).map(({ property: { required: _r, replaceOnChange: _c, ...p } }) => p),
        ],
      };
    }
  }
  return { kinds, types };
}

const BUILT = build();

/** Every typed resource, by token. */
export const TYPED_KINDS: Readonly<Record<TypedToken, TypedKind>> = BUILT.kinds;

/** The enum and object types the typed resources use, by token. */
export const TYPED_TYPES: Readonly<Record<TypedToken, TypedTypeSpec>> = BUILT.types;

/** The typed resource of a type token, if it is one. */
export function typedKindOf(token: string): TypedKind | undefined {
  return Object.prototype.hasOwnProperty.call(TYPED_KINDS, token) ? TYPED_KINDS[token as TypedToken] : undefined;
}

/** The typed resource of a catalogued connector or transform type. */
export function typedKindFor(kind: CatalogueKind, code: string): TypedKind | undefined {
  return Object.values(TYPED_KINDS).find((t) => t.catalogueKind === kind && t.code === code);
}
