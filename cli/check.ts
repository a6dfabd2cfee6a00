import { redact, type CdcClient } from "../provider/client/index.js";
import { checkLive, NO_DRIFT, type DriftReport, type StatusCheck } from "../provider/drift.js";
import { LiveCache, type LiveReader } from "../provider/live-cache.js";
import { findKafkaUser } from "../provider/kafka/api.js";
import { getPipeline, getTransform } from "../provider/pipelines/api.js";
import { jobStatus } from "../provider/pipelines/deploy.js";
import { agentFindings, getLive as getAgent } from "../provider/resources/agent.js";
import { credentialFindings, findCredential } from "../provider/resources/clientCredential.js";
import { getLive as getHttpConnection, httpConnectionFindings } from "../provider/resources/httpConnection.js";
import { kafkaUserFindings } from "../provider/resources/kafkaUser.js";
import { getLive as getLlmConnection, llmConnectionFindings } from "../provider/resources/llmConnection.js";
import { pipelineFindings, type PipelineInputs } from "../provider/resources/pipeline.js";
import { findTag, tagFindings } from "../provider/resources/tag.js";
import { getTopic, topicFindings } from "../provider/resources/topic.js";
import { smtChainDrift } from "../provider/resources/destinationSmtChain.js";
import { getChain } from "../provider/smt/api.js";
import { getTopicDestination, parseBindingId, topicDestinationFindings } from "../provider/resources/topicDestination.js";
import { transformFindings, type TransformOutputs } from "../provider/resources/transform.js";
import type { CheckedKind, TrackedConnector, TrackedObject, TrackedPipeline } from "./state.js";

export { statusCheck, type StatusCheck } from "../provider/drift.js";

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

/** One source or destination against the API: config, status, and whether it still exists. */
export async function checkConnector(reader: LiveReader, resource: TrackedConnector): Promise<CheckedResource> {
  const { live, config, status } = await checkLive(reader, resource);
  return live ? combine(resource, config, status) : deleted(resource);
}

/**
 * Every resource, in the given order. Each kind is listed once (pages of 100) and the
 * destinations' config comparisons are fetched concurrently, all within the client's limiter;
 * the first error (other than "not found", which is drift) fails the whole check, because a
 * partial report would read as "clean" for the resources it could not see.
 */
export function checkAll(api: CdcClient, resources: readonly TrackedConnector[]): Promise<CheckedResource[]> {
  // A cache of its own per check: every run of the command reads the API afresh. The stack's
  // destinations are known here, so nothing is fetched ahead on speculation.
  const reader = new LiveCache(api, { prefetchComparisons: false }).reader("drift");
  return Promise.all(resources.map((r) => checkConnector(reader, r)));
}

/**
 * A pipeline against the API: deleted, or what changed (source, destination, topics as sets of
 * names, transforms, snapshotNewTables, tags), with the same findings a plain preview prints.
 */
export async function checkPipeline(api: CdcClient, resource: TrackedPipeline): Promise<CheckedResource> {
  const identity = { type: resource.kind, name: resource.name, id: resource.id, urn: resource.urn };
  const live = await getPipeline(api, resource.id);
  if (!live) return { ...identity, drift: { ...NO_DRIFT, detected: true, deleted: true } };
  const recorded = resource.outputs as unknown as PipelineInputs;
  const findings = pipelineFindings(live, {
    name: recorded.name ?? resource.name,
    source: recorded.source ?? { id: "" },
    destination: recorded.destination ?? { id: "" },
    sourceTopics: Array.isArray(recorded.sourceTopics) ? recorded.sourceTopics : [],
    transforms: Array.isArray(recorded.transforms) ? recorded.transforms : [],
    snapshotNewTables: recorded.snapshotNewTables === true,
    ...(Array.isArray(recorded.tags) ? { tags: recorded.tags } : {}),
  });
  return { ...identity, drift: { ...NO_DRIFT, detected: findings.length > 0, maskedDiff: redactDiff(findings.join("\n")) } };
}

/** The object's live state (undefined: gone) and what changed, by the kind core's own rule. */
async function objectFindings(api: CdcClient, resource: TrackedObject): Promise<{ gone: boolean; findings: string[] }> {
  const recorded = resource.outputs;
  const of = <T>(live: T | undefined, findings: (live: T | undefined) => string[]) => ({ gone: live === undefined, findings: findings(live) });
  switch (resource.kind) {
    case "tag":
      return of(await findTag(api, resource.id), (live) => tagFindings(live, recorded));
    case "client_credential":
      return of(await findCredential(api, resource.id), (live) => credentialFindings(live, recorded));
    case "transform": {
      const live = await getTransform(api, resource.id);
      const job = live && recorded.deploy === true ? ((await jobStatus(api, resource.id))?.status ?? "NOT_DEPLOYED") : undefined;
      return of(live, (l) => transformFindings(l, recorded as unknown as TransformOutputs, job));
    }
    case "topic":
      return of(await getTopic(api, resource.id), (live) => topicFindings(live, recorded));
    case "topic_destination": {
      // Detached outside Pulumi is drift, not a deletion: `pulumi up` attaches it again.
      const ends = parseBindingId(resource.id);
      const findings = topicDestinationFindings(await getTopicDestination(api, ends), ends);
      return { gone: false, findings };
    }
    case "agent":
      return of(await getAgent(api, resource.id), (live) => agentFindings(live, recorded));
    case "http_connection":
      return of(await getHttpConnection(api, resource.id), (live) => httpConnectionFindings(live, recorded));
    case "llm_connection":
      return of(await getLlmConnection(api, resource.id), (live) => llmConnectionFindings(live, recorded));
    case "kafka_user": {
      // One listing for every Kafka user of the stack: the API has no read of one.
      const username = typeof recorded.username === "string" ? recorded.username : resource.id;
      return of(await findKafkaUser(api, username), (live) => kafkaUserFindings(live, recorded).findings);
    }
    case "smt_chain": {
      const destination = typeof recorded.destination === "string" ? recorded.destination : resource.id;
      return of(await getChain(api, destination), (live) => smtChainDrift(live, recorded));
    }
  }
}

/**
 * A tag, transform, topic, agent, HTTP or LLM connection or Kafka user against the API: deleted,
 * or what changed, in the sentences a plain preview prints for it (secrets are never read).
 */
export async function checkObject(api: CdcClient, resource: TrackedObject): Promise<CheckedResource> {
  const identity = { type: resource.kind, name: resource.name, id: resource.id, urn: resource.urn };
  const { gone, findings } = await objectFindings(api, resource);
  if (gone) return { ...identity, drift: { ...NO_DRIFT, detected: true, deleted: true } };
  return { ...identity, drift: { ...NO_DRIFT, detected: findings.length > 0, maskedDiff: redactDiff(findings.join("\n")) } };
}
