import { emitDebug, type DebugLogger } from "./debug.js";
import { AuthError, CdcApiError } from "./errors.js";
import type { AuthProvider, HttpCore } from "./http.js";
import { registerSecret } from "./redact.js";
import { accessTokenSchema, type AccessTokenResult } from "./schemas.js";
import { recordTokenRequest } from "./stats.js";

export const ACCESS_TOKEN_PATH = "/auth/access-token";
export const REFRESH_TOKEN_PATH = "/auth/access-token/refresh";

// When the API omits both expiresIn and a parseable expires.
const ASSUMED_LIFETIME_MS = 5 * 60_000;
const REFRESH_MARGIN_MS = 60_000;
const REFRESH_MARGIN_FRACTION = 0.1;

export interface TokenManagerOptions {
  core: HttpCore;
  clientId?: string;
  clientSecret?: string;
  /** A ready token: used as-is, never refreshed. */
  accessToken?: string;
  now?: () => number;
  debug?: DebugLogger;
}

interface HeldToken {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
  lifetimeMs: number;
  /** Set after the server rejected this token. */
  rejected: boolean;
}

/**
 * Access tokens for one (API, client id). A run shares one manager, so the whole run fetches
 * one token, refreshes it shortly before expiry, and concurrent callers share whatever token
 * request is in flight (refresh tokens are single use: two parallel refreshes would burn one).
 */
export class TokenManager implements AuthProvider {
  // ES private fields: invisible to util.inspect and JSON.stringify, so a logged manager leaks nothing.
  readonly #opts: TokenManagerOptions;
  #held: HeldToken | undefined;
  #inflight: Promise<string> | undefined;
  readonly #now: () => number;

  constructor(opts: TokenManagerOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
    if (!opts.accessToken && !(opts.clientId && opts.clientSecret)) {
      throw new Error("TokenManager needs an access token or a client id and secret");
    }
    registerSecret(opts.clientSecret);
    registerSecret(opts.accessToken);
  }

  get renewable(): boolean {
    return !this.#opts.accessToken;
  }

  async getToken(): Promise<string> {
    if (this.#opts.accessToken) return this.#opts.accessToken;
    const held = this.#held;
    if (held && !held.rejected && !this.dueForRefresh(held)) return held.accessToken;
    if (!this.#inflight) {
      this.#inflight = this.renew().finally(() => {
        this.#inflight = undefined;
      });
    }
    return this.#inflight;
  }

  invalidate(token: string): void {
    // A request that started with an older token must not throw away a newer one.
    if (this.#held && this.#held.accessToken === token) this.#held.rejected = true;
  }

  /** Refresh when less than max(60 s, 10% of lifetime) remains, but never in the first half of the lifetime (short-lived tokens would otherwise refresh on every call). */
  refreshMarginMs(lifetimeMs: number): number {
    return Math.min(Math.max(REFRESH_MARGIN_MS, lifetimeMs * REFRESH_MARGIN_FRACTION), lifetimeMs / 2);
  }

  private dueForRefresh(t: HeldToken): boolean {
    return t.expiresAt - this.#now() <= this.refreshMarginMs(t.lifetimeMs);
  }

  private async renew(): Promise<string> {
    const held = this.#held;
    if (held?.refreshToken) {
      try {
        return this.adopt(await this.refresh(held.refreshToken));
      } catch (err) {
        if (err instanceof CdcApiError && err.status !== undefined && [400, 401, 403, 404, 405, 422].includes(err.status)) {
          // Refresh token expired, revoked or already used, or no refresh route at all (the
          // platform's own client never refreshes): start over with the credentials.
          emitDebug(() => `token refresh refused (${err.status}); exchanging client credentials`, this.#opts.debug);
        } else if (!held.rejected && held.expiresAt > this.#now()) {
          // Transient failure and the current token still works: keep it, try again next call.
          emitDebug(() => `token refresh failed (${(err as Error).message}); keeping the current token`, this.#opts.debug);
          return held.accessToken;
        } else {
          throw err;
        }
      }
    }
    return this.adopt(await this.exchange());
  }

  private async exchange(): Promise<AccessTokenResult> {
    recordTokenRequest("clientCredentials");
    emitDebug(() => `requesting an access token for client ${this.#opts.clientId}`, this.#opts.debug);
    try {
      return await this.#opts.core.execute({
        method: "POST",
        path: ACCESS_TOKEN_PATH,
        body: { client_id: this.#opts.clientId, secret: this.#opts.clientSecret },
        schema: accessTokenSchema,
        // An extra token is harmless, so a lost response can be asked for again.
        idempotent: true,
      });
    } catch (err) {
      if (err instanceof AuthError) {
        throw new AuthError({
          method: err.method,
          path: err.path,
          status: err.status,
          detail: err.detail,
          requestId: err.requestId,
          attempts: err.attempts,
          hint: `Check cdc:clientId and cdc:clientSecret (or CDC_CLIENT_ID / CDC_CLIENT_SECRET) for client "${this.#opts.clientId}".`,
        });
      }
      throw err;
    }
  }

  private async refresh(refreshToken: string): Promise<AccessTokenResult> {
    recordTokenRequest("refresh");
    emitDebug(() => "refreshing the access token", this.#opts.debug);
    return this.#opts.core.execute({
      method: "POST",
      path: REFRESH_TOKEN_PATH,
      body: { refresh_token: refreshToken },
      schema: accessTokenSchema,
      // If a response is lost the token may be spent; the retry then gets 401/422 and renew()
      // falls back to the credentials, so repeating is still safe.
      idempotent: true,
    });
  }

  private adopt(result: AccessTokenResult): string {
    registerSecret(result.accessToken);
    registerSecret(result.refreshToken);
    const now = this.#now();
    let lifetimeMs = ASSUMED_LIFETIME_MS;
    if (typeof result.expiresIn === "number" && result.expiresIn > 0) {
      lifetimeMs = result.expiresIn * 1000;
    } else if (result.expires) {
      const at = Date.parse(result.expires);
      if (!Number.isNaN(at) && at > now) lifetimeMs = at - now;
    }
    this.#held = {
      accessToken: result.accessToken,
      // Rotation: the old refresh token is spent; without a new one the next renewal uses the credentials.
      refreshToken: result.refreshToken ?? undefined,
      expiresAt: now + lifetimeMs,
      lifetimeMs,
      rejected: false,
    };
    emitDebug(() => `access token obtained, expires in ${Math.round(lifetimeMs / 1000)} s`, this.#opts.debug);
    return result.accessToken;
  }
}
