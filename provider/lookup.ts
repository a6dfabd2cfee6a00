import { z } from "zod";
import { TAG_TYPES } from "../catalogue/kind-values.js";
import {
  CdcApiError,
  isNotFound,
  connectorSchema,
  paginatePages,
  roleSchema,
  tagPageSchema,
  type CdcClient,
  type DestinationConnector,
  type Role,
  type Tag,
} from "./client/index.js";
import { catalogueEntry, secretKeySet, type ConnectorKind } from "./catalogue.js";
import { aclOf, listKafkaUsers, whitelistOf, type KafkaAcl } from "./kafka/api.js";
import { MASK } from "./normalize.js";
import { transformSchema, type LiveTransform } from "./pipelines/schemas.js";
import { looseInt, metricsAnswerSchema, metricsOf, topicDetailSchema, topicEntitySchema, topicLookupOf, type LiveTopicDetail, type TopicLookup, type TopicMetricsLookup } from "./topic-shapes.js";

export type { TopicLookup, TopicMetricsLookup } from "./topic-shapes.js";

/**
 * Finding objects by their unique name: how a create whose answer was lost finds its result,
 * and how `pulumi-cdc recover` finds the objects of an interrupted run.
 */

export async function findConnectorByName(api: CdcClient, kind: ConnectorKind, name: string): Promise<DestinationConnector | undefined> {
  const schema = connectorSchema(kind);
  for await (const item of api.paginate(`/${kind}s`, { partial_name: name }, schema)) {
    if (item.name === name) return item;
  }
  return undefined;
}

/** Every connector of one kind with exactly this name (the API's `partial_name` filter, then exact). */
export async function connectorsNamed(api: CdcClient, kind: ConnectorKind, name: string): Promise<DestinationConnector[]> {
  const schema = connectorSchema(kind);
  return (await api.listAll(`/${kind}s`, { partial_name: name }, schema)).filter((c) => c.name === name);
}

export function listRoles(api: CdcClient): Promise<Role[]> {
  return api.get("/auth/roles", { schema: z.array(roleSchema) });
}

export async function listTags(api: CdcClient, query: Record<string, string>): Promise<Tag[]> {
  const out: Tag[] = [];
  const pages = paginatePages((page, pageSize) => api.get("/tags", { query: { ...query, page, page_size: pageSize }, schema: tagPageSchema }));
  for await (const tag of pages) out.push(tag);
  return out;
}

export async function findTagByName(api: CdcClient, name: string): Promise<Tag | undefined> {
  return (await listTags(api, { tag_name: name })).find((t) => t.name === name);
}

/**
 * Why an object found by name is not the one Pulumi's create sent, or undefined when it is:
 * the same connector, and made by this IaC tool. An API that does not echo `created_from` is
 * taken at its word on the name and connector.
 */
export function notOurs(found: { connector?: string | null; created_from?: string | null }, want: { connector?: string }, createdFrom: string): string | undefined {
  if (want.connector !== undefined && found.connector && found.connector !== want.connector) return `a ${found.connector} connector, not ${want.connector}`;
  if (found.created_from && found.created_from !== createdFrom) return `created from ${found.created_from}, not by Pulumi`;
  return undefined;
}

/**
 * The objects of one name in a list with an exact `name` filter (the agents area, where names
 * need not be unique), by id. Undefined when the API has no such list (404 or 405): then a lost
 * create answer cannot be resolved by looking, and the caller says so.
 */
export async function namedObjects<S extends z.ZodType>(
  api: CdcClient,
  path: string,
  schema: S,
  idOf: (item: z.output<S>) => string,
  /** The exact name, or a test of names (then every object is listed: the API filters by exact name only). */
  name: string | ((name: string) => boolean),
  query: Record<string, string> = {},
): Promise<Map<string, z.output<S>> | undefined> {
  const found = new Map<string, z.output<S>>();
  const matches = typeof name === "string" ? (n: unknown) => n === name : (n: unknown) => typeof n === "string" && name(n);
  try {
    for await (const item of api.paginate(path, typeof name === "string" ? { ...query, name } : query, schema)) {
      if (matches((item as { name?: unknown }).name)) found.set(idOf(item), item);
    }
  } catch (err) {
    if (err instanceof CdcApiError && (err.status === 404 || err.status === 405)) return undefined;
    throw err;
  }
  return found;
}

/**
 * The lookups programs call (the SDK's getRoles, getSource, getDestination, getTag; the plugin's
 * Invoke of the same tokens): exact matches, a clear error on none or many, secrets never
 * returned (connector configs come as the API masks them).
 */
export function exactlyOne<T>(kind: string, name: string, matches: T[]): T {
  if (matches.length === 0) throw new Error(`no ${kind} named "${name}" exists: check the name (names are exact and case-sensitive)`);
  if (matches.length > 1) throw new Error(`${matches.length} ${kind}s are named "${name}": look it up by id instead`);
  return matches[0]!;
}

export interface RoleLookup {
  id: string;
  key?: string;
  name?: string;
  permissions: string[];
}

export async function lookupRoles(api: CdcClient): Promise<RoleLookup[]> {
  return (await listRoles(api)).map((r) => ({
    id: r.id,
    ...(r.key ? { key: r.key } : {}),
    ...(r.name ? { name: r.name } : {}),
    permissions: r.permissions ?? [],
  }));
}

export interface ConnectorLookup {
  id: string;
  name: string;
  connector: string;
  status: string;
  /** The live config; secret values come back masked. */
  config: Record<string, unknown>;
  topics: string[];
}

export async function lookupConnector(api: CdcClient, kind: ConnectorKind, name: string): Promise<ConnectorLookup> {
  const found = exactlyOne(kind, name, await connectorsNamed(api, kind, name));
  return {
    id: found.id ?? "",
    name: found.name ?? name,
    connector: found.connector ?? "",
    status: found.connector_status ?? "",
    config: found.config ?? {},
    topics: found.topics ?? [],
  };
}

export interface TagLookup {
  id: string;
  name: string;
  type: string[];
  description: string;
  system: boolean;
}

export async function lookupTag(api: CdcClient, name: string): Promise<TagLookup> {
  const found = exactlyOne("tag", name, (await listTags(api, { tag_name: name })).filter((t) => t.name === name));
  return { id: found.id, name: found.name, type: found.type, description: found.description ?? "", system: Boolean(found.system) };
}

// ---------------------------------------------------------------------------------------------
// The read side of the platform's Terraform data sources: tags (a list), topics and their
// metrics, a transform, a Kafka user. Same conventions: exact matches, a clear error on none or
// many where one object is asked for, secrets never returned.

/** A lookup's argument that cannot be used: named, with the fix, before any API call. */
export class LookupArgError extends Error {
  constructor(
    readonly property: string,
    readonly reason: string,
  ) {
    super(`${property} ${reason}`);
    this.name = "LookupArgError";
  }
}

function optionalString(args: Record<string, unknown>, key: string, what: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value === "") throw new LookupArgError(key, `must be ${what}, a non-empty string`);
  return value;
}

function requiredString(args: Record<string, unknown>, key: string, what: string): string {
  const value = optionalString(args, key, what);
  if (value === undefined) throw new LookupArgError(key, `is required: ${what}`);
  return value;
}

export interface TagListLookup extends TagLookup {
  custom: boolean;
}

/**
 * Tags, optionally only those named exactly `name` and those for any of `type` (a type or a
 * list of them). A list: none matching is an empty list, not an error.
 */
export async function lookupTags(api: CdcClient, args: Record<string, unknown> = {}): Promise<TagListLookup[]> {
  const name = optionalString(args, "name", "the exact tag name");
  const rawType = args.type;
  const types = rawType === undefined || rawType === null ? [] : Array.isArray(rawType) ? rawType : [rawType];
  types.forEach((t, i) => {
    if (typeof t !== "string" || !(TAG_TYPES as readonly string[]).includes(t)) {
      throw new LookupArgError(Array.isArray(rawType) ? `type[${i}]` : "type", `must be one of ${TAG_TYPES.join(", ")}; got ${JSON.stringify(t)}`);
    }
  });
  const query: Record<string, string> = {};
  if (name !== undefined) query.tag_name = name;
  if (types.length > 0) query.tag_type = types.join(",");
  return (await listTags(api, query))
    .filter((t) => (name === undefined || t.name === name) && (types.length === 0 || t.type.some((x) => types.includes(x))))
    .map((t) => ({
      id: t.id,
      name: t.name,
      type: t.type,
      description: t.description ?? "",
      system: Boolean(t.system),
      custom: t.custom === null || t.custom === undefined ? !t.system : Boolean(t.custom),
    }));
}

const topicRowSchema = z.looseObject({ id: z.string(), name: z.string().nullish(), entity: topicEntitySchema.nullish() });

async function topicDetail(api: CdcClient, id: string): Promise<LiveTopicDetail | undefined> {
  try {
    return await api.get("/topics/{id}", { params: { id }, query: { detailed: true }, schema: topicDetailSchema });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** One topic by its id (`source_<id>.public.orders`), with its partition count. */
export async function lookupTopic(api: CdcClient, args: Record<string, unknown>): Promise<TopicLookup> {
  const id = requiredString(args, "id", "the topic's id, e.g. a Source's topicIds[0] (source_<id>.public.orders)");
  const found = await topicDetail(api, id);
  if (!found) throw new Error(`no topic with id "${id}" exists: check the id (a source's topicIds, or transform_<id>_<version>.<name>; ids are exact)`);
  return topicLookupOf(found);
}

const TOPIC_OWNERS = [
  ["source", "sources"],
  ["destination", "destinations"],
  ["transform", "transforms"],
] as const;

/**
 * Topics, with their partition counts: every one, or those of one source, destination or
 * transform (named exactly), optionally only those named exactly `name`. A list: none matching
 * is an empty list; an owner that does not exist, or whose name is ambiguous, is an error.
 */
export async function lookupTopics(api: CdcClient, args: Record<string, unknown> = {}): Promise<TopicLookup[]> {
  const owners = TOPIC_OWNERS.flatMap(([key, type]) => {
    const value = optionalString(args, key, `the exact name of the ${key} whose topics to list`);
    return value === undefined ? [] : [{ key, type, name: value }];
  });
  if (owners.length > 1) throw new LookupArgError(owners[1]!.key, `cannot be set with ${owners[0]!.key}: set one of source, destination or transform`);
  const name = optionalString(args, "name", "the exact topic name (e.g. public.orders)");
  const query: Record<string, string | number> = {};
  const owner = owners[0];
  if (owner) {
    const id =
      owner.key === "transform"
        ? exactlyOne("transform", owner.name, await transformsNamed(api, owner.name)).id
        : (exactlyOne(owner.key, owner.name, await connectorsNamed(api, owner.key, owner.name)).id ?? "");
    query.entity_type = owner.type;
    query.entity_id = id;
  }
  // The listing pages by limit and offset; it carries no partition counts, so each topic is read.
  const rows: Array<z.output<typeof topicRowSchema>> = [];
  const limit = 100;
  for (let offset = 0; offset < 100_000; offset += limit) {
    const page = await api.get("/topics/details", {
      query: { ...query, limit, offset },
      schema: z.looseObject({ result: z.array(topicRowSchema).nullable(), has_next: z.boolean().nullish(), total: looseInt.nullish() }),
    });
    const items = page.result ?? [];
    rows.push(...items);
    const more = page.has_next ?? (typeof page.total === "number" ? offset + items.length < page.total : items.length === limit);
    if (!more || items.length === 0) break;
  }
  const wanted = rows.filter((r) => name === undefined || r.name === name || r.id === name);
  const details = await Promise.all(wanted.map((r) => topicDetail(api, r.id)));
  // A topic gone between the listing and its read is left out.
  return details.flatMap((d) => (d ? [topicLookupOf(d)] : []));
}

/**
 * The metrics of topics by id (`POST /topics/table_metrics`): each topic is read first, to send
 * the entity it belongs to as the API wants it. One result per topic, in the order asked. A
 * topic the tenant cannot see (its read is a 404) or that the answer leaves out (the service
 * leaves out the topics the tenant does not own) is left out too, and `warn` names it: the
 * platform's data source warns there, and a typo'd id is told the same way.
 */
export async function lookupTopicMetrics(api: CdcClient, args: Record<string, unknown>, warn: (message: string) => void): Promise<TopicMetricsLookup[]> {
  const raw = args.ids;
  if (!Array.isArray(raw) || raw.length === 0) throw new LookupArgError("ids", "is required: a non-empty list of topic ids, e.g. a Source's topicIds");
  raw.forEach((v, i) => {
    if (typeof v !== "string" || v === "") throw new LookupArgError(`ids[${i}]`, "must be a topic id, a non-empty string");
  });
  const ids = [...new Set(raw as string[])];
  const read = await Promise.all(ids.map(async (id) => [id, await topicDetail(api, id)] as const));
  const topics = read.flatMap(([id, t]) => (t ? [[id, t] as const] : []));
  const entities = new Map<string, { id: string; entity_type: string; connector: string; topic_ids: string[]; topic_db_ids: string[] }>();
  for (const [id, t] of topics) {
    const entity = t.entity ?? {};
    const key = entity.entity_id ?? "";
    const current = entities.get(key) ?? { id: key, entity_type: entity.entity_type ?? "sources", connector: entity.connector ?? "", topic_ids: [], topic_db_ids: [] };
    current.topic_ids.push(id);
    // The database id of a source's topic is its table: its position in the entity's lists.
    const at = (entity.topic_ids ?? []).indexOf(id);
    const dbId = at >= 0 ? entity.topic_db_ids?.[at] : undefined;
    if (dbId) current.topic_db_ids.push(dbId);
    entities.set(key, current);
  }
  const answer =
    entities.size === 0 ? {} : await api.post("/topics/table_metrics", { body: { entities: [...entities.values()] }, schema: metricsAnswerSchema, idempotent: true });
  const found = new Map<string, TopicMetricsLookup>();
  for (const [id, t] of topics) {
    const m = metricsOf(answer, id, t.entity?.entity_id ?? "");
    if (m) found.set(id, m);
  }
  const left = ids.filter((id) => !found.has(id));
  if (left.length > 0) {
    const named = left.map((id) => `"${id}"`).join(", ");
    warn(`${left.length === 1 ? "topic" : "topics"} ${named} left out of the metrics: not this tenant's, or no such topic (check the ids: a Source's topicIds, or getTopics)`);
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

export interface TransformLookup {
  id: string;
  name: string;
  /** The type: map_filter, enrich, ... */
  transform: string;
  status: string;
  /** The settings, in the platform's keys; secret values come back masked. */
  config: Record<string, unknown>;
  topics: string[];
  topicIds: string[];
  /** Each topic id with its name, as the platform's data source pairs them. */
  topicMap: Array<{ id: string; name: string }>;
  startTime: string;
  tagIds: string[];
}

async function transformsNamed(api: CdcClient, name: string): Promise<LiveTransform[]> {
  return (await api.listAll("/transforms", { partial_name: name }, transformSchema)).filter((t) => t.name === name);
}

/** A transform by its exact name, e.g. to let a Kafka consumer read its topics. */
export async function lookupTransform(api: CdcClient, args: Record<string, unknown>): Promise<TransformLookup> {
  const name = requiredString(args, "name", "the transform's exact name");
  const found = exactlyOne("transform", name, await transformsNamed(api, name));
  const type = found.transform_type ?? "";
  const secrets = secretKeySet(catalogueEntry("transform", type), found.config ?? {});
  const config = Object.fromEntries(Object.entries(found.config ?? {}).map(([k, v]) => [k, secrets.has(k) && v !== null && v !== "" ? MASK : v]));
  return {
    id: found.id,
    name: found.name ?? name,
    transform: type,
    status: found.status ?? "",
    config,
    topics: found.topics,
    topicIds: found.topic_ids,
    topicMap: found.topic_ids.map((id, i) => ({ id, name: found.topics[i] ?? "" })),
    startTime: found.start_time ?? "",
    tagIds: found.tags,
  };
}

export interface KafkaUserLookup {
  username: string;
  whitelistIps: string[];
  isCreateSchemaRegistry: boolean;
  kafkaAcls: KafkaAcl[];
  kafkaProxyEndpoint: string;
  schemaProxyEndpoint: string;
}

/** A Kafka user by its exact username; the password is never returned (the API has none to give). */
export async function lookupKafkaUser(api: CdcClient, args: Record<string, unknown>): Promise<KafkaUserLookup> {
  const username = requiredString(args, "username", "the Kafka user's exact username");
  const found = exactlyOne("Kafka user", username, (await listKafkaUsers(api)).filter((u) => u.username === username));
  return {
    username: found.username,
    whitelistIps: whitelistOf(found.whitelist_ips),
    isCreateSchemaRegistry: found.is_create_schema_registry,
    kafkaAcls: found.kafka_acls.map(aclOf),
    kafkaProxyEndpoint: found.kafka_proxy_endpoint,
    schemaProxyEndpoint: found.schema_proxy_endpoint,
  };
}
