import { DECLARATIONS, type Declaration } from "../../provider/kinds/index.js";

/**
 * The kinds `pulumi-cdc import` reads, as their declarations say (provider/kinds/): the command
 * line's parser (cli/import/args.ts) needs them, and model.ts re-exports them.
 */

type Imported = Extract<Declaration, { imported: object }>;

/** The kinds a written program adopts (a client credential only where the source holds its secret). */
export type Kind = Imported["name"];

const IMPORTED = (DECLARATIONS.filter((d) => "imported" in d) as Imported[]).sort((a, b) => a.imported.order - b.imported.order);

/** The order of declaration: what a kind refers to is declared before it. */
export const KIND_ORDER: readonly Kind[] = IMPORTED.map((d) => d.name);

/** The kinds `--kind` takes, by their command-line spelling. */
export const KIND_NAMES: Readonly<Record<string, Imported["name"]>> = Object.fromEntries(IMPORTED.map((d) => [d.imported.flag, d.name]));

/** Each kind's declaration: its nouns, the suffix of its identifiers, what an import writes of its objects. */
export const IMPORTED_KINDS = Object.fromEntries(IMPORTED.map((d) => [d.name, d])) as unknown as { readonly [K in Imported["name"]]: Extract<Imported, { name: K }> };

/** A topic is written into the program only when it has another count than this, or tags. */
export { PLATFORM_TOPIC_PARTITIONS } from "../../provider/kinds/topic.js";
