import { TAG_TYPES } from "../../catalogue/kind-values.js";
import { z } from "zod";
import { declareInputs } from "./inputs.js";
import { adoptCheck, echo, list, nameInput, STRINGS } from "./shared.js";
import type { Tag } from "../client/schemas.js";
import type { KindSpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform } from "./terraform.js";

/** The longest description the API keeps. */
const DESCRIPTION_MAX = 1024;

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  name: nameInput("tag", ", unique per tenant"),
  description: {
    type: "string",
    description: `What the tag means, at most ${DESCRIPTION_MAX} characters. Default: empty.`,
    check: z.string({ error: "must be a string" }).max(DESCRIPTION_MAX, { error: `must be at most ${DESCRIPTION_MAX} characters` }).optional(),
  },
  type: {
    type: STRINGS,
    ts: { type: "TagType" },
    description: `What the tag is for, at least one, spelt as the platform spells it: ${list(TAG_TYPES)}.`,
    check: z
      .array(z.enum(TAG_TYPES, { error: `must be one of ${TAG_TYPES.join(", ")}` }), {
        error: `is required: a list of what the tag is for, e.g. ["sources", "destinations"]`,
      })
      .min(1, { error: `needs at least one of ${TAG_TYPES.join(", ")}` }),
  },
  adoptId: {
    type: "string",
    description: "The id of an existing tag to take over instead of creating one: `pulumi up` makes it match the program, writing nothing when it already does.",
    check: adoptCheck("tag"),
  },
});

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
    // The platform's own tags are referred to, never taken over; a tag carries itself for `--tag`.
    objects: (tags: readonly Tag[]) => tags.map((t) => ({ id: t.id, name: t.name, tagIds: [t.id], live: t, ...(t.system ? { referOnly: `the platform's own tag "${t.name}"` } : {}) })),
    inputs: (t: Tag) => ({ description: t.description || undefined, type: [...t.type] }),
  },
  terraform: {
    types: ["streamkap_tag"],
    attributes: { id: "adoptId", name: "name", description: "description", type: "type", system: "(read: a system tag is referred to, never adopted)", custom: "(read back by the platform)" },
    live: (a) => {
      const id = tfString(a, "id");
      if (!id) return undefined;
      const tag: Tag = { id, name: tfString(a, "name") ?? "", description: tfString(a, "description") ?? "", type: tfStrings(a, "type") as Tag["type"], system: a.system === true, custom: a.custom !== false } as Tag;
      return { id, live: tag };
    },
  } satisfies KindTerraform,
  internal: ["logicalName"],
  description: "A tag for organising sources, destinations, pipelines and the platform's other objects.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["name", "description", "type"]),
    { name: "system", type: "boolean", required: true, description: "Whether the tag is one of the platform's own." },
    { name: "custom", type: "boolean", required: true, description: "Whether the tag was made by a user." },
  ],
} satisfies KindSpec<"Tag">;
