import { configure as configureClient, getClient, type CdcClient, type ConfigSource } from "./client/index.js";

/**
 * Called by each dynamic provider's `configure(req)` with the stack config. Resolving here
 * (and not at first use) turns a missing credential into an error before any resource work.
 */
export function configure(config: ConfigSource): void {
  configureClient(config);
}

/** The run's shared client: one pool, one limiter, one token for every resource. */
export function client(): CdcClient {
  return getClient();
}
