import { setTimeout as delay } from "node:timers/promises";
import type { z } from "zod";
import { currentBudget, type CdcClient } from "../client/index.js";
import { pipelineSchema, transformSchema, type LivePipeline, type LiveTransform } from "./schemas.js";

/**
 * Reads of pipelines and transforms that treat a missing object the same way whichever way the
 * API says it: 404, or 200 with an empty `result` (the reference leaves it open, §5.1).
 */

export function getPipeline(api: CdcClient, id: string): Promise<LivePipeline | undefined> {
  return api.findOne("/pipelines/{id}", pipelineSchema, { params: { id }, query: { secret_returned: true } });
}

export function getTransform(api: CdcClient, id: string): Promise<LiveTransform | undefined> {
  return api.findOne("/transforms/{id}", transformSchema, { params: { id }, query: { secret_returned: true, unwind_topics: false } });
}

/** The object of this exact name in a list filtered by `partial_name` (names are unique per tenant and service). */
export async function findByName<S extends z.ZodType>(api: CdcClient, path: string, schema: S, name: string): Promise<z.output<S> | undefined> {
  for await (const item of api.paginate(path, { partial_name: name }, schema)) {
    if ((item as { name?: unknown }).name === name) return item;
  }
  return undefined;
}

/**
 * Waits until a deleted object no longer reads back: with the platform's asynchronous deletes
 * (`wait=false`) it stays visible for a while, and whatever it held (a pipeline holds its source,
 * destination and transforms) cannot be deleted until it is gone. Bounded by the operation's
 * retry budget (cdc:resourceTimeoutSec).
 */
export async function waitUntilGone(what: string, stillThere: () => Promise<boolean>, sleep: (ms: number) => Promise<void> = (ms) => delay(ms)): Promise<void> {
  const budget = currentBudget();
  let wait = 100;
  for (let polls = 1; ; polls++) {
    if (!(await stillThere())) return;
    if (budget && !budget.allows(wait)) {
      throw new Error(`${what} was deleted but still reads back after ${polls} checks over ${(budget.elapsedMs() / 1000).toFixed(1)} s; the API deletes it in the background. Run \`pulumi destroy\` (or \`pulumi up\`) again to finish, or raise cdc:resourceTimeoutSec.`);
    }
    if (!budget && polls >= 100) throw new Error(`${what} was deleted but still reads back after ${polls} checks`);
    await sleep(wait);
    wait = Math.min(wait * 2, 2000);
  }
}
