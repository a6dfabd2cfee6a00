import type { z } from "zod";
import type { CdcClient } from "../client/index.js";
import { namedObjects, notOurs } from "../lookup.js";
import { createSurvivingFaults } from "./create.js";

/**
 * A create in the agents area, where names need not be unique: the objects of this name are
 * listed first, so that after a lost answer the new one (made by IaC, matching `same`) is the
 * create's result; the same recovery as for connectors, keyed by "new since" instead of "the
 * one of this name".
 */
export async function createNamed<S extends z.ZodType>(opts: {
  api: CdcClient;
  what: string;
  listPath: string;
  schema: S;
  idOf: (item: z.output<S>) => string;
  name: string;
  send: () => Promise<z.output<S>>;
  /** Why a new object of this name is not this create's (other settings), or undefined. */
  differs?: (found: z.output<S>) => string | undefined;
}): Promise<z.output<S>> {
  const { api, what, listPath, schema, idOf, name } = opts;
  const before = await namedObjects(api, listPath, schema, idOf, name);
  return createSurvivingFaults<z.output<S>>({
    what,
    send: opts.send,
    find: async () => {
      if (before === undefined) {
        throw new Error(
          `${what}: the create's answer was lost and the API has no list of these to tell whether it was created; ` +
            `check for an object named "${name}" before running \`pulumi up\` again`,
        );
      }
      const now = (await namedObjects(api, listPath, schema, idOf, name)) ?? new Map();
      return [...now].find(([id]) => !before.has(id))?.[1];
    },
    mismatch: (found) => notOurs(found as { created_from?: string | null }, {}, api.createdFrom) ?? opts.differs?.(found),
    policy: api.retryPolicy,
  });
}
