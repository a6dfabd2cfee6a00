import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileConnector, parseVendorFile, vendorKeys, type VendorKey } from "./vendor-generated.js";
import { renderCatalogue } from "./vendor-keys.js";

/**
 * Brings connectors of catalogue/connectors.json to newer versions of the vendor's generated files
 * (vendor-generated.ts reads them), then applies the changes the vendor's CHANGELOG announces for
 * connectors whose newer file could not be found, and records in `about.provenance` which commit
 * each connector's facts come from. Run by `npm run generate` when PULUMI_CDC_VENDOR_GENERATED names
 * a directory of `<commit>/internal/generated/<kind>_<code>.go`; a rerun gives the same file.
 */

type Kind = "source" | "destination" | "transform";
type Key = Record<string, unknown> & { key: string; name: string; secret: boolean; addedFrom?: string };
interface Spec {
  displayName: string;
  terraformResource: string;
  removedKeys?: string[];
  keys: Key[];
}
type Catalogue = { about: Record<string, unknown> } & Record<Kind, Record<string, Spec>>;

/** The commit of the vendor's files the catalogue was first generated from (v3.0.0-beta.24). */
export const BASELINE_COMMIT = "9b9e30b";

/**
 * Group of a key the catalogue did not have: the same prefixes that group the keys it has
 * (test/unit/catalogue/vendor-update.test.ts checks that they give every grouped key its group).
 */
export const GROUP_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^transforms\.OversizedRecords\./, "oversized"],
  [/^transforms\.InsertStatic(Key|Value)\d+\./, "static"],
  [/^ssh\./, "ssh"],
  [/^heartbeat\./, "heartbeat"],
  [/^(transforms\.)?SourceRegexSupport\./, "regex"],
  [/^(streamkap\.snapshot|snapshot|incremental\.snapshot)\./, "snapshot"],
];

export function groupOf(key: string): string | undefined {
  return GROUP_RULES.find(([re]) => re.test(key))?.[1];
}

// Fields the vendor's file does not state: pulumi-cdc's own (ranges come back from ranges.ts).
export const KEPT: readonly string[] = ["computed", "encoding", "group"];

/**
 * The connector's keys as the vendor's newer file states them. Kept from the catalogue: what only
 * pulumi-cdc says of a key (computed, encoding, group) and a secret flag it set (a key the
 * catalogue treats as secret stays secret). Returns the keys the file no longer has.
 */
export function mergeKeys(spec: Pick<Spec, "keys">, vendor: readonly VendorKey[], ours: readonly string[] = KEPT): string[] {
  const before = new Map(spec.keys.map((k) => [k.key, k]));
  const keys: Key[] = vendor.map((v) => {
    const old = before.get(v.key);
    const next: Key = { ...(v as unknown as Key) };
    if (old?.secret) next.secret = true;
    for (const field of ours) if (old?.[field] !== undefined) next[field] = old[field];
    if (!old) {
      const group = groupOf(v.key);
      if (group) next.group = group;
    }
    return next;
  });
  const kept = new Set(keys.map((k) => k.key));
  const removed = spec.keys.map((k) => k.key).filter((k) => !kept.has(k));
  spec.keys = keys;
  return removed;
}

/** Each connector updated from a newer file: its commit and the keys it dropped. */
export function updateFromVendor(catalogue: Catalogue, dir: string): Array<{ kind: Kind; code: string; commit: string; removed: string[] }> {
  const done: Array<{ kind: Kind; code: string; commit: string; removed: string[] }> = [];
  for (const commit of readdirSync(dir).sort()) {
    const generated = join(dir, commit, "internal", "generated");
    if (!existsSync(generated)) continue;
    for (const file of readdirSync(generated).sort()) {
      const c = fileConnector(file);
      // Transforms are catalogued from their resource code (transforms.name and kc.cluster.id are not in their generated files).
      if (!c || c.kind === "transform") continue;
      const spec = catalogue[c.kind][c.code];
      if (!spec) throw new Error(`${file}: the catalogue has no ${c.kind} ${c.code}`);
      const removed = mergeKeys(spec, vendorKeys(parseVendorFile(readFileSync(join(generated, file), "utf8"))));
      if (removed.length > 0) spec.removedKeys = [...new Set([...(spec.removedKeys ?? []), ...removed])].sort();
      done.push({ kind: c.kind, code: c.code, commit, removed });
    }
  }
  return done;
}

interface Provenance {
  what: string;
  baseline: string;
  /** The checkout `npm run vendor-sync` last read (vendor-sync.ts). */
  synced?: { commit: string; release?: string };
  connectors: Record<string, string>;
  announced: Array<{ change: string; from: string; applied: string[] }>;
  overrides: Array<{ key: string; fact: string; why: string }>;
}

const MASK_PREFIX = "transforms.MaskField.";
const MASK_SALT = "transforms.MaskField.mask.salt";
const WEBHOOK_SOURCES = ["webhook", "shopify_webhook", "stripe_webhook", "salesforce_webhook", "zendesk_webhook"];

/**
 * The CHANGELOG's changes whose wire key is certain from the catalogue, applied to connectors the
 * newer files did not cover; and the overrides pulumi-cdc makes whatever the files say.
 */
export function applyAnnouncements(catalogue: Catalogue, commits: Record<string, string>): Provenance["announced"] {
  const announced: Provenance["announced"] = [];
  const stale = (kind: Kind, code: string) => (commits[`${kind}/${code}`] ?? BASELINE_COMMIT) === BASELINE_COMMIT;
  const record = (change: string, from: string, applied: string[]) => {
    if (applied.length > 0) announced.push({ change, from, applied: applied.sort() });
  };

  // beta.27: the MaskField SMT on every destination. Its keys as a newer destination file states them.
  const verified = Object.entries(catalogue.destination).find(([code, s]) => !stale("destination", code) && s.keys.some((k) => k.key.startsWith(MASK_PREFIX)));
  if (verified) {
    const maskKeys = verified[1].keys.filter((k) => k.key.startsWith(MASK_PREFIX));
    const applied: string[] = [];
    for (const [code, spec] of Object.entries(catalogue.destination)) {
      if (!stale("destination", code)) continue;
      const missing = maskKeys.filter((m) => !spec.keys.some((k) => k.key === m.key));
      if (missing.length === 0) continue;
      spec.keys.push(...missing.map((m) => ({ ...m })));
      applied.push(`destination/${code}`);
    }
    record(`the 7 ${MASK_PREFIX}* keys, as destination/${verified[0]}'s newer file states them`, "CHANGELOG v3.0.0-beta.27 (MaskField SMT on every destination)", applied);
  }

  const makeSecret = (change: string, from: string, targets: Array<[Kind, string, string]>) => {
    const applied: string[] = [];
    for (const [kind, code, key] of targets) {
      const k = catalogue[kind][code]?.keys.find((x) => x.key === key);
      if (!k || !stale(kind, code) || k.secret) continue;
      k.secret = true;
      applied.push(`${kind}/${code}`);
    }
    record(change, from, applied);
  };
  makeSecret("api.key is secret", "CHANGELOG v3.0.0-beta.25 (webhook sources' api_key sensitive)", WEBHOOK_SOURCES.map((code) => ["source", code, "api.key"]));
  makeSecret("http.headers.authorization is secret", "CHANGELOG v3.0.0-beta.25 (httpsink authorization header sensitive)", [["destination", "httpsink", "http.headers.authorization"]]);
  makeSecret("aws.access.key.id is secret", "CHANGELOG v3.0.0-beta.26 (r2 and starburst access key id sensitive)", [
    ["destination", "r2", "aws.access.key.id"],
    ["destination", "starburst", "aws.access.key.id"],
  ]);
  makeSecret("iceberg.catalog.s3.access-key-id is secret", "CHANGELOG v3.0.0-beta.28 (iceberg_catalog_s3_access_key_id sensitive)", [["destination", "iceberg", "iceberg.catalog.s3.access-key-id"]]);

  // beta.26: the platform computes the file name template; the provider no longer sends a default.
  const templates: string[] = [];
  for (const code of ["gcs", "r2", "azblob", "starburst"]) {
    const k = catalogue.destination[code]?.keys.find((x) => x.key === "file.name.template");
    if (!k || !stale("destination", code) || k.default === undefined) continue;
    delete k.default;
    templates.push(`destination/${code}`);
  }
  record("file.name.template has no default", "CHANGELOG v3.0.0-beta.26 (file_name_template default dropped on gcs, r2, azblob, starburst)", templates);

  // beta.25/26: SQL Server's snapshot keys the backend never had (catalogue additions or old aliases).
  const dropped: string[] = [];
  const sqlserver = catalogue.source["sqlserveraws"];
  if (sqlserver && stale("source", "sqlserveraws")) {
    for (const key of ["streamkap.snapshot.large.table.threshold", "streamkap.snapshot.custom.table.config.user.defined"]) {
      if (!sqlserver.keys.some((k) => k.key === key)) continue;
      sqlserver.keys = sqlserver.keys.filter((k) => k.key !== key);
      sqlserver.removedKeys = [...new Set([...(sqlserver.removedKeys ?? []), key])].sort();
      dropped.push(`source/sqlserveraws ${key}`);
    }
  }
  record("removed", "CHANGELOG v3.0.0-beta.25 (large-table threshold alias dropped) and beta.26 (snapshot_custom_table_config removed)", dropped);
  return announced;
}

/** The overrides pulumi-cdc makes whatever the vendor's files say. */
export function applyOverrides(catalogue: Catalogue): Provenance["overrides"] {
  for (const kind of ["source", "destination"] as const) {
    for (const spec of Object.values(catalogue[kind])) for (const k of spec.keys) if (k.key === MASK_SALT) k.secret = true;
  }
  return [
    {
      key: MASK_SALT,
      fact: "secret: true",
      why: "the vendor's generated schemas do not mark it Sensitive, but its SMT catalogue (internal/generated/smt_catalog.json @ ee89441) makes mask_salt writeOnly with a secret path: a salt in clear text would let anyone reverse low-cardinality masked values",
    },
  ];
}

/** Runs the three steps on catalogue/connectors.json; whether the file changed. */
export function updateCatalogue(root: string, dir: string | undefined): { written: boolean; updated: ReturnType<typeof updateFromVendor>; provenance: Provenance } {
  const path = join(root, "catalogue", "connectors.json");
  const text = readFileSync(path, "utf8");
  const catalogue = JSON.parse(text) as Catalogue;
  const previous = (catalogue.about["provenance"] as Provenance | undefined)?.connectors ?? {};
  const updated = dir ? updateFromVendor(catalogue, dir) : [];
  const connectors: Record<string, string> = {};
  for (const kind of ["source", "destination", "transform"] as const) {
    for (const code of Object.keys(catalogue[kind]).sort()) connectors[`${kind}/${code}`] = previous[`${kind}/${code}`] ?? BASELINE_COMMIT;
  }
  for (const u of updated) connectors[`${u.kind}/${u.code}`] = u.commit;
  const announced = applyAnnouncements(catalogue, connectors);
  const overrides = applyOverrides(catalogue);
  // A key a merge dropped that an announcement or an addition gave back is not removed.
  for (const kind of ["source", "destination", "transform"] as const) {
    for (const spec of Object.values(catalogue[kind])) {
      if (!spec.removedKeys) continue;
      spec.removedKeys = spec.removedKeys.filter((key) => !spec.keys.some((k) => k.key === key));
      if (spec.removedKeys.length === 0) delete spec.removedKeys;
    }
  }
  // Additions (vendor-keys.ts) a newer file or an announcement removed are no longer additions.
  const additions = catalogue.about["additions"] as { keys: Array<{ kind: Kind; code: string; key: string }> } | undefined;
  if (additions) additions.keys = additions.keys.filter((a) => catalogue[a.kind][a.code]?.keys.some((k) => k.key === a.key));
  // An announcement applied by an earlier run stays on record (a rerun finds nothing left to apply).
  const merged = [...((catalogue.about["provenance"] as Provenance | undefined)?.announced ?? [])].map((a) => ({ ...a }));
  for (const a of announced) {
    const same = merged.find((m) => m.change === a.change);
    if (same) same.applied = [...new Set([...same.applied, ...a.applied])].sort();
    else merged.push(a);
  }
  const synced = (catalogue.about["provenance"] as Provenance | undefined)?.synced;
  const provenance: Provenance = {
    what: "Which commit of the vendor's internal/generated/<kind>_<code>.go each connector's facts come from (the baseline where no newer version was found), the CHANGELOG's announced changes applied to connectors without a newer file (only those whose wire key is certain from this catalogue), and pulumi-cdc's overrides. Written by scripts/generate/vendor-update.ts; synced is the vendor checkout `npm run vendor-sync` last read (scripts/generate/vendor-sync.ts); each connector's removedKeys lists keys a newer version dropped.",
    baseline: BASELINE_COMMIT,
    ...(synced ? { synced } : {}),
    connectors,
    announced: merged,
    overrides,
  };
  catalogue.about = { ...catalogue.about, provenance };
  const next = renderCatalogue(catalogue);
  if (next === text) return { written: false, updated, provenance };
  writeFileSync(path, next);
  return { written: true, updated, provenance };
}
