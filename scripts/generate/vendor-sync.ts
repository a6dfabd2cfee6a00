import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isApiSourceFile, parseApiContract, type ApiContract } from "./vendor-api-sources.js";
import { generatedFiles, readChangelog, releaseLabel, sameCommit, type VendorCheckout, type VendorRelease } from "./vendor-checkout.js";
import { displayNameOf, fileConnector, parseVendorFile, vendorKeys } from "./vendor-generated.js";
import { renderCatalogue } from "./vendor-keys.js";
import { BASELINE_COMMIT, KEPT, mergeKeys } from "./vendor-update.js";
import { SMT_FILE, readSmtData, smtDataText } from "./vendor-smt.js";

/**
 * `npm run vendor-sync -- <checkout>`'s first step: the catalogue's vendor facts from one checkout
 * of the vendor's provider (vendor-checkout.ts says what it accepts). Each connector's generated
 * file (internal/generated/<kind>_<code>.go, read by vendor-generated.ts) replaces its keys in
 * catalogue/connectors.json, an API source's (vendor-api-sources.ts) its entry in
 * catalogue/api-sources.json, and the SMT catalogue (internal/generated/smt_catalog.json) becomes
 * catalogue/smt-data.ts. A key the catalogue has keeps pulumi-cdc's own fields (computed, encoding,
 * group; an API source's normalize and writeOnly; a secret flag of ours); a file older than the
 * catalogue's version is not taken (the catalogue never moves back); each connector's commit goes
 * to about.provenance (an API source's to its provenance). The CHANGELOG names the release.
 * The steps after it are `npm run generate`'s: the CHANGELOG's announced changes and pulumi-cdc's
 * overrides (vendor-update.ts), the ranges of ours (ranges.ts), then everything generated.
 */

type Kind = "source" | "destination" | "transform";
type Key = Record<string, unknown> & { key: string; name: string; secret: boolean };
interface Spec {
  displayName: string;
  terraformResource: string;
  removedKeys?: string[];
  keys: Key[];
  [head: string]: unknown;
}
type Catalogue = { about: Record<string, unknown> } & Record<Kind, Record<string, Spec>>;
interface ApiSpec extends Spec {
  family: "api";
  provenance: { file: string; commit: string };
  conditions: ApiContract["conditions"];
  dependencies: ApiContract["dependencies"];
  oauth?: Record<string, string>;
}
interface ApiCatalogue {
  about: Record<string, unknown>;
  source: Record<string, ApiSpec>;
}

// A transform's config keys its resource code sends beyond the generated mappings (base.go: the
// resource's name as transforms.name), first, as the catalogue keeps them.
const TRANSFORM_NAME_KEY: Key = { key: "transforms.name", name: "name", type: "string", required: true, secret: false };
// Attributes most resources have outside their config that are a transform's config (topic_router's cluster).
const TRANSFORM_CONFIG = new Set(["kc_cluster_id"]);
// An API source's fields of pulumi-cdc's, from the vendor's backend contract tests, not its files.
// Their JSON-string keys (format) are known from the backend's form, not from the generated files.
const API_KEPT = [...KEPT, "normalize", "writeOnly", "format"];

/** An API source's key with its fields in api-sources.json's order: the five every key has first. */
function apiKeyOrder(k: Key): Key {
  const { key, name, type, required, secret, ...rest } = k;
  return { key, name, type, required, secret, ...rest } as Key;
}

export interface SyncResult {
  readonly commit: string;
  readonly release?: string;
  /** Connectors (and `smt`) whose facts now come from the checkout. */
  readonly updated: string[];
  /** Already at the checkout's version. */
  readonly same: string[];
  /**
   * Of those, the ones whose facts changed all the same: the file states them otherwise than the
   * catalogue had them (an earlier reading's slip, corrected). Known once the catalogue steps ran
   * (sync-catalogue.ts fills it from the diff).
   */
  readonly reread: string[];
  /** The catalogue's version is newer than the checkout's, or not in its history: kept. */
  readonly kept: Array<{ where: string; recorded: string }>;
  /** Added to the catalogue. */
  readonly added: string[];
  /** In the catalogue, at an older version, and not in a complete checkout: the vendor dropped it (kept, for a maintainer to decide). */
  readonly missing: string[];
  /** The CHANGELOG's sections after the release last synced, newest first. */
  readonly releases: VendorRelease[];
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

export function syncCatalogue(root: string, checkout: VendorCheckout): SyncResult {
  const connectorsPath = join(root, "catalogue", "connectors.json");
  const apiPath = join(root, "catalogue", "api-sources.json");
  const smtPath = join(root, "catalogue", "smt-data.ts");
  const catalogue = readJson<Catalogue>(connectorsPath);
  const api = readJson<ApiCatalogue>(apiPath);
  const provenance = (catalogue.about["provenance"] ?? {}) as { connectors?: Record<string, string>; synced?: { commit: string; release?: string } };
  const recorded = { ...(provenance.connectors ?? {}) };
  const updated: string[] = [];
  const same: string[] = [];
  const kept: SyncResult["kept"] = [];
  const added: string[] = [];
  const seen = new Set<string>();

  const decide = (where: string, commit: string | undefined, path: string): boolean => {
    if (commit === undefined) return true;
    const standing = checkout.standing(commit, path);
    if (standing === "kept") kept.push({ where, recorded: commit });
    if (standing === "same") same.push(where);
    return standing !== "kept";
  };

  for (const file of generatedFiles(checkout)) {
    const path = `internal/generated/${file}`;
    const c = fileConnector(file)!;
    const text = readFileSync(join(checkout.dir, path), "utf8");
    const fileCommit = checkout.commitOf(path);
    if (c.kind === "source" && isApiSourceFile(text)) {
      const contract = parseApiContract(text);
      const where = `source/${contract.code}`;
      seen.add(where);
      const spec = api.source[contract.code];
      if (!decide(where, spec ? spec.provenance.commit : undefined, path)) continue;
      const keys = vendorKeys(parseVendorFile(text));
      const next: ApiSpec = spec ?? ({ displayName: contract.displayName, terraformResource: `streamkap_source_${c.code}`, family: "api", keys: [] } as unknown as ApiSpec);
      const removed = mergeKeys(next, keys, API_KEPT);
      const oauth = contract.oauth ? { ...contract.oauth, connect: contract.oauth.connect ?? spec?.oauth?.["connect"] ?? `streamkap sources start-source-oauth-connect ${contract.code}` } : undefined;
      const commit = spec && sameCommit(spec.provenance.commit, fileCommit) ? spec.provenance.commit : fileCommit;
      // The head in api-sources.json's order.
      const { keys: mergedKeys, removedKeys, oauth: _oldOauth, conditions: _c, dependencies: _d, provenance: _p, ...rest } = next;
      const merged = [...new Set([...(removedKeys ?? []), ...removed])].sort();
      api.source[contract.code] = {
        ...rest,
        displayName: contract.displayName,
        provenance: { file: path, commit },
        ...(merged.length > 0 ? { removedKeys: merged } : {}),
        keys: mergedKeys.map(apiKeyOrder),
        conditions: contract.conditions,
        dependencies: contract.dependencies,
        ...(oauth ? { oauth } : {}),
      } as ApiSpec;
      if (!spec) added.push(where);
      else if (!same.includes(where)) updated.push(where);
      continue;
    }
    const where = `${c.kind}/${c.code}`;
    seen.add(where);
    const spec = catalogue[c.kind][c.code];
    if (!decide(where, spec ? (recorded[where] ?? BASELINE_COMMIT) : undefined, path)) continue;
    const parsed = parseVendorFile(text);
    const keys = c.kind === "transform" ? [{ ...TRANSFORM_NAME_KEY }, ...vendorKeys(parsed, TRANSFORM_CONFIG)] : vendorKeys(parsed);
    const next: Spec = spec ?? { displayName: displayNameOf(text) ?? c.code, terraformResource: `streamkap_${c.kind}_${c.code}`, keys: [] };
    const removed = mergeKeys(next, keys as never);
    if (removed.length > 0) next.removedKeys = [...new Set([...(next.removedKeys ?? []), ...removed])].sort();
    if (!spec) {
      // A new connector goes after the others of its kind (the catalogue's order is the vendor's, then arrivals).
      catalogue[c.kind][c.code] = next;
      added.push(where);
    } else if (!same.includes(where)) updated.push(where);
    if (!sameCommit(recorded[where] ?? BASELINE_COMMIT, fileCommit)) recorded[where] = fileCommit;
  }

  // Connectors of a complete checkout's vendor that it no longer has.
  const missing: string[] = [];
  if (checkout.complete) {
    for (const kind of ["source", "destination", "transform"] as const) {
      for (const code of Object.keys(catalogue[kind])) {
        const where = `${kind}/${code}`;
        if (!seen.has(where) && checkout.standing(recorded[where] ?? BASELINE_COMMIT, `internal/generated/${kind}_${code}.go`) !== "kept") missing.push(where);
      }
    }
    for (const [code, spec] of Object.entries(api.source)) {
      if (!seen.has(`source/${code}`) && checkout.standing(spec.provenance.commit, spec.provenance.file) !== "kept") missing.push(`source/${code}`);
    }
  }

  // The SMT catalogue.
  const smtVendor = join(checkout.dir, SMT_FILE);
  if (existsSync(smtVendor)) {
    const current = readFileSync(smtPath, "utf8");
    const recordedSmt = String(readSmtData(current).about["commit"]);
    if (decide("smt", recordedSmt, SMT_FILE)) {
      const commit = sameCommit(recordedSmt, checkout.commitOf(SMT_FILE)) ? recordedSmt : checkout.commitOf(SMT_FILE);
      const next = smtDataText(current, readFileSync(smtVendor, "utf8"), commit);
      if (next !== current) writeFileSync(smtPath, next);
      if (!same.includes("smt")) updated.push("smt");
    }
  }

  // The release, and the CHANGELOG's sections since the one last synced (or the baseline's).
  const all = readChangelog(checkout);
  const release = checkout.tag ?? releaseLabel(all);
  const last = provenance.synced?.release ?? String(catalogue.about["release"] ?? "");
  const since = /after (\S+)/.exec(last)?.[1] ?? last.replace(/^v/, "").replace(/ .*$/, "");
  const stop = all.findIndex((r) => r.version === since);
  const releases = stop >= 0 ? all.slice(0, stop) : all.slice(0, 1);

  // The checkout last read, unless an earlier sync read a newer one.
  const synced = provenance.synced && checkout.standing(provenance.synced.commit, "") === "kept" ? provenance.synced : { commit: checkout.commit, ...(release ? { release } : {}) };
  const { synced: _old, connectors: _connectors, ...restProvenance } = provenance as Record<string, unknown>;
  // `what` and `baseline` first, as vendor-update.ts writes them; it rebuilds the rest in its order.
  catalogue.about = { ...catalogue.about, provenance: { ...restProvenance, synced, connectors: recorded } };
  const connectorsText = renderCatalogue(catalogue);
  if (connectorsText !== readFileSync(connectorsPath, "utf8")) writeFileSync(connectorsPath, connectorsText);
  const apiText = `${JSON.stringify(api, null, 2)}\n`;
  if (apiText !== readFileSync(apiPath, "utf8")) writeFileSync(apiPath, apiText);
  return { commit: checkout.commit, ...(release ? { release } : {}), updated, same, reread: [], kept, added, missing, releases };
}

/** The summary of a sync, in Markdown: the checkout, what was taken, kept and added, then the CHANGELOG's sections. */
export function renderSync(result: SyncResult, changes: string): string {
  const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.join(", "));
  const lines = [
    `### Vendor sync: ${result.release ?? "(no release found in CHANGELOG.md)"} at ${result.commit}`,
    "",
    `- updated from the checkout: ${list(result.updated)}`,
    `- already at the checkout's version: ${result.same.length}${result.reread.length > 0 ? `; of those, read again with other facts than the catalogue had: ${list(result.reread)}` : ""}`,
    `- kept (the catalogue's version is newer or not in the checkout's history): ${list(result.kept.map((k) => `${k.where} @ ${k.recorded}`))}`,
    `- added: ${list(result.added)}`,
    `- no longer in the vendor's provider (kept; see docs/vendor-sync.md): ${list(result.missing)}`,
    "",
    "#### Changes by key",
    "",
    changes.trimEnd(),
  ];
  if (result.releases.length > 0) {
    lines.push("", "#### The vendor's CHANGELOG since the last sync", "");
    for (const r of result.releases) {
      // Only the entries about connectors and transforms: the rest is the vendor's provider's own.
      const entries = r.body
        .split(/\n(?=- )/)
        .map((e) => e.split(/\n\s*\n|\n#/)[0]!)
        .filter((e) => e.startsWith("- ") && /streamkap_(source|destination|transform)_|connector|API[- ]source|SMT|transform/i.test(e));
      lines.push(`- ${r.version}${r.date ? ` (${r.date})` : ""}: ${entries.length} connector entr${entries.length === 1 ? "y" : "ies"}`);
      for (const e of entries) lines.push(`  - ${e.replace(/^- /, "").replace(/\s+/g, " ").trim().slice(0, 300)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
