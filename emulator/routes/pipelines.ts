import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.js";
import { objectId } from "../crypto.js";
import { conflict, notFound } from "../errors.js";
import { pageOf, envelope } from "../paging.js";
import type { PipelineRecord, PipelineTransformEntry, Store } from "../store.js";
import { prettyTopic, readThroughDelete, sourceTopics, transformPrefix, transformTopics } from "../topology.js";
import {
  RequestValidationError,
  createdFromField,
  err,
  laxBool,
  nameField,
  pathId,
  queryBool,
  queryInt,
  queryString,
  resolveCreatedFrom,
  validateRequest,
  type ValidationDetail,
} from "../validation.js";

/**
 * Pipelines: one source into one destination, through the transforms' topics. The write body
 * refers to the source, destination and transforms by id (with name and connector copies) and
 * lists one `transforms` entry per (transform, topic) pair, as the platform's API does.
 */

const ref = z.object({ id: z.string().min(1), name: z.string(), connector: z.string() });
const writeBody = z.object({
  name: nameField,
  snapshot_new_tables: laxBool().optional(),
  source: ref.extend({ topics: z.array(z.string()).nullable().optional() }),
  destination: ref,
  transforms: z
    .array(
      z.object({
        id: z.string().min(1),
        name: z.string().nullable().optional(),
        start_time: z.string().nullable().optional(),
        topic_id: z.string().nullable().optional(),
        topic: z.string().nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
  topic_auto_discovery_transforms: z.array(z.object({ transform_id: z.string().min(1), regex: z.string() })).nullable().optional(),
  tags: z.array(z.string().min(1)).nullable().optional(),
  // Opaque to the emulator (its fields are not published): kept as sent, dropped when a PUT leaves it out.
  periodic_audit: z.record(z.string(), z.unknown()).nullable().optional(),
  created_from: createdFromField,
});
type WriteBody = z.output<typeof writeBody>;

const writeQuery = z.object({ secret_returned: queryBool(false), wait: queryBool(true) });
const pathSchema = z.object({ pipeline_id: pathId });
const listQuery = z.object({
  page: queryInt({ default: 1, ge: 1 }),
  page_size: queryInt({ default: 10, ge: 1, le: 100 }),
  partial_name: queryString(),
  source_id: queryString(),
  destination_id: queryString(),
  tag_ids: queryString(),
  secret_returned: queryBool(false),
});

/** The stored form of a write body, or every reference problem at once (422). */
function resolve(store: Store, body: WriteBody): Omit<PipelineRecord, "id" | "created_from" | "created_at" | "updated_at"> {
  const details: ValidationDetail[] = [];
  const source = store.data.sources[body.source.id];
  const destination = store.data.destinations[body.destination.id];
  const refCheck = (kind: "source" | "destination", record: typeof source) => {
    const sent = body[kind];
    if (!record) {
      details.push(err.valueError(["body", kind, "id"], sent.id, `${kind} '${sent.id}' does not exist`));
      return;
    }
    if (sent.name !== record.name) details.push(err.valueError(["body", kind, "name"], sent.name, `${kind} '${record.id}' is named '${record.name}'`));
    if (sent.connector !== record.connector) {
      details.push(err.valueError(["body", kind, "connector"], sent.connector, `${kind} '${record.id}' is a '${record.connector}' connector`));
    }
  };
  refCheck("source", source);
  refCheck("destination", destination);
  const available = source ? sourceTopics(source) : [];
  const prefix = source ? `source_${source.id}.` : undefined;
  const selected: string[] = [];
  (body.source.topics ?? []).forEach((topic, i) => {
    // Accepted as the pretty name or as the topic id the API echoes.
    const name = prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic;
    if (source && !available.includes(name)) {
      details.push(err.valueError(["body", "source", "topics", i], topic, `'${name}' is not a topic of source '${source.name}' (its topics: ${available.join(", ") || "none"})`));
    } else if (!selected.includes(name)) selected.push(name);
  });
  const entries: PipelineTransformEntry[] = [];
  (body.transforms ?? []).forEach((entry, i) => {
    const transform = store.data.transforms[entry.id];
    if (!transform) {
      details.push(err.valueError(["body", "transforms", i, "id"], entry.id, `transform '${entry.id}' does not exist`));
      return;
    }
    const topic = entry.topic_id ? prettyTopic(entry.topic_id) : (entry.topic ?? "");
    const own = transformTopics(store, transform);
    if (topic === "") {
      details.push(err.valueError(["body", "transforms", i, "topic"], entry.topic ?? null, "a topic is required: one of the transform's topics"));
    } else if (!own.includes(topic) && !available.includes(topic)) {
      const known = [...own, ...available];
      details.push(err.valueError(["body", "transforms", i, "topic"], topic, `'${topic}' is neither a topic of transform '${transform.name}' nor of the source (known: ${known.join(", ") || "none"})`));
    } else if (!entries.some((e) => e.id === transform.id && e.topic === topic)) {
      entries.push({ id: transform.id, name: transform.name, start_time: transform.start_time, topic_id: "", topic });
    }
  });
  const auto = body.topic_auto_discovery_transforms ?? [];
  auto.forEach((a, i) => {
    if (!store.data.transforms[a.transform_id]) details.push(err.valueError(["body", "topic_auto_discovery_transforms", i, "transform_id"], a.transform_id, `transform '${a.transform_id}' does not exist`));
    try {
      new RegExp(a.regex);
    } catch {
      details.push(err.valueError(["body", "topic_auto_discovery_transforms", i, "regex"], a.regex, "not a valid regular expression"));
    }
  });
  (body.tags ?? []).forEach((id, i) => {
    if (!store.data.tags[id]) details.push(err.valueError(["body", "tags", i], id, `tag '${id}' does not exist`));
  });
  if (details.length > 0) throw new RequestValidationError(details);
  return {
    name: body.name,
    snapshot_new_tables: body.snapshot_new_tables ?? false,
    source_id: source!.id,
    source_topics: selected,
    destination_id: destination!.id,
    transforms: entries,
    topic_auto_discovery_transforms: auto.map((a) => ({ ...a })),
    tags: [...new Set(body.tags ?? [])],
  };
}

/** The topic id of a pipeline entry as of now: a transform's topics move with its deployed version. */
function entryTopicId(store: Store, record: PipelineRecord, e: PipelineTransformEntry): string {
  const transform = store.data.transforms[e.id];
  if (transform && transformTopics(store, transform).includes(e.topic)) return `${transformPrefix(transform)}.${e.topic}`;
  return `source_${record.source_id}.${e.topic}`;
}

export function renderPipeline(store: Store, record: PipelineRecord) {
  const source = store.data.sources[record.source_id];
  const destination = store.data.destinations[record.destination_id];
  // Sorted by topic id, as the platform keeps them: one transform's entries need not be adjacent.
  const transforms = record.transforms
    .map((e) => {
      const t = store.data.transforms[e.id];
      return { id: e.id, name: t?.name ?? e.name, start_time: t?.start_time ?? null, topic_id: entryTopicId(store, record, e), topic: e.topic };
    })
    .sort((a, b) => a.topic_id.localeCompare(b.topic_id));
  const sourceTopicIds = record.source_topics.map((t) => `source_${record.source_id}.${t}`);
  return {
    id: record.id,
    name: record.name,
    sub_id: store.data.sub_id,
    tenant_id: store.data.tenant_id,
    snapshot_new_tables: record.snapshot_new_tables,
    // The platform echoes the selected topics as topic ids (`source_<id>.<name>`), not as written.
    source: { id: record.source_id, name: source?.name ?? "", connector: source?.connector ?? "", topics: sourceTopicIds },
    destination: { id: record.destination_id, name: destination?.name ?? "", connector: destination?.connector ?? "" },
    transforms,
    topic_auto_discovery_transforms: record.topic_auto_discovery_transforms.map((a) => ({ ...a })),
    topic_ids: [...sourceTopicIds, ...transforms.map((t) => t.topic_id)],
    topics: [...record.source_topics, ...transforms.map((t) => t.topic)],
    status: record.deleting_reads_left !== undefined ? "Deleting" : "Active",
    created_from: record.created_from,
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...(record.tags.length > 0 ? { tags: [...record.tags] } : {}),
    ...(record.periodic_audit ? { periodic_audit: structuredClone(record.periodic_audit) } : {}),
  };
}

/** The periodic audit a write body sets, if any (null is none). */
function auditOf(body: WriteBody): Pick<PipelineRecord, "periodic_audit"> {
  return body.periodic_audit ? { periodic_audit: structuredClone(body.periodic_audit) } : {};
}

export function registerPipelineRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const table = () => store.data.pipelines;
  const find = (id: string): PipelineRecord => {
    const record = table()[id];
    if (!record || record.deleting_reads_left !== undefined) throw notFound(`Pipeline '${id}' not found`);
    return record;
  };
  const assertUniqueName = (name: string, exceptId?: string) => {
    if (Object.values(table()).some((p) => p.name === name && p.id !== exceptId)) throw conflict(`A pipeline named '${name}' already exists`);
  };

  app.post("/pipelines", { config: { permission: "pipelines:write" } }, async (request) => {
    const { body } = validateRequest(request, { query: writeQuery, body: writeBody });
    const resolved = resolve(store, body);
    assertUniqueName(body.name);
    const now = store.nowIso();
    const record: PipelineRecord = { id: objectId(), ...resolved, ...auditOf(body), created_from: resolveCreatedFrom(body.created_from), created_at: now, updated_at: now };
    table()[record.id] = record;
    store.markDirty();
    return renderPipeline(store, record);
  });

  app.get("/pipelines", { config: { permission: "pipelines:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: listQuery });
    const needle = query.partial_name?.toLowerCase();
    const tagIds = query.tag_ids?.split(",").filter(Boolean);
    const matches = Object.values(table())
      .filter((p) => needle === undefined || p.name.toLowerCase().includes(needle))
      .filter((p) => query.source_id === undefined || p.source_id === query.source_id)
      .filter((p) => query.destination_id === undefined || p.destination_id === query.destination_id)
      .filter((p) => !tagIds || tagIds.some((t) => p.tags.includes(t)))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    return pageOf(matches, query.page, query.page_size, (p) => renderPipeline(store, p));
  });

  // As for connectors: the list envelope, empty (not a 404) for an unknown id.
  app.get("/pipelines/:pipeline_id", { config: { permission: "pipelines:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema, query: z.object({ secret_returned: queryBool(false) }) });
    const record = readThroughDelete(table(), path.pipeline_id);
    if (record?.deleting_reads_left !== undefined) store.markDirty();
    const items = record ? [renderPipeline(store, record)] : [];
    return envelope(items, 1, 10, items.length);
  });

  app.put("/pipelines/:pipeline_id", { config: { permission: "pipelines:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: pathSchema, query: writeQuery, body: writeBody });
    const record = find(path.pipeline_id);
    const resolved = resolve(store, body);
    assertUniqueName(body.name, record.id);
    // The platform keeps a pipeline's tags when the body has none (null or absent).
    Object.assign(record, resolved, body.tags === undefined || body.tags === null ? { tags: record.tags } : {}, { updated_at: store.nowIso() });
    // As the platform does: a PUT without the periodic audit drops it.
    delete record.periodic_audit;
    Object.assign(record, auditOf(body));
    store.markDirty();
    return renderPipeline(store, record);
  });

  app.delete("/pipelines/:pipeline_id", { config: { permission: "pipelines:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema, query: writeQuery });
    const record = table()[path.pipeline_id];
    if (!record) throw notFound(`Pipeline '${path.pipeline_id}' not found`);
    const delay = ctx.faults.deleteDelayReads;
    if (record.deleting_reads_left === undefined) {
      if (delay > 0) record.deleting_reads_left = delay;
      else delete table()[record.id];
      store.markDirty();
    }
    return { id: record.id, deleted: true };
  });
}
