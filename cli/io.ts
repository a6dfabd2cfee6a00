import type { CdcClient, CdcSettings, Tuning } from "../provider/client/index.js";
import { pulumiRunner, type PulumiRunner } from "./pulumi.js";

/**
 * What a command (drift, recover, import) touches outside itself, the same for the three:
 * `processIO()` in the CLI, a fake in the tests.
 */
export interface CommandIO {
  runPulumi: PulumiRunner;
  /** For the CDC_* fallbacks of the API settings. */
  env: NodeJS.ProcessEnv;
  /** The directory the command's relative paths (--cwd, --out, --summary-file, --pulumi-import-file) are relative to. */
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  createClient: (settings: CdcSettings, tuning: Tuning) => CdcClient;
}

/** The process's own: the `pulumi` on PATH, this environment and working directory, stdout and stderr. */
export function processIO(): CommandIO {
  return {
    runPulumi: pulumiRunner(),
    env: process.env,
    cwd: process.cwd(),
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
    createClient: cliClient,
  };
}

/** A command's client: the stack's settings and its tuning (concurrency, retries), as the provider runs with. */
function cliClient(settings: CdcSettings, tuning: Tuning): CdcClient {
  // require(): synchronous, so the client (undici, zod) loads the first time a command asks for one, not at start-up.
  const { CdcClient: Client } = require("../provider/client/index.js") as typeof import("../provider/client/index.js");
  return new Client({ settings, maxConcurrency: tuning.maxConcurrency, retry: tuning.retry, maxResponseBytes: tuning.maxResponseBytes });
}
