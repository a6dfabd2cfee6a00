import { SMT_CATALOGUE as data } from "./smt-data.js";

/**
 * The catalogue of single message transforms (smt-data.ts beside this file, the platform's
 * own catalogue as its Terraform provider pins it), typed. The SDK's entry types, the provider's
 * checks, the plugin's schema and the emulator's validation read it, so none can disagree on a
 * field. It imports nothing, so the schema generator can run it from its own compiled copy.
 */

export type SmtFieldType = "string" | "boolean" | "array";

export interface SmtField {
  /** The config key as the API spells it (`fields_include`). */
  readonly key: string;
  /** lowerCamelCase: the property of a chain entry in a program (`fieldsInclude`). */
  readonly name: string;
  readonly title: string;
  readonly type: SmtFieldType;
  readonly required: boolean;
  /** Write-only: travels only as a `secret_operations` entry, never in `config`, never read back. */
  readonly secret: boolean;
  readonly default?: string | boolean;
  readonly enum?: readonly string[];
  /** Arrays: the pattern each item must match. */
  readonly itemPattern?: string;
}

export interface SmtType {
  /** `regex_router`, `mask_field`, `drop_fields`. */
  readonly typeId: string;
  readonly label: string;
  readonly description: string;
  /** The base of the alias the platform gives an instance (`MaskField1`). */
  readonly aliasBase: string;
  readonly schemaVersion: number;
  readonly codecVersion: number;
  readonly fields: readonly SmtField[];
}

export interface SmtOrigin {
  readonly source: string;
  readonly file: string;
  readonly commit: string;
}

export const SMT_ORIGIN: SmtOrigin = { source: data.about.source, file: data.about.file, commit: data.about.commit };

interface RawProperty {
  title: string;
  type: string;
  default?: unknown;
  enum?: readonly string[];
  writeOnly?: boolean;
  items?: { pattern?: string; type: string };
}

/** `fields_include` → `fieldsInclude`. */
export function camelName(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export const SMT_TYPES: readonly SmtType[] = data.types.map((t): SmtType => {
  const properties = t.data_schema.properties as unknown as Record<string, RawProperty>;
  const required = new Set<string>(t.data_schema.required);
  const secrets = new Set<string>((t.secret_paths as readonly string[]).map((p) => p.slice(1)));
  return {
    typeId: t.type_id,
    label: t.label,
    description: t.description,
    aliasBase: t.alias_base,
    schemaVersion: t.schema_version,
    codecVersion: t.codec_version,
    fields: Object.entries(properties).map(([key, p]): SmtField => ({
      key,
      name: camelName(key),
      title: p.title,
      type: p.type as SmtFieldType,
      required: required.has(key),
      secret: secrets.has(key) || p.writeOnly === true,
      ...(p.default !== undefined ? { default: p.default as string | boolean } : {}),
      ...(p.enum ? { enum: p.enum } : {}),
      ...(p.items?.pattern ? { itemPattern: p.items.pattern } : {}),
    })),
  };
});

export const SMT_TYPE_IDS: readonly string[] = SMT_TYPES.map((t) => t.typeId);

export function findSmtType(typeId: string): SmtType | undefined {
  return SMT_TYPES.find((t) => t.typeId === typeId);
}

/** The JSON pointer of a secret field, as `secret_operations` and `configured_secret_paths` name it. */
export function secretPointer(field: SmtField): string {
  return `/${field.key}`;
}

/** One problem with a config, in the platform's words: its issue code and message, and the key it is about. */
export interface SmtConfigIssue {
  key: string;
  /** Below the key: an item's index. */
  index?: number;
  code: string;
  message: string;
}

/**
 * What is wrong with a chain entry's wire config for its type: missing required keys, unknown
 * keys, a secret carried in the config (it must travel as a secret operation), wrong types,
 * values outside the enum, list items against their pattern. [] when nothing is.
 */
export function smtConfigIssues(type: SmtType, config: Record<string, unknown>): SmtConfigIssue[] {
  const issues: SmtConfigIssue[] = [];
  for (const field of type.fields) {
    if (field.required && (config[field.key] === undefined || config[field.key] === null)) {
      issues.push({ key: field.key, code: "smt_config_missing", message: "Field required" });
    }
  }
  for (const [key, value] of Object.entries(config)) {
    const field = type.fields.find((f) => f.key === key);
    if (!field) {
      issues.push({ key, code: "smt_config_extra_forbidden", message: "Extra inputs are not permitted" });
      continue;
    }
    if (value === undefined || value === null) continue;
    if (field.secret) {
      issues.push({ key, code: "smt_config_secret_in_config", message: "Secret leaves are never carried in config; send them as secret_operations" });
      continue;
    }
    if (field.type === "array") {
      if (!Array.isArray(value)) {
        issues.push({ key, code: "smt_config_list_type", message: "Input should be a valid list" });
        continue;
      }
      value.forEach((item, index) => {
        if (typeof item !== "string") issues.push({ key, index, code: "smt_config_string_type", message: "Input should be a valid string" });
        else if (field.itemPattern && !new RegExp(field.itemPattern).test(item)) {
          issues.push({ key, index, code: "smt_config_string_pattern_mismatch", message: `String should match pattern '${field.itemPattern}'` });
        }
      });
      continue;
    }
    if (field.type === "boolean" && typeof value !== "boolean") {
      issues.push({ key, code: "smt_config_bool_type", message: "Input should be a valid boolean" });
      continue;
    }
    if (field.type === "string") {
      if (typeof value !== "string") issues.push({ key, code: "smt_config_string_type", message: "Input should be a valid string" });
      else if (field.enum && !field.enum.includes(value)) {
        issues.push({ key, code: "smt_config_enum", message: `Input should be ${field.enum.map((v) => `'${v}'`).join(", ")}` });
      }
    }
  }
  return issues;
}

/** A config with every declared default filled in and secret leaves left out: what the platform stores and reads back. */
export function materializedConfig(type: SmtType, config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fields) {
    if (field.secret) continue;
    const value = config[field.key];
    if (value !== undefined && value !== null) out[field.key] = value;
    else if (field.default !== undefined) out[field.key] = field.default;
    else if (field.type === "array" && !field.required) out[field.key] = [];
  }
  return out;
}
