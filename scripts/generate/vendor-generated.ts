/**
 * Reads one of the vendor provider's generated files (internal/generated/<kind>_<code>.go, written
 * by its tfgen) into catalogue keys: the schema gives each attribute's type, Required, Sensitive,
 * Default, validators (OneOf, Between, AtLeast, AtMost, a list's ValueStringsAre(OneOf)) and
 * RequiresReplace; the FieldMappings give the API key of each attribute, in the order the
 * catalogue keeps. Only what the file states is read: descriptions, plan modifiers other than
 * RequiresReplace and the model struct are not facts about the wire.
 */

export type GoAttributeKind = "StringAttribute" | "Int64Attribute" | "BoolAttribute" | "ListAttribute" | "SetAttribute" | "MapAttribute" | "MapNestedAttribute";

export interface VendorAttribute {
  readonly attribute: string;
  readonly kind: GoAttributeKind;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  readonly json: boolean;
  readonly default?: string | number | boolean;
  readonly enum?: string[];
  readonly itemEnum?: string[];
  readonly min?: number;
  readonly max?: number;
  readonly requiresReplace: boolean;
  readonly nested?: VendorAttribute[];
}

export interface VendorFile {
  /** `source`, `destination` or `transform`, and the code, from the schema function's name and comment. */
  readonly attributes: ReadonlyMap<string, VendorAttribute>;
  /** attribute -> API key, in the file's order. */
  readonly mappings: ReadonlyArray<readonly [string, string]>;
}

/** A catalogue key as the vendor's file states it (the fields of catalogue/index.ts's KeySpec it can give). */
export interface VendorKey {
  key: string;
  name: string;
  type: "string" | "integer" | "boolean" | "list" | "map";
  format?: "json";
  itemType?: "string";
  valueType?: "string" | "object";
  valueKeys?: Array<{ key: string; name: string; type: "string" | "integer"; required: boolean; min?: number }>;
  required: boolean;
  secret: boolean;
  default?: string | number | boolean;
  min?: number;
  max?: number;
  enum?: string[];
  itemEnum?: string[];
  replaceOnChange?: true;
}

// Attributes of every resource that are not connector config.
const NOT_CONFIG = new Set(["id", "name", "connector", "connector_status", "kc_cluster_id", "tags", "timeouts", "created_from", "transform_type", "implementation_json"]);

/** The index just past the brace that closes the one at `open`, skipping Go string literals. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "`") {
      const end = c === "`" ? text.indexOf("`", i + 1) : stringEnd(text, i);
      i = end;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  throw new Error(`unbalanced braces from offset ${open}`);
}

/** The index of the closing quote of the interpreted string literal opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  throw new Error(`unterminated string at offset ${start}`);
}

/** Go's interpreted string literals escape as JSON's do for everything tfgen writes. */
function goString(literal: string): string {
  return JSON.parse(literal) as string;
}

const STRING_LIST = /"(?:[^"\\]|\\.)*"/g;

function strings(args: string): string[] {
  return [...args.matchAll(STRING_LIST)].map((m) => goString(m[0]));
}

/** Top-level `"name": schema.XAttribute{...}` entries of a Go map literal body. */
function entries(body: string): Array<{ name: string; kind: GoAttributeKind; block: string }> {
  const out: Array<{ name: string; kind: GoAttributeKind; block: string }> = [];
  const head = /"([a-z0-9_]+)":\s*schema\.(\w+Attribute)\{/g;
  let m: RegExpExecArray | null;
  while ((m = head.exec(body)) !== null) {
    const open = m.index + m[0].length - 1;
    const end = closing(body, open);
    out.push({ name: m[1]!, kind: m[2] as GoAttributeKind, block: body.slice(open + 1, end - 1) });
    head.lastIndex = end;
  }
  return out;
}

function attribute(name: string, kind: GoAttributeKind, block: string): VendorAttribute {
  // The nested object's own fields must not be read as the attribute's.
  const nestedAt = block.indexOf("NestedObject:");
  let own = block;
  let nested: VendorAttribute[] | undefined;
  if (nestedAt >= 0) {
    const open = block.indexOf("{", nestedAt);
    const end = closing(block, open);
    const inner = block.slice(open + 1, end - 1);
    const attrsAt = inner.indexOf("Attributes:");
    const attrsOpen = inner.indexOf("{", attrsAt);
    nested = entries(inner.slice(attrsOpen + 1, closing(inner, attrsOpen) - 1)).map((e) => attribute(e.name, e.kind, e.block));
    own = block.slice(0, nestedAt) + block.slice(end);
  }
  // Flags are read with string literals blanked: a description may say "Required: true" too.
  const bare = own.replace(STRING_LIST, '""');
  const flag = (field: string) => new RegExp(`\\b${field}:\\s*true\\b`).test(bare);
  const def = /Default:\s*(stringdefault\.StaticString|int64default\.StaticInt64|booldefault\.StaticBool)\((.*)\),?\s*$/m.exec(own);
  let value: string | number | boolean | undefined;
  if (def) {
    const raw = def[2]!.trim();
    value = def[1]!.startsWith("string") ? goString(raw) : def[1]!.startsWith("int64") ? Number(raw) : raw === "true";
  }
  const itemOneOf = /ValueStringsAre\(\s*stringvalidator\.OneOf\(([^)]*)\)\s*\)/.exec(own);
  const withoutItems = itemOneOf ? own.replace(itemOneOf[0], "") : own;
  const oneOf = /stringvalidator\.OneOf\(([^)]*)\)/.exec(withoutItems);
  const between = /int64validator\.Between\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)/.exec(own);
  const atLeast = /int64validator\.AtLeast\(\s*(-?\d+)\s*\)/.exec(own);
  const atMost = /int64validator\.AtMost\(\s*(-?\d+)\s*\)/.exec(own);
  const min = between ? Number(between[1]) : atLeast ? Number(atLeast[1]) : undefined;
  const max = between ? Number(between[2]) : atMost ? Number(atMost[1]) : undefined;
  return {
    attribute: name,
    kind,
    required: flag("Required"),
    optional: flag("Optional"),
    computed: flag("Computed"),
    sensitive: flag("Sensitive"),
    json: /CustomType:\s*jsontypes\./.test(bare),
    ...(value !== undefined ? { default: value } : {}),
    ...(oneOf ? { enum: strings(oneOf[1]!) } : {}),
    ...(itemOneOf ? { itemEnum: strings(itemOneOf[1]!) } : {}),
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    requiresReplace: /planmodifier\.RequiresReplace\(\)/.test(bare),
    ...(nested ? { nested } : {}),
  };
}

/** Parses a generated file's schema attributes and field mappings. */
export function parseVendorFile(text: string): VendorFile {
  const schemaAt = /func \w+Schema\(\) schema\.Schema \{/.exec(text);
  if (!schemaAt) throw new Error("no Schema() function: not a tfgen file of a connector");
  const attrsAt = text.indexOf("Attributes: map[string]schema.Attribute{", schemaAt.index);
  const open = text.indexOf("{", attrsAt + "Attributes: map[string]schema.Attribute".length);
  const body = text.slice(open + 1, closing(text, open) - 1);
  const attributes = new Map(entries(body).map((e) => [e.name, attribute(e.name, e.kind, e.block)] as const));
  const mapAt = /var \w+FieldMappings = map\[string\]string\{/.exec(text);
  if (!mapAt) throw new Error("no FieldMappings map");
  const mapOpen = mapAt.index + mapAt[0].length - 1;
  const mapBody = text.slice(mapOpen + 1, closing(text, mapOpen) - 1);
  const mappings = [...mapBody.matchAll(/^\s*"([a-z0-9_]+)":\s*("(?:[^"\\]|\\.)*"),?\s*$/gm)].map((m) => [m[1]!, goString(m[2]!)] as const);
  return { attributes, mappings };
}

/** lowerCamelCase of a Terraform attribute: the generated helpers' property name. */
export function camel(attribute: string): string {
  return attribute.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

const TYPES: Record<GoAttributeKind, VendorKey["type"]> = {
  StringAttribute: "string",
  Int64Attribute: "integer",
  BoolAttribute: "boolean",
  ListAttribute: "list",
  SetAttribute: "list",
  MapAttribute: "map",
  MapNestedAttribute: "map",
};

/**
 * The catalogue keys of a parsed file, in FieldMappings order, each with its fields in the order
 * the catalogue writes them. A mapped attribute missing from the schema is an error: the file was
 * not read whole. `keep` names attributes that are config of this resource although most resources
 * have them otherwise (a transform's kc_cluster_id).
 */
export function vendorKeys(file: VendorFile, keep: ReadonlySet<string> = new Set()): VendorKey[] {
  return file.mappings
    .filter(([attr]) => keep.has(attr) || !NOT_CONFIG.has(attr))
    .map(([attr, apiKey]) => {
      const a = file.attributes.get(attr);
      if (!a) throw new Error(`FieldMappings names ${attr}, which the schema lacks`);
      const type = TYPES[a.kind];
      const k = { key: apiKey, name: camel(attr), type } as VendorKey;
      if (a.json) k.format = "json";
      if (type === "list") k.itemType = "string";
      if (a.kind === "MapAttribute") k.valueType = "string";
      if (a.kind === "MapNestedAttribute") {
        k.valueType = "object";
        k.valueKeys = (a.nested ?? []).map((n) => ({
          key: n.attribute,
          name: camel(n.attribute),
          type: n.kind === "Int64Attribute" ? ("integer" as const) : ("string" as const),
          required: n.required,
          ...(n.min !== undefined ? { min: n.min } : {}),
        }));
      }
      k.required = a.required;
      k.secret = a.sensitive;
      if (a.default !== undefined) k.default = a.default;
      if (a.min !== undefined) k.min = a.min;
      if (a.max !== undefined) k.max = a.max;
      if (a.enum) k.enum = a.enum;
      if (a.itemEnum) k.itemEnum = a.itemEnum;
      if (a.requiresReplace) k.replaceOnChange = true;
      return k;
    });
}

/** `destination_s3.go` -> `{kind: "destination", code: "s3"}`. */
export function fileConnector(fileName: string): { kind: "source" | "destination" | "transform"; code: string } | undefined {
  const m = /^(source|destination|transform)_(.+)\.go$/.exec(fileName);
  return m ? { kind: m[1] as "source" | "destination" | "transform", code: m[2]! } : undefined;
}

/** The name the schema's description gives the connector: `Manages a Snowflake destination connector.` -> `Snowflake`. */
export function displayNameOf(text: string): string | undefined {
  return /Description:\s*"Manages an? (.+?) (?:API )?(?:source|destination|transform) connector\b/.exec(text)?.[1];
}
