/**
 * The engine-side entry point, loaded by package name (`pulumi-cdc/provider`) inside the
 * dynamic-provider process. sdk/ serializes only calls into this module, so everything with
 * state (HTTP pool, token, limiter) lives here, once per run.
 */
import { configure } from "./context.js";
import { ClientCredentialProvider } from "./resources/clientCredential.js";
import { ConnectorProvider, DESTINATION, SOURCE } from "./resources/connector.js";
import { TagProvider } from "./resources/tag.js";

export { configure };
export { providerInfo, type ProviderInfo } from "./info.js";

const providers = {
  Source: new ConnectorProvider(SOURCE),
  Destination: new ConnectorProvider(DESTINATION),
  Tag: new TagProvider(),
  ClientCredential: new ClientCredentialProvider(),
};

export type ResourceKind = keyof typeof providers;

export function provider<K extends ResourceKind>(kind: K): (typeof providers)[K] {
  const found = providers[kind];
  if (!found) throw new Error(`pulumi-cdc has no provider for "${String(kind)}": the installed package is older than the program's state`);
  return found;
}

export type { ConnectorInputs, ConnectorOutputs, DesiredState } from "./resources/connector.js";
export type { TagInputs, TagOutputs } from "./resources/tag.js";
export type { ClientCredentialInputs, ClientCredentialOutputs } from "./resources/clientCredential.js";
export type { DriftReport } from "./drift.js";
export * as api from "./client/index.js";
