import { isWrite } from "../../emulator/holds.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { CdcClient, destinationEnvelopeSchema, sourceEnvelopeSchema } from "../../provider/client/index.js";

/** The requests the emulator has answered that change the tenant, by route (token requests aside, as its holds): {} when none. */
export function apiWrites(emulator: Pick<RunningEmulator, "stats">): Record<string, number> {
  return Object.fromEntries(Object.entries(emulator.stats().requests).filter(([route, n]) => n > 0 && isWrite(route)));
}

/**
 * A client that acts as a person in the web console: its writes are stamped `created_from: web`,
 * so tests can make changes outside Pulumi, the drift the provider must find.
 */
export function webClient(api: { url: string; clientId: string; clientSecret: string }): CdcClient {
  return new CdcClient({ settings: { apiUrl: api.url, clientId: api.clientId, clientSecret: api.clientSecret, createdFrom: "web" } });
}

/**
 * An edit in the web console: the connector's form as the API shows it (secrets masked, which
 * keeps them), a few fields changed, saved back whole, as the console saves it.
 */
export async function consoleEdit(
  web: CdcClient,
  kind: "source" | "destination",
  id: string,
  change: { name?: string; config?: Record<string, unknown> },
): Promise<void> {
  const schema = kind === "source" ? sourceEnvelopeSchema : destinationEnvelopeSchema;
  const live = (await web.get(`/${kind}s/{id}`, { params: { id }, schema })).result[0]!;
  await web.put(`/${kind}s/{id}`, {
    params: { id },
    body: { name: change.name ?? live.name, connector: live.connector, config: { ...live.config, ...change.config } },
  });
}
