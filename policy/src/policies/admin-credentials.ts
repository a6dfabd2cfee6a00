import type { ResourceValidationPolicy } from "@pulumi/policy";
import { cdcResource } from "pulumi-cdc/policy-support";
import { resourceText } from "../names.js";
import { known, raw } from "../values.js";

/** The roles that count as admin unless the policy's config says otherwise: the platform's admin role, by id and by key. */
export const ADMIN_ROLES = ["role_admin", "admin"];

/**
 * A client credential is handed to a downstream service; with an admin role, whoever holds it can
 * delete every source, destination and pipeline of the tenant.
 */
export const adminCredentials: ResourceValidationPolicy = {
  name: "cdc-no-admin-client-credentials",
  description: "No client credential for a downstream service carries an admin role (the roles that count as admin are configurable).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      adminRoles: { type: "array", items: { type: "string" }, default: ADMIN_ROLES, description: "Role ids (or keys) that count as admin." },
    },
  },
  validateResource: (args, reportViolation) => {
    const props = raw(args.props);
    const res = cdcResource(args.type, props);
    if (res?.kind !== "ClientCredential") return;
    const admin = new Set(args.getConfig<{ adminRoles: string[] }>().adminRoles.map((r) => r.toLowerCase()));
    const roles = Array.isArray(props.roleIds) ? props.roleIds : [];
    for (const role of roles) {
      if (typeof role !== "string" || !known(role) || !admin.has(role.toLowerCase())) continue;
      reportViolation(
        `${resourceText(res, args.name, args.type)}: roleIds includes "${role}", an admin role: whoever holds the credential can change or delete everything in the tenant. ` +
          "Fix: bind it to the narrowest role the service needs (`getRoles` lists them, e.g. a viewer role).",
      );
    }
  },
};
