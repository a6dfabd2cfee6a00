import { SMT_TYPES, SMT_TYPE_IDS, type SmtField } from "../../catalogue/smt.js";
import type { ObjectTypeSpec, PropertySpec, TypeSpec } from "./spec.js";

/**
 * The entry object type of `DestinationSmtChain` (provider/kinds/destinationSmtChain.ts) is drawn from the SMT catalogue (catalogue/smt-data.ts), one property per field
 * of any type, each saying which types take it, so a new catalogued field reaches the schema
 * and every generated SDK without an edit here.
 */

const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");

function fieldType(field: SmtField): TypeSpec {
  return field.type === "array" ? { arrayOf: "string" } : field.type;
}

function fieldDescription(field: SmtField): string {
  const takers = SMT_TYPES.filter((t) => t.fields.some((f) => f.name === field.name));
  const required = takers.filter((t) => t.fields.find((f) => f.name === field.name)?.required).map((t) => t.typeId);
  const parts = [
    `${field.title} (\`${field.key}\`), of ${list(takers.map((t) => t.typeId))}${required.length > 0 ? `; required by ${list(required)}` : ""}.`,
    field.enum ? `One of ${list(field.enum)}.` : "",
    field.default !== undefined && !field.secret ? `Default \`${JSON.stringify(field.default)}\`.` : "",
    field.itemPattern ? "Each entry a field name without commas." : "",
    field.secret
      ? "A secret, write-only at the API: sent once as a secret operation, never read back; the stack keeps a keyed digest, and changing it re-sends it. `pulumi import` writes `********`, which keeps the one the platform holds."
      : "",
  ];
  return parts.filter(Boolean).join(" ");
}

/** Every field of every type, once by name (a name shared by types is one property). */
const FIELDS: SmtField[] = [...new Map(SMT_TYPES.flatMap((t) => t.fields).map((f) => [f.name, f])).values()];

export const SMT_TRANSFORM_TYPE: ObjectTypeSpec = {
  token: "cdc:index:SmtTransform",
  description: `One single message transform of a destination's chain: its type from the platform's SMT catalogue (${list(SMT_TYPE_IDS)}) and that type's fields; a field of another type is refused before any API call.`,
  properties: [
    {
      name: "type",
      type: "string",
      required: true,
      description: `The transform's type, one of ${list(SMT_TYPE_IDS)}: ${SMT_TYPES.map((t) => `${t.typeId}, ${t.description.toLowerCase()}`).join("; ")}.`,
    },
    { name: "name", type: "string", required: true, description: "The transform's name, unique in the chain: Pulumi tells the entries apart by it (a renamed entry is a new instance)." },
    { name: "enabled", type: "boolean", description: "Whether the connector runs it. Default `true`." },
    ...FIELDS.map((f): PropertySpec => ({ name: f.name, type: fieldType(f), ...(f.secret ? { secret: true } : {}), description: fieldDescription(f) })),
  ],
};
