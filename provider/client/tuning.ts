import { DEFAULT_MAX_CONCURRENCY } from "./limiter.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";
import { SettingsError, type ConfigSource } from "./settings.js";

/**
 * How hard the client tries and how much it sends at once. Separate from the credentials
 * (settings.ts): these change how a run behaves against a bad API minute, not whom it talks to.
 */
export interface Tuning {
  retry: RetryPolicy;
  /**
   * The budget of one resource operation (a create with its lifecycle calls and baseline, an
   * update, a delete): no retry starts once it is spent, so a run ends in bounded time.
   */
  resourceTimeoutMs: number;
  /** Requests in flight at once, for the whole provider process. */
  maxConcurrency: number;
  /** The longest answer read; a longer one is refused unread (a ResponseTooLargeError). */
  maxResponseBytes: number;
}

export const DEFAULT_RESOURCE_TIMEOUT_MS = 300_000;

/**
 * The longest answer read. A page of 100 connectors with every key set, the largest answer the
 * API gives, is about 0.5 MiB (test/contract/emulator/listing-size.test.ts measures it): 32 MiB
 * is far past any real answer and still small next to a provider process's memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export const DEFAULT_TUNING: Readonly<Tuning> = Object.freeze({
  retry: DEFAULT_RETRY_POLICY,
  resourceTimeoutMs: DEFAULT_RESOURCE_TIMEOUT_MS,
  maxConcurrency: DEFAULT_MAX_CONCURRENCY,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
});

interface TuningSpec {
  config: string;
  env: string;
  min: number;
  max: number;
  /** Config values are in these units; stored in milliseconds (or as a count). */
  scale: number;
  meaning: string;
}

/** Every tuning key, its environment fallback and its range: the table of docs/configuration.md is written from these. */
export const TUNING_SPECS = {
  retryAttempts: { config: "cdc:retryAttempts", env: "CDC_RETRY_ATTEMPTS", min: 1, max: 50, scale: 1, meaning: "HTTP attempts per API call, the first included" },
  retryBaseDelayMs: { config: "cdc:retryBaseDelayMs", env: "CDC_RETRY_BASE_DELAY_MS", min: 0, max: 60_000, scale: 1, meaning: "back-off before the first retry, doubled after each (with jitter)" },
  retryMaxDelayMs: { config: "cdc:retryMaxDelayMs", env: "CDC_RETRY_MAX_DELAY_MS", min: 0, max: 300_000, scale: 1, meaning: "longest back-off between two attempts" },
  retryAfterMaxMs: { config: "cdc:retryAfterMaxMs", env: "CDC_RETRY_AFTER_MAX_MS", min: 0, max: 600_000, scale: 1, meaning: "longest `Retry-After` honoured; a longer one is cut to this" },
  resourceTimeoutSec: { config: "cdc:resourceTimeoutSec", env: "CDC_RESOURCE_TIMEOUT_SEC", min: 1, max: 86_400, scale: 1000, meaning: "budget of one resource operation; no retry starts after it" },
  maxConcurrency: { config: "cdc:maxConcurrency", env: "CDC_MAX_CONCURRENCY", min: 1, max: 256, scale: 1, meaning: "most API requests in flight at once for the whole run" },
  maxResponseMiB: { config: "cdc:maxResponseMiB", env: "CDC_MAX_RESPONSE_MIB", min: 1, max: 4096, scale: 1024 * 1024, meaning: "longest API answer read, in MiB; a longer one is refused without being read whole" },
} as const satisfies Record<string, TuningSpec>;

function raw(config: ConfigSource, env: NodeJS.ProcessEnv, spec: TuningSpec): string | undefined {
  let value: unknown;
  if (config && typeof (config as { get?: unknown }).get === "function") value = (config as { get(key: string): string | undefined }).get(spec.config);
  else if (config) {
    const rec = config as Record<string, unknown>;
    value = rec[spec.config] ?? rec[spec.config.slice("cdc:".length)];
  }
  if (typeof value === "number") value = String(value);
  if (typeof value !== "string" || value.trim() === "") value = env[spec.env];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function integer(config: ConfigSource, env: NodeJS.ProcessEnv, spec: TuningSpec, fallback: number): number {
  const text = raw(config, env, spec);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < spec.min || n > spec.max) {
    throw new SettingsError(
      `${spec.config} (or ${spec.env}) must be a whole number from ${spec.min} to ${spec.max}, got "${text}": ${spec.meaning}. ` +
        `Set it with \`pulumi config set ${spec.config} <n>\`, or unset it for the default.`,
    );
  }
  return n * spec.scale;
}

/** Tuning from stack config (`cdc:` keys), then the environment, then the defaults. */
export function resolveTuning(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): Tuning {
  const s = TUNING_SPECS;
  const d = DEFAULT_TUNING;
  return {
    retry: {
      maxAttempts: integer(config, env, s.retryAttempts, d.retry.maxAttempts),
      baseDelayMs: integer(config, env, s.retryBaseDelayMs, d.retry.baseDelayMs),
      maxDelayMs: integer(config, env, s.retryMaxDelayMs, d.retry.maxDelayMs),
      maxRetryAfterMs: integer(config, env, s.retryAfterMaxMs, d.retry.maxRetryAfterMs),
    },
    resourceTimeoutMs: integer(config, env, s.resourceTimeoutSec, d.resourceTimeoutMs),
    maxConcurrency: integer(config, env, s.maxConcurrency, d.maxConcurrency),
    maxResponseBytes: integer(config, env, s.maxResponseMiB, d.maxResponseBytes),
  };
}
