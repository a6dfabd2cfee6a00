import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { connectorNames, findConnector, type ConnectorKind } from "../catalogue.js";
import { apiSourceFields, apiSourceTopics, connectionWarningOf, pickCluster, storeApiConfig, type ApiSourceRecord, type StoredApiConfig } from "../api-sources.js";
import { checkConfig, deriveTopics, echoConfig, kindLabel } from "../connector-config.js";
import type { EmulatorContext } from "../context.js";
import { objectId } from "../crypto.js";
import { ApiError, conflict, notFound } from "../errors.js";
import { compareToOriginal, recordConfig } from "../history.js";
import { envelope, pageOf } from "../paging.js";
import { inUseMessage, pipelinesUsing } from "../topology.js";
import type { Permission } from "../roles.js";
import { dropBindingsOf } from "./topic-destinations.js";
import { CONNECTOR_STATUSES, type ConnectorRecord, type ConnectorStatus, type Store } from "../store.js";
import {
  RequestValidationError,
  addPydanticIssue,
  createdFromField,
  err,
  nameField,
  pathId,
  queryBool,
  queryInt,
  queryString,
  resolveCreatedFrom,
  validateRequest,
  withoutLoc,
} from "../validation.js";

/**
 * Sources and destinations: one implementation parameterised by kind, since the API treats
 * them alike apart from service_id (sources only), stop and the config history (destinations).
 */

const configField = z.record(z.string(), z.unknown());

/** The connector must be in the catalogue; the enum error names the known ones. */
function connectorField(kind: ConnectorKind) {
  return z.string().superRefine((value, ctx) => {
    if (!findConnector(kind, value)) {
      addPydanticIssue(ctx, withoutLoc(err.enumError([], value, connectorNames(kind))));
    }
  });
}

/** Tag ids: absent or null keeps the connector's tags, `[]` clears them. */
const tagsField = z.array(z.string().min(1)).nullable().optional();

function connectorBody(kind: ConnectorKind) {
  return z.object({ name: nameField, connector: connectorField(kind), config: configField, created_from: createdFromField, tags: tagsField });
}

/** Every tag id must name an existing tag. */
function checkTags(store: Store, tags: string[] | null | undefined): string[] | undefined {
  if (tags === undefined || tags === null) return undefined;
  const details = tags.flatMap((id, i) => (store.data.tags[id] ? [] : [err.valueError(["body", "tags", i], id, `tag '${id}' does not exist`)]));
  if (details.length > 0) throw new RequestValidationError(details);
  return [...new Set(tags)];
}
const secretQuery = z.object({ secret_returned: queryBool(false) });
// Writes also take `wait` (the platform's client sends wait=false): see README, "Connector writes".
const writeQuery = z.object({ secret_returned: queryBool(false), wait: queryBool(true) });
const listQuery = z.object({
  page: queryInt({ default: 1, ge: 1 }),
  page_size: queryInt({ default: 10, ge: 1, le: 100 }),
  partial_name: queryString(),
  connector: queryString(),
  status: queryString(),
  secret_returned: queryBool(false),
});

function taskView(status: ConnectorStatus): { tasks: number[]; task_statuses: Record<string, { state: string }> } {
  switch (status) {
    case "Active":
      return { tasks: [0], task_statuses: { "0": { state: "RUNNING" } } };
    case "Paused":
      return { tasks: [0], task_statuses: { "0": { state: "PAUSED" } } };
    case "Stopped":
      // Kafka Connect tears tasks down when a connector is stopped.
      return { tasks: [], task_statuses: {} };
    case "Broken":
      return { tasks: [0], task_statuses: { "0": { state: "FAILED" } } };
    default:
      return { tasks: [0], task_statuses: { "0": { state: "UNASSIGNED" } } };
  }
}

export function renderConnector(store: Store, record: ConnectorRecord, revealSecrets: boolean) {
  const spec = findConnector(record.kind, record.connector);
  const api = spec?.family === "api";
  return {
    name: record.name,
    connector: record.connector,
    id: record.id,
    connector_display_name: spec?.displayName ?? record.connector,
    created_timestamp: record.created_timestamp,
    sub_id: store.data.sub_id,
    tenant_id: store.data.tenant_id,
    ...(record.kind === "source" ? { service_id: store.data.service_id } : {}),
    config: echoConfig(record, store.vault, revealSecrets),
    ...(api ? apiSourceTopics(record) : deriveTopics(record)),
    ...(api ? apiSourceFields(record) : {}),
    ...taskView(record.connector_status),
    connector_status: record.connector_status,
    created_from: record.created_from,
    // As the platform does: `tags` is left out when there are none.
    ...(record.tags && record.tags.length > 0 ? { tags: [...record.tags] } : {}),
  };
}

/** The digests of the grants an API source's write spent (none for other connectors). */
function spentBy(value: object): string[] {
  return "spent" in value ? (value as StoredApiConfig).spent : [];
}

/** A write's answer with the save-time connection warning, when the save found one. */
function withWarning<T extends object>(answer: T, warning: string | undefined): T & { connection_warning?: string } {
  return warning ? { ...answer, connection_warning: warning } : answer;
}

export function registerConnectorRoutes(app: FastifyInstance, ctx: EmulatorContext, kind: ConnectorKind): void {
  const { store } = ctx;
  const base = kind === "source" ? "/sources" : "/destinations";
  const idParam = kind === "source" ? "source_id" : "destination_id";
  const label = kind === "source" ? "source" : "destination";
  const read: Permission = kind === "source" ? "sources:read" : "destinations:read";
  const write: Permission = kind === "source" ? "sources:write" : "destinations:write";
  const pathSchema = z.object({ [idParam]: pathId }) as unknown as z.ZodType<Record<string, string>>;
  const table = () => store.connectors(kind);

  const find = (id: string): ConnectorRecord => {
    const record = table()[id];
    if (!record) throw notFound(`${kindLabel(kind)} '${id}' not found`);
    return record;
  };

  const assertUniqueName = (name: string, exceptId?: string) => {
    const clash = Object.values(table()).find((r) => r.name === name && r.id !== exceptId);
    if (clash) throw conflict(`A ${label} named '${name}' already exists`);
  };

  const createBody = connectorBody(kind);
  const updateBody = connectorBody(kind);

  app.post(base, { config: { permission: write } }, async (request) => {
    const { query, body } = validateRequest(request, { query: writeQuery, body: createBody });
    const spec = findConnector(kind, body.connector)!;
    const api = spec.family === "api";
    const checked = api ? storeApiConfig(spec, body.config, store.vault) : checkConfig(spec, body.config, store.vault);
    if (!checked.ok) throw new RequestValidationError(checked.details);
    const tags = checkTags(store, body.tags);
    assertUniqueName(body.name);
    const now = store.nowIso();
    const record: ApiSourceRecord = {
      id: objectId(),
      kind,
      name: body.name,
      connector: body.connector,
      config: checked.value.config,
      secrets: checked.value.secrets,
      created_timestamp: now,
      updated_timestamp: now,
      created_from: resolveCreatedFrom(body.created_from),
      // An API source is deployed after the answer: it starts Pending.
      connector_status: api ? "Pending" : "Active",
      ...(tags && tags.length > 0 ? { tags } : {}),
      ...(api ? { kc_cluster_id: pickCluster(), spent_grants: spentBy(checked.value) } : {}),
    };
    table()[record.id] = record;
    if (kind === "destination") recordConfig(store, record);
    store.markDirty();
    return withWarning(renderConnector(store, record, query.secret_returned), api ? connectionWarningOf(record) : undefined);
  });

  app.get(base, { config: { permission: read } }, async (request) => {
    const { query } = validateRequest(request, { query: listQuery }, ({ query: q }) => {
      if (q.status === undefined) return [];
      return CONNECTOR_STATUSES.some((s) => s.toLowerCase() === q.status!.toLowerCase())
        ? []
        : [err.enumError(["query", "status"], q.status, CONNECTOR_STATUSES)];
    });
    const needle = query.partial_name?.toLowerCase();
    const matches = Object.values(table())
      .filter((r) => needle === undefined || r.name.toLowerCase().includes(needle))
      .filter((r) => query.connector === undefined || r.connector === query.connector)
      .filter((r) => query.status === undefined || r.connector_status.toLowerCase() === query.status.toLowerCase())
      .sort((a, b) => a.created_timestamp.localeCompare(b.created_timestamp));
    return pageOf(matches, query.page, query.page_size, (r) => renderConnector(store, r, query.secret_returned));
  });

  // The get operation answers with a list envelope; an unknown id is an empty result, not a 404.
  app.get(`${base}/:${idParam}`, { config: { permission: read } }, async (request) => {
    const { path, query } = validateRequest(request, { path: pathSchema, query: secretQuery });
    const record = table()[path[idParam]!];
    const items = record ? [renderConnector(store, record, query.secret_returned)] : [];
    return envelope(items, 1, 10, items.length);
  });

  app.put(`${base}/:${idParam}`, { config: { permission: write } }, async (request) => {
    const { path, query, body } = validateRequest(request, { path: pathSchema, query: writeQuery, body: updateBody });
    const record = find(path[idParam]!);
    if (body.connector !== record.connector) {
      throw new RequestValidationError([
        err.valueError(["body", "connector"], body.connector, `the connector of a ${label} cannot be changed (it is '${record.connector}')`),
      ]);
    }
    const spec = findConnector(kind, record.connector)!;
    const api = spec.family === "api";
    const checked = api ? storeApiConfig(spec, body.config, store.vault, record) : checkConfig(spec, body.config, store.vault, record);
    if (!checked.ok) throw new RequestValidationError(checked.details);
    // Replace-on-change keys are the platform's set-once settings: fixed at creation.
    const setOnce = spec.keys.filter((k) => k.replaceOnChange && !k.secret && String(checked.value.config[k.key]) !== String(record.config[k.key]));
    if (setOnce.length > 0) {
      throw new RequestValidationError(
        setOnce.map((k) =>
          err.valueError(["body", "config", k.key], body.config[k.key] ?? null, `${k.key} is set once, when the ${label} is created (it is '${record.config[k.key]}'); create a new ${label} to change it`),
        ),
      );
    }
    const tags = checkTags(store, body.tags);
    assertUniqueName(body.name, record.id);
    record.name = body.name;
    if (tags !== undefined) record.tags = tags;
    record.config = checked.value.config;
    record.secrets = checked.value.secrets;
    if (api) (record as ApiSourceRecord).spent_grants = [...((record as ApiSourceRecord).spent_grants ?? []), ...spentBy(checked.value)];
    record.updated_timestamp = store.nowIso();
    if (kind === "destination") recordConfig(store, record);
    store.markDirty();
    return withWarning(renderConnector(store, record, query.secret_returned), api ? connectionWarningOf(record) : undefined);
  });

  app.delete(`${base}/:${idParam}`, { config: { permission: write } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema, query: writeQuery });
    const record = find(path[idParam]!);
    const users = pipelinesUsing(store, { [kind]: record.id });
    if (users.length > 0) throw conflict(inUseMessage(kindLabel(kind), record.id, users));
    delete table()[record.id];
    delete store.data.history[record.id];
    dropBindingsOf(store, kind, record.id);
    store.markDirty();
    return { id: record.id, deleted: true };
  });

  const transition = (action: "pause" | "resume" | "stop", apply: (r: ConnectorRecord) => ConnectorStatus) => {
    app.put(`${base}/:${idParam}/${action}`, { config: { permission: write } }, async (request) => {
      const { path } = validateRequest(request, { path: pathSchema });
      const record = find(path[idParam]!);
      const next = apply(record);
      if (next !== record.connector_status) {
        record.connector_status = next;
        record.updated_timestamp = store.nowIso();
        store.markDirty();
      }
      return renderConnector(store, record, false);
    });
  };

  // active →pause→ paused →resume→ active; any →stop→ stopped →resume→ active.
  transition("pause", (r) => {
    if (r.connector_status === "Stopped") {
      throw new ApiError(409, `Cannot pause ${label} '${r.id}': it is Stopped; resume it first`);
    }
    return "Paused";
  });
  transition("resume", () => "Active");
  if (kind === "destination") {
    transition("stop", () => "Stopped");

    app.get(`${base}/:${idParam}/config-history/compare-to-original`, { config: { permission: read } }, async (request) => {
      const { path } = validateRequest(request, { path: pathSchema });
      const record = find(path[idParam]!);
      let entries = store.data.history[record.id];
      if (!entries || entries.length === 0) {
        recordConfig(store, record);
        entries = store.data.history[record.id]!;
      }
      return compareToOriginal(entries);
    });
  }
}
