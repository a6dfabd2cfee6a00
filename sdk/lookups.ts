import * as pulumi from "@pulumi/pulumi";
import type { CdcClient, Tag } from "../provider/client/index.js";

/**
 * Lookups for programs: read objects the stack does not manage. They run in the program, with
 * the credentials the resources use (stack config `cdc:*`, then the `CDC_*` variables), and fail
 * with a clear message when nothing, or more than one object, matches.
 */

type Lookup = typeof import("../provider/lookup.js");

async function withClient<T>(fn: (api: CdcClient, lookup: Lookup) => Promise<T>): Promise<T> {
  // Loaded by the first lookup, not with the SDK: the client brings undici and zod, about 80 ms of
  // CPU in every `pulumi up` and preview, and most programs never look anything up.
  const [{ CdcClient, resolveSettings }, lookup] = await Promise.all([import("../provider/client/index.js"), import("../provider/lookup.js")]);
  // The program's own view of the stack config; secrets come decrypted, as the provider gets them.
  const settings = resolveSettings({ get: (key: string) => pulumi.runtime.getConfig(key) });
  // Its own client, closed afterwards: an open keep-alive pool would hold the program open.
  const api = new CdcClient({ settings });
  try {
    return await fn(api, lookup);
  } finally {
    await api.close();
  }
}

function exactlyOne<T>(kind: string, name: string, matches: T[]): T {
  if (matches.length === 0) throw new Error(`no ${kind} named "${name}" exists: check the name (names are exact and case-sensitive)`);
  if (matches.length > 1) throw new Error(`${matches.length} ${kind}s are named "${name}": look it up by id instead`);
  return matches[0]!;
}

export interface Role {
  id: string;
  key?: string;
  name?: string;
  permissions: string[];
}

/** The roles a ClientCredential can be bound to (`GET /auth/roles`). */
export function getRoles(): Promise<Role[]> {
  return withClient(async (api, lookup) =>
    (await lookup.listRoles(api)).map((r) => ({
      id: r.id,
      ...(r.key ? { key: r.key } : {}),
      ...(r.name ? { name: r.name } : {}),
      permissions: r.permissions ?? [],
    })),
  );
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

async function getConnector(kind: "source" | "destination", name: string): Promise<ConnectorLookup> {
  return withClient(async (api, lookup) => {
    const matches = await lookup.connectorsNamed(api, kind, name);
    const found = exactlyOne(kind, name, matches);
    return {
      id: found.id ?? "",
      name: found.name ?? name,
      connector: found.connector ?? "",
      status: found.connector_status ?? "",
      config: found.config ?? {},
      topics: found.topics ?? [],
    };
  });
}

/** A source by its exact name, e.g. to use its id or topics in a program that does not manage it. */
export function getSource(args: { name: string }): Promise<ConnectorLookup> {
  return getConnector("source", args.name);
}

/** A destination by its exact name. */
export function getDestination(args: { name: string }): Promise<ConnectorLookup> {
  return getConnector("destination", args.name);
}

/** A tag by its exact name. */
export function getTag(args: { name: string }): Promise<Pick<Tag, "id" | "name" | "type"> & { description: string; system: boolean }> {
  return withClient(async (api, lookup) => {
    const found = exactlyOne("tag", args.name, (await lookup.listTags(api, { tag_name: args.name })).filter((t) => t.name === args.name));
    return { id: found.id, name: found.name, type: found.type, description: found.description ?? "", system: Boolean(found.system) };
  });
}
