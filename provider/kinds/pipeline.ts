import { z } from "zod";
import { knowable } from "../check.js";
import { declareInputs } from "./inputs.js";
import { adoptInput, echo, nameInput, STRINGS, tagsInput } from "./shared.js";
import type { LivePipeline } from "../pipelines/schemas.js";
import { livePipelineView } from "../pipelines/view.js";
import { refKey, type ImportContext } from "./imported.js";
import type { KindSpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform, type TerraformAttributes } from "./terraform.js";

const id = (what: string) => knowable(z.string({ error: `is required: the ${what}, or its id` }).min(1, { error: `must not be empty: the ${what}, or its id` }));
const ref = (what: string) =>
  z.object(
    { id: id(what), name: knowable(z.string()).optional(), connector: knowable(z.string()).optional() },
    { error: `is required: a ${what} resource, or its id` },
  );
/**
 * An empty `transforms[i].topics`: most often a Transform's `topics` output, empty because the
 * transform was created before its source's topics existed (nothing orders the two).
 */
const NO_TOPICS =
  "is empty: the transform has no topics yet, so there is nothing of it to send. A Transform gets its topics from its source's, " +
  "and one created before they existed has none (its `topics` output is []). Give the Transform `dependsOn: [source]` " +
  "(for one already created, run `pulumi refresh` once so it reads its topics), or list the topics here by name, e.g. [\"clean.orders\"]";
/**
 * The tags a new pipeline gets when the program sets none: the platform's system Development tag,
 * which the vendor's Terraform provider gives every pipeline without tags, so a pipeline shows the
 * same in the console whichever tool made it.
 */
export const DEVELOPMENT_TAG_ID = "670e5ca40afe1d3983ce0c22";

const topic = knowable(z.string({ error: "must be a topic name" }).min(1, { error: "must not be empty: a topic name like public.orders" }));

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  name: nameInput("pipeline", ", unique per tenant"),
  source: {
    type: { object: "cdc:index:ConnectorRef" },
    ts: { type: "ConnectorRef", input: "Source | pulumi.Input<string>", convert: "connectorRef" },
    description: "The source the pipeline reads: its id, and optionally its name and connector (read from the API when left out).",
    check: ref("Source"),
  },
  destination: {
    type: { object: "cdc:index:ConnectorRef" },
    ts: { type: "ConnectorRef", input: "Destination | pulumi.Input<string>", convert: "connectorRef" },
    description: "The destination the pipeline writes to: its id, and optionally its name and connector (read from the API when left out).",
    check: ref("Destination"),
  },
  sourceTopics: {
    type: STRINGS,
    description:
      "The source's topics that go to the destination, as the source names them (`public.orders`). A set: the API echoing them as topic ids or in another order is no change. Default: none.",
    check: z.array(topic, { error: "must be a list of the source's topic names, e.g. [\"public.orders\"]" }).optional(),
  },
  transforms: {
    type: { arrayOf: { object: "cdc:index:PipelineTransform" } },
    ts: { type: "PipelineTransform", input: "PipelineTransformOf<Transform>[]", convert: "pipelineTransforms" },
    description: "The transforms of the pipeline, each with the topics of it that go to the destination. Default: none.",
    check: z
      .array(
        z.object({
          id: id("Transform"),
          topics: z.array(topic, { error: "must be a list of the transform's topic names" }).min(1, { error: NO_TOPICS }),
        }),
        { error: "must be a list of {transform, topics}" },
      )
      .optional(),
  },
  snapshotNewTables: {
    type: "boolean",
    description: "Snapshot tables newly added to the pipeline. Default `false`.",
    check: z.boolean({ error: "must be true or false" }).optional(),
  },
  tags: {
    ...tagsInput("pipeline"),
    description: `Tag ids on the pipeline (a \`Tag\` resource's id, or the id of one of the platform's own tags). Unset: a new pipeline gets the platform's Development tag (\`${DEVELOPMENT_TAG_ID}\`), as the platform's Terraform provider gives it, and after that its tags are left as they are; \`[]\` removes them all. Tags changed outside Pulumi are drift when the program sets them.`,
  },
  adoptId: adoptInput("pipeline", "otherwise one update makes it match."),
});

/** A pipeline as a program sets it: references to its ends and transforms, topics sorted (the API keeps sets). */
function pipelineInputs(p: LivePipeline, ctx: ImportContext) {
  const view = livePipelineView(p);
  const transforms = view.transforms
    .map((g) => ({ id: ctx.ref("Transform", g.id), topics: [...g.topics].sort() }))
    .sort((a, b) => (refKey(a.id.ref) < refKey(b.id.ref) ? -1 : refKey(a.id.ref) > refKey(b.id.ref) ? 1 : 0));
  return {
    source: { id: ctx.ref("Source", view.sourceId) },
    destination: { id: ctx.ref("Destination", view.destinationId) },
    sourceTopics: view.sourceTopics.length > 0 ? [...view.sourceTopics].sort() : undefined,
    transforms: transforms.length > 0 ? transforms : undefined,
    snapshotNewTables: view.snapshotNewTables ? true : undefined,
    tags: ctx.tags(view.tags),
  };
}

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
    objects: (listed: readonly LivePipeline[]) => listed.map((p) => ({ id: p.id, name: p.name ?? "", tagIds: p.tags, live: p })),
    inputs: pipelineInputs,
  },
  terraform: {
    types: ["streamkap_pipeline"],
    attributes: {
      id: "adoptId",
      name: "name",
      source: "source (a reference to the adopted source) and sourceTopics (its topics)",
      destination: "destination (a reference to the adopted destination)",
      transforms: "transforms (references to the adopted transforms, with their topics)",
      snapshot_new_tables: "snapshotNewTables",
      tags: "tags",
    },
    dropped: {
      topic_auto_discovery_transforms: "pulumi-cdc's Pipeline has no auto-discovery of a transform's topics: list them in transforms[].topics",
      timeouts: "Terraform's own operation timeouts: pulumi-cdc's are customTimeouts on the resource",
    },
    live: (a) => {
      const id = tfString(a, "id");
      if (!id) return undefined;
      const end = (name: string) => (a[name] && typeof a[name] === "object" ? (a[name] as TerraformAttributes) : {});
      const source = end("source");
      const transforms = Array.isArray(a.transforms) ? (a.transforms as TerraformAttributes[]) : [];
      const pipeline: LivePipeline = {
        id,
        name: tfString(a, "name") ?? "",
        snapshot_new_tables: a.snapshot_new_tables === true,
        source: { id: tfString(source, "id") ?? "", name: tfString(source, "name") ?? null, connector: tfString(source, "connector") ?? null, topics: tfStrings(source, "topics") },
        destination: { id: tfString(end("destination"), "id") ?? "", name: tfString(end("destination"), "name") ?? null, connector: tfString(end("destination"), "connector") ?? null },
        transforms: transforms.flatMap((t) => tfStrings(t, "topics").map((topic) => ({ id: tfString(t, "id") ?? "", topic }))),
        tags: tfStrings(a, "tags"),
      };
      return { id, live: pipeline };
    },
  } satisfies KindTerraform,
  description:
    "Joins a source to a destination: the source's topics it sends as they are, and per transform the topics of it it sends. Every field updates in place; changes made outside Pulumi, and deletion, show in a plain `pulumi preview`.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["name", "source", "destination", "sourceTopics", "transforms", "snapshotNewTables"]),
    { name: "status", type: "string", required: true, description: "The API's status of the pipeline." },
    { name: "topicIds", type: STRINGS, required: true, description: "The ids of every topic the pipeline sends, as the API names them." },
    { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the pipeline has, also when the program does not manage them." },
    { name: "createdFrom", type: "string", required: true, from: { field: "created_from", absent: "" }, description: "How the pipeline was created, as the API records it (`created_from`)." },
  ],
} satisfies KindSpec<"Pipeline">;
