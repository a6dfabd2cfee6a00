import { deriveTopics } from "./connector-config.js";
import type { ConnectorRecord, PipelineRecord, Store, TransformRecord } from "./store.js";

/**
 * How sources, transforms, topics and pipelines refer to each other: which topics exist, who
 * owns a topic id, and which pipelines hold an object (so it cannot be deleted under them).
 */

/** Topics get this many partitions when the platform creates them (tuned with PUT /topics/{id}). */
export const DEFAULT_PARTITIONS = 3;

/** Every topic's replication factor and Kafka configs, as the platform reports them (no route changes them). */
export const REPLICATION_FACTOR = 3;
export const RETENTION_MS = 604_800_000;
export const CLEANUP_POLICY = "delete";

/** Placeholder patterns of a transform created without real ones: they match nothing. */
const PLACEHOLDER = /^placeholder-/;

/** The prefix of a transform's topic ids: its id and the version of its live deployment (0 before any). */
export function transformPrefix(t: TransformRecord): string {
  return `transform_${t.id}_${t.job?.deployed_version ?? 0}`;
}

/**
 * A transform's output topics, as Kafka Connect's RegexRouter names them: every source topic
 * the input pattern matches (the whole name; topic_router takes a comma-separated list of
 * names or patterns) renamed by the output pattern (`$1` ... are the pattern's groups).
 * Placeholder or invalid patterns give no topics.
 */
export function transformTopics(store: Store, t: TransformRecord): string[] {
  const input = String(t.config["transforms.input.topic.pattern"] ?? "");
  const output = String(t.config["transforms.output.topic.pattern"] ?? "");
  if (input === "" || output === "" || PLACEHOLDER.test(input) || PLACEHOLDER.test(output)) return [];
  let patterns: RegExp[];
  try {
    const parts = t.transform_type === "topic_router" ? input.split(",").map((s) => s.trim()).filter(Boolean) : [input];
    patterns = parts.map((p) => new RegExp(`^(?:${p})$`));
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const source of Object.values(store.data.sources)) {
    for (const topic of deriveTopics(source).topics) {
      const match = patterns.find((re) => re.test(topic));
      if (match) out.add(topic.replace(match, output));
    }
  }
  return [...out].sort();
}

export function transformTopicIds(store: Store, t: TransformRecord): string[] {
  const prefix = transformPrefix(t);
  return transformTopics(store, t).map((topic) => `${prefix}.${topic}`);
}

export function sourceTopics(source: ConnectorRecord): string[] {
  return deriveTopics(source).topics;
}

/** The pretty name of a topic id: everything after the first dot (as the platform rebuilds it). */
export function prettyTopic(topicId: string): string {
  const dot = topicId.indexOf(".");
  return dot < 0 ? topicId : topicId.slice(dot + 1);
}

export interface TopicOwner {
  entity_type: "sources" | "transforms";
  entity: ConnectorRecord | TransformRecord;
  name: string;
  prefix: string;
}

/** Which source or transform a topic id belongs to, or undefined when no such topic exists. */
export function topicOwner(store: Store, topicId: string): TopicOwner | undefined {
  const dot = topicId.indexOf(".");
  if (dot < 0) return undefined;
  const prefix = topicId.slice(0, dot);
  const name = topicId.slice(dot + 1);
  const source = /^source_(.+)$/.exec(prefix);
  if (source) {
    const record = store.data.sources[source[1]!];
    return record && sourceTopics(record).includes(name) ? { entity_type: "sources", entity: record, name, prefix } : undefined;
  }
  const transform = /^transform_(.+)_(\d+)$/.exec(prefix);
  if (transform) {
    const record = store.data.transforms[transform[1]!];
    if (!record || transformPrefix(record) !== prefix) return undefined;
    return transformTopics(store, record).includes(name) ? { entity_type: "transforms", entity: record, name, prefix } : undefined;
  }
  return undefined;
}

/** Pipelines that use a source, destination or transform: it cannot be deleted while they exist. */
export function pipelinesUsing(store: Store, what: { source?: string; destination?: string; transform?: string }): PipelineRecord[] {
  return Object.values(store.data.pipelines).filter(
    (p) =>
      (what.source !== undefined && p.source_id === what.source) ||
      (what.destination !== undefined && p.destination_id === what.destination) ||
      (what.transform !== undefined && (p.transforms.some((e) => e.id === what.transform) || p.topic_auto_discovery_transforms.some((a) => a.transform_id === what.transform))),
  );
}

/** The 409 detail for deleting an object pipelines still use. */
export function inUseMessage(label: string, id: string, users: readonly PipelineRecord[]): string {
  const names = users.map((p) => `'${p.name}' (${p.id})`).join(", ");
  return `${label} '${id}' is used by pipeline${users.length === 1 ? "" : "s"} ${names}: delete ${users.length === 1 ? "that pipeline" : "those pipelines"} or take the ${label.toLowerCase()} out of ${users.length === 1 ? "it" : "them"} first`;
}

/**
 * Delayed deletes (fault option `deleteDelayReads`): a GET of a record being deleted counts down,
 * and the GET that reaches zero finds it gone. Returns the record when it is (still) there.
 */
export function readThroughDelete<T extends { id: string; deleting_reads_left?: number }>(table: Record<string, T>, id: string): T | undefined {
  const record = table[id];
  if (!record || record.deleting_reads_left === undefined) return record;
  if (record.deleting_reads_left <= 0) {
    delete table[id];
    return undefined;
  }
  record.deleting_reads_left -= 1;
  return record;
}
