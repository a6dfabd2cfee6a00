import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { MASK } from "../catalogue.js";
import type { EmulatorContext } from "../context.js";
import { notFound } from "../errors.js";
import { objectId } from "../crypto.js";
import { pageOf } from "../paging.js";
import type { AgentRecord, AgentStatus, HttpConnectionRecord, LlmConnectionRecord, Store } from "../store.js";
import {
  RequestValidationError,
  addPydanticIssue,
  createdFromField,
  err,
  laxBool,
  nameField,
  pathId,
  queryBool,
  queryInt,
  resolveCreatedFrom,
  validateRequest,
  type ValidationDetail,
} from "../validation.js";

/**
 * The agents area: HTTP connections (encrypted headers with the masked-placeholder merge),
 * LLM connections (hard delete) and agents (soft delete, cancelling a running agent first).
 */

export const LLM_PROVIDERS = ["openai", "anthropic", "azure_openai", "bedrock", "google"] as const;

/** Absolute http(s) URL, with pydantic's url_parsing / url_scheme errors. */
const urlField = z.string().transform((value, ctx): string => {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    addPydanticIssue(ctx, { msg: "Input should be a valid URL, relative URL without a base", type: "url_parsing", input: value });
    return z.NEVER;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    addPydanticIssue(ctx, {
      msg: "URL scheme should be 'http' or 'https'",
      type: "url_scheme",
      input: value,
      ctx: { expected_schemes: "'http' or 'https'" },
    });
    return z.NEVER;
  }
  return value;
});

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headersField = z.record(z.string(), z.string().max(8192));

function headerNameErrors(headers: Record<string, string> | undefined): ValidationDetail[] {
  return Object.keys(headers ?? {})
    .filter((name) => !HEADER_NAME.test(name))
    .map((name) => err.valueError(["body", "headers", name], name, `'${name}' is not a valid HTTP header name`));
}

const httpCreateBody = z.object({ name: nameField, url: urlField, headers: headersField.optional(), created_from: createdFromField });
const httpPatchBody = z.object({ name: nameField.optional(), url: urlField.optional(), headers: headersField.optional() });
const connectionPath = z.object({ connection_id: pathId });

const llmCreateBody = z.object({
  name: nameField,
  provider: z.enum(LLM_PROVIDERS),
  model: z.string().min(1),
  api_key: z.string().min(1),
  base_url: urlField.nullable().optional(),
  created_from: createdFromField,
});

const agentCreateBody = z.object({
  name: nameField,
  description: z.string().max(2000).nullable().optional(),
  instructions: z.string().min(1),
  llm_connection_id: z.string().min(1),
  http_connection_ids: z.array(z.string()).optional(),
  deploy: laxBool().optional(),
  created_from: createdFromField,
});
const agentPatchBody = z.object({
  name: nameField.optional(),
  description: z.string().max(2000).nullable().optional(),
  instructions: z.string().min(1).optional(),
  llm_connection_id: z.string().min(1).optional(),
  http_connection_ids: z.array(z.string()).optional(),
});
const agentPath = z.object({ job_id: pathId });
// Lists of connections: not in the reference; shaped like the agents list, with an exact `name` filter.
const connectionListQuery = z.object({
  name: z.string().optional(),
  page: queryInt({ default: 1, ge: 1 }),
  page_size: queryInt({ default: 10, ge: 1, le: 100 }),
});
const agentListQuery = z.object({
  include_deleted: queryBool(false),
  name: z.string().optional(),
  page: queryInt({ default: 1, ge: 1 }),
  page_size: queryInt({ default: 10, ge: 1, le: 100 }),
});

function renderHttp(record: HttpConnectionRecord) {
  return {
    connection_id: record.connection_id,
    name: record.name,
    url: record.url,
    headers: Object.fromEntries(Object.keys(record.headers).map((k) => [k, MASK])),
    created_from: record.created_from,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function renderLlm(record: LlmConnectionRecord) {
  return {
    connection_id: record.connection_id,
    name: record.name,
    provider: record.provider,
    model: record.model,
    base_url: record.base_url,
    api_key: MASK,
    created_from: record.created_from,
    created_at: record.created_at,
  };
}

function renderAgent(record: AgentRecord) {
  return {
    job_id: record.job_id,
    name: record.name,
    description: record.description,
    instructions: record.instructions,
    llm_connection_id: record.llm_connection_id,
    http_connection_ids: [...record.http_connection_ids],
    status: record.status,
    flags: [...record.flags],
    status_history: record.status_history.map((h) => ({ ...h })),
    created_from: record.created_from,
    created_at: record.created_at,
    updated_at: record.updated_at,
    deleted_at: record.deleted_at,
  };
}

function setStatus(store: Store, agent: AgentRecord, status: AgentStatus): void {
  const at = store.nowIso();
  agent.status = status;
  agent.status_history.push({ status, at });
  agent.updated_at = at;
}

export function registerAgentRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const { vault } = store;

  const findHttp = (id: string) => {
    const record = store.data.http_connections[id];
    if (!record) throw notFound(`HTTP connection '${id}' not found`);
    return record;
  };
  const findLlm = (id: string) => {
    const record = store.data.llm_connections[id];
    if (!record) throw notFound(`LLM connection '${id}' not found`);
    return record;
  };
  /** Writes treat a soft-deleted agent as gone; GET still shows its tombstone. */
  const findLiveAgent = (id: string) => {
    const record = store.data.agents[id];
    if (!record || record.status === "deleted") throw notFound(`Agent '${id}' not found`);
    return record;
  };

  app.post("/agents/connections/http", { config: { permission: "agents:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: httpCreateBody }, ({ body: b }) => [
      ...headerNameErrors(b.headers),
      ...Object.entries(b.headers ?? {})
        .filter(([, v]) => v === MASK)
        .map(([k, v]) => err.valueError(["body", "headers", k], v, `'${MASK}' only keeps a stored header value; send the real value`)),
    ]);
    const now = store.nowIso();
    const record: HttpConnectionRecord = {
      connection_id: objectId(),
      name: body.name,
      url: body.url,
      headers: Object.fromEntries(Object.entries(body.headers ?? {}).map(([k, v]) => [k, vault.seal(v)])),
      created_from: resolveCreatedFrom(body.created_from),
      created_at: now,
      updated_at: now,
    };
    store.data.http_connections[record.connection_id] = record;
    store.markDirty();
    return renderHttp(record);
  });

  app.get("/agents/connections/http", { config: { permission: "agents:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: connectionListQuery });
    const matches = Object.values(store.data.http_connections).filter((c) => query.name === undefined || c.name === query.name);
    return pageOf(matches, query.page, query.page_size, renderHttp);
  });

  app.get("/agents/connections/http/:connection_id", { config: { permission: "agents:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: connectionPath });
    return renderHttp(findHttp(path.connection_id));
  });

  // Field-level merge: the headers object, when sent, is the complete new set of header names.
  app.patch("/agents/connections/http/:connection_id", { config: { permission: "agents:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: connectionPath, body: httpPatchBody }, ({ body: b }) =>
      headerNameErrors(b.headers),
    );
    const record = findHttp(path.connection_id);
    if (body.headers !== undefined) {
      const problems: ValidationDetail[] = [];
      const next: Record<string, string> = {};
      for (const [name, value] of Object.entries(body.headers)) {
        if (value !== MASK) next[name] = vault.seal(value);
        else if (record.headers[name] !== undefined) next[name] = record.headers[name]!;
        else problems.push(err.valueError(["body", "headers", name], value, `no stored value for header '${name}' to keep`));
      }
      if (problems.length > 0) throw new RequestValidationError(problems);
      record.headers = next;
    }
    if (body.name !== undefined) record.name = body.name;
    if (body.url !== undefined) record.url = body.url;
    record.updated_at = store.nowIso();
    store.markDirty();
    return renderHttp(record);
  });

  app.delete("/agents/connections/http/:connection_id", { config: { permission: "agents:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: connectionPath });
    const record = findHttp(path.connection_id);
    delete store.data.http_connections[record.connection_id];
    store.markDirty();
    return { connection_id: record.connection_id, deleted: true };
  });

  app.post("/agents/connections/llm", { config: { permission: "agents:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: llmCreateBody });
    const record: LlmConnectionRecord = {
      connection_id: objectId(),
      name: body.name,
      provider: body.provider,
      model: body.model,
      base_url: body.base_url ?? null,
      api_key: vault.seal(body.api_key),
      created_from: resolveCreatedFrom(body.created_from),
      created_at: store.nowIso(),
    };
    store.data.llm_connections[record.connection_id] = record;
    store.markDirty();
    return renderLlm(record);
  });

  app.get("/agents/connections/llm", { config: { permission: "agents:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: connectionListQuery });
    const matches = Object.values(store.data.llm_connections).filter((c) => query.name === undefined || c.name === query.name);
    return pageOf(matches, query.page, query.page_size, renderLlm);
  });

  app.get("/agents/connections/llm/:connection_id", { config: { permission: "agents:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: connectionPath });
    return renderLlm(findLlm(path.connection_id));
  });

  // Hard delete with no check for agents using it; they are flagged on their next edit.
  app.delete("/agents/connections/llm/:connection_id", { config: { permission: "agents:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: connectionPath });
    const record = findLlm(path.connection_id);
    delete store.data.llm_connections[record.connection_id];
    store.markDirty();
    return { connection_id: record.connection_id, deleted: true };
  });

  app.post("/agents", { config: { permission: "agents:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: agentCreateBody });
    findLlm(body.llm_connection_id);
    const httpIds = [...new Set(body.http_connection_ids ?? [])];
    httpIds.forEach(findHttp);
    const now = store.nowIso();
    const status: AgentStatus = body.deploy === false ? "draft" : "running";
    const record: AgentRecord = {
      job_id: objectId(),
      name: body.name,
      description: body.description ?? null,
      instructions: body.instructions,
      llm_connection_id: body.llm_connection_id,
      http_connection_ids: httpIds,
      status,
      flags: [],
      status_history: [{ status, at: now }],
      created_from: resolveCreatedFrom(body.created_from),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    store.data.agents[record.job_id] = record;
    store.markDirty();
    return renderAgent(record);
  });

  app.get("/agents", { config: { permission: "agents:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: agentListQuery });
    const matches = Object.values(store.data.agents).filter(
      (a) => (query.include_deleted || a.status !== "deleted") && (query.name === undefined || a.name === query.name),
    );
    return pageOf(matches, query.page, query.page_size, renderAgent);
  });

  app.get("/agents/:job_id", { config: { permission: "agents:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: agentPath });
    const record = store.data.agents[path.job_id];
    if (!record) throw notFound(`Agent '${path.job_id}' not found`);
    return renderAgent(record);
  });

  app.patch("/agents/:job_id", { config: { permission: "agents:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: agentPath, body: agentPatchBody });
    const record = findLiveAgent(path.job_id);
    if (body.llm_connection_id !== undefined) findLlm(body.llm_connection_id);
    if (body.http_connection_ids !== undefined) body.http_connection_ids.forEach(findHttp);
    if (body.name !== undefined) record.name = body.name;
    if (body.description !== undefined) record.description = body.description;
    if (body.instructions !== undefined) record.instructions = body.instructions;
    if (body.llm_connection_id !== undefined) record.llm_connection_id = body.llm_connection_id;
    if (body.http_connection_ids !== undefined) record.http_connection_ids = [...new Set(body.http_connection_ids)];
    const llmMissing = !store.data.llm_connections[record.llm_connection_id];
    record.flags = record.flags.filter((f) => f !== "llm_connection_missing");
    if (llmMissing) record.flags.push("llm_connection_missing");
    record.updated_at = store.nowIso();
    store.markDirty();
    return renderAgent(record);
  });

  app.put("/agents/:job_id/deploy", { config: { permission: "agents:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: agentPath });
    const record = findLiveAgent(path.job_id);
    if (record.status !== "running") {
      setStatus(store, record, "running");
      store.markDirty();
    }
    return renderAgent(record);
  });

  app.put("/agents/:job_id/cancel", { config: { permission: "agents:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: agentPath });
    const record = findLiveAgent(path.job_id);
    if (record.status === "running") {
      setStatus(store, record, "cancelled");
      store.markDirty();
    }
    return renderAgent(record);
  });

  // Soft delete: the record stays (status "deleted"); a running agent is cancelled first.
  app.delete("/agents/:job_id", { config: { permission: "agents:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: agentPath });
    const record = findLiveAgent(path.job_id);
    if (record.status === "running") setStatus(store, record, "cancelled");
    setStatus(store, record, "deleted");
    record.deleted_at = record.updated_at;
    store.markDirty();
    return renderAgent(record);
  });
}
