import type { StackValidationPolicy } from "@pulumi/policy";
import { cdcResource, GUARDRAILS, guardrailKeys } from "pulumi-cdc/policy-support";
import { effective, keyText, resourceText } from "../names.js";
import { inputsOf } from "../inputs.js";
import { known } from "../values.js";

/**
 * Two sources on one replication slot (or publication) of one database server consume each
 * other's changes: each sees only part of the stream, and neither says so. The keys that name the
 * slot and the server are the catalogue's (catalogue/guardrails.json), their defaults too: two
 * sources that both leave `slot.name` unset share the platform's default slot.
 */
export const sharedReplication: StackValidationPolicy = {
  name: "cdc-no-shared-replication-slot",
  description: "No two sources in a stack share a replication slot or publication (PostgreSQL family) or a server id (MySQL family) on the same database server.",
  enforcementLevel: "mandatory",
  validateStack: (args, reportViolation) => {
    const seen = new Map<string, string>();
    // In URN order, so the first of two sources (the one the other is compared with) is the same in every run.
    for (const r of [...args.resources].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0))) {
      const props = inputsOf(r);
      const res = cdcResource(r.type, props);
      if (res?.kind !== "Source" || !res.spec) continue;
      const server = guardrailKeys(res.spec, GUARDRAILS.server).map((k) => effective(res, k).value);
      if (!known(server)) continue;
      for (const { key, what } of GUARDRAILS.replication) {
        const [spec] = guardrailKeys(res.spec, [key]);
        if (!spec) continue;
        const { value, defaulted } = effective(res, spec);
        if (value === undefined || value === "" || !known(value)) continue;
        const id = JSON.stringify([key, String(value), ...server.map(String)]);
        const first = seen.get(id);
        if (first === undefined) {
          seen.set(id, r.name);
          continue;
        }
        const where = server.filter((s) => s !== undefined && s !== "").join(", ");
        reportViolation(
          `${resourceText(res, r.name, r.type)}: ${keyText(res, spec)} is "${String(value)}"${defaulted ? " (the platform's default: the program leaves it unset)" : ""}, ` +
            `the same ${what} as source "${first}" on the same database server (${where}): the two sources would consume each other's changes. ` +
            `Fix: give each source its own ${what}: set ${keyText(res, spec)} to a name no other source on this server uses.`,
          r.urn,
        );
      }
    }
  },
};
