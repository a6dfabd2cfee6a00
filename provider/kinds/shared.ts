import { connectorCodes } from "../../catalogue/index.js";
import { z } from "zod";
import { knowable, nameSchema } from "../check.js";
import type { PropertySpec } from "./spec.js";

/** What the kinds' declarations share: how they spell lists, and the inputs several kinds have alike. */

export const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");

export const SOURCE_CODES = connectorCodes("source");
export const DESTINATION_CODES = connectorCodes("destination");
export const TRANSFORM_TYPES = connectorCodes("transform");

export const STRINGS = { arrayOf: "string" } as const;

/** An input echoed in the outputs: the same property, present in the outputs when the core always sets it. */
export function echo(inputs: readonly PropertySpec[], alwaysSet: readonly string[]): PropertySpec[] {
  return inputs.map(({ replaceOnChange: _replace, required: _required, ...p }) => ({ ...p, ...(alwaysSet.includes(p.name) ? { required: true } : {}) }));
}

/** A kind's `tags`: tag ids, or `Tag` resources (their ids). */
export const tagsInput = (what: string) => ({
  type: STRINGS,
  check: z
    .array(knowable(z.string().min(1, { error: "must not be empty: a tag id, or a Tag resource" })), { error: "must be a list of tag ids or Tag resources" })
    .optional(),
  ts: { input: "TagsOf<Tag>", convert: "tagIds" },
  description: `Tag ids on the ${what} (a \`Tag\` resource's id, or the id of one of the platform's own tags). Unset: the ${what}'s tags are left as they are; \`[]\` removes them all. Tags changed outside Pulumi are drift.`,
});

/** `adoptId` of the kinds whose core adopts (the connectors and the tag say it their own way). */
export const adoptInput = (what: string, more: string) => ({
  type: "string" as const,
  check: adoptCheck(what),
  description: `The id of an existing ${what} to take over instead of creating one: \`pulumi up\` reads it and writes nothing when it already equals the program; ${more}`,
});

export const nameInput = (what: string, more = "") => ({
  type: "string" as const,
  check: knowable(nameSchema).optional(),
  description: `The ${what}'s name${more}. Unset: \`<resource name>-<random suffix>\`. Letters, digits, spaces, \`_\`, \`.\` and \`-\`, starting with a letter or digit; at most 255 characters.`,
});

/** The check of an `adoptId`: the id of an existing object of the kind. */
export const adoptCheck = (what: string) => knowable(z.string().min(1, { error: `must not be empty: the id of the existing ${what} to adopt` })).optional();
