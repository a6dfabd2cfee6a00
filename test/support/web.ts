import { CdcClient } from "../../provider/client/index.js";

/**
 * A client that acts as a person in the web console: its writes are stamped `created_from: web`,
 * so tests can make changes outside Pulumi, the drift the provider must find.
 */
export function webClient(api: { url: string; clientId: string; clientSecret: string }): CdcClient {
  return new CdcClient({ settings: { apiUrl: api.url, clientId: api.clientId, clientSecret: api.clientSecret, createdFrom: "web" } });
}
