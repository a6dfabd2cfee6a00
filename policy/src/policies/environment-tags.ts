import type { PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import { cdcResource } from "pulumi-cdc/policy-support";
import { tagsOf } from "./tags.js";
import { raw } from "../values.js";

/** The tag names that are environments unless the policy's config says otherwise. */
export const ENVIRONMENTS = ["production", "prod", "staging", "development", "dev", "test"];

/**
 * A pipeline from a production source into a development destination copies production data
 * where development's access rules apply. A resource's environment is the tag of it whose name is
 * one of the configured environments.
 */
export const environmentTags: StackValidationPolicy = {
  name: "cdc-pipeline-same-environment",
  description: "A pipeline's source and destination carry the same environment tag.",
  enforcementLevel: "advisory",
  configSchema: {
    properties: {
      environments: { type: "array", items: { type: "string" }, default: ENVIRONMENTS, description: "Tag names that are environments (compared without case)." },
    },
  },
  validateStack: (args, reportViolation) => {
    const envs = new Set(args.getConfig<{ environments: string[] }>().environments.map((e) => e.toLowerCase()));
    const envOf = (r: PolicyResource) => [...new Set(tagsOf(r).names.filter((n) => envs.has(n.toLowerCase())).map((n) => n.toLowerCase()))];
    for (const r of args.resources) {
      if (cdcResource(r.type, raw(r.props))?.kind !== "Pipeline") continue;
      // An end is the resource of ours its property depends on (the Source, the Destination).
      const end = (prop: string) => (r.propertyDependencies?.[prop] ?? []).find((d) => cdcResource(d.type, raw(d.props)) !== undefined);
      const source = end("source");
      const destination = end("destination");
      // An end given by id (not a resource of this stack) has tags the policy cannot see.
      if (!source || !destination) continue;
      const [s, d] = [envOf(source), envOf(destination)];
      if (s.length === 1 && d.length === 1 && s[0] === d[0]) continue;
      const text = (e: string[]) => (e.length ? e.join(" and ") : "no environment tag");
      reportViolation(
        `pipeline "${r.name}" (${r.type}): its source "${source.name}" carries ${text(s)} and its destination "${destination.name}" carries ${text(d)}: ` +
          `a pipeline across environments copies one environment's data into another's. Fix: tag both ends with the same one environment tag (one of ${[...envs].join(", ")}), or point the pipeline at ends of one environment.`,
        r.urn,
      );
    }
  },
};
