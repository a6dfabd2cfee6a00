/**
 * The vendor's SMT catalogue (internal/generated/smt_catalog.json, a copy of the platform's own)
 * written as catalogue/smt-data.ts: the wire facts of each type, presentation left out. The
 * comment at the head of smt-data.ts and the `about` fields that are pulumi-cdc's (what, left_out)
 * are kept from the file as it is.
 */

export const SMT_FILE = "internal/generated/smt_catalog.json";

/** The fields of a type that are facts about the wire, in the order smt-data.ts keeps them. */
const TYPE_FIELDS = ["label", "type_id", "schema_version", "codec_version", "description", "data_schema", "secret_paths", "row_keys", "alias_base", "hosts", "kc_class"] as const;

interface VendorSmtCatalogue {
  contract_version: number;
  digest: string;
  types: Array<Record<string, unknown>>;
}

export interface SmtData {
  about: Record<string, unknown>;
  types: Array<Record<string, unknown>>;
}

const DECLARATION = "export const SMT_CATALOGUE = ";

/** The object of smt-data.ts's text (its declaration is JSON up to ` as const`). */
export function readSmtData(text: string): SmtData {
  const at = text.indexOf(DECLARATION);
  const end = text.lastIndexOf(" as const;");
  if (at < 0 || end < 0) throw new Error(`smt-data.ts: no "${DECLARATION}... as const;"`);
  return JSON.parse(text.slice(at + DECLARATION.length, end)) as SmtData;
}

/** smt-data.ts's text for the vendor's catalogue at `commit`, its head comment and pulumi-cdc's about fields kept. */
export function smtDataText(current: string, vendorJson: string, commit: string): string {
  const vendor = JSON.parse(vendorJson) as VendorSmtCatalogue;
  const before = readSmtData(current);
  const types = vendor.types.map((t) => {
    const out: Record<string, unknown> = {};
    for (const field of TYPE_FIELDS) {
      if (!(field in t)) continue;
      // The schema's own description is prose about the vendor's code, not a fact of the wire.
      if (field === "data_schema") {
        const { description: _description, ...schema } = t[field] as Record<string, unknown>;
        out[field] = schema;
      } else out[field] = t[field];
    }
    return out;
  });
  const about = { ...before.about, commit, contract_version: vendor.contract_version, digest: vendor.digest };
  return `${current.slice(0, current.indexOf(DECLARATION))}${DECLARATION}${JSON.stringify({ about, types }, null, 2)} as const;\n`;
}
