import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { connectorCodes, findConnector as findCatalogued } from "../../catalogue/index.js";
import type { ConnectorSpec } from "../catalogue.js";
import { checkConfig } from "../connector-config.js";
import type { EmulatorContext } from "../context.js";
import { objectId } from "../crypto.js";
import { ApiError, conflict, notFound } from "../errors.js";
import { parseFailure } from "../implementation.js";
import { envelope, pageOf } from "../paging.js";
import type { Store, TransformRecord } from "../store.js";
import { inUseMessage, pipelinesUsing, readThroughDelete, transformTopicIds, transformTopics } from "../topology.js";
import {
  RequestValidationError,
  addPydanticIssue,
  createdFromField,
  err,
  pathId,
  queryBool,
  queryInt,
  queryString,
  resolveCreatedFrom,
  validateRequest,
  withoutLoc,
} from "../validation.js";

/**
 * Transforms, with the platform's irregular shapes: update and delete carry the id in the body
 * and the query (`PUT /transforms`, `DELETE /transforms?id=`), get-by-id answers the list
 * envelope, the implementation lives in versions of its own, and deploying starts a job whose
 * status is read separately.
 */

const TYPES = connectorCodes("transform");
const typeField = z.string().superRefine((value, ctx) => {
  if (!findCatalogued("transform", value)) addPydanticIssue(ctx, withoutLoc(err.enumError([], value, TYPES)));
});
const tagsField = z.array(z.string().min(1)).nullable().optional();
const implementationField = z.record(z.string(), z.unknown());

const createBody = z.object({ transform: typeField, config: z.record(z.string(), z.unknown()), created_from: createdFromField, tags: tagsField, implementation: implementationField.nullable().optional() });
const updateBody = z.object({ id: z.string().min(1), transform: typeField, config: z.record(z.string(), z.unknown()), implementation: implementationField.nullable().optional(), tags: tagsField });
const implementationBody = z.object({
  transform_id: z.string().min(1),
  implementation: implementationField,
  version_id: z.union([z.string(), z.number()]).nullable().optional(),
  description: z.string().nullable().optional(),
  config: z.record(z.string(), z.unknown()).nullable().optional(),
});
const pathSchema = z.object({ transform_id: pathId });
const versionPath = z.object({ transform_id: pathId, version: pathId });
const readQuery = z.object({ secret_returned: queryBool(false), unwind_topics: queryBool(true) });
const deleteQuery = z.object({ id: pathId });
const listQuery = z.object({
  page: queryInt({ default: 1, ge: 1 }),
  page_size: queryInt({ default: 10, ge: 1, le: 100 }),
  partial_name: queryString(),
  secret_returned: queryBool(false),
});
const previewQuery = z.object({ replay_window: z.string().regex(/^\d+[smhd]$/).optional() });

/** Job status reads that still answer DEPLOYING after a live deploy, before the job settles. */
const DEPLOYING_POLLS = 1;

/** The catalogue's transform spec in the shape the config checker reads. */
function specOf(type: string): ConnectorSpec {
  const spec = findCatalogued("transform", type)!;
  return { ...spec, kind: "source", connector: spec.code } as ConnectorSpec;
}

function checkedConfig(store: Store, type: string, raw: Record<string, unknown>) {
  const checked = checkConfig(specOf(type), raw, store.vault);
  if (!checked.ok) throw new RequestValidationError(checked.details);
  return checked.value.config;
}

export function renderTransform(store: Store, t: TransformRecord) {
  return {
    id: t.id,
    name: t.name,
    transform_type: t.transform_type,
    status: t.job?.status ?? "NOT_DEPLOYED",
    sub_id: store.data.sub_id,
    tenant_id: store.data.tenant_id,
    service_id: store.data.service_id,
    job_name: `job-${t.id}`,
    config: Object.fromEntries(Object.entries(t.config).map(([k, v]) => [k, typeof v === "object" ? v : String(v)])),
    implementation: t.implementation,
    version: t.version,
    live_version: t.job?.deployed_version ?? null,
    topic_ids: transformTopicIds(store, t),
    topics: transformTopics(store, t),
    created_from: t.created_from,
    created_at: t.created_at,
    updated_at: t.updated_at,
    start_time: t.start_time,
    ...(t.tags.length > 0 ? { tags: [...t.tags] } : {}),
  };
}

/** `no-version` (normalised to the latest) or a version number the transform has. */
function versionOf(t: TransformRecord, raw: string): number {
  if (raw === "no-version" || raw === "0") return t.version;
  const n = Number(raw);
  if (!Number.isInteger(n) || !t.impl_versions[String(n)]) throw notFound(`Version '${raw}' of transform '${t.id}' not found`);
  return n;
}

export function registerTransformRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const table = () => store.data.transforms;
  const find = (id: string): TransformRecord => {
    const record = table()[id];
    if (!record || record.deleting_reads_left !== undefined) throw notFound(`Transform not found: ${id}`);
    return record;
  };
  const checkTags = (tags: string[] | null | undefined): string[] | undefined => {
    if (tags === undefined || tags === null) return undefined;
    const details = tags.flatMap((id, i) => (store.data.tags[id] ? [] : [err.valueError(["body", "tags", i], id, `tag '${id}' does not exist`)]));
    if (details.length > 0) throw new RequestValidationError(details);
    return [...new Set(tags)];
  };
  // A duplicate transform name is a 422 "already exists" (pipelines use 409), as the platform answers.
  const assertUniqueName = (name: string, exceptId?: string) => {
    if (Object.values(table()).some((t) => t.name === name && t.id !== exceptId)) {
      throw new RequestValidationError([err.valueError(["body", "config", "transforms.name"], name, `a transform named '${name}' already exists`)]);
    }
  };
  const newVersion = (t: TransformRecord, implementation: Record<string, unknown>, description: string | null = null, config: Record<string, unknown> | null = null) => {
    t.version += 1;
    t.impl_versions[String(t.version)] = { version_id: t.version, description, implementation, config };
    t.implementation = implementation;
  };

  app.post("/transforms", { config: { permission: "transforms:write" } }, async (request) => {
    const { body } = validateRequest(request, { query: readQuery, body: createBody });
    const config = checkedConfig(store, body.transform, body.config);
    const tags = checkTags(body.tags);
    const name = String(config["transforms.name"]);
    assertUniqueName(name);
    const now = store.nowIso();
    const record: TransformRecord = {
      id: objectId(),
      name,
      transform_type: body.transform,
      config,
      implementation: {},
      version: 0,
      impl_versions: {},
      tags: tags ?? [],
      created_from: resolveCreatedFrom(body.created_from),
      created_at: now,
      updated_at: now,
      start_time: null,
      job: null,
    };
    if (body.implementation) newVersion(record, body.implementation);
    table()[record.id] = record;
    store.markDirty();
    return renderTransform(store, record);
  });

  app.get("/transforms", { config: { permission: "transforms:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: listQuery });
    const needle = query.partial_name?.toLowerCase();
    const matches = Object.values(table())
      .filter((t) => needle === undefined || t.name.toLowerCase().includes(needle))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    return pageOf(matches, query.page, query.page_size, (t) => renderTransform(store, t));
  });

  app.get("/transforms/:transform_id", { config: { permission: "transforms:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema, query: readQuery });
    const record = readThroughDelete(table(), path.transform_id);
    if (record?.deleting_reads_left !== undefined) store.markDirty();
    const items = record ? [renderTransform(store, record)] : [];
    return envelope(items, 1, 10, items.length);
  });

  // No id in the path: it is in the body.
  app.put("/transforms", { config: { permission: "transforms:write" } }, async (request) => {
    const { body } = validateRequest(request, { query: readQuery, body: updateBody });
    const record = find(body.id);
    if (body.transform !== record.transform_type) {
      throw new RequestValidationError([
        err.valueError(["body", "transform"], body.transform, `the type of a transform cannot be changed (it is '${record.transform_type}'); create a new transform`),
      ]);
    }
    const config = checkedConfig(store, record.transform_type, body.config);
    const tags = checkTags(body.tags);
    const name = String(config["transforms.name"]);
    assertUniqueName(name, record.id);
    record.name = name;
    record.config = config;
    if (tags !== undefined) record.tags = tags;
    // The platform's PUT replaces the implementation too: one left out is cleared (a client carries it over).
    const implementation = body.implementation ?? {};
    if (JSON.stringify(implementation) !== JSON.stringify(record.implementation)) newVersion(record, implementation);
    record.updated_at = store.nowIso();
    store.markDirty();
    return renderTransform(store, record);
  });

  // No id in the path: it is the `id` query parameter.
  app.delete("/transforms", { config: { permission: "transforms:write" } }, async (request) => {
    const { query } = validateRequest(request, { query: deleteQuery });
    const record = table()[query.id];
    if (!record) throw notFound(`Transform not found: ${query.id}`);
    const users = pipelinesUsing(store, { transform: record.id });
    if (users.length > 0) throw conflict(inUseMessage("Transform", record.id, users));
    const delay = ctx.faults.deleteDelayReads;
    if (record.deleting_reads_left === undefined) {
      if (delay > 0) record.deleting_reads_left = delay;
      else delete table()[record.id];
      store.markDirty();
    }
    return { id: record.id, deleted: true };
  });

  app.get("/transforms/:transform_id/implementation_details", { config: { permission: "transforms:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const record = find(path.transform_id);
    return {
      transform_id: record.id,
      // version_id travels as a string, as the platform's Terraform client decodes it.
      impl_versions: Object.fromEntries(Object.entries(record.impl_versions).map(([v, e]) => [v, { transform_id: record.id, ...e, version_id: String(e.version_id) }])),
    };
  });

  app.put("/transforms/:transform_id/implementation_details", { config: { permission: "transforms:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: pathSchema, body: implementationBody }, ({ path: p, body: b }) =>
      b.transform_id === p.transform_id ? [] : [err.valueError(["body", "transform_id"], b.transform_id, `must be the transform of the path ('${p.transform_id}')`)],
    );
    const record = find(path.transform_id);
    newVersion(record, body.implementation, body.description ?? null, body.config ?? null);
    record.updated_at = store.nowIso();
    store.markDirty();
    return { transform_id: record.id, version_id: String(record.version), description: body.description ?? null, implementation: record.implementation, config: body.config ?? null };
  });

  // A preview deployment runs beside the live job and does not change its status.
  app.put("/transforms/:transform_id/deploy-job-preview/:version", { config: { permission: "transforms:write" } }, async (request) => {
    const { path, query } = validateRequest(request, { path: versionPath, query: previewQuery });
    const record = find(path.transform_id);
    const version = versionOf(record, path.version);
    return { transform_id: record.id, version, mode: "preview", replay_window: query.replay_window ?? null, status: "DEPLOYING" };
  });

  app.put("/transforms/:transform_id/deploy-job-live/:version", { config: { permission: "transforms:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: versionPath });
    const record = find(path.transform_id);
    const version = versionOf(record, path.version);
    if (record.transform_type !== "topic_router" && Object.keys(record.impl_versions[String(version)]?.implementation ?? {}).length === 0) {
      throw new ApiError(400, `Transform '${record.id}' has no implementation to deploy: set one with PUT /transforms/${record.id}/implementation_details`);
    }
    const failure = parseFailure(record.transform_type, record.impl_versions[String(version)]?.implementation ?? {});
    record.job = { status: "DEPLOYING", polls_until_settled: DEPLOYING_POLLS, settles_to: failure ? "FAILED" : "RUNNING", failure_reason: failure ?? null, deployed_version: version };
    record.start_time = store.nowIso();
    record.updated_at = record.start_time;
    store.markDirty();
    return { transform_id: record.id, version, job_name: `job-${record.id}`, status: "DEPLOYING" };
  });

  // A never-deployed transform answers 400 "Job not found" (the platform rewrites its 404).
  app.get("/transforms/:transform_id/job_status", { config: { permission: "transforms:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const record = table()[path.transform_id];
    if (!record || record.deleting_reads_left !== undefined) throw new ApiError(400, "Transform not found");
    const job = record.job;
    if (!job) throw new ApiError(400, "Job not found");
    if (job.status === "DEPLOYING") {
      if (job.polls_until_settled > 0) job.polls_until_settled -= 1;
      else job.status = job.settles_to;
      store.markDirty();
    }
    return {
      id: record.id,
      job_name: `job-${record.id}`,
      status: job.status,
      start_time: record.start_time,
      version: job.deployed_version,
      ...(job.status === "FAILED" ? { failure_reason: job.failure_reason } : {}),
    };
  });
}
