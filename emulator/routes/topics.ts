import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { findConnector } from "../catalogue.js";
import type { EmulatorContext } from "../context.js";
import { ApiError, notFound } from "../errors.js";
import type { ConnectorRecord, Store, TopicRecord, TransformRecord } from "../store.js";
import { CLEANUP_POLICY, DEFAULT_PARTITIONS, REPLICATION_FACTOR, RETENTION_MS, sourceTopics, topicOwner, transformTopicIds, type TopicOwner } from "../topology.js";
import { RequestValidationError, err, queryBool, queryInt, validateRequest, type ValidationDetail } from "../validation.js";

/**
 * Topics are made by sources (one per table) and transforms (their outputs); the API only tunes
 * them: partitions (which only grow, as in Kafka) and tags. The topic id goes in the path raw,
 * dots and all. The update body is wrapped: `{payload: {partition_count, tags}}`.
 */

// Kafka topic ids hold dots, dashes and more; the bound is Kafka's 249 plus a prefix.
const pathSchema = z.object({ topic_id: z.string().min(1).max(400) });
// The platform answers the detailed form by default (its Terraform client pins detailed=true).
const readQuery = z.object({ detailed: queryBool(true) });
const repeated = z.union([z.string(), z.array(z.string())]).optional();
const ENTITY_TYPES = ["sources", "transforms", "destinations"] as const;
const listQuery = z.object({
  entity_type: z.enum(ENTITY_TYPES).optional(),
  entity_id: repeated,
  limit: queryInt({ default: 100, ge: 1, le: 1000 }),
  offset: queryInt({ default: 0, ge: 0 }),
});
const metricsBody = z.object({
  entities: z.array(
    z.object({
      id: z.string().min(1),
      entity_type: z.enum(ENTITY_TYPES),
      connector: z.string().optional(),
      // The platform's client sends these without omitempty: null when it has none.
      topic_ids: z.array(z.string()).nullable(),
      topic_db_ids: z.array(z.string()).nullish(),
    }),
  ),
  timestamp_from: z.string().nullable().optional(),
  timestamp_to: z.string().nullable().optional(),
  time_type: z.enum(["latest", "timeseries", "timesummary"]).nullable().optional(),
  time_interval: z.number().int().min(1).nullable().optional(),
  time_unit: z.enum(["minute", "hour", "day", "week", "month"]).nullable().optional(),
});
const updateBody = z.object({
  payload: z.object({
    partition_count: z.number().int().min(1).max(1000).optional(),
    tags: z.array(z.string().min(1)).nullable().optional(),
  }),
});

function tuning(store: Store, id: string): TopicRecord {
  return store.data.topics[id] ?? { id, partition_count: DEFAULT_PARTITIONS, tags: [] };
}

function entityOf(store: Store, owner: TopicOwner) {
  if (owner.entity_type === "sources") {
    const source = owner.entity as ConnectorRecord;
    const topics = sourceTopics(source);
    return {
      entity_type: "sources",
      entity_id: source.id,
      name: source.name,
      connector: source.connector,
      display_name: findConnector("source", source.connector)?.displayName ?? source.connector,
      topic_ids: topics.map((t) => `source_${source.id}.${t}`),
      topic_db_ids: topics,
    };
  }
  const transform = owner.entity as TransformRecord;
  return {
    entity_type: "transforms",
    entity_id: transform.id,
    name: transform.name,
    connector: transform.transform_type,
    display_name: transform.name,
    topic_ids: transformTopicIds(store, transform),
    topic_db_ids: [],
  };
}

/** Every topic id the platform has made: each source's tables, each transform's outputs. */
function allTopics(store: Store): Array<{ id: string; owner: TopicOwner }> {
  const out: Array<{ id: string; owner: TopicOwner }> = [];
  for (const source of Object.values(store.data.sources).sort((a, b) => a.created_timestamp.localeCompare(b.created_timestamp))) {
    for (const name of sourceTopics(source)) {
      const prefix = `source_${source.id}`;
      out.push({ id: `${prefix}.${name}`, owner: { entity_type: "sources", entity: source, name, prefix } });
    }
  }
  for (const transform of Object.values(store.data.transforms).sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    for (const id of transformTopicIds(store, transform)) {
      const owner = topicOwner(store, id);
      if (owner) out.push({ id, owner });
    }
  }
  return out;
}

/**
 * A row of `GET /topics/details`: the topic without its Kafka block. The platform never sends
 * `messages_7d` or `messages_30d`, though its client once read them (the vendor's beta.31).
 */
function renderDetails(store: Store, id: string, owner: TopicOwner) {
  const { kafka: _kafka, ...row } = renderTopic(store, id, owner);
  return row;
}

export function renderTopic(store: Store, id: string, owner: TopicOwner) {
  const t = tuning(store, id);
  return {
    id,
    name: owner.name,
    prefix: owner.prefix,
    entity: entityOf(store, owner),
    serialization: { key_format: "avro", value_format: "avro", schema_registry_enabled: true },
    // The platform's form (the vendor's beta.28): partitions an object, Kafka's configs under
    // underscored names with string values, as Kafka gives every config.
    kafka: {
      partitions: { count: t.partition_count, replication_factor: REPLICATION_FACTOR },
      configs: { retention_ms: String(RETENTION_MS), cleanup_policy: CLEANUP_POLICY },
    },
    ...(t.tags.length > 0 ? { tags: [...t.tags] } : {}),
  };
}

export function registerTopicRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const owned = (id: string): TopicOwner => {
    const owner = topicOwner(store, id);
    if (!owner) throw notFound(`Topic '${id}' not found`);
    return owner;
  };

  // A static path: Fastify matches it before /topics/:topic_id, so `details` is never a topic id.
  app.get("/topics/details", { config: { permission: "topics:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: listQuery });
    const ids = query.entity_id === undefined ? undefined : (Array.isArray(query.entity_id) ? query.entity_id : [query.entity_id]).flatMap((v) => v.split(","));
    const matches = allTopics(store)
      .filter((t) => query.entity_type === undefined || t.owner.entity_type === query.entity_type)
      .filter((t) => ids === undefined || ids.includes(t.owner.entity.id));
    const rows = matches.slice(query.offset, query.offset + query.limit).map((t) => renderDetails(store, t.id, t.owner));
    return {
      result: rows,
      page: Math.floor(query.offset / query.limit) + 1,
      page_size: query.limit,
      total: matches.length,
      has_next: query.offset + query.limit < matches.length,
    };
  });

  // Metrics by topic id (the vendor's beta.31): a topic the tenant does not own (its source or
  // transform is not the tenant's, or there is no such topic) is left out. The emulator moves no
  // data: no message was seen, no snapshot ran, no record failed.
  app.post("/topics/table_metrics", { config: { permission: "topics:read" } }, async (request) => {
    const { body } = validateRequest(request, { body: metricsBody });
    const out: Record<string, Record<string, unknown>> = {};
    for (const entity of body.entities) {
      for (const topicId of entity.topic_ids ?? []) {
        if (!topicOwner(store, topicId)) continue;
        out[topicId] = {
          partition_count: tuning(store, topicId).partition_count,
          replication_factor: REPLICATION_FACTOR,
          retention_ms: String(RETENTION_MS),
          last_message_timestamp: null,
          snapshot_status_json: null,
          record_error_total: 0,
        };
      }
    }
    return out;
  });

  app.get("/topics/:topic_id", { config: { permission: "topics:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema, query: readQuery });
    return renderTopic(store, path.topic_id, owned(path.topic_id));
  });

  app.put("/topics/:topic_id", { config: { permission: "topics:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: pathSchema, body: updateBody }, ({ body: b }) =>
      b.payload.partition_count === undefined && (b.payload.tags === undefined || b.payload.tags === null)
        ? [err.valueError(["body", "payload"], b.payload, "set partition_count, tags, or both")]
        : [],
    );
    // Only topics the platform made for a source or transform: no create-if-missing.
    const owner = owned(path.topic_id);
    const current = tuning(store, path.topic_id);
    const details: ValidationDetail[] = [];
    const count = body.payload.partition_count;
    if (count !== undefined && count < current.partition_count) {
      details.push(
        err.valueError(["body", "payload", "partition_count"], count, `partitions can only be increased: topic '${path.topic_id}' has ${current.partition_count}`),
      );
    }
    const tags = body.payload.tags;
    (tags ?? []).forEach((id, i) => {
      if (!store.data.tags[id]) details.push(err.valueError(["body", "payload", "tags", i], id, `tag '${id}' does not exist`));
    });
    if (details.length > 0) throw new RequestValidationError(details);
    store.data.topics[path.topic_id] = {
      id: path.topic_id,
      partition_count: count ?? current.partition_count,
      tags: tags === undefined || tags === null ? current.tags : [...new Set(tags)],
    };
    store.markDirty();
    return renderTopic(store, path.topic_id, owner);
  });

  // Topics come and go with their source's tables or their transform: never deleted on their own.
  app.delete("/topics/:topic_id", { config: { permission: "topics:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const owner = owned(path.topic_id);
    const what = owner.entity_type === "sources" ? "source" : "transform";
    throw new ApiError(409, `Topic '${path.topic_id}' belongs to ${what} '${owner.entity.name}': remove it from the ${what} instead`);
  });
}
