import { isNotFound } from "../client/index.js";

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
