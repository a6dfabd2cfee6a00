/**
 * The fixed role catalogue. Credentials are bound to roles; each route declares the permission
 * it needs and the auth hook answers 403 when none of the caller's roles grants it, so clients
 * see the same authorisation failures they would see against the real service.
 */

export const PERMISSIONS = [
  "sources:read",
  "sources:write",
  "destinations:read",
  "destinations:write",
  "tags:read",
  "tags:write",
  "credentials:read",
  "credentials:write",
  "agents:read",
  "agents:write",
  "logs:write",
  "pipelines:read",
  "pipelines:write",
  "transforms:read",
  "transforms:write",
  "topics:read",
  "topics:write",
  "kafka_users:read",
  "kafka_users:write",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export interface RoleDefinition {
  id: string;
  key: string;
  name: string;
  description: string;
  permissions: Permission[];
}

/** Roles were seeded when the service was provisioned; fixed timestamps keep responses stable. */
export const ROLES_CREATED_AT = "2024-01-01T00:00:00.000Z";

export const ROLES: readonly RoleDefinition[] = [
  {
    id: "role_admin",
    key: "admin",
    name: "Admin",
    description: "Full access, including client credential management",
    permissions: [...PERMISSIONS],
  },
  {
    id: "role_editor",
    key: "editor",
    name: "Editor",
    description: "Create, change and delete pipeline objects; no credential management",
    permissions: PERMISSIONS.filter((p) => !p.startsWith("credentials:")),
  },
  {
    id: "role_viewer",
    key: "viewer",
    name: "Viewer",
    description: "Read-only access to pipeline objects",
    permissions: PERMISSIONS.filter((p) => p.endsWith(":read") && !p.startsWith("credentials:")),
  },
];

export function findRole(id: string): RoleDefinition | undefined {
  return ROLES.find((r) => r.id === id);
}

export function renderRole(role: RoleDefinition) {
  return {
    id: role.id,
    key: role.key,
    name: role.name,
    description: role.description,
    created_at: ROLES_CREATED_AT,
    updated_at: ROLES_CREATED_AT,
    permissions: [...role.permissions],
  };
}

export function effectivePermissions(roleIds: readonly string[], extra: readonly string[]): Set<string> {
  const out = new Set<string>(extra);
  for (const id of roleIds) for (const p of findRole(id)?.permissions ?? []) out.add(p);
  return out;
}
