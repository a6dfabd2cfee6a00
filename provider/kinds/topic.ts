import { echo, STRINGS, tagsInput } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  {
    name: "topicId",
    type: "string",
    required: true,
    replaceOnChange: true,
    description:
      "The id of a topic a source or transform made, e.g. a `Source`'s `topicIds[0]` (`source_<id>.public.orders`) or `transform_<id>_<version>.<name>`. Changing it replaces the resource; both topics stay.",
  },
  {
    name: "partitionCount",
    type: "integer",
    required: true,
    description: "The topic's partitions, from 1 to 1000. They can only be increased: a lower count fails `pulumi preview` before any API call.",
  },
  tagsInput("topic"),
];

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
  },
  description:
    "Tunes a topic that a source (one per table) or a transform made: its partition count, which only grows, and its tags. Pulumi never creates or deletes the topic: destroy leaves it, and it goes with its source's table or its transform.",
  inputs,
  outputs: [
    ...echo(inputs, ["topicId", "partitionCount"]),
    { name: "name", type: "string", required: true, description: "The topic's name, without its owner's prefix." },
    { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the topic has." },
  ],
  rules: async () => new (await import("../resources/topic.js")).TopicProvider(),
} satisfies KindSpec<"Topic">;
