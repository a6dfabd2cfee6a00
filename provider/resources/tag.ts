import { z } from "zod";
import { failuresFromZod, knowable, nameSchema } from "../check.js";
import { isNotFound, tagSchema, type CdcClient, type Tag } from "../client/index.js";
import { client } from "../context.js";
import { resolveName } from "./naming.js";

export interface TagInputs {
  __name?: string;
  __autonamed?: boolean;
  name: string;
  description: string;
  type: string[];
  adoptId?: string;
}

export interface TagOutputs extends TagInputs {
  system: boolean;
  custom: boolean;
}

const inputSchema = z.object({
  __name: z.string().optional(),
  name: knowable(nameSchema).optional(),
  description: z.string({ error: "must be a string" }).max(1024, { error: "must be at most 1024 characters" }).optional(),
  type: z.array(z.string().min(1, { error: "must not be empty" }), { error: "must be a list of strings, e.g. [\"source\", \"destination\"]" }).optional(),
  adoptId: knowable(z.string().min(1, { error: "must not be empty: the id of the existing tag to adopt" })).optional(),
});

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());

async function findTag(api: CdcClient, id: string): Promise<Tag | undefined> {
  // GET /tags answers a plain list or the paginated envelope; both are accepted.
  const body = await api.get("/tags", { query: { tag_ids: id } });
  const items = Array.isArray(body) ? body : ((body as { result?: unknown[] } | null)?.result ?? []);
  for (const item of items) {
    const tag = tagSchema.safeParse(item);
    if (tag.success && tag.data.id === id) return tag.data;
  }
  return undefined;
}

function outputs(tag: Tag, inputs: TagInputs): TagOutputs {
  return { ...inputs, system: Boolean(tag.system), custom: tag.custom === null || tag.custom === undefined ? true : Boolean(tag.custom) };
}

export class TagProvider {
  async check(olds: Partial<TagInputs>, news: Record<string, unknown>) {
    const parsed = inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const inputs: TagInputs = {
      ...(input.__name !== undefined ? { __name: input.__name } : {}),
      ...resolveName(olds, input, false),
      description: input.description ?? "",
      type: input.type ?? [],
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    };
    return { inputs, failures: [] };
  }

  async diff(_id: string, olds: TagOutputs, news: TagInputs) {
    const changes = olds.name !== news.name || (olds.description ?? "") !== news.description || !sameList(olds.type, news.type);
    return { changes, replaces: [] as string[] };
  }

  async create(inputs: TagInputs & { __provider?: string }) {
    const api = client();
    const body = { name: inputs.name, description: inputs.description, type: inputs.type };
    if (inputs.adoptId) {
      const existing = await findTag(api, inputs.adoptId);
      if (!existing) throw new Error(`adoptId: there is no tag with id "${inputs.adoptId}" to adopt; check the id, or remove adoptId to create a new one`);
      const tag = await api.put("/tags/{id}", { params: { id: existing.id }, body, schema: tagSchema });
      return { id: existing.id, outs: outputs(tag, inputs) };
    }
    const tag = await api.post("/tags", { body: { ...body, created_from: api.createdFrom }, schema: tagSchema });
    return { id: tag.id, outs: outputs(tag, inputs) };
  }

  async read(id: string, props: TagOutputs) {
    const tag = await findTag(client(), id);
    if (!tag) return { id: "", props: {} };
    const realigned: TagInputs = {
      ...(props.__name !== undefined ? { __name: props.__name } : {}),
      ...(props.__autonamed !== undefined ? { __autonamed: props.__autonamed } : {}),
      ...(props.adoptId !== undefined ? { adoptId: props.adoptId } : {}),
      name: tag.name,
      description: tag.description ?? "",
      type: tag.type,
    };
    return { id, props: outputs(tag, realigned), inputs: realigned };
  }

  async update(id: string, _olds: TagOutputs, news: TagInputs) {
    try {
      const tag = await client().put("/tags/{id}", {
        params: { id },
        body: { name: news.name, description: news.description, type: news.type },
        schema: tagSchema,
      });
      return { outs: outputs(tag, news) };
    } catch (err) {
      if (isNotFound(err)) {
        throw new Error(`tag "${news.name}" (${id}) no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\`, then \`pulumi up\` to create it again.`);
      }
      throw err;
    }
  }

  async delete(id: string) {
    try {
      await client().delete("/tags/{id}", { params: { id } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
