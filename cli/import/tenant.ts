import { z } from "zod";
import {
  agentSchema,
  CdcApiError,
  clientCredentialSchema,
  destinationConnectorSchema,
  httpConnectionSchema,
  llmConnectionSchema,
  sourceConnectorSchema,
  tagSchema,
  type Agent,
  type CdcClient,
  type ClientCredential,
  type DestinationConnector,
  type HttpConnection,
  type LlmConnection,
  type SourceConnector,
  type Tag,
} from "../../provider/client/index.js";
import { isApiSource } from "../../catalogue/index.js";
import { tagItems } from "../../provider/lookup.js";
import { getTopicDestination } from "../../provider/resources/topicDestination.js";
import { getChain, type LiveChain } from "../../provider/smt/api.js";
import { getTransform } from "../../provider/pipelines/api.js";
import { jobStatus } from "../../provider/pipelines/deploy.js";
import { partitionCount, pipelineSchema, topicSchema, transformSchema, type LivePipeline, type LiveTopic, type LiveTransform } from "../../provider/pipelines/schemas.js";

/** A transform with what the program needs beyond the listing: its implementation and whether its job runs. */
export interface TenantTransform extends LiveTransform {
  running: boolean;
}

/** A topic as the platform shows it, with who made it. */
export interface TenantTopic {
  id: string;
  name: string;
  partitions: number | undefined;
  tags: string[];
  owner: { kind: "source" | "transform"; id: string };
}

/** A topic of an API source sent to a destination. */
export interface TenantBinding {
  topicId: string;
  sourceId: string;
  destinationId: string;
}

/** A destination's user chain of single message transforms, when it holds any. */
export interface TenantSmtChain {
  destinationId: string;
  chain: LiveChain;
}

/** Everything `pulumi-cdc import` reads of a tenant, in the API's listing order. */
export interface Tenant {
  tags: Tag[];
  sources: SourceConnector[];
  destinations: DestinationConnector[];
  transforms: TenantTransform[];
  pipelines: LivePipeline[];
  httpConnections: HttpConnection[];
  llmConnections: LlmConnection[];
  agents: Agent[];
  credentials: ClientCredential[];
  topics: TenantTopic[];
  topicDestinations: TenantBinding[];
  smtChains: TenantSmtChain[];
  /** What could not be read, said for the user (an API without the agents area's lists, say). */
  notes: string[];
}

/** What to read beyond the listings: topics cost a request each. */
export interface ReadOptions {
  topics: boolean;
}

/** Every tag, page by page (the platform answers `{tags: [...]}`, with `has_next`). */
async function listAllTags(api: CdcClient): Promise<Tag[]> {
  const out: Tag[] = [];
  for (let page = 1; page <= 1000; page++) {
    const body = await api.get("/tags", { query: { page, page_size: 100 } });
    const items = tagItems(body).flatMap((item) => {
      const tag = tagSchema.safeParse(item);
      return tag.success ? [tag.data] : [];
    });
    out.push(...items);
    const more = body && typeof body === "object" && (body as { has_next?: unknown }).has_next === true;
    if (!more || items.length === 0) break;
  }
  return out;
}

/** A list of the agents area, or undefined when the API has none (404 or 405). */
async function optionalList<S extends z.ZodType>(api: CdcClient, path: string, schema: S): Promise<Array<z.output<S>> | undefined> {
  try {
    return await api.listAll(path, {}, schema);
  } catch (err) {
    if (err instanceof CdcApiError && (err.status === 404 || err.status === 405)) return undefined;
    throw err;
  }
}

async function readTopic(api: CdcClient, id: string): Promise<LiveTopic | undefined> {
  try {
    return await api.get("/topics/{id}", { params: { id }, query: { detailed: true }, schema: topicSchema });
  } catch (err) {
    if (err instanceof CdcApiError && err.status === 404) return undefined;
    throw err;
  }
}

/**
 * Which topics of the API sources are sent to which destinations. The API lists no bindings, so
 * each (topic, destination) pair is asked until one answers: its binding names every topic of
 * that source sent there. Only API sources deliver this way, so a tenant without any asks nothing.
 */
async function readBindings(api: CdcClient, sources: readonly SourceConnector[], destinations: readonly DestinationConnector[]): Promise<TenantBinding[]> {
  const pairs = sources
    .filter((s) => s.id && isApiSource(s.connector ?? ""))
    .flatMap((s) => destinations.filter((d) => d.id).map((d) => ({ source: s, destinationId: d.id! })));
  const found = await Promise.all(
    pairs.map(async ({ source, destinationId }) => {
      for (const topicId of source.topic_ids ?? []) {
        const live = await getTopicDestination(api, { topicId, destinationId });
        if (live) return (live.topic_ids ?? [topicId]).map((t) => ({ topicId: t, sourceId: source.id!, destinationId }));
      }
      return [];
    }),
  );
  return found.flat();
}

/**
 * Each destination's chain, by the provider's own reader: no chain yet (`smt_chain_absent`) and
 * an emptied one are both no chain to manage, and a destination gone since the listing has none.
 */
async function readSmtChains(api: CdcClient, destinations: readonly DestinationConnector[]): Promise<TenantSmtChain[]> {
  const read = await Promise.all(destinations.filter((d) => d.id).map(async (d) => ({ destinationId: d.id!, chain: await getChain(api, d.id!) })));
  return read.filter((r): r is TenantSmtChain => r.chain !== undefined && r.chain.transforms.length > 0);
}

/**
 * Reads the whole tenant: every listing, each transform's implementation and job status, and
 * (when asked) each topic a source or transform made. Secrets come back masked, as the API
 * always answers them. The first error fails the read: a partial tenant would make a program
 * that leaves objects out without saying so.
 */
export async function readTenant(api: CdcClient, options: ReadOptions): Promise<Tenant> {
  const notes: string[] = [];
  const [tags, sources, destinations, listedTransforms, pipelines, http, llm, agents, credentials] = await Promise.all([
    listAllTags(api),
    api.listAll("/sources", {}, sourceConnectorSchema),
    api.listAll("/destinations", {}, destinationConnectorSchema),
    api.listAll("/transforms", {}, transformSchema),
    api.listAll("/pipelines", {}, pipelineSchema),
    optionalList(api, "/agents/connections/http", httpConnectionSchema),
    optionalList(api, "/agents/connections/llm", llmConnectionSchema),
    optionalList(api, "/agents", agentSchema),
    api.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) }),
  ]);
  if (http === undefined) notes.push("the API has no list of HTTP connections (GET /agents/connections/http): none were read");
  if (llm === undefined) notes.push("the API has no list of LLM connections (GET /agents/connections/llm): none were read");
  if (agents === undefined) notes.push("the API has no list of agents (GET /agents): none were read");
  const transforms = await Promise.all(
    listedTransforms.map(async (listed): Promise<TenantTransform> => {
      // The item itself: the listing need not carry the implementation.
      const live = (await getTransform(api, listed.id)) ?? listed;
      const running = (await jobStatus(api, listed.id))?.status === "RUNNING";
      return { ...live, running };
    }),
  );
  const topics: TenantTopic[] = [];
  if (options.topics) {
    const owned = [
      ...sources.flatMap((s) => (s.topic_ids ?? []).map((id) => ({ id, owner: { kind: "source" as const, id: s.id ?? "" } }))),
      ...transforms.flatMap((t) => t.topic_ids.map((id) => ({ id, owner: { kind: "transform" as const, id: t.id } }))),
    ];
    const read = await Promise.all(owned.map(async (o) => ({ ...o, live: await readTopic(api, o.id) })));
    for (const { id, owner, live } of read) {
      if (!live) continue;
      topics.push({ id, name: live.name ?? id, partitions: partitionCount(live), tags: live.tags, owner });
    }
  }
  const [topicDestinations, smtChains] = await Promise.all([readBindings(api, sources, destinations), readSmtChains(api, destinations)]);
  return {
    tags,
    sources,
    destinations,
    transforms,
    pipelines,
    httpConnections: http ?? [],
    llmConnections: llm ?? [],
    agents: (agents ?? []).filter((a) => a.status !== "deleted"),
    credentials,
    topics,
    topicDestinations,
    smtChains,
    notes,
  };
}
