import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
// The client's leaf modules, not its index: these checks need neither undici nor zod.
import { isCdcApiError } from "../provider/client/errors.js";
import { SettingsError } from "../provider/client/settings.js";
import { PulumiCommandError } from "./pulumi.js";
import { CheckpointError } from "./state.js";

/** The --cwd directory does not exist. */
export class DirectoryError extends Error {}

/** Errors whose message is written for the user and already safe (redacted); anything else is unexpected. */
export function isExpected(error: unknown): error is Error {
  return (
    error instanceof SettingsError ||
    error instanceof PulumiCommandError ||
    error instanceof CheckpointError ||
    error instanceof DirectoryError ||
    isCdcApiError(error)
  );
}

/** The message to print for a command's failure; the caller redacts it once more. */
export function describeError(error: unknown): string {
  return isExpected(error) ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

export async function programDir(base: string, given: string | undefined): Promise<string> {
  const dir = given === undefined ? base : isAbsolute(given) ? given : resolve(base, given);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new DirectoryError(`--cwd ${dir} is not a directory`);
  return dir;
}
