import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.js";
import { hashSecret, randomToken, secretHint, verifySecret } from "../crypto.js";
import { notFound, unauthorized } from "../errors.js";
import { PERMISSIONS, ROLES, findRole, renderRole } from "../roles.js";
import type { CredentialRecord, Store } from "../store.js";
import { issueTokens, revokeTokensOf, rotateRefreshToken } from "../tokens.js";
import { MASK } from "../catalogue.js";
import { createdFromField, err, pathId, resolveCreatedFrom, validateRequest, type ValidationDetail } from "../validation.js";

const accessTokenBody = z.object({ client_id: z.string().min(1), secret: z.string().min(1) });
const refreshBody = z.object({ refresh_token: z.string().min(1) });
const createCredentialBody = z.object({
  role_ids: z.array(z.string()).min(1),
  description: z.string().max(1000).nullable().optional(),
  service_id: z.string().nullable().optional(),
  permission_ids: z.array(z.string()).optional(),
  created_from: createdFromField,
});
const updateCredentialBody = z.object({
  role_ids: z.array(z.string()).min(1).optional(),
  description: z.string().max(1000).nullable().optional(),
  permission_ids: z.array(z.string()).optional(),
});
const credentialPath = z.object({ client_id: pathId });

/**
 * The secret as the list and PATCH show it, `abc******xyz`: enough for a person to tell two
 * apart, useless to sign in with. A record from before hints were kept shows the plain mask.
 */
function maskedSecret(record: CredentialRecord): string {
  return record.secret_hint ? `${record.secret_hint.slice(0, 3)}******${record.secret_hint.slice(3)}` : MASK;
}

/** Unknown role and permission ids, each at its place in the body. */
function grantErrors(roleIds: readonly string[] | undefined, permissionIds: readonly string[] | undefined): ValidationDetail[] {
  const details: ValidationDetail[] = [];
  (roleIds ?? []).forEach((id, i) => {
    if (!findRole(id)) details.push(err.valueError(["body", "role_ids", i], id, `unknown role id '${id}'`));
  });
  (permissionIds ?? []).forEach((id, i) => {
    if (!(PERMISSIONS as readonly string[]).includes(id)) {
      details.push(err.valueError(["body", "permission_ids", i], id, `unknown permission '${id}'`));
    }
  });
  return details;
}

/** The credential creator is the tenant's single human user. */
function localUser(store: Store) {
  return {
    id: `usr_${store.data.tenant_id.replace(/^tnt_/, "")}`,
    email: "admin@cdc.local",
    name: "Local Admin",
    tenant_id: store.data.tenant_id,
    profile_picture_url: "",
    phone_number: "",
    created_at: "2024-01-01T00:00:00.000Z",
    last_login: "2024-01-01T00:00:00.000Z",
  };
}

function renderCredential(store: Store, record: CredentialRecord, secret: string) {
  return {
    created_by_user: localUser(store),
    client_id: record.client_id,
    roles: record.role_ids.map((id) => findRole(id)).filter((r) => r !== undefined).map(renderRole),
    service_id: record.service_id,
    secret,
    description: record.description,
    created_at: record.created_at,
    permission_ids: [...record.permission_ids],
    created_from: record.created_from,
  };
}

export function registerAuthRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, options, stats } = ctx;

  app.post("/auth/access-token", { config: { public: true } }, async (request) => {
    const { body } = validateRequest(request, { body: accessTokenBody });
    // Any tenant's credential: a client id names its tenant. Admin headers sent along are ignored.
    const credential = store.findCredential(body.client_id)?.credential;
    // Hash a throwaway when the id is unknown so the answer time does not reveal which ids exist.
    const ok = credential
      ? await verifySecret(body.secret, credential.secret_hash)
      : (await hashSecret(body.secret), false);
    if (!ok || !store.findCredential(body.client_id)) throw unauthorized("Invalid client credentials");
    const result = issueTokens(store, options, body.client_id);
    stats.tokensIssued.accessToken += 1;
    return result;
  });

  app.post("/auth/access-token/refresh", { config: { public: true } }, async (request) => {
    const { body } = validateRequest(request, { body: refreshBody });
    const result = rotateRefreshToken(store, options, body.refresh_token);
    stats.tokensIssued.refresh += 1;
    return result;
  });

  app.get("/auth/roles", async () => ROLES.map(renderRole));

  app.get("/auth/client-credentials", { config: { permission: "credentials:read" } }, async () =>
    Object.values(store.data.credentials)
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.client_id.localeCompare(b.client_id))
      .map((record) => renderCredential(store, record, maskedSecret(record))),
  );

  app.post("/auth/client-credentials", { config: { permission: "credentials:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: createCredentialBody }, ({ body: b }) => grantErrors(b.role_ids, b.permission_ids));
    const secret = randomToken("cdcs_");
    const record: CredentialRecord = {
      // A UUID, as the vendor's import example shows a client id, unlike the other objects' ObjectIds.
      client_id: randomUUID(),
      secret_hash: await hashSecret(secret),
      secret_hint: secretHint(secret),
      role_ids: [...new Set(body.role_ids)],
      permission_ids: [...new Set(body.permission_ids ?? [])],
      description: body.description ?? null,
      service_id: body.service_id ?? null,
      created_at: store.nowIso(),
      created_from: resolveCreatedFrom(body.created_from),
      bootstrap: false,
    };
    store.data.credentials[record.client_id] = record;
    store.markDirty();
    return renderCredential(store, record, secret);
  });

  // The platform's newest route: roles and description change in place, keeping id and secret.
  app.patch("/auth/client-credentials/:client_id", { config: { permission: "credentials:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: credentialPath, body: updateCredentialBody }, ({ body: b }) => {
      // An empty description is "nothing to change" (the platform's client leaves it out), so it
      // counts as absent: once set, a description cannot be cleared.
      if (b.role_ids === undefined && !b.description && b.permission_ids === undefined) {
        return [err.valueError(["body"], b, "nothing to update: send role_ids, description or permission_ids")];
      }
      if (b.role_ids !== undefined && b.permission_ids !== undefined) {
        return [err.valueError(["body"], b, "role_ids and permission_ids cannot be changed together")];
      }
      return grantErrors(b.role_ids, b.permission_ids);
    });
    const record = store.data.credentials[path.client_id];
    if (!record) throw notFound(`Client credential '${path.client_id}' not found`);
    if (body.role_ids !== undefined) record.role_ids = [...new Set(body.role_ids)];
    if (body.permission_ids !== undefined) record.permission_ids = [...new Set(body.permission_ids)];
    if (body.description) record.description = body.description;
    store.markDirty();
    return renderCredential(store, record, maskedSecret(record));
  });

  app.delete("/auth/client-credentials/:client_id", { config: { permission: "credentials:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: credentialPath });
    if (!store.data.credentials[path.client_id]) throw notFound(`Client credential '${path.client_id}' not found`);
    delete store.data.credentials[path.client_id];
    revokeTokensOf(store, path.client_id);
    return { client_id: path.client_id, deleted: true };
  });
}
