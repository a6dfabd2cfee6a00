import type { z } from "zod";
import { CdcApiError, type CdcClient } from "../client/index.js";

/**
 * A list of the agents area for `pulumi-cdc import`, or none when the API has no such list
 * (404 or 405, an API without the agents area): said in the import's notes, not failing it.
 */
export async function listIfServed<S extends z.ZodType>(api: CdcClient, path: string, schema: S, what: string, note: (text: string) => void): Promise<Array<z.output<S>>> {
  try {
    return await api.listAll(path, {}, schema);
  } catch (err) {
    if (err instanceof CdcApiError && (err.status === 404 || err.status === 405)) {
      note(`the API has no list of ${what} (GET ${path}): none were read`);
      return [];
    }
    throw err;
  }
}
