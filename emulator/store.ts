import { AsyncLocalStorage } from "node:async_hooks";
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ConnectorKind } from "./catalogue.js";
import { Vault, objectId, randomHex } from "./crypto.js";
import type { ConnectorRecord, CredentialRecord, StateData, TenantData } from "./records.js";

export * from "./records.js";

/**
 * All emulator state lives in one JSON-serialisable object (records.ts), so that persisting is
 * a single atomic file write and a restart restores exactly what was there.
 */

/** A new tenant's ids are the platform's kind: 24 lowercase hex characters. */
function freshTenant(): TenantData {
  return {
    tenant_id: objectId(),
    sub_id: objectId(),
    service_id: objectId(),
    credentials: {},
    sources: {},
    destinations: {},
    history: {},
    tags: {},
    http_connections: {},
    llm_connections: {},
    agents: {},
    log_summaries: {},
    pipelines: {},
    transforms: {},
    topics: {},
    kafka_users: {},
    topic_bindings: {},
  };
}

function freshState(): StateData {
  return {
    version: 1,
    ...freshTenant(),
    vault_key: Vault.newKey(),
    digest_key: Vault.newKey(),
    last_history_ms: 0,
    access_tokens: {},
    refresh_tokens: {},
    tenants: {},
  };
}

const TENANT_COLLECTIONS = [
  "credentials",
  "sources",
  "destinations",
  "history",
  "tags",
  "http_connections",
  "llm_connections",
  "agents",
  "log_summaries",
  "pipelines",
  "transforms",
  "topics",
  "kafka_users",
  "topic_bindings",
] as const;

const COLLECTIONS = [...TENANT_COLLECTIONS, "access_tokens", "refresh_tokens", "tenants"] as const;

function fillCollections<T extends object>(target: T, keys: readonly string[]): void {
  for (const key of keys) {
    const record = target as unknown as Record<string, unknown>;
    if (!record[key] || typeof record[key] !== "object") record[key] = {};
  }
}

function loadState(path: string): StateData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`emulator state file ${path} is not valid JSON (${(error as Error).message}); refusing to overwrite it`);
  }
  const state = parsed as Partial<StateData>;
  if (!state || typeof state !== "object" || state.version !== 1) {
    throw new Error(`emulator state file ${path} has an unsupported format (expected version 1)`);
  }
  const base = freshState();
  const merged = { ...base, ...state } as StateData;
  fillCollections(merged, COLLECTIONS);
  for (const tenant of Object.values(merged.tenants)) fillCollections(tenant, TENANT_COLLECTIONS);
  return merged;
}

/** Write to a temp file in the same directory, fsync, rename over, fsync the directory. */
export function writeFileAtomic(path: string, content: string): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomHex(6)}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(tmp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (error) {
    unlinkSync(tmp);
    throw error;
  }
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic.
  }
}

export class Store {
  readonly vault: Vault;
  private dirty = false;
  /** The tenant of the request being handled, for `data`: set around each route handler (server.ts). */
  readonly #scope = new AsyncLocalStorage<TenantData>();

  private constructor(
    /** The whole state: every tenant, the tokens, the keys. */
    readonly root: StateData,
    private readonly path: string | undefined,
    private readonly clock: () => number,
  ) {
    this.vault = new Vault(root.vault_key, root.digest_key);
  }

  static open(path: string | undefined, clock: () => number): Store {
    const data = path && existsSync(path) ? loadState(path) : freshState();
    const store = new Store(data, path, clock);
    if (path) store.markDirty();
    return store;
  }

  /**
   * The tenant the current request acts on: its credential's, or the one an operator named with
   * `X-Admin-Tenant-Id`. Routes read and write only through it, so no tenant sees another's
   * objects. Outside a request (start-up, test helpers), the first tenant.
   */
  get data(): TenantData {
    return this.#scope.getStore() ?? this.root;
  }

  /** Runs `fn` (a route handler, to its end) with `data` as `tenant`. */
  within<T>(tenant: TenantData, fn: () => T): T {
    return this.#scope.run(tenant, fn);
  }

  /** Every tenant, the first one first. */
  tenants(): TenantData[] {
    return [this.root, ...Object.values(this.root.tenants)];
  }

  tenant(tenantId: string): TenantData | undefined {
    return this.tenants().find((t) => t.tenant_id === tenantId);
  }

  /** A new, empty tenant with ids of its own. */
  addTenant(): TenantData {
    const tenant = freshTenant();
    this.root.tenants[tenant.tenant_id] = tenant;
    this.markDirty();
    return tenant;
  }

  /** The credential with this client id and its tenant: client ids are unique across tenants, so a token request needs no tenant. */
  findCredential(clientId: string): { tenant: TenantData; credential: CredentialRecord } | undefined {
    for (const tenant of this.tenants()) {
      const credential = tenant.credentials[clientId];
      if (credential) return { tenant, credential };
    }
    return undefined;
  }

  get persistent(): boolean {
    return this.path !== undefined;
  }

  markDirty(): void {
    this.dirty = true;
  }

  /** Writes the state if anything changed; called before each response is sent. */
  flush(): void {
    if (!this.dirty) return;
    this.pruneExpiredTokens();
    if (this.path) writeFileAtomic(this.path, `${JSON.stringify(this.root, null, 2)}\n`);
    this.dirty = false;
  }

  nowIso(): string {
    return new Date(this.clock()).toISOString();
  }

  now(): number {
    return this.clock();
  }

  /** History timestamps must be strictly increasing even within one millisecond. */
  nextHistoryTimestamp(): string {
    const ms = Math.max(this.clock(), this.root.last_history_ms + 1);
    this.root.last_history_ms = ms;
    return new Date(ms).toISOString();
  }

  connectors(kind: ConnectorKind): Record<string, ConnectorRecord> {
    return kind === "source" ? this.data.sources : this.data.destinations;
  }

  private pruneExpiredTokens(): void {
    const now = this.clock();
    for (const table of [this.root.access_tokens, this.root.refresh_tokens]) {
      for (const [hash, token] of Object.entries(table)) {
        if (token.expires_at_ms <= now) delete table[hash];
      }
    }
  }
}
