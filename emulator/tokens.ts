import type { Principal } from "./context.js";
import { hashSecret, randomToken, secretHint, tokenHash } from "./crypto.js";
import { unauthorized } from "./errors.js";
import type { EmulatorOptions } from "./options.js";
import { effectivePermissions } from "./roles.js";
import type { Store } from "./store.js";

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
  store.data.access_tokens[tokenHash(accessToken)] = { client_id: clientId, expires_at_ms: expiresAtMs };
  store.data.refresh_tokens[tokenHash(refreshToken)] = {
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
  const record = store.data.refresh_tokens[hash];
  if (!record) throw unauthorized("Invalid or expired refresh token");
  delete store.data.refresh_tokens[hash];
  store.markDirty();
  if (record.expires_at_ms <= store.now() || !store.data.credentials[record.client_id]) {
    throw unauthorized("Invalid or expired refresh token");
  }
  return issueTokens(store, options, record.client_id);
}

/** Resolves `Authorization: Bearer <token>` to the calling credential. */
export function authenticate(store: Store, header: string | undefined): Principal {
  if (header === undefined || header.trim() === "") throw unauthorized("Not authenticated");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("Invalid authentication credentials");
  const record = store.data.access_tokens[tokenHash(match[1]!)];
  if (!record) throw unauthorized("Invalid or revoked access token");
  if (record.expires_at_ms <= store.now()) throw unauthorized("Access token expired");
  const credential = store.data.credentials[record.client_id];
  if (!credential) throw unauthorized("Invalid or revoked access token");
  return {
    clientId: credential.client_id,
    permissions: effectivePermissions(credential.role_ids, credential.permission_ids),
  };
}

/** Deleting a credential revokes every token it was issued. */
export function revokeTokensOf(store: Store, clientId: string): void {
  for (const table of [store.data.access_tokens, store.data.refresh_tokens]) {
    for (const [hash, token] of Object.entries(table)) if (token.client_id === clientId) delete table[hash];
  }
  store.markDirty();
}

/**
 * The bootstrap credential always matches the id and secret the emulator was started with,
 * also after a restart on an existing state file, so the documented defaults keep working.
 */
export async function ensureBootstrapCredential(store: Store, options: EmulatorOptions): Promise<void> {
  const existing = store.data.credentials[options.clientId];
  const secretHash = await hashSecret(options.clientSecret);
  if (existing) {
    existing.secret_hash = secretHash;
    existing.secret_hint = secretHint(options.clientSecret);
    existing.bootstrap = true;
    if (!existing.role_ids.includes("role_admin")) existing.role_ids = ["role_admin", ...existing.role_ids];
  } else {
    store.data.credentials[options.clientId] = {
      client_id: options.clientId,
      secret_hash: secretHash,
      secret_hint: secretHint(options.clientSecret),
      role_ids: ["role_admin"],
      permission_ids: [],
      description: "Bootstrap credential of the local emulator",
      service_id: store.data.service_id,
      created_at: store.nowIso(),
      created_from: "api",
      bootstrap: true,
    };
  }
  store.markDirty();
}
