import type { StackValidationPolicy } from "@pulumi/policy";
import { cdcResource, KINDS, type KindName } from "pulumi-cdc/policy-support";
import { tagsOf } from "./tags.js";
import { raw } from "../values.js";

/** Every kind whose declaration takes tags: sources, destinations, pipelines, transforms, topics. */
const takesTags = (kind: KindName) => (KINDS[kind].inputs as readonly { name: string }[]).some((p) => p.name === "tags");

/** An untagged connector, pipeline or transform has no owner or environment anyone can search the console for. */
export const requiredTags: StackValidationPolicy = {
  name: "cdc-required-tags",
  description: "Every resource whose kind takes tags (sources, destinations, pipelines, transforms, topics) carries at least one tag of a configured set (tag names or ids); nothing is checked until the set is configured.",
  enforcementLevel: "advisory",
  configSchema: {
    properties: {
      tags: { type: "array", items: { type: "string" }, default: [], description: "Tag names (of the stack's Tag resources) or tag ids, one of which each resource that takes tags carries." },
    },
  },
  validateStack: (args, reportViolation) => {
    const wanted = args.getConfig<{ tags: string[] }>().tags;
    if (wanted.length === 0) return;
    const set = new Set(wanted.map((t) => t.toLowerCase()));
    for (const r of args.resources) {
      const res = cdcResource(r.type, raw(r.props));
      if (!res || !takesTags(res.kind)) continue;
      const { names, ids } = tagsOf(r);
      if ([...names, ...ids].some((t) => set.has(t.toLowerCase()))) continue;
      reportViolation(
        `${res.noun} "${r.name}" (${r.type}): carries none of the required tags (${wanted.join(", ")}). Fix: add one of them to its tags (a Tag resource, or the tag's id).`,
        r.urn,
      );
    }
  },
};
