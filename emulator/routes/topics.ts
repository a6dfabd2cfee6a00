import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { findConnector } from "../catalogue.js";
import type { EmulatorContext } from "../context.js";
import { ApiError, notFound } from "../errors.js";
import type { ConnectorRecord, Store, TopicRecord, TransformRecord } from "../store.js";
import { DEFAULT_PARTITIONS, sourceTopics, topicOwner, transformTopicIds, type TopicOwner } from "../topology.js";
import { RequestValidationError, err, queryBool, validateRequest, type ValidationDetail } from "../validation.js";

/**
 * Topics are made by sources (one per table) and transforms (their outputs); the API only tunes
 * them: partitions (which only grow, as in Kafka) and tags. The topic id goes in the path raw,
 * dots and all. The update body is wrapped: `{payload: {partition_count, tags}}`.
 */

// Kafka topic ids hold dots, dashes and more; the bound is Kafka's 249 plus a prefix.
const pathSchema = z.object({ topic_id: z.string().min(1).max(400) });
const readQuery = z.object({ detailed: queryBool(false) });
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

export function renderTopic(store: Store, id: string, owner: TopicOwner) {
  const t = tuning(store, id);
  return {
    id,
    name: owner.name,
    prefix: owner.prefix,
    entity: entityOf(store, owner),
    serialization: { key_format: "avro", value_format: "avro", schema_registry_enabled: true },
    kafka: { partitions: { count: t.partition_count }, configs: { "retention.ms": 604800000, "cleanup.policy": "delete" } },
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
