import type { ResourceValidationPolicy } from "@pulumi/policy";
import { cdcResource, GUARDRAILS, guardrailKeys } from "pulumi-cdc/policy-support";
import { effective, keyText, resourceText } from "../names.js";
import { globMatch, known, raw, stackOf } from "../values.js";

/**
 * An include list of `.*` (or `public.*`) captures every table it matches, today's and every one
 * added later: personal data included, on a production database. Which keys are include lists is
 * the catalogue's (catalogue/guardrails.json).
 */
export const wildcardIncludes: ResourceValidationPolicy = {
  name: "cdc-no-wildcard-include-lists",
  description: "A source's include lists (databases, schemas, tables, collections) name what they capture, without wildcards, on stacks matching a pattern (prod* by default).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      stacks: { type: "string", default: "prod*", description: "A glob of the stack names the policy applies to (`*` any characters, `?` one)." },
    },
  },
  validateResource: (args, reportViolation) => {
    const props = raw(args.props);
    const res = cdcResource(args.type, props);
    if (res?.kind !== "Source" || !res.spec) return;
    const stack = stackOf(args.urn);
    const pattern = args.getConfig<{ stacks: string }>().stacks;
    if (!globMatch(pattern, stack)) return;
    for (const spec of guardrailKeys(res.spec, GUARDRAILS.selection)) {
      const { value } = effective(res, spec);
      if (value === undefined || value === null || !known(value)) continue;
      const entries = (Array.isArray(value) ? value.map(String) : String(value).split(",")).map((e) => e.trim());
      const wild = entries.filter((e) => e.includes("*"));
      if (wild.length === 0) continue;
      reportViolation(
        `${resourceText(res, args.name, args.type)}: ${keyText(res, spec)} has the wildcard ${wild.map((w) => `"${w}"`).join(", ")} on stack "${stack}" (the policy applies to stacks matching "${pattern}"): ` +
          "it captures every table it matches, personal data and tables added later included. Fix: list what the source captures by name, e.g. \"public.orders,public.customers\".",
      );
    }
  },
};
