import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { configure, resetClients } from "../../../provider/client/index.js";
import { ConsoleClient } from "../../support/web.js";

/**
 * An emulator on a free port with the provider configured against it, plus an independent
 * client that plays "a person in the web console" for out-of-band changes.
 */
export interface ProviderHarness {
  emulator: RunningEmulator;
  console: ConsoleClient;
  close(): Promise<void>;
}

/** Back-off in tens of milliseconds: fault tests exercise the retry paths without waiting real seconds. */
export const FAST_RETRIES = { "cdc:retryBaseDelayMs": "10", "cdc:retryMaxDelayMs": "50" };

export async function startHarness(options: Parameters<typeof startEmulator>[0] = {}, config: Record<string, string> = {}): Promise<ProviderHarness> {
  const emulator = await startEmulator({ port: 0, ...options });
  configure({ "cdc:apiUrl": emulator.url, "cdc:clientId": emulator.clientId, "cdc:clientSecret": emulator.clientSecret, ...config }, {});
  const console = new ConsoleClient({
    settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" },
  });
  return {
    emulator,
    console,
    async close() {
      await console.close();
      await resetClients();
      await emulator.stop();
    },
  };
}
