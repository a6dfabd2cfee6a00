import { CdcClient, redact, resolveSettings, resolveTuning, type CdcSettings, type Tuning } from "../provider/client/index.js";
import { EXIT_ERROR, type DriftOptions } from "./args.js";
import { checkAll, checkObject, checkPipeline } from "./check.js";
import { describeError, programDir } from "./common.js";
import { exportStack, selectedStack, stackSettingsConfig, type PulumiRunner } from "./pulumi.js";
import { driftRun, exitCodeFor, renderHuman, renderJson, type DriftRun } from "./report.js";
import { trackedConnectors, trackedObjects, trackedPipelines } from "./state.js";

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
  createClient: (settings: CdcSettings, tuning: Tuning) => CdcClient;
}

/**
 * Reads the stack, checks every resource of it the API can say something about (sources,
 * destinations, pipelines, tags, transforms, topics, agents, HTTP and LLM connections, Kafka
 * users), prints the report. Does not throw.
 */
export async function runDrift(options: DriftOptions, deps: DriftDeps): Promise<{ code: number; run?: DriftRun }> {
  let api: CdcClient | undefined;
  try {
    const cwd = await programDir(deps.cwd, options.cwd);
    const stack = options.stack ?? (await selectedStack(deps.runPulumi, cwd));
    // The checkpoint first: its error for a wrong stack name is the clearest one.
    const checkpoint = await exportStack(deps.runPulumi, stack, cwd);
    const resources = trackedConnectors(checkpoint);
    const pipelines = trackedPipelines(checkpoint);
    const objects = trackedObjects(checkpoint);
    let checked: DriftRun["resources"] = [];
    if (resources.length + pipelines.length + objects.length > 0) {
      // Settings only when there is something to check: an empty stack needs neither credentials nor a passphrase.
      const config = await stackSettingsConfig(deps.runPulumi, stack, cwd);
      const client = deps.createClient(resolveSettings(config, deps.env), resolveTuning(config, deps.env));
      api = client;
      const [connectors, joined, others] = await Promise.all([
        checkAll(client, resources),
        Promise.all(pipelines.map((p) => checkPipeline(client, p))),
        Promise.all(objects.map((o) => checkObject(client, o))),
      ]);
      checked = [...connectors, ...joined, ...others];
    }
    const run = driftRun(stack, deps.now(), checked);
    deps.stdout(options.json ? renderJson(run) : renderHuman(run));
    return { code: exitCodeFor(run), run };
  } catch (error) {
    // Messages only, never a stack trace: the client's errors are redacted, and redact() runs again over anything else.
    deps.stderr(`pulumi-cdc drift: ${redact(describeError(error))}\n`);
    return { code: EXIT_ERROR };
  } finally {
    await api?.close().catch(() => undefined);
  }
}
