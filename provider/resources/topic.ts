import { failuresFromZod } from "../check.js";
import { anyJsonSchema, isNotFound, type CdcClient, type SourceConnector } from "../client/index.js";
import { client } from "../context.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { TOPIC, type ImportedTopic } from "../kinds/topic.js";
import { liveOutputs } from "../kinds/outputs.js";
import { plainString, UNREADABLE } from "./recovered.js";
import type { ImportListing } from "../kinds/imported.js";
import type { ImportedTransform } from "../kinds/transform.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, isUnknown, sameMembers, withoutUndefined } from "../normalize.js";
import { partitionCount, topicSchema, type LiveTopic } from "../pipelines/schemas.js";

export interface TopicInputs {
  /** The topic id, `source_<id>.<schema>.<table>` or a transform's `transform_<id>_<version>.<name>`. */
  topicId: string;
  partitionCount: number;
  /** Tag ids; undefined: the topic's tags are left as they are. */
  tags?: string[];
}

export interface TopicOutputs extends TopicInputs {
  /** The topic's name without its owner's prefix. */
  name: string;
  tagIds: string[];
}


export async function getTopic(api: CdcClient, topicId: string): Promise<LiveTopic | undefined> {
  try {
    return await api.get("/topics/{id}", { params: { id: topicId }, query: { detailed: true }, schema: topicSchema });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function outputs(live: LiveTopic, inputs: TopicInputs): TopicOutputs {
  return withoutUndefined({ ...(liveOutputs(TOPIC, live) as object), ...inputs, name: live.name ?? inputs.topicId, tagIds: live.tags });
}

const DECREASE = "partitions can only be increased (Kafka cannot take them away)";

/** What changed on a tuned topic outside Pulumi ([] when nothing): the one rule for diff and `pulumi-cdc drift`. */
export function topicFindings(live: LiveTopic | undefined, recorded: Partial<TopicOutputs>): string[] {
  if (!live) return ["no longer exists (its source table or transform was removed): run `pulumi refresh` to drop it from the stack"];
  const findings: string[] = [];
  const count = partitionCount(live);
  if (count !== undefined && count !== recorded.partitionCount) findings.push(`has ${count} partitions; the program wants ${recorded.partitionCount}`);
  if (recorded.tags !== undefined && !sameMembers(live.tags, recorded.tags)) findings.push(`tags were changed to [${live.tags.join(", ")}]`);
  return findings;
}

/**
 * Tunes a topic that a source or transform made: its partition count, which only grows, and its
 * tags. Pulumi neither creates nor deletes the topic: create reads and tunes it, destroy leaves it.
 */
export class TopicProvider {
  /** `pulumi-cdc import`: each topic a source or transform made, with who made it; a request each, so only when the import writes topics. */
  async listForImport(api: CdcClient, listing: ImportListing): Promise<ImportedTopic[]> {
    if (!listing.wanted) return [];
    const [sources, transforms] = (await Promise.all([listing.objects("Source"), listing.objects("Transform")])) as [SourceConnector[], ImportedTransform[]];
    const owned = [
      ...sources.flatMap((s) => (s.topic_ids ?? []).map((id) => ({ id, owner: { kind: "source" as const, id: s.id ?? "" } }))),
      ...transforms.flatMap((t) => t.topic_ids.map((id) => ({ id, owner: { kind: "transform" as const, id: t.id } }))),
    ];
    const read = await Promise.all(owned.map(async (o) => ({ ...o, live: await getTopic(api, o.id) })));
    return read.flatMap(({ id, owner, live }) => (live ? [{ id, name: live.name ?? id, partitions: partitionCount(live), tags: live.tags, owner }] : []));
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await getTopic(api, id);
    return { gone: live === undefined, findings: topicFindings(live, recorded) };
  }

  readonly replaceOnChange = TOPIC.replaceOnChange;

  async check(olds: Partial<TopicInputs>, news: Record<string, unknown>) {
    const parsed = TOPIC.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const failures =
      olds.topicId === input.topicId && typeof olds.partitionCount === "number" && input.partitionCount < olds.partitionCount
        ? [{ property: "partitionCount", reason: `is ${input.partitionCount}, but the topic has ${olds.partitionCount}: ${DECREASE}. Keep ${olds.partitionCount} or more.` }]
        : [];
    const inputs: TopicInputs = { topicId: input.topicId, partitionCount: input.partitionCount, ...(input.tags !== undefined ? { tags: [...new Set(input.tags)] } : {}) };
    return { inputs, failures };
  }

  async diff(topicId: string, olds: TopicOutputs, news: TopicInputs) {
    // Another topic is another object: the resource is replaced (which leaves both topics in place).
    const replaces: string[] = this.replaceOnChange.filter((k) => olds[k] !== news[k]);
    const changed = olds.partitionCount !== news.partitionCount || (news.tags !== undefined && !sameMembers(olds.tags ?? olds.tagIds, news.tags));
    let drifted = false;
    if (replaces.length === 0 && !containsUnknown(news)) {
      const findings = topicFindings(await getTopic(client(), topicId), olds);
      drifted = findings.length > 0;
      reportDrift(`topic "${topicId}"`, findings);
    }
    return { changes: replaces.length > 0 || changed || drifted, replaces, deleteBeforeReplace: false };
  }

  /**
   * `pulumi-cdc recover`: the platform makes a topic, the create only tunes it (an idempotent
   * PUT). An existing topic is taken into the stack; the refresh after reads its partitions and
   * tags, and the next `pulumi up` sets what the program says if the PUT never landed.
   */
  async findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const topicId = plainString(inputs.topicId);
    if (topicId === undefined) return { unsettled: UNREADABLE };
    if (!(await getTopic(api, topicId))) return { absent: `there is no topic "${topicId}" yet: \`pulumi up\` tunes it once its source or transform makes it` };
    if (context.tracked(topicId)) return { foreign: `topic "${topicId}" is already in the stack under another resource` };
    return { found: topicId, what: `topic "${topicId}" exists: taken into the stack (the next \`pulumi up\` sets its partitions and tags if the interrupted write did not)` };
  }

  async create(inputs: TopicInputs) {
    const api = client();
    const live = await getTopic(api, inputs.topicId);
    if (!live) {
      throw new Error(`topicId: there is no topic "${inputs.topicId}"; topics are made by sources (one per table) and transforms: use one of their topicIds`);
    }
    const count = partitionCount(live);
    if (count !== undefined && inputs.partitionCount < count) {
      throw new Error(`partitionCount: topic "${inputs.topicId}" already has ${count} partitions and the program asks for ${inputs.partitionCount}: ${DECREASE}. Set ${count} or more.`);
    }
    // Already tuned as the program says (an adopted tenant's topic): taken over with no write.
    if (count === inputs.partitionCount && (inputs.tags === undefined || sameMembers(live.tags, inputs.tags))) {
      return { id: inputs.topicId, outs: outputs(live, inputs) };
    }
    return { id: inputs.topicId, outs: await this.put(api, inputs) };
  }

  async read(topicId: string, props: Partial<TopicOutputs>) {
    const live = await getTopic(client(), topicId);
    if (!live) return { id: "", props: {} };
    const realigned: TopicInputs = withoutUndefined({
      topicId,
      partitionCount: partitionCount(live) ?? props.partitionCount ?? 1,
      // An import (no recorded partition count) takes the tags the topic has, as a program that manages them sets them.
      ...(props.tags !== undefined || (props.partitionCount === undefined && live.tags.length > 0) ? { tags: live.tags } : {}),
    });
    return { id: topicId, props: outputs(live, realigned), inputs: realigned };
  }

  async update(_id: string, _olds: TopicOutputs, news: TopicInputs) {
    return { outs: await this.put(client(), news) };
  }

  /** Topics belong to their source or transform: removing the resource leaves the topic, partitions and tags as they are. */
  async delete(topicId: string) {
    if (!isUnknown(topicId)) {
      process.stderr.write(`topic "${topicId}" is left in place with its partitions and tags: topics belong to their source or transform, and go when it does\n`);
    }
  }

  private async put(api: CdcClient, inputs: TopicInputs): Promise<TopicOutputs> {
    // The answer's shape is not relied on (the platform's is loose): the topic is read back.
    await api.put("/topics/{id}", {
      params: { id: inputs.topicId },
      body: { payload: { partition_count: inputs.partitionCount, ...(inputs.tags !== undefined ? { tags: inputs.tags } : {}) } },
      schema: anyJsonSchema,
    });
    const live = await getTopic(api, inputs.topicId);
    if (!live) throw new Error(`topic "${inputs.topicId}" was tuned but no longer reads back`);
    return outputs(live, inputs);
  }
}
