/**
 * What a kind's declaration says for `pulumi-cdc import --from-terraform` (KindSpec.terraform):
 * which resource types of the vendor's Terraform provider hold its objects, and what each of
 * their attributes becomes in the object the kind's import reads (KindSpec.imported), so that a
 * Terraform state is one more source of the same program. A catalogued kind's types and config
 * attributes are the catalogue's (each connector's `terraformResource`, each key's `name`); its
 * declaration names only the attributes every type of it shares.
 */

/** One instance of a resource in a Terraform state: its attributes, as the state holds them. */
export type TerraformAttributes = Readonly<Record<string, unknown>>;

export interface KindTerraform {
  /** The vendor's resource types of the kind; a catalogued kind's come from the catalogue. */
  readonly types?: readonly string[];
  /** The attributes the kind reads, each with what it becomes (the migration guide's table says so). */
  readonly attributes: Readonly<Record<string, string>>;
  /** Attributes pulumi-cdc does not carry over, each with why: said for each instance that sets one. */
  readonly dropped?: Readonly<Record<string, string>>;
  /**
   * The object as the kind's import lists it, from one instance's attributes. `config`: a
   * catalogued kind's config in the platform's keys, read from its attributes through the
   * catalogue (secrets masked). `secrets`: the values of the kind's own secrets the state holds
   * (what the API never shows), by what the kind's import names them. Undefined: the instance
   * names no object (no id).
   */
  live(attributes: TerraformAttributes, config: Record<string, unknown>): { id: string; live: unknown; secrets?: Readonly<Record<string, string>> } | undefined;
}

/** A string attribute, or undefined. */
export function tfString(attributes: TerraformAttributes, name: string): string | undefined {
  const v = attributes[name];
  return typeof v === "string" ? v : undefined;
}

/** A set or list of strings, or []. */
export function tfStrings(attributes: TerraformAttributes, name: string): string[] {
  const v = attributes[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}
