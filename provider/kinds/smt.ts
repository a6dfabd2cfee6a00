import { SMT_TYPES, SMT_TYPE_IDS, type SmtField } from "../../catalogue/smt.js";
import type { KindSpec, ObjectTypeSpec, PropertySpec, TypeSpec } from "./spec.js";

/**
 * The plugin's view of `DestinationSmtChain` (provider/resources/destinationSmtChain.ts): its
 * entry object type is drawn from the SMT catalogue (catalogue/smt-data.ts), one property per field
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

const inputs: PropertySpec[] = [
  {
    name: "destination",
    type: "string",
    required: true,
    replaceOnChange: true,
    description: "The id of the destination whose chain this is (a `Destination`'s id). Changing it replaces the resource: the old destination's chain is emptied.",
  },
  {
    name: "transforms",
    type: { arrayOf: { object: "cdc:index:SmtTransform" } },
    required: true,
    description: "The destination's user chain, in the order the connector runs it; `[]` for none. The platform's own managed transforms are not part of it.",
  },
];

export const SMT_CHAIN_KIND: KindSpec = {
  token: "cdc:index:DestinationSmtChain",
  description:
    "The chain of single message transforms (SMTs) of a destination, written through the chain endpoint only, never the connector's config, so it works the same for every destination connector. " +
    "Writes are guarded by the chain's revision; a chain edited in the console shows in a plain `pulumi preview`, entry and field named. Destroy empties the chain. Import id: the destination's id.",
  inputs,
  outputs: [
    ...inputs.map(({ replaceOnChange: _r, ...p }) => p),
    { name: "chainRevision", type: "string", required: true, description: "The chain's revision after Pulumi's last write or read: what the next write expects." },
    { name: "applicationStatus", type: "string", required: true, description: "Whether the connector runs the saved chain yet: `pending`, `applying`, `applied` or `failed`." },
    { name: "instanceIds", type: { arrayOf: "string" }, required: true, description: "The platform's id of each transform's instance, in order." },
  ],
};
