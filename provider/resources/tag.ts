import { failuresFromZod } from "../check.js";
import { TAG } from "../kinds/tag.js";
import { liveOutputs } from "../kinds/outputs.js";
import { anyJsonSchema, ConflictError, isNotFound, tagSchema, type CdcClient, type Tag } from "../client/index.js";
import { findTagByName, listTags, notOurs } from "../lookup.js";
import { createSurvivingFaults } from "./create.js";
import { nameTakenHint } from "./conflict.js";
import { unlessGone } from "./gone.js";
import { client } from "../context.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { recoverByName } from "./recovered.js";
import type { ImportListing } from "../kinds/imported.js";
import { sameMembers } from "../normalize.js";
import { resolveName } from "./naming.js";

export interface TagInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  description: string;
  type: string[];
  adoptId?: string;
}

export interface TagOutputs extends TagInputs {
  system: boolean;
  custom: boolean;
}


export async function findTag(api: CdcClient, id: string): Promise<Tag | undefined> {
  return (await listTags(api, { tag_ids: id })).find((t) => t.id === id);
}

/**
 * What changed on a tag outside Pulumi ([] when nothing), for `pulumi-cdc drift`. A plain preview
 * does not ask the API about tags (their diff compares the program with the stack only), so
 * `pulumi up` puts such a change back only when the program changes the tag, or after a refresh.
 */
export function tagFindings(live: Tag | undefined, recorded: Partial<TagOutputs>): string[] {
  if (!live) return ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again"];
  const findings: string[] = [];
  if (recorded.name !== undefined && live.name !== recorded.name) findings.push(`was renamed to "${live.name}"`);
  if (recorded.description !== undefined && (live.description ?? "") !== recorded.description) findings.push(`description was changed to ${JSON.stringify(live.description ?? "")}`);
  if (recorded.type !== undefined && !sameMembers(live.type, recorded.type)) findings.push(`type was changed to [${live.type.join(", ")}]`);
  return findings;
}

function outputs(tag: Tag, inputs: TagInputs): TagOutputs {
  return { ...(liveOutputs(TAG, tag) as object), ...inputs, system: Boolean(tag.system), custom: tag.custom === null || tag.custom === undefined ? true : Boolean(tag.custom) };
}

/** What adopting `live` would change, as diff compares (a missing description is the empty one); [] when nothing. */
export function tagAdoptionChanges(live: Tag, inputs: TagInputs): string[] {
  return [
    ...(live.name !== inputs.name ? ["name"] : []),
    ...((live.description ?? "") !== inputs.description ? ["description"] : []),
    ...(!sameMembers(live.type, inputs.type) ? ["type"] : []),
  ];
}

export class TagProvider {
  /** `pulumi-cdc import`: every tag, the platform's own too, page by page. */
  listForImport(api: CdcClient, _listing: ImportListing): Promise<Tag[]> {
    return listTags(api, {});
  }

  /** `pulumi-cdc recover`: the object a killed run's create made, by the unique name it was given. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    return recoverByName(api, context, { kind: TAG, name: inputs.name, list: (partial) => listTags(api, { tag_name: partial }) });
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await findTag(api, id);
    return { gone: live === undefined, findings: tagFindings(live, recorded) };
  }

  async check(olds: Partial<TagInputs>, news: Record<string, unknown>) {
    const parsed = TAG.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const inputs: TagInputs = {
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...resolveName(olds, input, false),
      description: input.description ?? "",
      type: input.type,
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    };
    return { inputs, failures: [] };
  }

  async diff(_id: string, olds: TagOutputs, news: TagInputs) {
    const changes = olds.name !== news.name || (olds.description ?? "") !== news.description || !sameMembers(olds.type, news.type);
    return { changes, replaces: [] as string[] };
  }

  async create(inputs: TagInputs & { __provider?: string }) {
    const api = client();
    const body = { name: inputs.name, description: inputs.description, type: inputs.type };
    if (inputs.adoptId) {
      const existing = await findTag(api, inputs.adoptId);
      if (!existing) throw new Error(`adoptId: there is no tag with id "${inputs.adoptId}" to adopt; check the id, or remove adoptId to create a new one`);
      // Already what the program says: taken over as it is, with no write.
      if (tagAdoptionChanges(existing, inputs).length === 0) return { id: existing.id, outs: outputs(existing, inputs) };
      const tag = await api.put("/tags/{id}", { params: { id: existing.id }, body, schema: tagSchema });
      return { id: existing.id, outs: outputs(tag, inputs) };
    }
    const tag = await createSurvivingFaults<Tag>({
      what: `tag "${inputs.name}"`,
      send: () => api.post("/tags", { body: { ...body, created_from: api.createdFrom }, schema: tagSchema }),
      find: () => findTagByName(api, inputs.name),
      mismatch: (found) => {
        const why = notOurs(found, {}, api.createdFrom);
        if (why) return why;
        if (!sameMembers(found.type, inputs.type)) return `it applies to ${found.type.join(", ")}`;
        return undefined;
      },
      policy: api.retryPolicy,
    }).catch(async (err: unknown) => {
      if (err instanceof ConflictError) {
        const existing = await findTagByName(api, inputs.name).catch(() => undefined);
        throw new Error(`${err.message}. ${nameTakenHint({ noun: "Tag", name: inputs.name, createdFrom: api.createdFrom, existing })}`);
      }
      throw err;
    });
    return { id: tag.id, outs: outputs(tag, inputs) };
  }

  async read(id: string, props: TagOutputs) {
    const tag = await findTag(client(), id);
    if (!tag) return { id: "", props: {} };
    const realigned: TagInputs = {
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      ...(props.autonamed !== undefined ? { autonamed: props.autonamed } : {}),
      ...(props.adoptId !== undefined ? { adoptId: props.adoptId } : {}),
      name: tag.name,
      description: tag.description ?? "",
      type: tag.type,
    };
    // No recorded inputs: `pulumi import` on the plugin. The inputs are what a program writes,
    // so an empty description (the default) is left out of the generated code.
    if (props.type === undefined && realigned.description === "") {
      const { description: _default, ...asProgram } = realigned;
      return { id, props: outputs(tag, realigned), inputs: asProgram };
    }
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
    await unlessGone(() => client().delete("/tags/{id}", { params: { id }, schema: anyJsonSchema }));
  }
}
