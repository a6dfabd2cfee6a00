import { FILE_HEADERS_ONLY, createTwoFilesPatch } from "diff";
import { MASK } from "./catalogue.js";
import { echoConfigText } from "./connector-config.js";
import type { ConnectorRecord, HistoryEntry, Store } from "./store.js";

/**
 * Destination config history and its comparison with the original. Entries never hold secret
 * values: secrets are recorded as the mask plus a keyed digest, so the diff can say that a
 * secret changed without being able to leak it.
 */

export function snapshot(store: Store, record: ConnectorRecord): Omit<HistoryEntry, "timestamp"> {
  const config = echoConfigText(record, store.vault);
  const secret_digests: Record<string, string> = {};
  for (const [key, sealed] of Object.entries(record.secrets)) secret_digests[key] = store.vault.digest(store.vault.open(sealed));
  return { config, secret_digests };
}

function sameSnapshot(a: Omit<HistoryEntry, "timestamp">, b: Omit<HistoryEntry, "timestamp">): boolean {
  return JSON.stringify(sortKeys(a.config)) === JSON.stringify(sortKeys(b.config)) &&
    JSON.stringify(sortKeys(a.secret_digests)) === JSON.stringify(sortKeys(b.secret_digests));
}

function sortKeys(obj: Record<string, string>): [string, string][] {
  return Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Records the destination's config if it differs from the latest entry (or is the first). */
export function recordConfig(store: Store, record: ConnectorRecord): boolean {
  const entries = (store.data.history[record.id] ??= []);
  const next = snapshot(store, record);
  const last = entries[entries.length - 1];
  if (last && sameSnapshot(last, next)) return false;
  entries.push({ timestamp: store.nextHistoryTimestamp(), ...next });
  store.markDirty();
  return true;
}

/**
 * One `key: value` line per key, sorted. A secret whose digest differs from the original's is
 * rendered `key: ******** (changed)` on the current side.
 */
function render(entry: HistoryEntry, original: HistoryEntry | undefined): string {
  const lines = sortKeys(entry.config).map(([key, value]) => {
    const digest = entry.secret_digests[key];
    if (digest === undefined) return `${key}: ${value}`;
    const before = original?.secret_digests[key];
    return before !== undefined && before !== digest ? `${key}: ${MASK} (changed)` : `${key}: ${MASK}`;
  });
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

export interface ConfigComparison {
  has_changes: boolean;
  oldest_timestamp: string;
  latest_timestamp: string;
  masked_diff: string;
}

export function compareToOriginal(entries: readonly HistoryEntry[]): ConfigComparison {
  const original = entries[0]!;
  const latest = entries[entries.length - 1]!;
  const before = render(original, undefined);
  const after = render(latest, original);
  const hasChanges = before !== after;
  return {
    has_changes: hasChanges,
    oldest_timestamp: original.timestamp,
    latest_timestamp: latest.timestamp,
    masked_diff: hasChanges
      ? createTwoFilesPatch("original", "current", before, after, original.timestamp, latest.timestamp, {
          headerOptions: FILE_HEADERS_ONLY,
        })
      : "",
  };
}
