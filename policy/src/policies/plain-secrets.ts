import type { ResourceValidationPolicy } from "@pulumi/policy";
import { cdcResource, pathText, secretInputPaths } from "pulumi-cdc/policy-support";
import { resourceText } from "../names.js";
import { isSecretAt } from "../secrets.js";
import { at, known, raw } from "../values.js";

/**
 * A secret written into the program as a plain string is in the program's repository, its
 * history and every copy of it. Which settings are secret is the kind's declaration and the
 * catalogue's (`secret` keys); whether the value arrived as a Pulumi secret is the engine's.
 */
export const plainSecrets: ResourceValidationPolicy = {
  name: "cdc-no-plain-secrets",
  description: "No secret connector setting (password, private key, API key, connection string) is given as a plain, non-secret value.",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    const props = raw(args.props);
    const res = cdcResource(args.type, props);
    if (!res) return;
    for (const path of secretInputPaths(args.type, props)) {
      const value = at(props, path);
      if (value === undefined || value === null || !known(value) || isSecretAt(args.props, path)) continue;
      reportViolation(
        `${resourceText(res, args.name, args.type)}: ${pathText(path)} is a secret given as a plain value, so it is written in the program. ` +
          "Fix: keep it in the stack's encrypted config (`pulumi config set --secret <key> <value>`) and read it as a secret " +
          "(TypeScript: `config.requireSecret(\"<key>\")`; YAML: a `secret: true` config value, or `fn::secret`).",
      );
    }
  },
};
