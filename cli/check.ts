import type { CdcClient } from "../provider/client/index.js";
import { redact } from "../provider/client/redact.js";
import type { DriftReport, StatusCheck } from "../provider/drift.js";
import type { LiveReader } from "../provider/live-cache.js";
import type { PipelineInputs } from "../provider/resources/pipeline.js";
import type { TransformOutputs } from "../provider/resources/transform.js";
import type { CheckedKind, TrackedConnector, TrackedObject, TrackedPipeline } from "./state.js";

// What each kind's check needs (its API calls and its core's findings) is loaded when the stack
// holds that kind, not before: a stack of sources and destinations loads neither the pipelines'
// nor the agents' modules, and an empty one not even the API client. The API calls are the same.

/** The modules of each kind's check, loaded on first use (a module loads once however often it is asked for). */
const modules = {
  connector: () => Promise.all([import("../provider/drift.js"), import("../provider/live-cache.js")]),
  pipeline: () => Promise.all([import("../provider/pipelines/api.js"), import("../provider/resources/pipeline.js")]),
  tag: () => import("../provider/resources/tag.js"),
  client_credential: () => import("../provider/resources/clientCredential.js"),
  transform: () => Promise.all([import("../provider/pipelines/api.js"), import("../provider/pipelines/deploy.js"), import("../provider/resources/transform.js")]),
  topic: () => import("../provider/resources/topic.js"),
  topic_destination: () => import("../provider/resources/topicDestination.js"),
  agent: () => import("../provider/resources/agent.js"),
  http_connection: () => import("../provider/resources/httpConnection.js"),
  llm_connection: () => import("../provider/resources/llmConnection.js"),
  kafka_user: () => Promise.all([import("../provider/kafka/api.js"), import("../provider/resources/kafkaUser.js")]),
  smt_chain: () => Promise.all([import("../provider/smt/api.js"), import("../provider/resources/destinationSmtChain.js")]),
} satisfies Record<Exclude<CheckedKind, "source" | "destination"> | "connector", () => Promise<unknown>>;

/**
 * Loads the API client and the checks of the given kinds, and nothing else: `pulumi-cdc drift`
 * calls it while the Pulumi CLI reads the stack's config, so the loading costs no wall time.
 */
export async function loadChecks(kinds: Iterable<CheckedKind>): Promise<void> {
  const wanted = new Set([...kinds].map((k) => (k === "source" || k === "destination" ? "connector" : k)));
  await Promise.all([import("../provider/client/index.js"), ...[...wanted].map((k) => modules[k]())]);
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
  const [{ checkLive }, { LiveCache }] = await modules.connector();
  // A cache of its own per check: every run of the command reads the API afresh. The stack's
  // destinations are known here, so nothing is fetched ahead on speculation.
  const reader = new LiveCache(api, { prefetchComparisons: false }).reader("drift");
  return Promise.all(resources.map((r) => checkConnector(checkLive, reader, r)));
}

/**
 * A pipeline against the API: deleted, or what changed (source, destination, topics as sets of
 * names, transforms, snapshotNewTables, tags), with the same findings a plain preview prints.
 */
export async function checkPipeline(api: CdcClient, resource: TrackedPipeline): Promise<CheckedResource> {
  const identity = { type: resource.kind, name: resource.name, id: resource.id, urn: resource.urn };
  const [{ getPipeline }, { pipelineFindings }] = await modules.pipeline();
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
    case "tag": {
      const { findTag, tagFindings } = await modules.tag();
      return of(await findTag(api, resource.id), (live) => tagFindings(live, recorded));
    }
    case "client_credential": {
      const { credentialFindings, findCredential } = await modules.client_credential();
      return of(await findCredential(api, resource.id), (live) => credentialFindings(live, recorded));
    }
    case "transform": {
      const [{ getTransform }, { jobStatus }, { transformFindings }] = await modules.transform();
      const live = await getTransform(api, resource.id);
      const job = live && recorded.deploy === true ? ((await jobStatus(api, resource.id))?.status ?? "NOT_DEPLOYED") : undefined;
      return of(live, (l) => transformFindings(l, recorded as unknown as TransformOutputs, job));
    }
    case "topic": {
      const { getTopic, topicFindings } = await modules.topic();
      return of(await getTopic(api, resource.id), (live) => topicFindings(live, recorded));
    }
    case "topic_destination": {
      const { getTopicDestination, parseBindingId, topicDestinationFindings } = await modules.topic_destination();
      // Detached outside Pulumi is drift, not a deletion: `pulumi up` attaches it again.
      const ends = parseBindingId(resource.id);
      const findings = topicDestinationFindings(await getTopicDestination(api, ends), ends);
      return { gone: false, findings };
    }
    case "agent": {
      const { agentFindings, getLive } = await modules.agent();
      return of(await getLive(api, resource.id), (live) => agentFindings(live, recorded));
    }
    case "http_connection": {
      const { getLive, httpConnectionFindings } = await modules.http_connection();
      return of(await getLive(api, resource.id), (live) => httpConnectionFindings(live, recorded));
    }
    case "llm_connection": {
      const { getLive, llmConnectionFindings } = await modules.llm_connection();
      return of(await getLive(api, resource.id), (live) => llmConnectionFindings(live, recorded));
    }
    case "kafka_user": {
      const [{ findKafkaUser }, { kafkaUserFindings }] = await modules.kafka_user();
      // One listing for every Kafka user of the stack: the API has no read of one.
      const username = typeof recorded.username === "string" ? recorded.username : resource.id;
      return of(await findKafkaUser(api, username), (live) => kafkaUserFindings(live, recorded).findings);
    }
    case "smt_chain": {
      const [{ getChain }, { smtChainDrift }] = await modules.smt_chain();
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
