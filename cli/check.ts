import { secretKeySet } from "../provider/catalogue.js";
import {
  destinationConnectorSchema,
  isNotFound,
  redact,
  sourceConnectorSchema,
  type CdcClient,
} from "../provider/client/index.js";
import { compareToOriginal, destinationDrift, NO_DRIFT, sourceDrift, type DriftReport } from "../provider/drift.js";
import { alignLiveConfig } from "../provider/normalize.js";
import type { ConnectorKind, TrackedConnector } from "./state.js";

/** Live connector_status against the program's desiredState. */
export interface StatusCheck {
  /** The program's desiredState: active, paused or stopped. */
  desired: string;
  /** The API's connector_status: Active, Paused, Stopped, Broken, Starting, ... */
  live: string;
  /**
   * True when the live status is another lifecycle state (someone paused, resumed or stopped it).
   * Health states (Broken, Starting, Pending, ...) are not drift: `pulumi up` cannot change them.
   */
  drifted: boolean;
}

/** A DriftReport whose `detected` covers config, status and deletion. */
export interface ResourceDrift extends DriftReport {
  status?: StatusCheck;
  /** The object no longer exists in the API. */
  deleted?: true;
}

export interface CheckedResource {
  type: ConnectorKind;
  name: string;
  id: string;
  urn: string;
  drift: ResourceDrift;
}

const LIFECYCLE_STATES = new Set(["active", "paused", "stopped"]);

export function statusCheck(desiredState: string, connectorStatus: string | null | undefined): StatusCheck | undefined {
  if (!connectorStatus) return undefined;
  const live = connectorStatus.toLowerCase();
  const desired = desiredState.toLowerCase();
  return { desired, live: connectorStatus, drifted: LIFECYCLE_STATES.has(live) && live !== desired };
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

/**
 * Destination: the API's config history says whether a config was recorded after Pulumi's
 * baseline (its own last write); the GET gives existence and status.
 */
async function checkDestination(api: CdcClient, resource: TrackedConnector): Promise<CheckedResource> {
  const live = await api.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id: resource.id } });
  if (!live) return deleted(resource);
  let config: DriftReport;
  try {
    config = destinationDrift(await compareToOriginal(api, resource.id), resource.baselineTimestamp);
  } catch (err) {
    // Deleted between the two calls.
    if (isNotFound(err)) return deleted(resource);
    throw err;
  }
  return combine(resource, config, statusCheck(resource.desiredState, live.connector_status));
}

/**
 * Source: no history endpoint, so the live config of the keys Pulumi manages is compared with
 * the state's. Keys encrypted in the state are not in `resource.config` and so never compared;
 * the catalogue's secret keys are masked in the diff even if the state held them in plain text.
 */
async function checkSource(api: CdcClient, resource: TrackedConnector): Promise<CheckedResource> {
  const live = await api.findOne("/sources/{id}", sourceConnectorSchema, { params: { id: resource.id } });
  if (!live) return deleted(resource);
  const planned = resource.config;
  const secrets = secretKeySet("source", live.connector ?? resource.connector, planned);
  const config = sourceDrift(planned, alignLiveConfig(planned, live.config, secrets), secrets, `source ${resource.name}`);
  return combine(resource, config, statusCheck(resource.desiredState, live.connector_status));
}

export function checkConnector(api: CdcClient, resource: TrackedConnector): Promise<CheckedResource> {
  return resource.kind === "destination" ? checkDestination(api, resource) : checkSource(api, resource);
}

/**
 * Every resource, in the given order. Requests run concurrently within the client's limiter;
 * the first error (other than "not found", which is drift) fails the whole check, because a
 * partial report would read as "clean" for the resources it could not see.
 */
export function checkAll(api: CdcClient, resources: readonly TrackedConnector[]): Promise<CheckedResource[]> {
  return Promise.all(resources.map((r) => checkConnector(api, r)));
}
