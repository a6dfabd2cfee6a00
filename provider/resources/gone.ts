import { setTimeout as delay } from "node:timers/promises";
import { ConflictError, currentBudget, isNotFound } from "../client/index.js";

/**
 * The call's result, or undefined when the object is gone (a 404): for reads that report a
 * deletion, and for deletes, where already gone is what was wanted.
 */
export async function unlessGone<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** How long a delete waits for the pipelines that still use its object to go. */
export const RELEASE_WAIT_MS = 60_000;

/**
 * Sends a delete again while the API refuses it because a pipeline still uses the object (409
 * "... is used by pipeline ..."). A `pulumi destroy` deletes a pipeline and what it uses at once
 * when the state records no dependency between them (code `pulumi import` wrote names objects by
 * id), and the platform lets the source, destination or transform go only after the pipeline.
 * Bounded by RELEASE_WAIT_MS and the operation's budget; then the API's 409, naming the
 * pipeline, is the error.
 */
export async function deleteOnceReleased<T>(send: () => Promise<T>, sleep: (ms: number) => Promise<void> = (ms) => delay(ms), now: () => number = Date.now): Promise<T> {
  const budget = currentBudget();
  const started = now();
  let wait = 200;
  for (;;) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof ConflictError) || !/used by pipeline/i.test(err.message)) throw err;
      if (now() - started + wait > RELEASE_WAIT_MS || (budget && !budget.allows(wait))) throw err;
      await sleep(wait);
      wait = Math.min(wait * 2, 2000);
    }
  }
}
