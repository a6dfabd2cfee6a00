import type { CdcClient } from "../client/index.js";
import type { FoundByName, RecoverContext, Recovered } from "../kinds/spec.js";
import { notOurs } from "../lookup.js";

// What `pulumi-cdc recover` makes of a killed run's create, for the two ways the platform names
// objects: a name unique in the tenant (connectors, tags, pipelines, transforms, Kafka users), or
// a name several objects may share (the agents area). Each kind's rules pick one and say how the
// object is looked up.

/** A value the state holds in plain: a secret (encrypted) or unknown one cannot be looked up. */
export function plainString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export const UNREADABLE = "its inputs are not readable in the state (a secret or an unknown value): check the API for the object and run `pulumi refresh` interactively";

/**
 * A kind whose names are unique: the object of the create's name is what the run made, when it
 * is Pulumi's (`created_from`), for a connector of the program's connector, and not otherwise
 * another object (`differs`: a pipeline of another source).
 */
export async function recoverByName<T extends FoundByName>(
  api: CdcClient,
  context: RecoverContext,
  opts: { noun: string; name: unknown; find: (name: string) => Promise<T | undefined>; connector?: unknown; differs?: (found: T) => string | undefined },
): Promise<Recovered> {
  const name = plainString(opts.name);
  if (name === undefined) return { unsettled: UNREADABLE };
  const found = await opts.find(name);
  if (!found?.id) return { absent: `no ${opts.noun} named "${name}" exists: the create never happened; \`pulumi up\` creates it` };
  const why = notOurs(found, opts.connector === undefined ? {} : { connector: plainString(opts.connector) }, api.createdFrom) ?? opts.differs?.(found);
  if (why !== undefined) return { foreign: `"${name}" exists but is not this create's (${why}): left alone; \`pulumi up\` will report the name as taken` };
  if (context.tracked(found.id)) return { foreign: `"${name}" (${found.id}) is already in the stack under another resource` };
  return { found: found.id, what: `found ${opts.noun} "${name}" (${found.id}): taken into the stack` };
}

/**
 * A kind whose names need not be unique (the agents area): of the objects of the create's name,
 * those Pulumi made that no stack resource tracks and no other create of this recover took, and
 * that match the create's settings (`differs`). One is the run's; several cannot be told apart,
 * and recover names them instead of guessing.
 */
export async function recoverAmongNamed<T extends { created_from?: string | null }>(
  api: CdcClient,
  context: RecoverContext,
  opts: {
    noun: string;
    plural: string;
    name: unknown;
    /** The objects of that name, by id; undefined when the API has no such list. */
    list: (name: string) => Promise<Map<string, T> | undefined>;
    differs?: (found: T) => string | undefined;
  },
): Promise<Recovered> {
  const name = plainString(opts.name);
  if (name === undefined) return { unsettled: UNREADABLE };
  const listed = await opts.list(name);
  if (listed === undefined) return { unsettled: `the API has no list of ${opts.plural} to tell whether "${name}" was created: check the console, and delete it there if it was, before \`pulumi up\`` };
  const candidates = [...listed].filter(
    ([id, found]) => !context.tracked(id) && !context.claimed.has(id) && notOurs(found, {}, api.createdFrom) === undefined && opts.differs?.(found) === undefined,
  );
  if (candidates.length === 0) return { absent: `no ${opts.noun} named "${name}" made by Pulumi is outside the stack: the create never happened; \`pulumi up\` creates it` };
  if (candidates.length > 1) {
    const ids = candidates.map(([id]) => id).join(", ");
    return { unsettled: `${candidates.length} ${opts.plural} named "${name}" made by Pulumi are in no stack (${ids}), and which one this run made cannot be told: delete all but one in the console, then run recover again` };
  }
  const [id] = candidates[0]!;
  context.claimed.add(id);
  return { found: id, what: `found ${opts.noun} "${name}" (${id}), made by Pulumi and in no stack: taken into the stack` };
}
