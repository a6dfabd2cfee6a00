import { CdcClient, type CdcClientOptions } from "../../../provider/client/index.js";
import { CLIENT_ID, CLIENT_SECRET, FakeApi, type FakeApiOptions } from "./fake-api.js";

export interface Harness {
  api: FakeApi;
  client: CdcClient;
  /** Every backoff wait the client asked for, in ms (the injected sleep returns at once). */
  sleeps: number[];
  debugLines: string[];
  /** A fake clock for token expiry, in ms; advance it by assignment. */
  clock: { now: number };
  makeClient(overrides?: Partial<CdcClientOptions>): CdcClient;
  close(): Promise<void>;
}

/** Start a fake API and a client wired to it with an instant sleep and a fake clock. */
export async function startHarness(apiOptions: FakeApiOptions = {}, clientOverrides: Partial<CdcClientOptions> = {}): Promise<Harness> {
  const api = await new FakeApi(apiOptions).start();
  const sleeps: number[] = [];
  const debugLines: string[] = [];
  const clock = { now: 1_700_000_000_000 };
  const clients: CdcClient[] = [];
  const makeClient = (overrides: Partial<CdcClientOptions> = {}) => {
    const c = new CdcClient({
      settings: { apiUrl: api.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, createdFrom: "terraform" },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      now: () => clock.now,
      debug: (line) => debugLines.push(line),
      ...clientOverrides,
      ...overrides,
    });
    clients.push(c);
    return c;
  };
  const client = makeClient();
  return {
    api,
    client,
    sleeps,
    debugLines,
    clock,
    makeClient,
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await api.stop();
    },
  };
}
