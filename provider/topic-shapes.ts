import { z } from "zod";
import { jsonObject } from "./client/json-object.js";

/**
 * How the service answers about topics, read into what the lookups return: pure, so every shape
 * it has answered in is tested without a server. The vendor's CHANGELOG is the authority on the
 * shapes: beta.28 for a topic's details, beta.31 for the table metrics.
 */

/** A whole number from a number or a numeric string: Kafka's configs travel as strings. */
export function intOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** A number, or a numeric string read as one. */
export const looseInt = z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v), z.number());

export const topicEntitySchema = z.looseObject({
  entity_type: z.string().nullish(),
  entity_id: z.string().nullish(),
  name: z.string().nullish(),
  connector: z.string().nullish(),
  topic_ids: z.array(z.string()).nullish(),
  topic_db_ids: z.array(z.string()).nullish(),
});

export const topicDetailSchema = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  prefix: z.string().nullish(),
  entity: topicEntitySchema.nullish(),
  // The service answers `{count, replication_factor, ...}`; a bare number is read too.
  kafka: z
    .looseObject({
      partitions: z.union([looseInt, z.looseObject({ count: looseInt.nullish() })]).nullish(),
      configs: jsonObject.nullish(),
    })
    .nullish(),
  partition_count: looseInt.nullish(),
  tags: z.array(z.union([z.string(), z.looseObject({ id: z.string() })])).nullish(),
});
export type LiveTopicDetail = z.output<typeof topicDetailSchema>;

export interface TopicLookup {
  id: string;
  name: string;
  prefix: string;
  /** `sources`, `transforms` or `destinations`. */
  entityType: string;
  entityId: string;
  entityName: string;
  partitionCount: number;
  /** Kafka's `retention.ms`, when the API says. */
  retentionMs?: number;
  /** Kafka's `cleanup.policy` (`delete`, `compact`), when the API says. */
  cleanupPolicy?: string;
  tagIds: string[];
}

/**
 * A topic's details as the lookups return them. The service sends `kafka.configs` under
 * `retention_ms` and `cleanup_policy`, as strings; the dotted Kafka names (`retention.ms`) of
 * the older reference are read too, the service's names first.
 */
export function topicLookupOf(t: LiveTopicDetail): TopicLookup {
  const p = t.kafka?.partitions;
  const configs = t.kafka?.configs ?? {};
  const retention = intOf(configs.retention_ms ?? configs["retention.ms"]);
  const cleanup = configs.cleanup_policy ?? configs["cleanup.policy"];
  return {
    id: t.id,
    name: t.name ?? "",
    prefix: t.prefix ?? "",
    entityType: t.entity?.entity_type ?? "",
    entityId: t.entity?.entity_id ?? "",
    entityName: t.entity?.name ?? "",
    partitionCount: (typeof p === "number" ? p : p?.count) ?? t.partition_count ?? 0,
    ...(retention !== undefined ? { retentionMs: retention } : {}),
    ...(typeof cleanup === "string" && cleanup !== "" ? { cleanupPolicy: cleanup } : {}),
    tagIds: (t.tags ?? []).map((x) => (typeof x === "string" ? x : x.id)),
  };
}

export interface TopicMetricsLookup {
  topicId: string;
  /** The source, transform or destination the topic belongs to. */
  entityId: string;
  partitionCount?: number;
  replicationFactor?: number;
  retentionMs?: number;
  /** When the topic last received a message, as the API gives it. */
  lastMessageTimestamp?: string;
  /** The snapshot status the API sends as JSON text (`snapshot_status_json`), parsed. */
  snapshotStatus?: unknown;
  recordErrorTotal?: number;
}

/** The table metrics' answer: `{<topic id>: {partition_count, ...}}` (beta.31); rows are read by metricsOf. */
export const metricsAnswerSchema = z.record(z.string(), z.unknown());

/**
 * One topic's row of the table metrics, or undefined when the answer leaves the topic out (the
 * service leaves out the topics the tenant does not own). A value the service sends as null is
 * absent; a reported zero stays zero.
 */
export function metricsOf(answer: Readonly<Record<string, unknown>>, topicId: string, entityId: string): TopicMetricsLookup | undefined {
  const row = answer[topicId];
  if (row === null || typeof row !== "object" || Array.isArray(row)) return undefined;
  const m = row as Record<string, unknown>;
  const out: TopicMetricsLookup = { topicId, entityId };
  const partitions = intOf(m.partition_count);
  if (partitions !== undefined) out.partitionCount = partitions;
  const replication = intOf(m.replication_factor);
  if (replication !== undefined) out.replicationFactor = replication;
  const retention = intOf(m.retention_ms);
  if (retention !== undefined) out.retentionMs = retention;
  const last = m.last_message_timestamp;
  if (typeof last === "string" && last !== "") out.lastMessageTimestamp = last;
  else if (typeof last === "number" && Number.isFinite(last)) out.lastMessageTimestamp = String(last);
  const snapshot = jsonOf(m.snapshot_status_json);
  if (snapshot !== undefined) out.snapshotStatus = snapshot;
  const errors = intOf(m.record_error_total);
  if (errors !== undefined) out.recordErrorTotal = errors;
  return out;
}

/** JSON text parsed; text that is not JSON is kept as it came; an object the service sent already parsed stays one. */
function jsonOf(value: unknown): unknown {
  if (value === null || value === undefined || value === "") return undefined;
  if (typeof value !== "string") return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed === null ? undefined : parsed;
  } catch {
    return value;
  }
}
