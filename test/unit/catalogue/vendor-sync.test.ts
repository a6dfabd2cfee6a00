import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffCatalogue, renderChanges, type CatalogueFiles } from "../../../scripts/generate/catalogue-diff.js";
import { addRanges } from "../../../scripts/generate/ranges.js";
import { parseApiContract } from "../../../scripts/generate/vendor-api-sources.js";
import { changelogReleases, readCheckout, releaseLabel } from "../../../scripts/generate/vendor-checkout.js";
import { renderSync, syncCatalogue, type SyncResult } from "../../../scripts/generate/vendor-sync.js";
import { updateCatalogue } from "../../../scripts/generate/vendor-update.js";
import { runOkSync } from "../../support/process.js";

// npm run vendor-sync's catalogue steps (scripts/generate/sync-catalogue.ts, less its `npm run
// generate`) on a catalogue of its own, against a git repository of the vendor-shaped fixtures
// (fixtures/vendor-sync/README.md): v1, then v2, then v2 again, then v1 again.

const FIXTURES = join(__dirname, "fixtures", "vendor-sync");
const SMT_HEAD = "/** smt-data.ts of a test. */\nexport const SMT_CATALOGUE = ";

let root: string;
let repo: string;
const commits: string[] = [];

const git = (...args: string[]) => runOkSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args]).stdout.trim();
const files = (): CatalogueFiles => ({
  connectors: readFileSync(join(root, "catalogue", "connectors.json"), "utf8"),
  apiSources: readFileSync(join(root, "catalogue", "api-sources.json"), "utf8"),
  smt: readFileSync(join(root, "catalogue", "smt-data.ts"), "utf8"),
});
const catalogue = () => JSON.parse(files().connectors) as Record<string, Record<string, { keys: Array<Record<string, unknown>>; removedKeys?: string[]; displayName?: string }>> & { about: { provenance: { connectors: Record<string, string>; synced: { commit: string; release?: string } } } };
const apiSources = () => JSON.parse(files().apiSources) as { source: Record<string, { keys: Array<Record<string, unknown>>; provenance: { commit: string }; dependencies: unknown[]; oauth: unknown }> };

/** What sync-catalogue.ts runs before `npm run generate`, at a commit of the fixture repository. */
function sync(commit: string): { result: SyncResult; report: string; changed: boolean } {
  git("checkout", "-q", commit);
  const before = files();
  const result = syncCatalogue(root, readCheckout(repo));
  updateCatalogue(root, undefined);
  addRanges(root);
  const after = files();
  const changed = JSON.stringify(before) !== JSON.stringify(after);
  return { result, report: renderSync(result, renderChanges(diffCatalogue(before, after))), changed };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "pulumi-cdc-vendor-sync-root-"));
  repo = mkdtempSync(join(tmpdir(), "pulumi-cdc-vendor-sync-repo-"));
  git("init", "-q");
  for (const v of ["v1", "v2"]) {
    rmSync(join(repo, "internal"), { recursive: true, force: true });
    cpSync(join(FIXTURES, v), repo, { recursive: true });
    git("add", "-A");
    git("commit", "-q", "-m", v);
    commits.push(git("rev-parse", "HEAD"));
  }
  mkdirSync(join(root, "catalogue"));
  writeFileSync(join(root, "catalogue", "connectors.json"), `${JSON.stringify({ about: { release: "v0.9.0" }, source: {}, destination: {}, transform: {} })}\n`);
  writeFileSync(join(root, "catalogue", "api-sources.json"), `${JSON.stringify({ about: {}, source: {} }, null, 2)}\n`);
  // The SMT catalogue as last taken at v1's commit (v1 has none of its own).
  const smt = { about: { what: "ours", commit: commits[0], contract_version: 1, digest: "sha256:fixture1", left_out: "ours too" }, types: [] };
  writeFileSync(join(root, "catalogue", "smt-data.ts"), `${SMT_HEAD}${JSON.stringify(smt, null, 2)} as const;\n`);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

describe("npm run vendor-sync against a vendor repository", () => {
  it("at v1 adds every connector, transform and API source, with the release of its CHANGELOG", () => {
    const { result, report } = sync(commits[0]!);
    expect(result.added.sort()).toEqual(["source/crm", "source/shop", "transform/router"]);
    expect(result.release).toBe("v1.0.0 (2026-01-01)");
    const c = catalogue();
    expect(c["source"]!["shop"]!.displayName).toBe("Shop DB");
    expect(c["transform"]!["router"]!.keys.map((k) => k["key"])).toEqual(["transforms.name", "transforms.input.topic.pattern", "kc.cluster.id"]);
    expect(c.about.provenance.connectors["source/shop"]).toBe(commits[0]);
    expect(c.about.provenance.synced).toEqual({ commit: commits[0], release: "v1.0.0 (2026-01-01)" });
    expect(report).toMatch(/#### Connector added\n\n- source\/crm: CRM \(4 keys\)\n- source\/shop: Shop DB \(7 keys\)/);
  });

  it("at v2 reports each change, keeps pulumi-cdc's fields of a key, and lists the keys the vendor dropped", () => {
    // pulumi-cdc's own fields, as a maintainer or an earlier step wrote them.
    const c = catalogue();
    c["source"]!["shop"]!.keys.find((k) => k["key"] === "database.hostname.user.defined")!["computed"] = true;
    writeFileSync(join(root, "catalogue", "connectors.json"), `${JSON.stringify(c)}\n`);
    const a = apiSources();
    a.source["crm"]!.keys.find((k) => k["key"] === "backfill_start")!["normalize"] = "date-at-midnight-utc";
    a.source["crm"]!.keys.find((k) => k["key"] === "oauth_grant_id")!["writeOnly"] = true;
    writeFileSync(join(root, "catalogue", "api-sources.json"), `${JSON.stringify(a, null, 2)}\n`);

    const { result, report } = sync(commits[1]!);
    expect(result.updated.sort()).toEqual(["smt", "source/crm", "source/shop", "transform/router"]);
    expect(result.added).toEqual(["destination/lake"]);
    expect(result.releases.map((r) => r.version)).toEqual(["1.1.0"]);
    for (const line of [
      "- destination/lake: Lake (2 keys)",
      "- source/crm: `api_version` (`apiVersion`, string, optional)",
      "- source/shop: `heartbeat.enabled` (`heartbeatEnabled`, boolean, optional, default false)",
      "- source/shop: `table.prefix` (`tablePrefix`); listed in removedKeys, so a stack that holds it sees no diff — **upgrade test**",
      "- source/shop: `ssh.host` → `ssh.hostname` (property `sshHost`) — **upgrade test**",
      "- source/shop: `api.token`: now secret — **upgrade test**",
      "- source/shop: `database.port.user.defined`: default 5432 → 3306 — **upgrade test**",
      "- source/shop: `snapshot.mode`: allowed values initial, never → initial, never, when_needed",
      '- source/crm: dependencies: [] → [{"field":"api_version","requires":["token"]}] — **upgrade test**',
      "- smt/drop_fields: Drop fields (1 keys)",
      "  - **`streamkap_source_shop`**: `api_token` is sensitive; `database_port` defaults to `3306`.",
    ]) {
      expect(report).toContain(line);
    }
    expect(report).not.toContain("Faster plans");

    const shop = catalogue()["source"]!["shop"]!;
    const key = (k: string) => shop.keys.find((x) => x["key"] === k);
    expect(key("database.hostname.user.defined")).toMatchObject({ required: true, computed: true });
    expect(key("database.port.user.defined")).toMatchObject({ default: 3306, min: 1, max: 65535, rangeSource: "pulumi-cdc" });
    expect(key("heartbeat.enabled")).toMatchObject({ group: "heartbeat" });
    expect(key("ssh.hostname")).toMatchObject({ group: "ssh" });
    expect(shop.removedKeys).toEqual(["ssh.host", "table.prefix"]);
    expect(catalogue()["destination"]!["lake"]!.keys.find((k) => k["key"] === "ingestion.mode")).toMatchObject({ replaceOnChange: true });

    const crm = apiSources().source["crm"]!;
    expect(crm.provenance.commit).toBe(commits[1]);
    expect(crm.keys.find((k) => k["key"] === "backfill_start")).toMatchObject({ normalize: "date-at-midnight-utc" });
    expect(crm.keys.find((k) => k["key"] === "oauth_grant_id")).toMatchObject({ secret: true, writeOnly: true });
    expect(crm.oauth).toEqual({ modeKey: "auth_mode", modeValue: "oauth", modeDefault: "token", connect: "streamkap sources start-source-oauth-connect crm" });

    const smt = files().smt;
    expect(smt.startsWith(SMT_HEAD)).toBe(true);
    expect(smt).not.toMatch(/ui_schema|examples|categories|publishable|Prose about/);
    expect(smt).toContain('"what": "ours"');
    expect(smt).toContain(`"commit": "${commits[1]}"`);
    expect(smt).toContain('"digest": "sha256:fixture2"');
  });

  it("at v2 again changes nothing", () => {
    const { result, changed, report } = sync(commits[1]!);
    expect(changed).toBe(false);
    expect(result.updated).toEqual([]);
    expect(result.same.length).toBe(5);
    expect(report).toContain("No key of the catalogue changed.");
  });

  it("at v1 again keeps every newer version: the catalogue never moves back", () => {
    const { result, changed } = sync(commits[0]!);
    expect(changed).toBe(false);
    expect(result.kept.map((k) => k.where).sort()).toEqual(["source/crm", "source/shop", "transform/router"]);
    expect(result.missing).toEqual([]);
  });
});

describe("the pieces", () => {
  it("reads an API source's contract: conditions, dependencies and the Connect flow", () => {
    const text = readFileSync(join(FIXTURES, "v2", "internal", "generated", "source_crm.go"), "utf8");
    expect(parseApiContract(text)).toEqual({
      code: "crm",
      displayName: "CRM",
      conditions: [{ field: "token", when: { key: "auth_mode", values: ["token"], default: "token" }, required: true }],
      dependencies: [{ field: "api_version", requires: ["token"] }],
      oauth: { modeKey: "auth_mode", modeValue: "oauth", modeDefault: "token", connect: "streamkap sources start-source-oauth-connect crm" },
    });
  });

  it("names the release from the CHANGELOG: the newest released, or unreleased entries after it", () => {
    expect(releaseLabel(changelogReleases("## [Unreleased]\n\n## [3.0.0-beta.24] - 2026-07-02 (Pre-release)\n\n- x\n"))).toBe("v3.0.0-beta.24 (2026-07-02)");
    expect(releaseLabel(changelogReleases("## [Unreleased]\n\n### Added\n- y\n\n## [3.0.1] - 2026-09-23\n\n- x\n"))).toBe("[Unreleased] after 3.0.1");
  });

  it("marks a key newly required, a narrower range and fewer allowed values as needing an upgrade test, and their opposites not", () => {
    const smt = `${SMT_HEAD}${JSON.stringify({ about: {}, types: [] })} as const;\n`;
    const at = (keys: object[]): CatalogueFiles => ({ connectors: JSON.stringify({ about: {}, source: { s: { displayName: "S", keys } }, destination: {}, transform: {} }), apiSources: JSON.stringify({ source: {} }), smt });
    const base = { key: "k", name: "k", type: "integer", required: false, secret: false };
    const changes = (from: object, to: object) => diffCatalogue(at([{ ...base, ...from }]), at([{ ...base, ...to }])).map((c) => [c.category, c.upgrade]);
    expect(changes({}, { required: true })).toEqual([["required changed", true]]);
    expect(changes({ required: true }, {})).toEqual([["required changed", false]]);
    expect(changes({ min: 1, max: 10 }, { min: 1, max: 5 })).toEqual([["range changed", true]]);
    expect(changes({ min: 1, max: 5 }, { min: 1, max: 10 })).toEqual([["range changed", false]]);
    expect(changes({ enum: ["a", "b"] }, { enum: ["a"] })).toEqual([["allowed values changed", true]]);
    expect(changes({ group: "ssh", rangeWhy: "x" }, { group: "other" })).toEqual([]);
  });
});
