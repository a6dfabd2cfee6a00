#!/usr/bin/env node
import { CliUsageError, USAGE, describeFaults, parseCliArgs } from "./cli-args.js";
import { startEmulator } from "./index.js";

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`pulumi-cdc-emulator: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { options } = parsed;
  const emulator = await startEmulator(options);
  // The secret is printed on purpose: it is the local sandbox credential the user passed or the documented default.
  process.stdout.write(
    [
      `listening on ${emulator.url}`,
      `client id: ${emulator.clientId}`,
      `client secret: ${emulator.clientSecret}`,
      // Tenant ids only when there are several: what an operator names with X-Admin-Tenant-Id.
      ...(options.tenants && options.tenants.length > 0
        ? [emulator.clientId, ...options.tenants.map((t) => t.clientId)].map((id) => `tenant ${emulator.tenantOf(id)?.tenantId}: client id ${id}`)
        : []),
      ...(options.operators && options.operators.length > 0 ? [`operators (may send X-Admin-Tenant-Id): ${options.operators.join(", ")}`] : []),
      `state: ${options.statePath ?? "in memory"}`,
      `faults: ${describeFaults(options.faults ?? {})}`,
      `use it with: CDC_API_URL=${emulator.url} CDC_CLIENT_ID=${emulator.clientId} CDC_CLIENT_SECRET=${emulator.clientSecret}`,
      "",
    ].join("\n"),
  );

  const shutdown = (signal: NodeJS.Signals) => {
    process.stdout.write(`received ${signal}, stopping\n`);
    emulator.stop().then(
      () => {
        process.stdout.write("stopped\n");
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`pulumi-cdc-emulator: error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-cdc-emulator: ${(error as Error).message}\n`);
  process.exit(1);
});
