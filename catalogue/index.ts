import data = require("./connectors.json");
import apiData = require("./api-sources.json");

/**
 * The platform's connector and transform catalogue (connectors.json beside this file), typed.
 * Knowledge about the API that is data: the SDK's generated helpers, the provider's checks and
 * the emulator's validation all read it, so the three cannot disagree on a key.
 */

export type ConnectorKind = "source" | "destination";
export type CatalogueKind = ConnectorKind | "transform";

export type KeyType = "string" | "integer" | "boolean" | "list" | "map";

/** A field of a map's object values. */
export interface MapValueKey {
  readonly key: string;
  readonly name: string;
  readonly type: "string" | "integer";
  readonly required: boolean;
  readonly min?: number;
}

export interface KeySpec {
  /** The config key exactly as the API spells it. */
  readonly key: string;
  /** lowerCamelCase name of the key (the Terraform attribute's): the generated helpers' property. */
  readonly name: string;
  readonly type: KeyType;
  readonly required: boolean;
  /** Encrypted by the platform and masked on every read. */
  readonly secret: boolean;
  /** The platform's default, in its own type (the API echoes it as a string). */
  readonly default?: string | number | boolean;
  /** Allowed values. */
  readonly enum?: readonly string[];
  /** Lists: the allowed values of each item. */
  readonly itemEnum?: readonly string[];
  /** Inclusive bounds of an integer key. */
  readonly min?: number;
  readonly max?: number;
  /**
   * `pulumi-cdc`: the bounds are this project's (scripts/generate/ranges.ts), for a key the
   * platform publishes no range for: pulumi-cdc's check enforces them, the emulator does not.
   * Absent: the bounds, if any, are the platform's.
   */
  readonly rangeSource?: "pulumi-cdc";
  /** What a range of pulumi-cdc's is for: `a TCP port`. */
  readonly rangeWhy?: string;
  /** A change cannot be applied in place: the connector is replaced. */
  readonly replaceOnChange?: boolean;
  /** Set by the platform (generated or derived); a client reads it back and never sets it. */
  readonly computed?: boolean;
  readonly group?: string;
  /** `json`: a string holding a JSON document. */
  readonly format?: string;
  /** Lists: the type of each item. */
  readonly itemType?: "string";
  /** Maps: the type of each value, and the keys of object values. */
  readonly valueType?: "string" | "object";
  readonly valueKeys?: readonly MapValueKey[];
  /** `json-string`: the map travels as a JSON string of an object whose values are JSON strings. */
  readonly encoding?: "json-string";
  /** Sent, never stored or echoed by the service (an API source's single-use `oauth_grant_id`). */
  readonly writeOnly?: boolean;
  /** How the service rewrites the value before storing it (see api-sources.json's `about`). */
  readonly normalize?: Normalization;
}

export type Normalization = "strip-act-prefix" | "strip-dashes" | "date-at-midnight-utc";

/** API sources: a field the console shows only while `when.key` holds one of `when.values` (`when.default` when unset). */
export interface FieldCondition {
  readonly field: string;
  readonly when: { readonly key: string; readonly values: readonly string[]; readonly default?: string };
  /** Shown means required. */
  readonly required: boolean;
}

/** API sources: a field that, when set, needs each of `requires` set too. */
export interface FieldDependency {
  readonly field: string;
  readonly requires: readonly string[];
}

/**
 * API sources: the Connect (OAuth) flow. `modeKey` set: Connect is the `modeValue` of that key
 * (`modeDefault` when unset); absent: Connect is the only way in. `hostKey`: the field a grant is
 * bound to, so changing it needs a new grant.
 */
export interface OAuthFlow {
  readonly modeKey?: string;
  readonly modeValue?: string;
  readonly modeDefault?: string;
  /** The command that mints a grant, for error messages. */
  readonly connect: string;
  readonly hostKey?: string;
}

/** The facts' origin of one connector, where it differs per connector. */
export interface Provenance {
  readonly file: string;
  readonly commit: string;
}

export interface ConnectorSpec {
  readonly kind: CatalogueKind;
  /** What the API calls it: the `connector` (or `transform`) value. */
  readonly code: string;
  readonly displayName: string;
  /** The resource of the public Terraform provider the facts were taken from. */
  readonly terraformResource: string;
  /**
   * Keys a newer version of the platform dropped (about.provenance says which version). A stack
   * deployed before may still hold them: they are never a diff, and the platform ignores them.
   */
  readonly removedKeys?: readonly string[];
  readonly keys: readonly KeySpec[];
  /** `api`: an API source (api-sources.json): only the keys a program sets are sent, the rules below apply. */
  readonly family?: "api";
  readonly conditions?: readonly FieldCondition[];
  readonly dependencies?: readonly FieldDependency[];
  readonly oauth?: OAuthFlow;
  readonly provenance?: Provenance;
}

/** Where the facts came from. */
export interface CatalogueOrigin {
  readonly what: string;
  readonly source: string;
  readonly branch: string;
  readonly commit: string;
  readonly release: string;
  readonly from: readonly string[];
  readonly notes: string;
}

type RawSpec = Omit<ConnectorSpec, "kind" | "code">;

const raw = data as unknown as { about: CatalogueOrigin } & Record<CatalogueKind, Record<string, RawSpec>>;
const api = apiData as unknown as { about: CatalogueOrigin; source: Record<string, RawSpec> };

export const ORIGIN: CatalogueOrigin = raw.about;
/** Where the API sources' facts came from (api-sources.json). */
export const API_SOURCES_ORIGIN: CatalogueOrigin = api.about;

export const KINDS: readonly CatalogueKind[] = ["source", "destination", "transform"];

/** The connectors of a kind: connectors.json's, and for sources the API sources beside them (a code in both is a data error). */
function table(kind: CatalogueKind): Readonly<Record<string, ConnectorSpec>> {
  const extra = kind === "source" ? api.source : {};
  const clash = Object.keys(extra).find((code) => Object.prototype.hasOwnProperty.call(raw[kind], code));
  if (clash) throw new Error(`catalogue: source "${clash}" is in both connectors.json and api-sources.json`);
  return Object.fromEntries([...Object.entries(raw[kind]), ...Object.entries(extra)].map(([code, spec]) => [code, { kind, code, ...spec }]));
}

export const CATALOGUE: Readonly<Record<CatalogueKind, Readonly<Record<string, ConnectorSpec>>>> = {
  source: table("source"),
  destination: table("destination"),
  transform: table("transform"),
};

export function findConnector(kind: CatalogueKind, code: string): ConnectorSpec | undefined {
  const specs = CATALOGUE[kind];
  return Object.prototype.hasOwnProperty.call(specs, code) ? specs[code] : undefined;
}

/** Whether a source connector code is an API source (family "api"): another write contract, see api-sources.json. */
export function isApiSource(code: string): boolean {
  return findConnector("source", code)?.family === "api";
}

/** The codes of one kind, sorted. */
export function connectorCodes(kind: CatalogueKind): string[] {
  return Object.keys(CATALOGUE[kind]).sort();
}

export function findKey(spec: ConnectorSpec, key: string): KeySpec | undefined {
  return spec.keys.find((k) => k.key === key);
}

export function secretKeys(spec: ConnectorSpec): string[] {
  return spec.keys.filter((k) => k.secret).map((k) => k.key);
}

export function isSecretKey(spec: ConnectorSpec, key: string): boolean {
  return spec.keys.some((k) => k.key === key && k.secret);
}

/** Whether a newer version of the platform dropped this key of the connector. */
export function isRemovedKey(spec: ConnectorSpec, key: string): boolean {
  return spec.removedKeys?.includes(key) ?? false;
}

export function replaceOnChangeKeys(spec: ConnectorSpec): string[] {
  return spec.keys.filter((k) => k.replaceOnChange).map((k) => k.key);
}

/** The `.user.defined` suffix marks keys the platform copies into a plain key of its own (`X.user.defined` → `X`). */
export const USER_DEFINED_SUFFIX = ".user.defined";
