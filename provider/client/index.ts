import { createHash } from "node:crypto";
import { CdcClient } from "./client.js";
import { Semaphore } from "./limiter.js";
import { resolveSettings, type CdcSettings, type ConfigSource } from "./settings.js";
import { closeSharedAgents, sharedAgent } from "./transport.js";
import { resolveTuning, type Tuning } from "./tuning.js";

export { ADMIN_SERVICE_HEADER, ADMIN_TENANT_HEADER, CdcClient, expandPath, type BodyRequestOptions, type CdcClientOptions, type RequestOptions } from "./client.js";
export { setDebugLogger, type DebugLogger } from "./debug.js";
export {
  AuthError,
  CdcApiError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  ValidationError,
  formatIssue,
  isCdcApiError,
  isNotFound,
  type ValidationIssue,
} from "./errors.js";
export { queryString, type AuthProvider, type Query, type QueryValue } from "./http.js";
export { Background, DEFAULT_MAX_CONCURRENCY, INITIAL_CONCURRENCY, Semaphore, type Release, type SlotOutcome } from "./limiter.js";
export { DEFAULT_MAX_PAGES, DEFAULT_PAGE_SIZE, paginatePages, type PaginateOptions } from "./paginate.js";
export { REDACTED, describeBodyKeys, isSensitiveKey, redact, redactValue, registerSecret } from "./redact.js";
export { BEFORE_SEND_CODES, DEFAULT_RETRY_POLICY, backoffDelay, decideRetry, isIdempotentMethod, parseRetryAfter, type RetryPolicy } from "./retry.js";
export * from "./schemas.js";
export {
  DEFAULT_API_URL,
  DEFAULT_CREATED_FROM,
  SETTING_KEYS,
  SettingsError,
  normaliseApiUrl,
  resolveSettings,
  type CdcSettings,
  type ConfigSource,
} from "./settings.js";
export { getRequestCounts, resetRequestCounts, type RequestCounts } from "./stats.js";
export { ACCESS_TOKEN_PATH, REFRESH_TOKEN_PATH, TokenManager } from "./token.js";
export { DEFAULT_TIMEOUTS, type Timeouts } from "./transport.js";
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_RESOURCE_TIMEOUT_MS, DEFAULT_TUNING, TUNING_SPECS, resolveTuning, type Tuning } from "./tuning.js";
export { RetryBudget, currentBudget, withBudget } from "./budget.js";

// Process-wide state. A Pulumi run hosts every dynamic resource in one provider process, so
// these live for the whole run: one pool, one limiter, one token per (API, client).
const clients = new Map<string, CdcClient>();
let sharedLimiter: Semaphore | undefined;
let configured: CdcSettings | undefined;
let tuning: Tuning | undefined;

/**
 * Resolve and remember the settings from the dynamic provider's `configure(req)`
 * (`configure(req.config)`), so that later `getClient()` calls need no arguments.
 */
export function configure(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): CdcSettings {
  configured = resolveSettings(config, env);
  tuning = resolveTuning(config, env);
  return configured;
}

/** Retries, resource budget and concurrency: from `configure()`, else from the environment. */
export function currentTuning(): Tuning {
  tuning ??= resolveTuning(undefined);
  return tuning;
}

/** The settings `getClient()` uses: those from `configure()`, else resolved from the environment. */
export function currentSettings(): CdcSettings {
  return configured ?? resolveSettings(undefined);
}

/**
 * The shared client for these settings (default: `currentSettings()`), created on first use
 * and reused for the rest of the process, with the shared pool and limiter.
 */
export function getClient(settings: CdcSettings = currentSettings()): CdcClient {
  const key = cacheKey(settings);
  let client = clients.get(key);
  if (!client) {
    const { retry, maxConcurrency, maxResponseBytes } = currentTuning();
    sharedLimiter ??= new Semaphore(maxConcurrency);
    client = new CdcClient({ settings, dispatcher: sharedAgent(), limiter: sharedLimiter, retry, maxResponseBytes });
    clients.set(key, client);
  }
  return client;
}

/** Forget every shared client, the configured settings, and close the shared pool (tests). */
export async function resetClients(): Promise<void> {
  clients.clear();
  configured = undefined;
  tuning = undefined;
  sharedLimiter = undefined;
  await closeSharedAgents();
}

// Keyed by API, client id and admin scope as the run sees them; the credential digest keeps a
// rotated secret from being served the previous secret's tokens.
function cacheKey(s: CdcSettings): string {
  const digest = createHash("sha256")
    .update(`${s.clientSecret ?? ""}\0${s.accessToken ?? ""}`)
    .digest("hex")
    .slice(0, 16);
  return `${s.apiUrl}\0${s.clientId ?? ""}\0${digest}\0${s.createdFrom}\0${s.adminTenantId ?? ""}\0${s.adminServiceId ?? ""}`;
}
