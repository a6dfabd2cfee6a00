// The connector catalogue is knowledge about the API (required keys, server defaults, secret keys);
// the emulator implements it and the provider validates and masks with it, so both read one table.
export {
  CATALOGUE,
  MASK as CATALOGUE_MASK,
  connectorNames,
  findConnector,
  isSecretKey,
  secretKeys,
  type ConfigKeySpec,
  type ConnectorKind,
  type ConnectorSpec,
} from "../emulator/catalogue.js";

import { findConnector, type ConnectorKind } from "../emulator/catalogue.js";
import { looksSecret } from "./normalize.js";

/** The keys of `config` to treat as secret: the catalogue's, or by name for unknown connectors. */
export function secretKeySet(kind: ConnectorKind, connector: string, config: Record<string, unknown>): Set<string> {
  const spec = findConnector(kind, connector);
  const keys = new Set<string>(spec ? spec.keys.filter((k) => k.secret).map((k) => k.key) : []);
  for (const key of Object.keys(config)) if (!spec && looksSecret(key)) keys.add(key);
  return keys;
}
