import { isAbsolute, resolve } from "node:path";
import { stat } from "node:fs/promises";
import { CdcClient, isCdcApiError, redact, resolveSettings, SettingsError, type CdcSettings } from "../provider/client/index.js";
import { EXIT_ERROR, type DriftOptions } from "./args.js";
import { checkAll } from "./check.js";
import { exportStack, PulumiCommandError, selectedStack, stackSettingsConfig, type PulumiRunner } from "./pulumi.js";
import { driftRun, exitCodeFor, renderHuman, renderJson, type DriftRun } from "./report.js";
import { CheckpointError, trackedConnectors } from "./state.js";

/** Everything the command touches outside itself, injectable for tests. */
export interface DriftDeps {
  runPulumi: PulumiRunner;
  /** For the CDC_* fallbacks of the API settings. */
  env: NodeJS.ProcessEnv;
  /** The directory `--cwd` is relative to. */
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  now: () => Date;
  createClient: (settings: CdcSettings) => CdcClient;
}

/** The --cwd directory does not exist. */
class DirectoryError extends Error {}

/** Errors whose message is written for the user and already safe (redacted); anything else is unexpected. */
function isExpected(error: unknown): error is Error {
  return (
    error instanceof SettingsError ||
    error instanceof PulumiCommandError ||
    error instanceof CheckpointError ||
    error instanceof DirectoryError ||
    isCdcApiError(error)
  );
}

async function programDir(base: string, given: string | undefined): Promise<string> {
  const dir = given === undefined ? base : isAbsolute(given) ? given : resolve(base, given);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new DirectoryError(`--cwd ${dir} is not a directory`);
  return dir;
}

/** Reads the stack, checks its sources and destinations, prints the report. Does not throw. */
export async function runDrift(options: DriftOptions, deps: DriftDeps): Promise<{ code: number; run?: DriftRun }> {
  let api: CdcClient | undefined;
  try {
    const cwd = await programDir(deps.cwd, options.cwd);
    const stack = options.stack ?? (await selectedStack(deps.runPulumi, cwd));
    // The checkpoint first: its error for a wrong stack name is the clearest one.
    const resources = trackedConnectors(await exportStack(deps.runPulumi, stack, cwd));
    let checked: DriftRun["resources"] = [];
    if (resources.length > 0) {
      // Settings only when there is something to check: an empty stack needs neither credentials nor a passphrase.
      const config = await stackSettingsConfig(deps.runPulumi, stack, cwd);
      api = deps.createClient(resolveSettings(config, deps.env));
      checked = await checkAll(api, resources);
    }
    const run = driftRun(stack, deps.now(), checked);
    deps.stdout(options.json ? renderJson(run) : renderHuman(run));
    return { code: exitCodeFor(run), run };
  } catch (error) {
    // Messages only, never a stack trace: the client's errors are redacted, and redact() runs again over anything else.
    const message = isExpected(error) ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    deps.stderr(`pulumi-cdc drift: ${redact(message)}\n`);
    return { code: EXIT_ERROR };
  } finally {
    await api?.close().catch(() => undefined);
  }
}
