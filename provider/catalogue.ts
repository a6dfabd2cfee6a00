// The connector catalogue is knowledge about the API (keys, types, defaults, secrets); it lives in
// catalogue/, which the SDK, the provider and the emulator all read. The provider never reads
// the emulator.
export {
  CATALOGUE,
  connectorCodes,
  connectorCodes as connectorNames,
  findKey,
  isSecretKey,
  replaceOnChangeKeys,
  secretKeys,
  type CatalogueKind,
  type ConnectorKind,
  type ConnectorSpec,
  type KeySpec,
} from "../catalogue/index.js";

import { findConnector, replaceOnChangeKeys, type CatalogueKind, type ConnectorSpec } from "../catalogue/index.js";
import { isUnknown, looksSecret } from "./normalize.js";

/**
 * A connector's (or transform type's) catalogue entry, or undefined for a code the catalogue does
 * not know or one not known yet (a preview). An operation looks it up once and passes the entry
 * down to whatever needs the connector's facts.
 */
export function catalogueEntry(kind: CatalogueKind, code: unknown): ConnectorSpec | undefined {
  return typeof code === "string" && !isUnknown(code) ? findConnector(kind, code) : undefined;
}

/** The keys of `config` to treat as secret: the entry's, or by name for a connector the catalogue does not know. */
export function secretKeySet(spec: ConnectorSpec | undefined, config: Record<string, unknown>): ReadonlySet<string> {
  if (!spec) return new Set(Object.keys(config).filter(looksSecret));
  let keys = SECRET_KEYS.get(spec);
  if (!keys) SECRET_KEYS.set(spec, (keys = new Set(spec.keys.filter((k) => k.secret).map((k) => k.key))));
  return keys;
}

/** An entry's secret keys, worked out once: every write, diff and read of its objects asks. */
const SECRET_KEYS = new WeakMap<ConnectorSpec, ReadonlySet<string>>();

/** The replace-on-change keys of a connector (none for one the catalogue does not know). */
export function replacingKeys(spec: ConnectorSpec | undefined): string[] {
  return spec ? replaceOnChangeKeys(spec) : [];
}
