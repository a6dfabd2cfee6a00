import type { FaultSettings } from "./faults.js";

export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. The CLI defaults to 8787, code to 0. */
  port: number;
  /** Always 127.0.0.1: the emulator is a local sandbox and never listens on other interfaces. */
  host: "127.0.0.1";
  /** Bootstrap client credential (an admin), usable from the first request. */
  clientId: string;
  clientSecret: string;
  /**
   * Further tenants, each made on the first start with a bootstrap credential of its own: an
   * admin of that tenant only. The first tenant is `clientId`'s.
   */
  tenants: TenantSeed[];
  /**
   * Client ids of platform operators: credentials (of any tenant) that may act on another
   * tenant's objects by sending `X-Admin-Tenant-Id`. Any other credential sending it gets a 403.
   */
  operators: string[];
  /** Access token lifetime in seconds (`expiresIn`). */
  tokenTtlSeconds: number;
  /** Refresh token lifetime in seconds; refresh tokens are also single use. */
  refreshTokenTtlSeconds: number;
  /** JSON file to persist state in; undefined keeps state in memory only. */
  statePath: string | undefined;
  /** Fault injection; everything off by default. */
  faults: Partial<FaultSettings>;
  /**
   * How long a topic binding's change takes between reading the binding and storing its new
   * topics (the platform deploys the connector change in between): changes sent together overlap
   * for that long, and the later one's write drops the earlier one's topic. 0: one event-loop turn.
   */
  bindingChangeMs: number;
  /** Milliseconds since the epoch; injectable so tests can expire tokens and drain rate limits without sleeping. */
  clock: () => number;
}

/** A further tenant's bootstrap credential. */
export interface TenantSeed {
  clientId: string;
  clientSecret: string;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_CLIENT_ID = "cdc-local";
export const DEFAULT_CLIENT_SECRET = "cdc-local-secret";
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** Long enough that links a client writes together overlap here as on the platform, short enough to cost a run little. */
export const DEFAULT_BINDING_CHANGE_MS = 25;

export function resolveOptions(options: Partial<EmulatorOptions> = {}): EmulatorOptions {
  const resolved: EmulatorOptions = {
    port: options.port ?? 0,
    host: "127.0.0.1",
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    tenants: (options.tenants ?? []).map((t) => ({ clientId: t.clientId, clientSecret: t.clientSecret })),
    operators: [...(options.operators ?? [])],
    tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    statePath: options.statePath,
    faults: { ...(options.faults ?? {}) },
    bindingChangeMs: options.bindingChangeMs ?? DEFAULT_BINDING_CHANGE_MS,
    clock: options.clock ?? Date.now,
  };
  if (options.host !== undefined && options.host !== "127.0.0.1") {
    throw new RangeError(`host must be 127.0.0.1 (the emulator only listens locally), got ${String(options.host)}`);
  }
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) {
    throw new RangeError(`port must be an integer between 0 and 65535, got ${resolved.port}`);
  }
  if (!Number.isInteger(resolved.tokenTtlSeconds) || resolved.tokenTtlSeconds < 1) {
    throw new RangeError(`tokenTtlSeconds must be a positive integer, got ${resolved.tokenTtlSeconds}`);
  }
  if (!Number.isInteger(resolved.refreshTokenTtlSeconds) || resolved.refreshTokenTtlSeconds < 1) {
    throw new RangeError(`refreshTokenTtlSeconds must be a positive integer, got ${resolved.refreshTokenTtlSeconds}`);
  }
  if (!Number.isInteger(resolved.bindingChangeMs) || resolved.bindingChangeMs < 0) {
    throw new RangeError(`bindingChangeMs must be a non-negative integer, got ${resolved.bindingChangeMs}`);
  }
  if (!resolved.clientId || !resolved.clientSecret) throw new RangeError("clientId and clientSecret must be non-empty");
  const ids = [resolved.clientId];
  for (const seed of resolved.tenants) {
    if (!seed.clientId || !seed.clientSecret) throw new RangeError("each of tenants needs a non-empty clientId and clientSecret");
    if (ids.includes(seed.clientId)) throw new RangeError(`client id ${seed.clientId} is given twice: each tenant's bootstrap credential needs an id of its own`);
    ids.push(seed.clientId);
  }
  return resolved;
}
