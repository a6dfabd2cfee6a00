import { adoptInput, echo, nameInput, STRINGS, tagsInput } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  nameInput("pipeline", ", unique per tenant"),
  {
    name: "source",
    type: { object: "cdc:index:ConnectorRef" },
    ts: { type: "ConnectorRef", input: "Source | pulumi.Input<string>", convert: "connectorRef" },
    required: true,
    description: "The source the pipeline reads: its id, and optionally its name and connector (read from the API when left out).",
  },
  {
    name: "destination",
    type: { object: "cdc:index:ConnectorRef" },
    ts: { type: "ConnectorRef", input: "Destination | pulumi.Input<string>", convert: "connectorRef" },
    required: true,
    description: "The destination the pipeline writes to: its id, and optionally its name and connector (read from the API when left out).",
  },
  {
    name: "sourceTopics",
    type: STRINGS,
    description:
      "The source's topics that go to the destination, as the source names them (`public.orders`). A set: the API echoing them as topic ids or in another order is no change. Default: none.",
  },
  {
    name: "transforms",
    type: { arrayOf: { object: "cdc:index:PipelineTransform" } },
    ts: { type: "PipelineTransform", input: "PipelineTransformOf<Transform>[]", convert: "pipelineTransforms" },
    description: "The transforms of the pipeline, each with the topics of it that go to the destination. Default: none.",
  },
  { name: "snapshotNewTables", type: "boolean", description: "Snapshot tables newly added to the pipeline. Default `false`." },
  tagsInput("pipeline"),
  adoptInput("pipeline", "otherwise one update makes it match."),
];

export const PIPELINE = {
  name: "Pipeline",
  token: "cdc:index:Pipeline",
  noun: "pipeline",
  plural: "pipelines",
  report: "pipeline",
  internal: ["logicalName"],
  imported: {
    flag: "pipelines",
    suffix: "Pipeline",
    order: 8,
    section: "Pipelines",
  },
  description:
    "Joins a source to a destination: the source's topics it sends as they are, and per transform the topics of it it sends. Every field updates in place; changes made outside Pulumi, and deletion, show in a plain `pulumi preview`.",
  inputs,
  outputs: [
    ...echo(inputs, ["name", "source", "destination", "sourceTopics", "transforms", "snapshotNewTables"]),
    { name: "status", type: "string", required: true, description: "The API's status of the pipeline." },
    { name: "topicIds", type: STRINGS, required: true, description: "The ids of every topic the pipeline sends, as the API names them." },
    { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the pipeline has, also when the program does not manage them." },
  ],
  rules: async () => new (await import("../resources/pipeline.js")).PipelineProvider(),
} satisfies KindSpec<"Pipeline">;
