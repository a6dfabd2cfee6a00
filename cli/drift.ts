import { access, constants, stat, appendFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import type { CdcClient } from "../provider/client/index.js";
// The client's leaf modules, not its index: an empty stack needs neither undici nor zod, and a
// stack's kinds load their own checks (check.ts) once the checkpoint says which there are.
import { redact } from "../provider/client/redact.js";
import { resolveSettings } from "../provider/client/settings.js";
import { resolveTuning } from "../provider/client/tuning.js";
import { EXIT_ERROR, type DriftOptions } from "./args.js";
import { describeError, programDir } from "./common.js";
import type { CommandIO } from "./io.js";
import { exportStack, selectedStack, stackSettingsConfig } from "./pulumi.js";
import { driftRun, exitCodeFor, markdownCell, renderHuman, renderJson, renderMarkdown, type DriftRun } from "./report.js";
import { trackedConnectors, trackedObjects } from "./state.js";

/** Everything the command touches outside itself, injectable for tests: the commands' IO, and the clock. */
export interface DriftDeps extends CommandIO {
  now: () => Date;
}

/** `--summary-file` cannot be written; the message names the flag and what to do. */
export class SummaryFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SummaryFileError";
  }
}

/**
 * The `--summary-file` path, resolved, once it is known to be writable: its directory exists and
 * the file is a writable file or can be created there. Checked before anything else runs, so a
 * typo fails fast instead of after the whole check.
 */
export async function summaryFilePath(given: string, base: string): Promise<string> {
  const path = isAbsolute(given) ? given : resolve(base, given);
  const dir = dirname(path);
  const dirInfo = await stat(dir).catch(() => undefined);
  if (!dirInfo?.isDirectory()) throw new SummaryFileError(`--summary-file ${path}: the directory ${dir} does not exist: create it, or give a file in an existing directory`);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new SummaryFileError(`--summary-file ${path} is a directory: give a file path (the report is appended to it)`);
  try {
    await access(info ? path : dir, constants.W_OK);
  } catch {
    throw new SummaryFileError(`--summary-file ${path} is not writable (${info ? "the file" : `the directory ${dir}`} denies writing): give a file you may write`);
  }
  return path;
}

/** Appends `text` to the summary file (never truncates it), a blank line after what is already there. */
async function appendSummary(path: string, text: string): Promise<void> {
  const size = (await stat(path).catch(() => undefined))?.size ?? 0;
  try {
    await appendFile(path, size > 0 ? `\n${text}` : text, "utf8");
  } catch (error) {
    throw new SummaryFileError(`--summary-file ${path} could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

const RENDER = { human: renderHuman, json: renderJson, markdown: renderMarkdown } as const;

/**
 * Reads the stack, checks every resource of it the API can say something about (sources,
 * destinations, pipelines, tags, transforms, topics, agents, HTTP and LLM connections, Kafka
 * users), prints the report, and appends it to the summary file as Markdown when asked. Does not throw.
 */
export async function runDrift(options: DriftOptions, deps: DriftDeps): Promise<{ code: number; run?: DriftRun }> {
  let api: CdcClient | undefined;
  let summary: string | undefined;
  try {
    if (options.summaryFile !== undefined) summary = await summaryFilePath(options.summaryFile, deps.cwd);
    const cwd = await programDir(deps.cwd, options.cwd);
    const stack = options.stack ?? (await selectedStack(deps.runPulumi, cwd));
    // The stack's settings are read beside its checkpoint (each is a Pulumi CLI start-up, about
    // 0.3 s of CPU, and they do not depend on each other), but used only when the checkpoint holds
    // something to check: an empty stack needs neither credentials nor a passphrase, and a failed
    // read (no passphrase) is ignored there. The checkpoint's error comes first: for a wrong stack
    // name it is the clearest one.
    const settings = stackSettingsConfig(deps.runPulumi, stack, cwd);
    settings.catch(() => undefined);
    const checkpoint = await exportStack(deps.runPulumi, stack, cwd);
    const resources = trackedConnectors(checkpoint);
    const objects = trackedObjects(checkpoint);
    let checked: DriftRun["resources"] = [];
    if (resources.length + objects.length > 0) {
      // The checks' modules, only the stack's kinds', load while the Pulumi CLI reads the config.
      const kinds = [...resources, ...objects].map((r) => r.kind);
      const [config, { checkAll, checkObject }] = await Promise.all([
        settings,
        import("./check.js").then(async (checks) => {
          await checks.loadChecks(kinds);
          return checks;
        }),
      ]);
      const client = deps.createClient(resolveSettings(config, deps.env), resolveTuning(config, deps.env));
      api = client;
      const [connectors, others] = await Promise.all([checkAll(client, resources), Promise.all(objects.map((o) => checkObject(client, o)))]);
      checked = [...connectors, ...others];
    }
    const run = driftRun(stack, deps.now(), checked);
    deps.stdout(RENDER[options.format](run));
    if (summary !== undefined) await appendSummary(summary, renderMarkdown(run));
    return { code: exitCodeFor(run), run };
  } catch (error) {
    // Messages only, never a stack trace: the client's errors are redacted, and redact() runs again over anything else.
    const message = redact(error instanceof SummaryFileError ? error.message : describeError(error));
    deps.stderr(`pulumi-cdc drift: ${message}\n`);
    // The job's summary says the check failed, rather than nothing (best effort: the error above is what counts).
    if (summary !== undefined && !(error instanceof SummaryFileError)) await appendSummary(summary, `**pulumi-cdc drift**: error, ${markdownCell(message)}\n`).catch(() => undefined);
    return { code: EXIT_ERROR };
  } finally {
    await api?.close().catch(() => undefined);
  }
}
