#!/usr/bin/env node
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of undici's stack trace.
import "../provider/node-version.js";
// Next, so that the modules imported after it are read from the code cache.
import "../provider/compile-cache.js";
import { redact } from "../provider/client/redact.js";
import { EXIT_ERROR, parseCommandLine, UsageError } from "./args.js";
import { processIO } from "./io.js";
import { packageVersion } from "./version.js";

// Each command's module, and the API client (undici, zod), load when they are used: `drift` on a
// stack with nothing to check loads neither the client nor `import`'s and `recover`'s code
// (test/unit/cli/load.test.ts pins what it loads).

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
  const io = processIO();
  if (command.command === "import") return (await (await import("./import.js")).runImport(command.options, io)).code;
  if (command.command === "recover") return (await (await import("./recover.js")).runRecover(command.options, io)).code;
  return (await (await import("./drift.js")).runDrift(command.options, { ...io, now: () => new Date() })).code;
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
