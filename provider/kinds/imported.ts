import type { CdcClient } from "../client/index.js";

/**
 * What a kind's declaration says for `pulumi-cdc import` (KindSpec.imported): which objects of a
 * tenant its resources take over, and what a written program sets on each, as inputs of the
 * provider plugin in the schema's names. The values are the program's (references, secrets read
 * from config, JSON); cli/import/ gives each kind the context below and renders the result in
 * TypeScript, YAML and Python, so a kind says only what is its own.
 */

/** Another object: a variable of the program, or (when the program leaves it out) its id and why. */
export type Ref = { ident: string } | { id: string; note: string };

/** A reference as a value (a tag of a source, an agent's LLM connection). */
export class Reference {
  constructor(readonly ref: Ref) {}
}

/** A secret the program reads from config: `config.requireSecret(name)`. */
export class Secret {
  constructor(
    readonly name: string,
    /** What it is, for the README and the printed commands: `source "orders": database.password`. */
    readonly what: string,
  ) {}
}

/** A value of the program: JSON (objects are maps), a secret, or a reference. */
export type Value = string | number | boolean | null | Secret | Reference | Value[] | { [key: string]: Value };

/** What a variable or an id sorts by. */
export function refKey(r: Ref): string {
  return "ident" in r ? r.ident : r.id;
}

/** The tenant as the kinds' rules listed it for an import (ImportLister), by kind name. */
export type TenantObjects = Readonly<Record<string, readonly unknown[]>>;

/** What a kind's rules are given to list its objects for an import. */
export interface ImportListing {
  /** Whether the import writes the kind's objects (`--kind`): if not, what costs a request per object may be left unread. */
  readonly wanted: boolean;
  /** What another kind's rules listed: each kind is listed once, for every kind that needs it. */
  objects(kind: string): Promise<readonly unknown[]>;
  /** Something the API could not show, said to the user. */
  note(text: string): void;
}

/** The rules of a kind an import reads: its objects as the API shows them, secrets masked. */
export interface ImportLister {
  listForImport(api: CdcClient, listing: ImportListing): Promise<unknown[]>;
}

/** An object of the tenant as the selection sees it, and what the kind's `inputs` read. */
export interface ImportedObject<T> {
  id: string;
  name: string;
  /** The tags it carries, for `--tag` (a tag carries itself). */
  tagIds: readonly string[];
  live: T;
  /** An object the program refers to but never takes over (one of the platform's own tags): what its id's comment says. */
  referOnly?: string;
}

/** What the import gives a kind's `inputs` for one object: the rest is the generic writer's. */
export interface ImportContext {
  readonly id: string;
  readonly name: string;
  /** `--raw-config` names the object: its config is written in the platform's keys, not with the typed helper. */
  readonly rawConfig: boolean;
  /** Another object by kind and id: its variable, or its id with why the program leaves it out. */
  ref(kind: string, id: string): Reference;
  /** References in a stable order: the program's variables by name, then ids. */
  refs(kind: string, ids: readonly string[]): Reference[];
  /** The tags of the object, once each, in a stable order; undefined for none (the program leaves its tags alone). */
  tags(ids: readonly string[]): Reference[] | undefined;
  /** A secret the API masks, read from config; `what` is said after the object (`database.password`). */
  secret(setting: string, what: string): Secret;
  /**
   * A secret the import's source holds in plain text (a Terraform state), read from config as
   * `secret` reads one; undefined where the source holds none (the API never shows a secret).
   */
  heldSecret(setting: string, what: string): Secret | undefined;
  /** A catalogued kind's config: only what differs from the catalogue's defaults, masked secrets from config. */
  config(code: string, live: Record<string, unknown>, options: { raw: boolean }): Value;
  /** An object to create first that no input refers to (a topic's source). */
  dependsOn(kind: string, id: string): void;
  /** A comment over the resource, and a line of the import's warnings. */
  note(text: string): void;
  /** A warning of the import that belongs to no resource (an object left out, and why). */
  warn(text: string): void;
}

/** The inputs of one object by the schema's names; unset ones are undefined. Undefined in all: the object is not written. */
export type ImportedInputs = Record<string, Value | undefined>;

/**
 * A kind's part of an import: its objects among what its rules listed (`listed`, with the other
 * kinds' listings for what it takes from them), and each object's inputs. `name` and `adoptId`,
 * where the kind has them, are the import's own: the object's name, and its id. Each declaration
 * types `listed` and `live` as its rules read them; the registry calls them untyped.
 */
export interface KindImport {
  objects(listed: never, tenant: TenantObjects): ImportedObject<unknown>[];
  inputs(live: never, ctx: ImportContext): ImportedInputs | undefined;
}
