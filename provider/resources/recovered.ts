import type { CdcClient } from "../client/index.js";
import type { FoundByName, RecoverContext, Recovered } from "../kinds/spec.js";
import type { z } from "zod";
import { namedObjects, notOurs } from "../lookup.js";
import { autonameBase } from "./naming.js";

// What `pulumi-cdc recover` makes of a killed run's create, for the two ways the platform names
// objects: a name unique in the tenant (connectors, tags, pipelines, transforms, Kafka users), or
// a name several objects may share (the agents area). Each kind's rules pick one and say how its
// objects are listed.

/** A value the state holds in plain: a secret (encrypted) or unknown one cannot be looked up. */
export function plainString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export const UNREADABLE = "its inputs are not readable in the state (a secret or an unknown value): check the API for the object and run `pulumi refresh` interactively";

/** An object as recover lists it: its id, name and who made it. */
export type Listed = FoundByName & { name?: string | null };

/**
 * The names a create could have given its object. A pending create's inputs hold the name it
 * sent. A create planned by `pulumi preview` (the run had skipped checkpoints) holds a fresh
 * autoname, not the killed run's: any `<logical name>-<8 hex>` may be that one.
 */
function nameTest(name: string, context: RecoverContext): { exact: string } | { autoname: RegExp; base: string } {
  const base = autonameBase(context.logicalName);
  const autoname = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-[0-9a-f]{8}$`);
  return context.planned && autoname.test(name) ? { autoname, base } : { exact: name };
}

/**
 * A kind whose names are unique: the object of the create's name is what the run made, when it
 * is Pulumi's (`created_from`), for a connector of the program's connector, and not otherwise
 * another object (`differs`: a pipeline of another source). An autoname of a run that recorded
 * nothing is looked for among the objects named like it.
 */
export async function recoverByName<T extends Listed>(
  api: CdcClient,
  context: RecoverContext,
  opts: {
    /** The kind's declaration: how messages name its objects. */
    kind: { noun: string; plural: string };
    name: unknown;
    /** The objects whose names contain `partial` (the API's filter; exact names are picked here). */
    list: (partial: string) => Promise<T[]>;
    connector?: unknown;
    differs?: (found: T) => string | undefined;
  },
): Promise<Recovered> {
  const name = plainString(opts.name);
  if (name === undefined) return { unsettled: UNREADABLE };
  const why = (found: T) => notOurs(found, opts.connector === undefined ? {} : { connector: plainString(opts.connector) }, api.createdFrom) ?? opts.differs?.(found);
  const test = nameTest(name, context);
  if ("autoname" in test) {
    const candidates = (await opts.list(test.base)).filter((o) => typeof o.name === "string" && test.autoname.test(o.name) && o.id && !context.tracked(o.id) && !context.claimed.has(o.id) && why(o) === undefined);
    return oneOf(candidates.map((o) => [o.id!, o.name!] as const), `${test.base}-<8 hex>`, opts.kind, context);
  }
  const found = (await opts.list(name)).find((o) => o.name === name);
  if (!found?.id) return { absent: `no ${opts.kind.noun} named "${name}" exists: the create never happened; \`pulumi up\` creates it` };
  const not = why(found);
  if (not !== undefined) return { foreign: `"${name}" exists but is not this create's (${not}): left alone; \`pulumi up\` will report the name as taken` };
  if (context.tracked(found.id)) return { foreign: `"${name}" (${found.id}) is already in the stack under another resource` };
  return { found: found.id, what: `found ${opts.kind.noun} "${name}" (${found.id}): taken into the stack` };
}

/**
 * A kind whose names need not be unique (the agents area): of the objects of the create's name,
 * those Pulumi made that no stack resource tracks and no other create of this recover took, and
 * that match the create's settings (`differs`). One is the run's; several cannot be told apart,
 * and recover names them instead of guessing.
 */
export async function recoverAmongNamed<S extends z.ZodType<{ created_from?: string | null; name?: string | null }>>(
  api: CdcClient,
  context: RecoverContext,
  opts: NamedList<S> & {
    /** The kind's declaration: how messages name its objects. */
    kind: { noun: string; plural: string };
    name: unknown;
    differs?: (found: z.output<S>) => string | undefined;
  },
): Promise<Recovered> {
  const name = plainString(opts.name);
  if (name === undefined) return { unsettled: UNREADABLE };
  const test = nameTest(name, context);
  const listed = await namedObjects(api, opts.listPath, opts.schema, opts.idOf, "exact" in test ? test.exact : (n) => test.autoname.test(n));
  if (listed === undefined) return { unsettled: `the API has no list of ${opts.kind.plural} to tell whether "${name}" was created: check the console, and delete it there if it was, before \`pulumi up\`` };
  const candidates = [...listed].filter(
    ([id, found]) => !context.tracked(id) && !context.claimed.has(id) && notOurs(found, {}, api.createdFrom) === undefined && opts.differs?.(found) === undefined,
  );
  return oneOf(candidates.map(([id, found]) => [id, found.name ?? name] as const), "exact" in test ? name : `${test.base}-<8 hex>`, opts.kind, context);
}

/** Where a kind of the agents area lists its objects, and its objects' ids: what a create after a lost answer and recover both read. */
export interface NamedList<S extends z.ZodType> {
  listPath: string;
  schema: S;
  idOf: (item: z.output<S>) => string;
}

/** One candidate is the run's object; none means the create never happened; several cannot be told apart. */
function oneOf(candidates: ReadonlyArray<readonly [string, string]>, named: string, opts: { noun: string; plural: string }, context: RecoverContext): Recovered {
  if (candidates.length === 0) return { absent: `no ${opts.noun} named "${named}" made by Pulumi is outside the stack: the create never happened; \`pulumi up\` creates it` };
  if (candidates.length > 1) {
    const ids = candidates.map(([id, n]) => `${n} ${id}`).join(", ");
    return { unsettled: `${candidates.length} ${opts.plural} named "${named}" made by Pulumi are in no stack (${ids}), and which one this run made cannot be told: delete all but one in the console, then run recover again` };
  }
  const [id, name] = candidates[0]!;
  context.claimed.add(id);
  return { found: id, what: `found ${opts.noun} "${name}" (${id}), made by Pulumi and in no stack: taken into the stack` };
}
