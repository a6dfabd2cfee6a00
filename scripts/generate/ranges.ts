import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderCatalogue } from "./vendor-keys.js";

/**
 * Ranges the vendor's provider does not give, added to catalogue/connectors.json so that check()
 * refuses `databasePort: 99999` before any API call instead of sending it. Only integer keys
 * with no range of the platform's own (no `min`, no `max`) get one, and only by these rules, for
 * values a user expects bounded: ports, sizes and counts. Each such key carries
 * `"rangeSource": "pulumi-cdc"` and `rangeWhy`, so the catalogue says the range is this
 * project's, not the platform's (whose limits for these keys are unknown); `about.ranges` lists
 * the rules. Run by `npm run generate`, after the catalogue is completed from the vendor's
 * provider; a rerun gives the same file.
 */

export const RANGE_SOURCE = "pulumi-cdc";

export interface RangeRule {
  /** Which integer keys (the API key, `.user.defined` and all). */
  readonly keys: RegExp;
  readonly min: number;
  readonly max?: number;
  /** What the value is, for the catalogue and the helpers' docs: `a TCP port`. */
  readonly why: string;
}

export const RANGE_RULES: readonly RangeRule[] = [
  { keys: /(^|\.)port(\.user\.defined)?$/, min: 1, max: 65535, why: "a TCP port" },
  { keys: /(^|\.)size(\.user\.defined)?$/, min: 1, why: "a size or batch size" },
  { keys: /(^|\.)threads(\.user\.defined)?$/, min: 1, why: "a number of threads" },
  { keys: /(^|\.)retries(\.user\.defined)?$/, min: 0, why: "a number of retries" },
  { keys: /(^|\.)(levels|skip)(\.user\.defined)?$/, min: 0, why: "a number of folder levels" },
  { keys: /(^|\.)threshold(\.user\.defined)?$/, min: 0, why: "a threshold" },
];

type Key = Record<string, unknown> & { key: string; type: string; min?: number; max?: number; rangeSource?: string; default?: unknown };
interface Catalogue {
  about: Record<string, unknown>;
  source: Record<string, { keys: Key[] }>;
  destination: Record<string, { keys: Key[] }>;
  transform: Record<string, { keys: Key[] }>;
}

const RANGE_FIELDS = new Set(["min", "max", "rangeSource", "rangeWhy"]);

/** The key with a range of ours placed after its default (where the platform's ranges stand). */
function withRange(k: Key, rule: RangeRule): Key {
  const range: Record<string, unknown> = { min: rule.min, ...(rule.max !== undefined ? { max: rule.max } : {}), rangeSource: RANGE_SOURCE, rangeWhy: rule.why };
  const after = "default" in k ? "default" : "secret";
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(k)) {
    out[field] = value;
    if (field === after) Object.assign(out, range);
  }
  return out as Key;
}

/** Applies the rules to a parsed catalogue, in place: ranges of ours are taken off first, then given again. */
export function applyRanges(catalogue: Catalogue): Array<{ kind: string; code: string; key: string; min: number; max?: number }> {
  const added: Array<{ kind: string; code: string; key: string; min: number; max?: number }> = [];
  for (const kind of ["source", "destination", "transform"] as const) {
    for (const [code, spec] of Object.entries(catalogue[kind])) {
      spec.keys = spec.keys.map((k) => {
        const bare = k.rangeSource === RANGE_SOURCE ? (Object.fromEntries(Object.entries(k).filter(([f]) => !RANGE_FIELDS.has(f))) as Key) : k;
        if (bare.type !== "integer" || bare.min !== undefined || bare.max !== undefined) return bare;
        const rule = RANGE_RULES.find((r) => r.keys.test(bare.key));
        if (!rule) return bare;
        const d = bare.default;
        if (typeof d === "number" && (d < rule.min || (rule.max !== undefined && d > rule.max))) {
          throw new Error(`${kind} ${code} ${bare.key}: its default ${d} is outside the range of the rule for ${rule.why} (${rule.min} to ${rule.max ?? "∞"}); fix the rule`);
        }
        added.push({ kind, code, key: bare.key, min: rule.min, ...(rule.max !== undefined ? { max: rule.max } : {}) });
        return withRange(bare, rule);
      });
    }
  }
  catalogue.about = {
    ...catalogue.about,
    ranges: {
      what: `Ranges the platform does not publish, added by scripts/generate/ranges.ts to integer keys that have none of the platform's own; each such key carries "rangeSource": "${RANGE_SOURCE}" and rangeWhy. pulumi-cdc's check() enforces them; the emulator does not (the platform's limits for these keys are unknown).`,
      rules: RANGE_RULES.map((r) => ({ keys: r.keys.source, min: r.min, ...(r.max !== undefined ? { max: r.max } : {}), why: r.why })),
      keys: added.length,
    },
  };
  return added;
}

/** catalogue/connectors.json with the rules applied; whether the file changed. */
export function addRanges(root: string): { written: boolean; added: number } {
  const path = join(root, "catalogue", "connectors.json");
  const text = readFileSync(path, "utf8");
  const catalogue = JSON.parse(text) as Catalogue;
  const added = applyRanges(catalogue).length;
  const next = renderCatalogue(catalogue);
  if (next === text) return { written: false, added };
  writeFileSync(path, next);
  return { written: true, added };
}
