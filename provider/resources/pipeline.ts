import { failuresFromZod } from "../check.js";
import { anyJsonSchema, ConflictError, connectorSchema, isNotFound, ValidationError, type CdcClient } from "../client/index.js";
import { client } from "../context.js";
import type { ImportListing } from "../kinds/imported.js";
import { DEVELOPMENT_TAG_ID, PIPELINE } from "../kinds/pipeline.js";
import { liveOutputs } from "../kinds/outputs.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, sameMembers, withoutUndefined } from "../normalize.js";
import { findByName, getPipeline, getTransform, waitUntilGone } from "../pipelines/api.js";
import { pipelineSchema, type LivePipeline } from "../pipelines/schemas.js";
import { livePipelineView } from "../pipelines/view.js";
import { alignTopics, alignTransformTopics, sameTopics, sameTransformTopics, topicSet, transformTopicsProblem, unwind, type TransformTopics } from "../pipelines/topics.js";
import { createSurvivingFaults } from "./create.js";
import { plainString, recoverByName } from "./recovered.js";
import { resolveName } from "./naming.js";

/** A source or destination as a pipeline refers to it; the SDK fills name and connector from a resource. */
export interface ConnectorRef {
  id: string;
  name?: string;
  connector?: string;
}

export interface PipelineInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  source: ConnectorRef;
  destination: ConnectorRef;
  /** Selected source topics, as the program wrote them (`public.orders`). */
  sourceTopics: string[];
  /** Per transform, the topics of it that go to the destination. */
  transforms: TransformTopics[];
  snapshotNewTables: boolean;
  /** Tag ids; undefined: a new pipeline gets the Development tag, and the program leaves its tags alone after. */
  tags?: string[];
  /** The id of an existing pipeline to take over instead of creating one. */
  adoptId?: string;
}

export interface PipelineOutputs extends PipelineInputs {
  status: string;
  /** Topic ids of everything the pipeline sends, as the API names them. */
  topicIds: string[];
  /** The tags the pipeline has (also when the program does not manage them). */
  tagIds: string[];
}


const path = "/pipelines/{id}";

/** What changed on a pipeline outside Pulumi, against what Pulumi recorded; [] when nothing. Shared with `pulumi-cdc drift`. */
export function pipelineFindings(live: LivePipeline | undefined, recorded: Pick<PipelineInputs, "name" | "source" | "destination" | "sourceTopics" | "transforms" | "snapshotNewTables" | "tags">): string[] {
  if (!live) return ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again"];
  const view = livePipelineView(live);
  // A record recover took in from a preview may not know the ends yet: the refresh after reads them.
  const sourceId = recorded.source?.id;
  const destinationId = recorded.destination?.id;
  const findings: string[] = [];
  if (view.name !== recorded.name) findings.push(`was renamed to "${view.name}"`);
  if (sourceId !== undefined && view.sourceId !== sourceId) findings.push(`reads source ${view.sourceId}, not ${sourceId}`);
  if (destinationId !== undefined && view.destinationId !== destinationId) findings.push(`writes to destination ${view.destinationId}, not ${destinationId}`);
  if (!sameTopics(view.sourceTopics, recorded.sourceTopics ?? [], { sourceId })) {
    findings.push(`selects source topics [${view.sourceTopics.join(", ")}]; the program selects [${(recorded.sourceTopics ?? []).join(", ")}]`);
  }
  if (!sameTransformTopics(view.transforms, recorded.transforms ?? [], sourceId)) {
    const show = (groups: readonly TransformTopics[]) => groups.map((g) => `${g.id}: ${g.topics.join(", ")}`).join("; ") || "none";
    findings.push(`sends transform topics {${show(view.transforms)}}; the program sends {${show(recorded.transforms ?? [])}}`);
  }
  if (view.snapshotNewTables !== (recorded.snapshotNewTables ?? false)) findings.push(`has snapshotNewTables ${view.snapshotNewTables}`);
  if (recorded.tags !== undefined && !sameMembers(view.tags, recorded.tags)) findings.push(`tags were changed to [${view.tags.join(", ")}]`);
  return findings;
}

/** The reference as the program gave it (an id, or id, name and connector), with the live values. */
function realignRef(given: ConnectorRef | undefined, id: string, live: { name?: string | null; connector?: string | null } | null | undefined): ConnectorRef {
  if (!given?.name && !given?.connector) return { id };
  return { id, name: live?.name ?? given.name, connector: live?.connector ?? given.connector };
}

/** Pipelines: one source into one destination, through transforms' topics; every field updates in place. */
export class PipelineProvider {
  /** `pulumi-cdc import`: every pipeline. */
  listForImport(api: CdcClient, _listing: ImportListing): Promise<LivePipeline[]> {
    return api.listAll("/pipelines", {}, pipelineSchema);
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>, name: string): Promise<DriftFindings> {
    const live = await getPipeline(api, id);
    if (!live) return { gone: true, findings: [] };
    const r = recorded as unknown as Partial<PipelineInputs>;
    const findings = pipelineFindings(live, {
      name: r.name ?? name,
      source: r.source ?? { id: "" },
      destination: r.destination ?? { id: "" },
      sourceTopics: Array.isArray(r.sourceTopics) ? r.sourceTopics : [],
      transforms: Array.isArray(r.transforms) ? r.transforms : [],
      snapshotNewTables: r.snapshotNewTables === true,
      ...(Array.isArray(r.tags) ? { tags: r.tags } : {}),
    });
    return { gone: false, findings };
  }

  async check(olds: Partial<PipelineInputs>, news: Record<string, unknown>) {
    const parsed = PIPELINE.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const inputs: PipelineInputs = withoutUndefined({
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...resolveName(olds, input, false),
      source: input.source,
      destination: input.destination,
      sourceTopics: input.sourceTopics ?? [],
      transforms: input.transforms ?? [],
      snapshotNewTables: input.snapshotNewTables ?? false,
      ...(input.tags !== undefined ? { tags: [...new Set(input.tags)] } : {}),
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    });
    return { inputs, failures: [] };
  }

  async diff(pipelineId: string, olds: PipelineOutputs, news: PipelineInputs) {
    const sourceId = news.source?.id;
    const changed = [
      ...(olds.name !== news.name ? ["name"] : []),
      ...(olds.source?.id !== news.source?.id ? ["source"] : []),
      ...(olds.destination?.id !== news.destination?.id ? ["destination"] : []),
      // Inputs an import (or recover's refresh) leaves out are their defaults: none, and false.
      ...(!sameTopics(olds.sourceTopics ?? [], news.sourceTopics ?? [], { sourceId }) ? ["sourceTopics"] : []),
      ...(!sameTransformTopics(olds.transforms ?? [], news.transforms ?? [], sourceId) ? ["transforms"] : []),
      ...((olds.snapshotNewTables ?? false) !== (news.snapshotNewTables ?? false) ? ["snapshotNewTables"] : []),
      ...(news.tags !== undefined && !sameMembers(olds.tags ?? olds.tagIds, news.tags) ? ["tags"] : []),
    ];
    let drifted = false;
    if (!containsUnknown(news)) {
      // A plain `pulumi preview` shows changes made outside Pulumi: ask the API.
      const findings = pipelineFindings(await getPipeline(client(), pipelineId), olds);
      drifted = findings.length > 0;
      reportDrift(`pipeline "${olds.name}" (${pipelineId})`, findings);
    }
    return { changes: changed.length > 0 || drifted, replaces: [] as string[] };
  }

  /** `pulumi-cdc recover`: the pipeline a killed run's create made, by its unique name, of the program's source. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const sourceId = plainString((inputs.source as { id?: unknown } | undefined)?.id);
    return recoverByName(api, context, {
      kind: PIPELINE,
      name: inputs.name,
      list: (partial) => api.listAll("/pipelines", { partial_name: partial }, pipelineSchema),
      differs: (found) => (sourceId !== undefined && found.source?.id && found.source.id !== sourceId ? `a pipeline of source ${found.source.id}` : undefined),
    });
  }

  async create(inputs: PipelineInputs & { __provider?: string }) {
    const api = client();
    if (inputs.adoptId) return this.adopt(api, inputs);
    // Unset tags: the platform's Development tag, as the vendor's provider gives a new pipeline.
    // Only the body carries it: the recorded inputs keep tags unset, so later tag changes in the
    // console are left alone and no preview shows a difference.
    const body = await this.body(api, { ...inputs, tags: inputs.tags ?? [DEVELOPMENT_TAG_ID] });
    const live = await createSurvivingFaults({
      what: `pipeline "${inputs.name}"`,
      send: () => api.post("/pipelines", { query: { secret_returned: true, wait: false }, body: { ...body, created_from: api.createdFrom }, schema: pipelineSchema }),
      find: () => findByName(api, "/pipelines", pipelineSchema, inputs.name),
      mismatch: (found) => {
        if (found.created_from && found.created_from !== api.createdFrom) return `created from ${found.created_from}, not by Pulumi`;
        if (found.source?.id && found.source.id !== inputs.source.id) return `a pipeline of source ${found.source.id}`;
        return undefined;
      },
      policy: api.retryPolicy,
    }).catch(async (err: unknown) => {
      if (err instanceof ConflictError) throw new Error(`${err.message}. Pipeline names are unique: choose another name.`);
      throw await this.explained(api, inputs, err);
    });
    return { id: live.id, outs: this.outputs(live, inputs) };
  }

  async read(pipelineId: string, props: Partial<PipelineOutputs>) {
    const live = await getPipeline(client(), pipelineId);
    if (!live) return { id: "", props: {} };
    const view = livePipelineView(live);
    // No recorded source: `pulumi import` on the plugin.
    const importing = props.source === undefined;
    const realigned: PipelineInputs = withoutUndefined({
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      ...(props.autonamed !== undefined ? { autonamed: props.autonamed } : {}),
      name: view.name || props.name || "",
      source: realignRef(props.source, view.sourceId, live.source),
      destination: realignRef(props.destination, view.destinationId, live.destination),
      sourceTopics: alignTopics(props.sourceTopics, view.sourceTopics, { sourceId: view.sourceId }),
      transforms: alignTransformTopics(props.transforms, view.transforms, view.sourceId),
      snapshotNewTables: view.snapshotNewTables,
      ...(props.tags !== undefined || (importing && view.tags.length > 0) ? { tags: view.tags } : {}),
    });
    if (importing) {
      // The code an import generates leaves out what a program leaves unset: no topics, no
      // transforms, no snapshots of new tables (the defaults); it takes the tags the pipeline has.
      const { sourceTopics, transforms, snapshotNewTables, ...asProgram } = realigned;
      const inputs = {
        ...asProgram,
        ...(sourceTopics.length > 0 ? { sourceTopics } : {}),
        ...(transforms.length > 0 ? { transforms } : {}),
        ...(snapshotNewTables ? { snapshotNewTables } : {}),
      };
      return { id: pipelineId, props: this.outputs(live, realigned), inputs };
    }
    return { id: pipelineId, props: this.outputs(live, realigned), inputs: realigned };
  }

  async update(pipelineId: string, olds: PipelineOutputs, news: PipelineInputs) {
    const api = client();
    // Unset tags are left as they are: the PUT carries the ones the pipeline has.
    const body = await this.body(api, { ...news, tags: news.tags ?? olds.tagIds ?? [] });
    try {
      // The API drops a pipeline's periodic audit when a PUT leaves it out, and pulumi-cdc does
      // not manage it: the live one is sent back as it is, whatever its shape.
      const audit = (await getPipeline(api, pipelineId))?.periodic_audit;
      if (audit !== undefined && audit !== null) Object.assign(body, { periodic_audit: audit });
      const live = await api.put(path, { params: { id: pipelineId }, query: { secret_returned: true, wait: false }, body, schema: pipelineSchema });
      return { outs: this.outputs(live, news) };
    } catch (err) {
      if (isNotFound(err)) {
        throw new Error(`pipeline "${news.name}" (${pipelineId}) no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again.`);
      }
      throw await this.explained(api, news, err);
    }
  }

  /**
   * Takes over an existing pipeline. When it already equals the program (the same comparison
   * as drift: name, source, destination, topics as sets, transforms, snapshotNewTables, tags
   * when the program sets them) nothing is written; otherwise one PUT makes it match.
   */
  private async adopt(api: CdcClient, inputs: PipelineInputs) {
    const id = inputs.adoptId!;
    const live = await getPipeline(api, id);
    if (!live) throw new Error(`adoptId: there is no pipeline with id "${id}" to adopt; check the id, or remove adoptId to create a new one`);
    if (pipelineFindings(live, inputs).length === 0) return { id, outs: this.outputs(live, inputs) };
    return { id, outs: (await this.update(id, { tagIds: live.tags } as PipelineOutputs, inputs)).outs };
  }

  /**
   * A write the API refused (422), said with why when a transform's topics are the cause: the
   * transform has no topics at all, or none (or not all) of the names given are among its
   * topics. The transforms are read again for that, on this failure path only.
   */
  private async explained(api: CdcClient, inputs: PipelineInputs, err: unknown): Promise<unknown> {
    if (!(err instanceof ValidationError) || inputs.transforms.length === 0) return err;
    const ids = [...new Set(inputs.transforms.map((g) => g.id))];
    const live = new Map(await Promise.all(ids.map(async (tid) => [tid, await getTransform(api, tid).catch(() => undefined)] as const)));
    const problem = transformTopicsProblem(inputs.transforms, live, inputs.source.id);
    return problem ? new Error(`${problem}. The API said: ${err.message}`) : err;
  }

  async delete(pipelineId: string, props?: Partial<PipelineOutputs>) {
    const api = client();
    try {
      await api.delete(path, { params: { id: pipelineId }, query: { secret_returned: true, wait: false }, schema: anyJsonSchema });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    // Its source, destination and transforms are deleted next, and cannot be while it is there.
    await waitUntilGone(`pipeline "${props?.name ?? pipelineId}"`, async () => (await getPipeline(api, pipelineId)) !== undefined);
  }

  /** The write body: references with the names and connectors the API wants, one transforms entry per (transform, topic). */
  private async body(api: CdcClient, inputs: PipelineInputs) {
    const [source, destination] = await Promise.all([this.resolveRef(api, "source", inputs.source), this.resolveRef(api, "destination", inputs.destination)]);
    const transforms = new Map<string, { name: string; start_time: string | null; topics: string[]; topic_ids: string[] }>();
    await Promise.all(
      [...new Set(inputs.transforms.map((g) => g.id))].map(async (tid) => {
        const t = await getTransform(api, tid);
        if (!t) throw new Error(`transforms: transform ${tid} does not exist; create it (a Transform resource) or fix the id`);
        transforms.set(tid, { name: t.name ?? "", start_time: t.start_time ?? null, topics: t.topics, topic_ids: t.topic_ids });
      }),
    );
    return {
      name: inputs.name,
      snapshot_new_tables: inputs.snapshotNewTables,
      source: { ...source, topics: [...topicSet(inputs.sourceTopics, { sourceId: source.id })] },
      destination,
      transforms: unwind(inputs.transforms, transforms, source.id),
      topic_auto_discovery_transforms: [],
      tags: inputs.tags ?? [],
    };
  }

  /** id, name and connector of a source or destination; name and connector read from the API when the program gave only an id. */
  private async resolveRef(api: CdcClient, kind: "source" | "destination", r: ConnectorRef): Promise<{ id: string; name: string; connector: string }> {
    if (r.name && r.connector) return { id: r.id, name: r.name, connector: r.connector };
    const live = await api.findOne(`/${kind}s/{id}`, connectorSchema(kind), { params: { id: r.id } });
    if (!live) throw new Error(`${kind}: there is no ${kind} with id "${r.id}"; pass the ${kind === "source" ? "Source" : "Destination"} resource, or an existing id`);
    return { id: r.id, name: live.name ?? "", connector: live.connector ?? "" };
  }

  private outputs(live: LivePipeline, inputs: PipelineInputs): PipelineOutputs {
    return withoutUndefined({
      ...(liveOutputs(PIPELINE, live) as object),
      ...inputs,
      status: live.status ?? "",
      topicIds: [...(live.source?.topics ?? []), ...live.transforms.map((t) => t.topic_id ?? "").filter(Boolean)],
      tagIds: live.tags,
    });
  }
}
