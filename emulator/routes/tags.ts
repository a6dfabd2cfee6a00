import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.js";
import { objectId } from "../crypto.js";
import { conflict, forbidden, notFound } from "../errors.js";
import { pageOf } from "../paging.js";
import type { Store, TagRecord } from "../store.js";
import { createdFromField, nameField, pathId, queryInt, queryString, resolveCreatedFrom, validateRequest } from "../validation.js";

/** What a tag is for, spelt as the platform spells it. */
export const TAG_TYPES = ["environment", "general", "sources", "destinations", "pipelines", "transforms", "topics", "services", "users", "tenant"] as const;

const tagBody = z.object({
  name: nameField,
  description: z.string().max(1000).nullable().optional(),
  type: z.array(z.enum(TAG_TYPES)).min(1),
  created_from: createdFromField,
});
const tagPath = z.object({ tag_id: pathId });
const repeated = z.union([z.string(), z.array(z.string())]).optional();
const listQuery = z.object({
  tag_ids: repeated,
  tag_name: queryString(),
  tag_type: repeated,
  page: queryInt({ default: 1, ge: 1 }),
  // 0: not given, and then every match is answered (the platform's own client never pages tags).
  page_size: queryInt({ default: 0, ge: 1, le: 100 }),
});
const searchBody = z.object({ tag_ids: z.array(z.string()).optional() }).nullable().optional();

/**
 * Tags the platform ships with: `system` true, `custom` false, read-only, under the platform's own
 * fixed ids (the vendor's provider defaults a pipeline's tags to Development's), so a program or
 * a Terraform configuration that names them works here as there.
 */
const SYSTEM_TAG_IDS = { production: "670e5bab0d119c0d1f8cda9d", development: "670e5ca40afe1d3983ce0c22" } as const;

const SYSTEM_TAGS: readonly Omit<TagRecord, "created_at" | "updated_at">[] = [
  {
    id: SYSTEM_TAG_IDS.production,
    name: "Production",
    description: "Objects serving production workloads",
    type: ["environment"],
    system: true,
    custom: false,
    created_from: null,
  },
  {
    id: SYSTEM_TAG_IDS.development,
    name: "Development",
    description: "Objects used for development and testing",
    type: ["environment"],
    system: true,
    custom: false,
    created_from: null,
  },
];

/** The ids earlier emulators gave the system tags; a state file written by one is moved to the platform's ids. */
const EARLIER_IDS: Readonly<Record<string, string>> = {
  "00000000-0000-4000-8000-000000000001": SYSTEM_TAG_IDS.production,
  "00000000-0000-4000-8000-000000000002": SYSTEM_TAG_IDS.development,
};

function tagged(store: Store) {
  return [
    ...Object.values(store.data.sources),
    ...Object.values(store.data.destinations),
    ...Object.values(store.data.pipelines),
    ...Object.values(store.data.transforms),
    ...Object.values(store.data.topics),
  ];
}

export function ensureSystemTags(store: Store): void {
  for (const [earlier, id] of Object.entries(EARLIER_IDS)) {
    if (!store.data.tags[earlier]) continue;
    delete store.data.tags[earlier];
    for (const record of tagged(store)) {
      if (record.tags?.includes(earlier)) record.tags = [...new Set(record.tags.map((t) => (t === earlier ? id : t)))];
    }
    store.markDirty();
  }
  for (const tag of SYSTEM_TAGS) {
    if (!store.data.tags[tag.id]) {
      store.data.tags[tag.id] = { ...tag, type: [...tag.type], created_at: "2024-01-01T00:00:00.000Z", updated_at: "2024-01-01T00:00:00.000Z" };
      store.markDirty();
    }
  }
}

function renderTag(tag: TagRecord) {
  return {
    id: tag.id,
    name: tag.name,
    description: tag.description,
    type: [...tag.type],
    system: tag.system,
    custom: tag.custom,
    created_from: tag.created_from,
  };
}

/**
 * The tag listing answers `{tags: [...]}`, the key the platform's Terraform client decodes,
 * with the paging fields of the list envelope beside it (see README: "Tags").
 */
function tagList(all: readonly TagRecord[], page: number, pageSize: number) {
  const size = pageSize === 0 ? Math.max(all.length, 1) : pageSize;
  const { result, ...paging } = pageOf(all, page, size, renderTag);
  return { tags: result, ...paging };
}

/** `tag_ids` and `tag_type` may be repeated or comma-separated, or both. */
function splitIds(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  return parts;
}

export function registerTagRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  const find = (id: string): TagRecord => {
    const tag = store.data.tags[id];
    if (!tag) throw notFound(`Tag '${id}' not found`);
    return tag;
  };
  const assertUniqueName = (name: string, exceptId?: string) => {
    if (Object.values(store.data.tags).some((t) => t.name === name && t.id !== exceptId)) {
      throw conflict(`A tag named '${name}' already exists`);
    }
  };
  const assertCustom = (tag: TagRecord) => {
    if (tag.system) throw forbidden(`Tag '${tag.id}' is a system tag and cannot be changed or deleted`);
  };

  const matching = (ids: string[] | undefined, name: string | undefined, types: string[] | undefined) => {
    const needle = name?.toLowerCase();
    return Object.values(store.data.tags)
      .filter((t) => ids === undefined || ids.includes(t.id))
      .filter((t) => needle === undefined || t.name.toLowerCase().includes(needle))
      // Any of the types (the platform's default tag_logic "or").
      .filter((t) => types === undefined || types.length === 0 || t.type.some((ty) => types.includes(ty)))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  };

  app.get("/tags", { config: { permission: "tags:read" } }, async (request) => {
    const { query } = validateRequest(request, { query: listQuery });
    return tagList(matching(splitIds(query.tag_ids), query.tag_name, splitIds(query.tag_type)), query.page, query.page_size);
  });

  // The body form of the listing, for id lists too long for a URL; body ids win over query ids.
  app.post("/tags/search", { config: { permission: "tags:read" } }, async (request) => {
    const { query, body } = validateRequest(request, { query: listQuery, body: searchBody });
    const ids = body?.tag_ids ?? splitIds(query.tag_ids);
    return tagList(matching(ids, query.tag_name, splitIds(query.tag_type)), query.page, query.page_size);
  });

  app.get("/tags/:tag_id", { config: { permission: "tags:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: tagPath });
    return renderTag(find(path.tag_id));
  });

  app.post("/tags", { config: { permission: "tags:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: tagBody });
    assertUniqueName(body.name);
    const now = store.nowIso();
    const tag: TagRecord = {
      id: objectId(),
      name: body.name,
      description: body.description ?? null,
      type: [...new Set(body.type)],
      system: false,
      custom: true,
      created_from: resolveCreatedFrom(body.created_from),
      created_at: now,
      updated_at: now,
    };
    store.data.tags[tag.id] = tag;
    store.markDirty();
    return renderTag(tag);
  });

  app.put("/tags/:tag_id", { config: { permission: "tags:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: tagPath, body: tagBody });
    const tag = find(path.tag_id);
    assertCustom(tag);
    assertUniqueName(body.name, tag.id);
    tag.name = body.name;
    tag.description = body.description ?? null;
    tag.type = [...new Set(body.type)];
    tag.updated_at = store.nowIso();
    store.markDirty();
    return renderTag(tag);
  });

  app.delete("/tags/:tag_id", { config: { permission: "tags:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: tagPath });
    const tag = find(path.tag_id);
    assertCustom(tag);
    delete store.data.tags[tag.id];
    // A deleted tag is no longer on anything.
    for (const record of tagged(store)) {
      if (record.tags?.includes(tag.id)) record.tags = record.tags.filter((t) => t !== tag.id);
    }
    store.markDirty();
    return { id: tag.id, deleted: true };
  });
}
