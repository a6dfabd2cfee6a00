import type { ResourceValidationPolicy } from "@pulumi/policy";
import { cdcResource, PLAIN_SECRETS } from "pulumi-cdc/policy-support";
import { resourceText } from "../names.js";
import { raw } from "../values.js";

/**
 * A secret written into the program as a plain string sits in its source, its repository's
 * history and every CI log that prints the program. Both hosts encrypt it in state anyway, so the
 * checked inputs a policy sees cannot tell; each host records the names of the secret settings it
 * got in plain (PLAIN_SECRETS, provider/plain-secrets.ts), never their values.
 */
export const plainSecrets: ResourceValidationPolicy = {
  name: "cdc-no-plain-secrets",
  description: "No secret connector setting is given as a plain (non-secret) value.",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    const props = raw(args.props);
    const names = props[PLAIN_SECRETS];
    if (!Array.isArray(names) || names.length === 0) return;
    const res = cdcResource(args.type, props);
    const what = res ? resourceText(res, args.name, args.type) : `"${args.name}" (${args.type})`;
    for (const name of names) {
      reportViolation(
        `${what}: ${String(name)} is a secret setting given as a plain value: it stays readable in the program's source and history. ` +
          "Fix: pass it as a secret, e.g. `config.requireSecret(\"dbPassword\")` after `pulumi config set --secret dbPassword ...` (in YAML, `fn::secret` or a secret config value).",
      );
    }
  },
};
