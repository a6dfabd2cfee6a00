import type { ResourceValidationPolicy } from "@pulumi/policy";
import { cdcResource, GUARDRAILS, guardrailKeys } from "pulumi-cdc/policy-support";
import { effective, keyText, resourceText } from "../names.js";
import { known, raw } from "../values.js";

/**
 * A destination that hard-deletes removes rows when the source deletes them: a mistaken delete
 * upstream (or a source re-pointed at an empty table) empties the warehouse too. Which keys do it,
 * and their defaults (true for some warehouses), are the catalogue's.
 */
export const hardDelete: ResourceValidationPolicy = {
  name: "cdc-hard-delete-needs-allow",
  description: "A destination that hard-deletes rows (set, or the platform's default) is named in the policy's allow list.",
  enforcementLevel: "advisory",
  configSchema: {
    properties: {
      allow: { type: "array", items: { type: "string" }, default: [], description: "Names of the destinations (Pulumi resource names) allowed to hard-delete." },
    },
  },
  validateResource: (args, reportViolation) => {
    const props = raw(args.props);
    const res = cdcResource(args.type, props);
    if (res?.kind !== "Destination" || !res.spec) return;
    if (args.getConfig<{ allow: string[] }>().allow.includes(args.name)) return;
    for (const spec of guardrailKeys(res.spec, GUARDRAILS.hardDelete)) {
      const { value, defaulted } = effective(res, spec);
      if (!known(value) || !(value === true || String(value).toLowerCase() === "true")) continue;
      reportViolation(
        `${resourceText(res, args.name, args.type)}: ${keyText(res, spec)} is true${defaulted ? " (the platform's default for this connector: the program leaves it unset)" : ""}, ` +
          "so rows deleted at the source are deleted here too. Fix: set it to false, or allow it explicitly: add this destination's name to the policy's `allow` list (--policy-pack-config).",
      );
    }
  },
};
