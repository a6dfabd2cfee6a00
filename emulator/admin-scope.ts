import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "./context.js";
import { forbidden } from "./errors.js";
import type { Store, TenantData } from "./store.js";

/** The headers an operator names another tenant with, as the vendor's provider sends them. */
export const ADMIN_TENANT_HEADER = "x-admin-tenant-id";
export const ADMIN_SERVICE_HEADER = "x-admin-service-id";

function single(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

/**
 * The tenant an authenticated request acts on. The service only enters its admin path when
 * `X-Admin-Tenant-Id` is present: `X-Admin-Service-Id` on its own is ignored and the request runs
 * on the credential's own tenant (the vendor's provider refuses to send it alone for that reason).
 */
export function actingTenant(store: Store, principal: Principal, headers: IncomingHttpHeaders): TenantData {
  const own = store.tenant(principal.tenantId);
  if (!own) throw forbidden("The credential's tenant no longer exists");
  const tenantId = single(headers[ADMIN_TENANT_HEADER]);
  if (tenantId === undefined) return own;
  if (!principal.operator) {
    throw forbidden(
      `Not enough permissions: X-Admin-Tenant-Id and X-Admin-Service-Id are for platform operators; client '${principal.clientId}' may act on its own tenant only (send the request without them)`,
    );
  }
  // Decided: an unknown tenant or service is a 403, not a 404, so that no client takes it for
  // "this object is gone" and forgets what it manages.
  const tenant = store.tenant(tenantId);
  if (!tenant) throw forbidden(`Admin scope: tenant '${tenantId}' does not exist or is not accessible (X-Admin-Tenant-Id)`);
  const serviceId = single(headers[ADMIN_SERVICE_HEADER]);
  if (serviceId !== undefined && serviceId !== tenant.service_id) {
    throw forbidden(`Admin scope: service '${serviceId}' is not a service of tenant '${tenantId}' (X-Admin-Service-Id)`);
  }
  return tenant;
}
