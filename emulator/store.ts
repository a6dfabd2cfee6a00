import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ConnectorKind } from "./catalogue.js";
import { Vault, randomHex } from "./crypto.js";
import type { ConnectorRecord, StateData } from "./records.js";

export * from "./records.js";

/**
 * All emulator state lives in one JSON-serialisable object (records.ts), so that persisting is
 * a single atomic file write and a restart restores exactly what was there.
 */

function freshState(): StateData {
  return {
    version: 1,
    tenant_id: `tnt_${randomHex(8)}`,
    sub_id: `sub_${randomHex(8)}`,
    service_id: `svc_${randomHex(8)}`,
    vault_key: Vault.newKey(),
    digest_key: Vault.newKey(),
    last_history_ms: 0,
    credentials: {},
    access_tokens: {},
    refresh_tokens: {},
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

const COLLECTIONS = [
  "credentials",
  "access_tokens",
  "refresh_tokens",
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
  for (const key of COLLECTIONS) {
    if (!merged[key] || typeof merged[key] !== "object") (merged as unknown as Record<string, unknown>)[key] = {};
  }
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

  private constructor(
    readonly data: StateData,
    private readonly path: string | undefined,
    private readonly clock: () => number,
  ) {
    this.vault = new Vault(data.vault_key, data.digest_key);
  }

  static open(path: string | undefined, clock: () => number): Store {
    const data = path && existsSync(path) ? loadState(path) : freshState();
    const store = new Store(data, path, clock);
    if (path) store.markDirty();
    return store;
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
    if (this.path) writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`);
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
    const ms = Math.max(this.clock(), this.data.last_history_ms + 1);
    this.data.last_history_ms = ms;
    return new Date(ms).toISOString();
  }

  connectors(kind: ConnectorKind): Record<string, ConnectorRecord> {
    return kind === "source" ? this.data.sources : this.data.destinations;
  }

  private pruneExpiredTokens(): void {
    const now = this.clock();
    for (const table of [this.data.access_tokens, this.data.refresh_tokens]) {
      for (const [hash, token] of Object.entries(table)) {
        if (token.expires_at_ms <= now) delete table[hash];
      }
    }
  }
}
