// The connector catalogue is knowledge about the API (keys, types, defaults, secrets); it lives in
// catalogue/, which the SDK, the provider and the emulator all read. The provider never reads
// the emulator.
export {
  CATALOGUE,
  connectorCodes,
  connectorCodes as connectorNames,
  findConnector,
  findKey,
  isSecretKey,
  replaceOnChangeKeys,
  secretKeys,
  type CatalogueKind,
  type ConnectorKind,
  type ConnectorSpec,
  type KeySpec,
} from "../catalogue/index.js";

import { findConnector, replaceOnChangeKeys, type CatalogueKind } from "../catalogue/index.js";
import { looksSecret } from "./normalize.js";

/** The keys of `config` to treat as secret: the catalogue's, or by name for unknown connectors. */
export function secretKeySet(kind: CatalogueKind, connector: string, config: Record<string, unknown>): Set<string> {
  const spec = findConnector(kind, connector);
  const keys = new Set<string>(spec ? spec.keys.filter((k) => k.secret).map((k) => k.key) : []);
  for (const key of Object.keys(config)) if (!spec && looksSecret(key)) keys.add(key);
  return keys;
}

/** The catalogue's replace-on-change keys of a connector (none for unknown connectors). */
export function replacingKeys(kind: CatalogueKind, connector: string): string[] {
  const spec = findConnector(kind, connector);
  return spec ? replaceOnChangeKeys(spec) : [];
}
