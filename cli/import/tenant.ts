import type { CdcClient } from "../../provider/client/index.js";
import { DECLARATIONS, type DeclarationOf } from "../../provider/kinds/index.js";
import type { ImportLister } from "../../provider/kinds/imported.js";
import type { Kind } from "./kinds.js";

/** The kinds an import reads. */
const READ = DECLARATIONS.filter((d) => "imported" in d);

/** What a kind's rules list for an import (their `listForImport`). */
type Listed<K extends Kind> = Awaited<ReturnType<DeclarationOf<K>["rules"]>> extends { listForImport(...args: never[]): Promise<infer T> } ? T : never;

/**
 * Everything `pulumi-cdc import` reads of a tenant: each kind's objects as its rules list them,
 * in the API's order, and what could not be read, said for the user (an API without the agents
 * area's lists, say).
 */
export type Tenant = { [K in Kind]: Listed<K> } & { notes: string[] };

/**
 * Reads the whole tenant, each kind by its own rules, each once however many kinds need it (a
 * topic destination needs the sources and destinations). Secrets come back masked, as the API
 * always answers them. `kinds`: those the import writes, for the rules to skip what costs a
 * request per object when it is not wanted. The first error fails the read: a partial tenant
 * would make a program that leaves objects out without saying so.
 */
export async function readTenant(api: CdcClient, options: { kinds?: ReadonlySet<string> }): Promise<Tenant> {
  const reads = new Map<string, Promise<readonly unknown[]>>();
  const notes = new Map<string, string[]>();
  const objects = (kind: string): Promise<readonly unknown[]> => {
    let read = reads.get(kind);
    if (!read) {
      const declaration = READ.find((d) => d.name === kind);
      if (!declaration) throw new Error(`an import reads no ${kind}`);
      const listing = { wanted: !options.kinds || options.kinds.has(kind), objects, note: (text: string) => void notes.set(kind, [...(notes.get(kind) ?? []), text]) };
      read = declaration.rules().then((rules) => (rules as ImportLister).listForImport(api, listing));
      reads.set(kind, read);
    }
    return read;
  };
  const listed = await Promise.all(READ.map((d) => objects(d.name)));
  // The notes in the registry's order, whichever kind's reading ended first.
  return { ...Object.fromEntries(READ.map((d, i) => [d.name, listed[i]])), notes: READ.flatMap((d) => notes.get(d.name) ?? []) } as Tenant;
}
