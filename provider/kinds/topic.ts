import { z } from "zod";
import { knowable } from "../check.js";
import { declareInputs } from "./inputs.js";
import { echo, STRINGS, tagsInput } from "./shared.js";
import type { ImportContext } from "./imported.js";
import type { KindSpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform } from "./terraform.js";

/** The most partitions a topic may have. */
const PARTITIONS_MAX = 1000;

/**
 * The partitions the platform gives every topic it makes (the emulator's rule, the platform's
 * default): an import writes a topic only when it has another count, or tags.
 */
export const PLATFORM_TOPIC_PARTITIONS = 3;

/** A topic as an import reads it, with who made it. */
export interface ImportedTopic {
  id: string;
  name: string;
  partitions: number | undefined;
  tags: string[];
  owner: { kind: "source" | "transform"; id: string };
  /** Declared by its team (a Terraform state's `streamkap_topic`): written even as the platform made it, since they manage it. */
  declared?: true;
}

/** Who made a topic, from its id: `source_<id>.<schema>.<table>` or `transform_<id>_<version>.<name>`. */
export function topicOwner(topicId: string): { owner: ImportedTopic["owner"]; name: string } | undefined {
  const m = /^(source|transform)_([0-9a-f]+)(?:_\d+)?\.(.+)$/.exec(topicId);
  return m ? { owner: { kind: m[1] as "source" | "transform", id: m[2]! }, name: m[3]! } : undefined;
}

/** A topic a program needs: its partitions or tags are not what the platform made, or its team declared it. */
function tuned(t: ImportedTopic): boolean {
  return t.declared === true || (t.partitions !== undefined && t.partitions !== PLATFORM_TOPIC_PARTITIONS) || t.tags.length > 0;
}

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  topicId: {
    type: "string",
    replaceOnChange: true,
    description:
      "The id of a topic a source or transform made, e.g. a `Source`'s `topicIds[0]` (`source_<id>.public.orders`) or `transform_<id>_<version>.<name>`. Changing it replaces the resource; both topics stay.",
    check: knowable(z.string({ error: "is required: the id of an existing topic, e.g. a Source's topicIds[0]" }).min(1, { error: "must not be empty" })),
  },
  partitionCount: {
    type: "integer",
    description: `The topic's partitions, from 1 to ${PARTITIONS_MAX}. They can only be increased: a lower count fails \`pulumi preview\` before any API call.`,
    check: z
      .number({ error: "is required: the number of partitions" })
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .max(PARTITIONS_MAX, { error: `must be at most ${PARTITIONS_MAX}` }),
  },
  tags: tagsInput("topic"),
});

export const TOPIC = {
  name: "Topic",
  token: "cdc:index:Topic",
  noun: "topic",
  plural: "topics",
  report: "topic",
  imported: {
    flag: "topics",
    suffix: "Topic",
    order: 9,
    section: "Topics tuned away from what the platform made (a Topic takes over the topic its topicId names; destroy leaves it in place)",
    objects: (topics: readonly ImportedTopic[]) => topics.filter(tuned).map((t) => ({ id: t.id, name: t.name, tagIds: t.tags, live: t })),
    inputs: (t: ImportedTopic, ctx: ImportContext) => {
      ctx.dependsOn(t.owner.kind === "source" ? "Source" : "Transform", t.owner.id);
      return { topicId: t.id, partitionCount: t.partitions ?? PLATFORM_TOPIC_PARTITIONS, tags: ctx.tags(t.tags) };
    },
  },
  terraform: {
    types: ["streamkap_topic"],
    attributes: { topic_id: "topicId (and adoption: a topic is its id)", partition_count: "partitionCount", tags: "tags" },
    live: (a) => {
      const id = tfString(a, "topic_id");
      if (!id) return undefined;
      const owner = topicOwner(id);
      const partitions = typeof a.partition_count === "number" ? a.partition_count : undefined;
      const topic: ImportedTopic = { id, name: owner?.name ?? id, partitions, tags: tfStrings(a, "tags"), owner: owner?.owner ?? { kind: "source", id: "" }, declared: true };
      return { id, live: topic };
    },
  } satisfies KindTerraform,
  description:
    "Tunes a topic that a source (one per table) or a transform made: its partition count, which only grows, and its tags. Pulumi never creates or deletes the topic: destroy leaves it, and it goes with its source's table or its transform.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["topicId", "partitionCount"]),
    { name: "name", type: "string", required: true, description: "The topic's name, without its owner's prefix." },
    { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the topic has." },
  ],
} satisfies KindSpec<"Topic">;
