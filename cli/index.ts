#!/usr/bin/env node
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of undici's stack trace.
import "../provider/node-version.js";
// Next, so that the modules imported after it are read from the code cache.
import "../provider/compile-cache.js";
import { CdcClient, redact, type CdcSettings, type Tuning } from "../provider/client/index.js";
import { EXIT_ERROR, parseCommandLine, UsageError } from "./args.js";
import { runDrift } from "./drift.js";
import { runImport } from "./import.js";
import { pulumiRunner } from "./pulumi.js";
import { runRecover } from "./recover.js";
import { packageVersion } from "./version.js";

/** A command's client: the stack's settings and its tuning (concurrency, retries), as the provider runs with. */
function cliClient(settings: CdcSettings, tuning: Tuning): CdcClient {
  return new CdcClient({ settings, maxConcurrency: tuning.maxConcurrency, retry: tuning.retry });
}

async function main(argv: string[]): Promise<number> {
  let command: ReturnType<typeof parseCommandLine>;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pulumi-cdc: ${error.message}\n\n${error.usage}`);
      // Not 2: that code means "drift" to CI scripts.
      return EXIT_ERROR;
    }
    throw error;
  }
  if (command.command === "help") {
    process.stdout.write(command.usage);
    return 0;
  }
  if (command.command === "version") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  // What every command touches outside itself.
  const io = {
    runPulumi: pulumiRunner(),
    env: process.env,
    cwd: process.cwd(),
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
    createClient: cliClient,
  };
  if (command.command === "import") return (await runImport(command.options, io)).code;
  if (command.command === "recover") return (await runRecover(command.options, io)).code;
  return (await runDrift(command.options, { ...io, now: () => new Date() })).code;
}

main(process.argv.slice(2)).then(
  (code) => {
    // exitCode rather than exit(): lets stdout drain when it is a pipe; the client's pool is closed, so nothing keeps the process alive.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pulumi-cdc: unexpected error: ${redact(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = EXIT_ERROR;
  },
);
