import { TAG_TYPES } from "../../catalogue/kind-values.js";
import { echo, list, nameInput, STRINGS } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  nameInput("tag", ", unique per tenant"),
  { name: "description", type: "string", description: "What the tag means, at most 1024 characters. Default: empty." },
  {
    name: "type",
    type: STRINGS,
    ts: { type: "TagType" },
    required: true,
    description: `What the tag is for, at least one, spelt as the platform spells it: ${list(TAG_TYPES)}.`,
  },
  {
    name: "adoptId",
    type: "string",
    description: "The id of an existing tag to take over instead of creating one: `pulumi up` makes it match the program, writing nothing when it already does.",
  },
];

export const TAG = {
  name: "Tag",
  token: "cdc:index:Tag",
  noun: "tag",
  plural: "tags",
  report: "tag",
  imported: {
    flag: "tags",
    suffix: "Tag",
    order: 0,
    section: "Tags",
  },
  recover: "name",
  internal: ["logicalName"],
  description: "A tag for organising sources, destinations, pipelines and the platform's other objects.",
  inputs,
  outputs: [
    ...echo(inputs, ["name", "description", "type"]),
    { name: "system", type: "boolean", required: true, description: "Whether the tag is one of the platform's own." },
    { name: "custom", type: "boolean", required: true, description: "Whether the tag was made by a user." },
  ],
  rules: async () => new (await import("../resources/tag.js")).TagProvider(),
} satisfies KindSpec<"Tag">;
