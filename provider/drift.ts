import { DESTINATION_STATES } from "../catalogue/kind-values.js";
import { catalogueEntry, secretKeySet, type ConnectorKind } from "./catalogue.js";
import { liveAsProgram } from "./api-sources.js";
import { withoutRemovedKeys } from "./check.js";
import { configComparisonSchema, redact, type CdcClient, type ConfigComparison, type DestinationConnector } from "./client/index.js";
import type { LiveReader } from "./live-cache.js";
import { alignLiveConfig, changedConfigKeys, renderConfig, type ConfigMap } from "./normalize.js";

/** What a resource's outputs say about changes made outside Pulumi. */
export interface DriftReport {
  detected: boolean;
  /** Unified diff, secrets masked: the API's for destinations, ours for sources. */
  maskedDiff: string;
  /** Config keys whose live value differs from Pulumi's (sources). */
  changedKeys: string[];
  /** Destinations: the comparison's timestamps and the baseline Pulumi recorded after its own last write. */
  oldestTimestamp?: string;
  latestTimestamp?: string;
  baselineTimestamp?: string;
  /**
   * Destinations Pulumi created and has not written since: the baseline is the original config
   * (the history's oldest entry), which the create itself recorded, so no comparison is fetched
   * to learn its timestamp.
   */
  baselineOriginal?: boolean;
}

export const NO_DRIFT: DriftReport = { detected: false, maskedDiff: "", changedKeys: [] };

export function compareToOriginal(api: CdcClient, id: string): Promise<ConfigComparison> {
  return api.get("/destinations/{id}/config-history/compare-to-original", { params: { id }, schema: configComparisonSchema });
}

function optionalString(value: string | number | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function instant(value: unknown): number {
  const t = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
}

/**
 * Destination drift. The API compares the current config with the *original* one, which also
 * differs after Pulumi's own updates; so drift means a config recorded after the baseline that
 * Pulumi took right after its own last write. After Pulumi's create that baseline is the
 * original itself (`baselineOriginal`): drift is anything recorded after the oldest entry.
 */
export function destinationDrift(comparison: ConfigComparison, baselineTimestamp: string | undefined, baselineOriginal = false): DriftReport {
  const latest = optionalString(comparison.latest_timestamp);
  const oldest = optionalString(comparison.oldest_timestamp);
  const baseline = baselineTimestamp ?? (baselineOriginal ? oldest : undefined);
  const detected = baseline !== undefined && latest !== undefined && instant(latest) > instant(baseline);
  return {
    detected,
    maskedDiff: detected ? (comparison.masked_diff ?? "") : "",
    changedKeys: detected ? keysOfMaskedDiff(comparison.masked_diff ?? "") : [],
    oldestTimestamp: oldest,
    latestTimestamp: latest,
    baselineTimestamp: baseline,
    // A comparison without timestamps resolves nothing: the report keeps saying where the baseline is.
    ...(baseline === undefined && baselineOriginal ? { baselineOriginal: true } : {}),
  };
}

/**
 * The config keys a masked diff changes: its `-` and `+` lines are `key: value` (the comparison
 * endpoint's form, and ours for sources); headers (`---`, `+++`) and context are left out.
 */
export function keysOfMaskedDiff(maskedDiff: string): string[] {
  const keys = new Set<string>();
  for (const line of maskedDiff.split("\n")) {
    if (!/^[-+]/.test(line) || /^(---|\+\+\+)( |\t|$)/.test(line)) continue;
    const i = line.indexOf(": ");
    const key = (i < 0 ? line.slice(1) : line.slice(1, i)).trim();
    if (key) keys.add(key);
  }
  return [...keys].sort();
}

// Loaded on the first drift found: most runs find none, and loading the library cost every
// provider start about 15 ms.
let diffLibrary: typeof import("diff") | undefined;

/** Source drift: the live config of the keys Pulumi manages against Pulumi's, secrets excluded. */
export function sourceDrift(planned: ConfigMap, live: ConfigMap, secretKeys: ReadonlySet<string>, label: string): DriftReport {
  const changedKeys = changedConfigKeys(planned, live).filter((k) => !secretKeys.has(k));
  if (changedKeys.length === 0) return NO_DRIFT;
  diffLibrary ??= require("diff") as typeof import("diff");
  const maskedDiff = diffLibrary.createTwoFilesPatch(`${label} (pulumi)`, `${label} (live)`, renderConfig(planned, secretKeys), renderConfig(live, secretKeys));
  return { detected: true, maskedDiff, changedKeys };
}

/**
 * Tells the person running `pulumi preview` what changed outside Pulumi. Dynamic providers cannot
 * return a detailed diff, but the engine shows a provider's stderr as diagnostics, so the masked
 * diff appears right under the planned update.
 */
type DriftSink = (text: string) => void;
let driftSink: DriftSink = (t) => process.stderr.write(t);

/**
 * Where drift reports go. The dynamic-provider host shows a provider's stderr as diagnostics, so
 * that is the default; the provider plugin's stderr is only logged, so it sends them to the
 * engine's log instead, under the resource being diffed.
 */
export function setDriftSink(sink: DriftSink): void {
  driftSink = sink;
}

export function reportDrift(subject: string, findings: readonly string[], write: DriftSink = driftSink): void {
  if (findings.length === 0) return;
  const lines = findings.flatMap((f) => f.trimEnd().split("\n"));
  write(redact(`drift: ${subject} changed outside Pulumi; \`pulumi up\` puts the program's version back:\n${lines.map((l) => `  ${l}`).join("\n")}\n`));
}

/**
 * Tells the person running `pulumi up` what the service warned about when it saved an object (an
 * API source's connection warning), through the same sink as drift reports, so both hosts show it
 * as a warning under the resource.
 */
export function reportWarning(subject: string, warning: string, write: DriftSink = driftSink): void {
  if (warning.trim() === "") return;
  write(redact(`warning: ${subject}: ${warning.trim()}\n`));
}

/** What Pulumi recorded about a source or destination: enough to check it against the API. */
export interface ManagedConnector {
  kind: ConnectorKind;
  id: string;
  name: string;
  connector: string;
  /** The config Pulumi manages; keys it cannot read (secrets encrypted in state) are left out. */
  config: ConfigMap;
  desiredState: string;
  /** Destinations: the config-history timestamp recorded right after Pulumi's own last write. */
  baselineTimestamp?: string;
  /** Destinations Pulumi created and has not written since: the baseline is the original config. */
  baselineOriginal?: boolean;
}

/** Live connector_status against the program's desiredState. */
export interface StatusCheck {
  /** The program's desiredState, one of DESTINATION_STATES (a source's are among them). */
  desired: string;
  /** The API's connector_status: Active, Paused, Stopped, Broken, Starting, ... */
  live: string;
  /**
   * True when the live status is another lifecycle state (someone paused, resumed or stopped it).
   * Health states (Broken, Starting, Pending, ...) are not drift: `pulumi up` cannot change them.
   */
  drifted: boolean;
}

const LIFECYCLE_STATES = new Set<string>(DESTINATION_STATES);

export function statusCheck(desiredState: string, connectorStatus: string | null | undefined): StatusCheck | undefined {
  if (!connectorStatus) return undefined;
  const live = connectorStatus.toLowerCase();
  const desired = desiredState.toLowerCase();
  return { desired, live: connectorStatus, drifted: LIFECYCLE_STATES.has(live) && live !== desired };
}

export interface LiveCheck {
  /** The object as the API has it now; undefined when it was deleted outside Pulumi. */
  live: DestinationConnector | undefined;
  config: DriftReport;
  status?: StatusCheck;
}

/**
 * Reads a connector and says what changed on it outside Pulumi. Destinations: the API's config
 * history against Pulumi's baseline. Sources: the live config of the managed keys against
 * Pulumi's, secrets excluded. Both: the lifecycle status against desiredState.
 *
 * `reader` is where the API is read: a run's shared listing (live-cache.ts), so that a check
 * costs no round trip of its own. A destination's object and comparison are asked for together.
 */
export async function checkLive(reader: LiveReader, c: ManagedConnector): Promise<LiveCheck> {
  let live: DestinationConnector | undefined;
  let comparison: ConfigComparison | undefined;
  if (c.kind === "source") {
    live = await reader.connector("source", c.id);
  } else {
    [live, comparison] = await Promise.all([reader.connector("destination", c.id), reader.comparison(c.id)]);
    // Gone between the two answers, either way round.
    if (!comparison) live = undefined;
  }
  if (!live) return { live: undefined, config: NO_DRIFT };
  let config: DriftReport;
  if (c.kind === "source") {
    const connector = live.connector ?? c.connector;
    // A key the platform has since dropped is no longer kept, so its absence is no drift.
    const spec = catalogueEntry("source", connector);
    const managed = withoutRemovedKeys(spec, c.config);
    const secrets = secretKeySet(spec, managed);
    // Values the service normalises (an API source's `act_` prefix) compare in the program's spelling.
    const liveConfig = spec ? liveAsProgram(spec, managed, live.config) : live.config;
    config = sourceDrift(managed, alignLiveConfig(managed, liveConfig, secrets), secrets, `source ${c.name}`);
  } else {
    config = destinationDrift(comparison!, c.baselineTimestamp, c.baselineOriginal === true);
  }
  const status = statusCheck(c.desiredState, live.connector_status);
  return status ? { live, config, status } : { live, config };
}
