import { z } from "zod";
import {
  CdcApiError,
  connectorSchema,
  roleSchema,
  tagSchema,
  type CdcClient,
  type DestinationConnector,
  type Role,
  type Tag,
} from "./client/index.js";
import type { ConnectorKind } from "./catalogue.js";

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
  // The platform answers `{tags: [...]}` (its Terraform client decodes that key); the seed's list
  // envelope (`result`) and a bare list are accepted too.
  const body = await api.get("/tags", { query: { ...query, page_size: 100 } });
  const items = tagItems(body);
  return items.flatMap((item) => {
    const tag = tagSchema.safeParse(item);
    return tag.success ? [tag.data] : [];
  });
}

/** The tags of a listing answer in any of the forms an API could give. */
export function tagItems(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === "object") {
    const { tags, result } = body as { tags?: unknown; result?: unknown };
    if (Array.isArray(tags)) return tags;
    if (Array.isArray(result)) return result;
  }
  return [];
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
  name: string,
  query: Record<string, string> = {},
): Promise<Map<string, z.output<S>> | undefined> {
  const found = new Map<string, z.output<S>>();
  try {
    for await (const item of api.paginate(path, { ...query, name }, schema)) {
      if ((item as { name?: unknown }).name === name) found.set(idOf(item), item);
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
