import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.js";
import { hashSecret, randomHex, randomToken, verifySecret } from "../crypto.js";
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
const credentialPath = z.object({ client_id: pathId });

/** The credential creator is the sandbox's single human user. */
function localUser(store: Store) {
  return {
    id: `usr_${store.data.tenant_id.slice(4)}`,
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
    const credential = store.data.credentials[body.client_id];
    // Hash a throwaway when the id is unknown so the answer time does not reveal which ids exist.
    const ok = credential
      ? await verifySecret(body.secret, credential.secret_hash)
      : (await hashSecret(body.secret), false);
    if (!ok || !store.data.credentials[body.client_id]) throw unauthorized("Invalid client credentials");
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
      .map((record) => renderCredential(store, record, MASK)),
  );

  app.post("/auth/client-credentials", { config: { permission: "credentials:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: createCredentialBody }, ({ body: b }) => {
      const details: ValidationDetail[] = [];
      b.role_ids.forEach((id, i) => {
        if (!findRole(id)) details.push(err.valueError(["body", "role_ids", i], id, `unknown role id '${id}'`));
      });
      (b.permission_ids ?? []).forEach((id, i) => {
        if (!(PERMISSIONS as readonly string[]).includes(id)) {
          details.push(err.valueError(["body", "permission_ids", i], id, `unknown permission '${id}'`));
        }
      });
      return details;
    });
    const secret = randomToken("cdcs_");
    const record: CredentialRecord = {
      client_id: `cdc-${randomHex(10)}`,
      secret_hash: await hashSecret(secret),
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

  app.delete("/auth/client-credentials/:client_id", { config: { permission: "credentials:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: credentialPath });
    if (!store.data.credentials[path.client_id]) throw notFound(`Client credential '${path.client_id}' not found`);
    delete store.data.credentials[path.client_id];
    revokeTokensOf(store, path.client_id);
    return { client_id: path.client_id, deleted: true };
  });
}
