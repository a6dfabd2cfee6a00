import type { CdcClient } from "../provider/client/index.js";
import { redact } from "../provider/client/redact.js";
import type { DriftReport, StatusCheck } from "../provider/drift.js";
import type { LiveReader } from "../provider/live-cache.js";
import { DECLARATIONS, type Registered } from "../provider/kinds/index.js";
import type { DriftFindings } from "../provider/kinds/spec.js";
import type { CheckedKind, TrackedConnector, TrackedObject } from "./state.js";

// What each kind's check needs (its API calls and its rules' findings) is loaded when the stack
// holds that kind, not before: a stack of sources and destinations loads neither the pipelines'
// nor the agents' modules, and an empty one not even the API client. The API calls are the same.

/** The modules of the connectors' check, loaded on first use. */
const connectorModules = () => Promise.all([import("../provider/drift.js"), import("../provider/live-cache.js")]);

/** The declaration of a kind the drift report names `report`. */
function reported(report: string): Registered {
  const found = DECLARATIONS.find((d) => d.report === report);
  if (!found) throw new Error(`pulumi-cdc drift has no check of "${report}"`);
  return found;
}

/** A kind's rules, with the drift check every kind but the connectors has. */
async function driftRules(report: string): Promise<{ findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>, name: string): Promise<DriftFindings> }> {
  return (await reported(report).rules()) as unknown as Awaited<ReturnType<typeof driftRules>>;
}

/**
 * Loads the API client and the checks of the given kinds, and nothing else: `pulumi-cdc drift`
 * calls it while the Pulumi CLI reads the stack's config, so the loading costs no wall time.
 */
export async function loadChecks(kinds: Iterable<CheckedKind>): Promise<void> {
  const wanted = new Set(kinds);
  const connectors = (["source", "destination"] as const).map((k) => wanted.delete(k)).some(Boolean);
  await Promise.all([import("../provider/client/index.js"), ...(connectors ? [connectorModules()] : []), ...[...wanted].map((k) => reported(k).rules())]);
}

/** provider/drift.js's NO_DRIFT, without loading it for kinds that do not need it. */
const NO_DRIFT: DriftReport = { detected: false, maskedDiff: "", changedKeys: [] };

/** A DriftReport whose `detected` covers config, status and deletion. */
export interface ResourceDrift extends DriftReport {
  status?: StatusCheck;
  /** The object no longer exists in the API. */
  deleted?: true;
}

export interface CheckedResource {
  type: CheckedKind;
  name: string;
  id: string;
  urn: string;
  drift: ResourceDrift;
}

function deleted(resource: TrackedConnector): CheckedResource {
  return { ...identity(resource), drift: { ...NO_DRIFT, detected: true, deleted: true } };
}

function identity(resource: TrackedConnector) {
  return { type: resource.kind, name: resource.name, id: resource.id, urn: resource.urn };
}

/**
 * The diff is the API's (destinations) or built from API values (sources): mask anything
 * secret-looking it may quote. The API's own mask (`********`) stays as it is.
 */
export function redactDiff(diff: string): string {
  return redact(diff);
}

function combine(resource: TrackedConnector, config: DriftReport, status: StatusCheck | undefined): CheckedResource {
  const drift: ResourceDrift = {
    ...config,
    maskedDiff: redactDiff(config.maskedDiff),
    detected: config.detected || status?.drifted === true,
  };
  if (status) drift.status = status;
  return { ...identity(resource), drift };
}

type CheckLive = (typeof import("../provider/drift.js"))["checkLive"];

/** One source or destination against the API: config, status, and whether it still exists. */
async function checkConnector(checkLive: CheckLive, reader: LiveReader, resource: TrackedConnector): Promise<CheckedResource> {
  const { live, config, status } = await checkLive(reader, resource);
  return live ? combine(resource, config, status) : deleted(resource);
}

/**
 * Every resource, in the given order. Each kind is listed once (pages of 100) and the
 * destinations' config comparisons are fetched concurrently, all within the client's limiter;
 * the first error (other than "not found", which is drift) fails the whole check, because a
 * partial report would read as "clean" for the resources it could not see.
 */
export async function checkAll(api: CdcClient, resources: readonly TrackedConnector[]): Promise<CheckedResource[]> {
  if (resources.length === 0) return [];
  const [{ checkLive }, { LiveCache }] = await connectorModules();
  // A cache of its own per check: every run of the command reads the API afresh. The stack's
  // destinations are known here, so nothing is fetched ahead on speculation.
  const reader = new LiveCache(api, { prefetchComparisons: false }).reader("drift");
  return Promise.all(resources.map((r) => checkConnector(checkLive, reader, r)));
}

/**
 * A pipeline, tag, transform, topic, agent, HTTP or LLM connection or Kafka user against the API:
 * deleted, or what changed, in the sentences a plain preview prints for it (secrets are never read).
 */
export async function checkObject(api: CdcClient, resource: TrackedObject): Promise<CheckedResource> {
  const identity = { type: resource.kind, name: resource.name, id: resource.id, urn: resource.urn };
  const { gone, findings } = await (await driftRules(resource.kind)).findDrift(api, resource.id, resource.outputs, resource.name);
  if (gone) return { ...identity, drift: { ...NO_DRIFT, detected: true, deleted: true } };
  return { ...identity, drift: { ...NO_DRIFT, detected: findings.length > 0, maskedDiff: redactDiff(findings.join("\n")) } };
}
