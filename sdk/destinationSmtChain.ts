import * as pulumi from "@pulumi/pulumi";
import { SMT_CATALOGUE } from "../catalogue/smt-data.js";
import { findSmtType } from "../catalogue/smt.js";

/** What the `DestinationSmtChain` class (generated/typescript/kinds.ts) takes beyond its declaration: its entries' types, and their secrets. */

// The entry types below are derived from the SMT catalogue itself (catalogue/smt-data.ts): a
// type, field, enum value or default it adds reaches programs with no edit here.
type Catalogued = (typeof SMT_CATALOGUE.types)[number];
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type FieldValue<P> = P extends { type: "array" } ? string[] : P extends { type: "boolean" } ? boolean : P extends { enum: readonly (infer E)[] } ? E : string;
type Properties<T extends Catalogued> = T["data_schema"]["properties"];
type RequiredKey<T extends Catalogued> = T["data_schema"]["required"][number];
type Fields<T extends Catalogued, Wrap> = {
  [K in keyof Properties<T> & string as K extends RequiredKey<T> ? CamelCase<K> : never]: Wrap extends "input" ? pulumi.Input<FieldValue<Properties<T>[K]>> : FieldValue<Properties<T>[K]>;
} & {
  [K in keyof Properties<T> & string as K extends RequiredKey<T> ? never : CamelCase<K>]?: Wrap extends "input" ? pulumi.Input<FieldValue<Properties<T>[K]>> : FieldValue<Properties<T>[K]>;
};

/** The SMT types a chain can hold: `regex_router`, `mask_field`, `drop_fields`. */
export type SmtType = Catalogued["type_id"];

/**
 * One transform of a chain: its catalogue type, a name unique in the chain, `enabled` (default
 * true), and that type's fields. `mask_field`'s `maskSalt` is a secret: wrapped in
 * `pulumi.secret` here, sent once, never read back.
 */
export type SmtTransformArgs = {
  [T in Catalogued as T["type_id"]]: { type: T["type_id"]; name: pulumi.Input<string>; enabled?: pulumi.Input<boolean> } & Fields<T, "input">;
}[SmtType];

/** A transform as the resource's outputs hold it: every field with its value or default, secrets left out. */
export type SmtTransform = {
  [T in Catalogued as T["type_id"]]: { type: T["type_id"]; name: string; enabled: boolean } & Fields<T, "output">;
}[SmtType];

/** An entry with its secret fields (by the catalogue) as Pulumi secrets, so state holds them encrypted. */
function entryWithSecrets(entry: SmtTransformArgs): SmtTransformArgs {
  const out: Record<string, unknown> = { ...entry };
  for (const field of findSmtType(entry.type)?.fields ?? []) if (field.secret && out[field.name] !== undefined) out[field.name] = pulumi.secret(out[field.name] as string);
  return out as SmtTransformArgs;
}

/**
 * Each entry's secrets marked before registration. Entries given as plain objects keep every
 * other field in the clear, so a preview still names what changes; an entry or list that is an
 * output is marked as it resolves, which makes that output secret as a whole.
 */
export function smtSecrets(transforms: pulumi.Input<pulumi.Input<SmtTransformArgs>[]>, _args?: object): pulumi.Input<pulumi.Input<SmtTransformArgs>[]> {
  const plain = (entry: pulumi.Input<SmtTransformArgs>): entry is SmtTransformArgs => !pulumi.Output.isInstance(entry) && !(entry instanceof Promise);
  const one = (entry: pulumi.Input<SmtTransformArgs>) => (plain(entry) ? entryWithSecrets(entry) : pulumi.output(entry).apply((e) => entryWithSecrets(e as SmtTransformArgs)));
  if (Array.isArray(transforms)) return transforms.map(one) as pulumi.Input<SmtTransformArgs>[];
  return pulumi.output(transforms).apply((entries) => entries.map((e) => entryWithSecrets(e as SmtTransformArgs))) as pulumi.Input<pulumi.Input<SmtTransformArgs>[]>;
}
