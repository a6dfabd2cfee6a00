import type { Principal } from "./context.js";
import { hashSecret, randomToken, secretHint, tokenHash } from "./crypto.js";
import { unauthorized } from "./errors.js";
import type { EmulatorOptions } from "./options.js";
import { effectivePermissions } from "./roles.js";
import type { Store, TenantData } from "./store.js";

/** Access token result, exactly the reference's field names. */
export interface AccessTokenResult {
  expires: string;
  expiresIn: number;
  accessToken: string;
  refreshToken: string;
}

export function issueTokens(store: Store, options: EmulatorOptions, clientId: string): AccessTokenResult {
  const now = store.now();
  const accessToken = randomToken("cdc_at_");
  const refreshToken = randomToken("cdc_rt_");
  const expiresAtMs = now + options.tokenTtlSeconds * 1000;
  store.root.access_tokens[tokenHash(accessToken)] = { client_id: clientId, expires_at_ms: expiresAtMs };
  store.root.refresh_tokens[tokenHash(refreshToken)] = {
    client_id: clientId,
    expires_at_ms: now + options.refreshTokenTtlSeconds * 1000,
  };
  store.markDirty();
  return {
    expires: new Date(expiresAtMs).toISOString(),
    expiresIn: options.tokenTtlSeconds,
    accessToken,
    refreshToken,
  };
}

/** Single use: the presented refresh token is consumed whether or not it is still valid. */
export function rotateRefreshToken(store: Store, options: EmulatorOptions, refreshToken: string): AccessTokenResult {
  const hash = tokenHash(refreshToken);
  const record = store.root.refresh_tokens[hash];
  if (!record) throw unauthorized("Invalid or expired refresh token");
  delete store.root.refresh_tokens[hash];
  store.markDirty();
  if (record.expires_at_ms <= store.now() || !store.findCredential(record.client_id)) {
    throw unauthorized("Invalid or expired refresh token");
  }
  return issueTokens(store, options, record.client_id);
}

/** Resolves `Authorization: Bearer <token>` to the calling credential and its tenant. */
export function authenticate(store: Store, options: EmulatorOptions, header: string | undefined): Principal {
  if (header === undefined || header.trim() === "") throw unauthorized("Not authenticated");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("Invalid authentication credentials");
  const record = store.root.access_tokens[tokenHash(match[1]!)];
  if (!record) throw unauthorized("Invalid or revoked access token");
  if (record.expires_at_ms <= store.now()) throw unauthorized("Access token expired");
  const found = store.findCredential(record.client_id);
  if (!found) throw unauthorized("Invalid or revoked access token");
  const { credential, tenant } = found;
  return {
    clientId: credential.client_id,
    tenantId: tenant.tenant_id,
    operator: options.operators.includes(credential.client_id),
    permissions: effectivePermissions(credential.role_ids, credential.permission_ids),
  };
}

/** Deleting a credential revokes every token it was issued. */
export function revokeTokensOf(store: Store, clientId: string): void {
  for (const table of [store.root.access_tokens, store.root.refresh_tokens]) {
    for (const [hash, token] of Object.entries(table)) if (token.client_id === clientId) delete table[hash];
  }
  store.markDirty();
}

/**
 * A bootstrap credential always matches the id and secret the emulator was started with, also
 * after a restart on an existing state file, so the documented defaults keep working. It is an
 * admin of its tenant: the first tenant's for `clientId`, a tenant of its own for each of `tenants`.
 */
export async function ensureBootstrapCredential(store: Store, tenant: TenantData, clientId: string, clientSecret: string): Promise<void> {
  const existing = tenant.credentials[clientId];
  const secretHash = await hashSecret(clientSecret);
  if (existing) {
    existing.secret_hash = secretHash;
    existing.secret_hint = secretHint(clientSecret);
    existing.bootstrap = true;
    if (!existing.role_ids.includes("role_admin")) existing.role_ids = ["role_admin", ...existing.role_ids];
  } else {
    tenant.credentials[clientId] = {
      client_id: clientId,
      secret_hash: secretHash,
      secret_hint: secretHint(clientSecret),
      role_ids: ["role_admin"],
      permission_ids: [],
      description: "Bootstrap credential of the local emulator",
      service_id: tenant.service_id,
      created_at: store.nowIso(),
      created_from: "api",
      bootstrap: true,
    };
  }
  store.markDirty();
}

/** The tenants of `options.tenants`: each found by its bootstrap credential (a restart on a state file), else made. */
export async function ensureTenants(store: Store, options: EmulatorOptions): Promise<void> {
  await ensureBootstrapCredential(store, store.root, options.clientId, options.clientSecret);
  for (const seed of options.tenants) {
    const tenant = store.findCredential(seed.clientId)?.tenant ?? store.addTenant();
    await ensureBootstrapCredential(store, tenant, seed.clientId, seed.clientSecret);
  }
}
