import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runSync } from "../lib/process.js";

/**
 * A checkout of the vendor's provider as `npm run vendor-sync` reads it: which files it has, the
 * commit each comes from, and where the catalogue's own commits stand against it.
 *
 * A clone (a `.git` in it) gives one commit, HEAD, for every file, and its history says whether a
 * commit the catalogue records is older (an ancestor: the checkout's file may replace it) or not
 * (newer, or of another line: the catalogue keeps it, so a sync never moves a connector back).
 * A directory assembled from files of several commits (read one by one, without the history) says
 * where each comes from in `vendor-sync.json` at its root:
 *   { "commit": "<the commit of files it does not name>", "files": { "internal/generated/x.go": "<commit>" },
 *     "complete": false }
 * Its files are taken as they are, and with `"complete": false` (the default there) a connector it
 * lacks is one that was not read, not one the vendor dropped.
 */
export interface VendorCheckout {
  readonly dir: string;
  /** HEAD's full commit, or the manifest's. */
  readonly commit: string;
  /** HEAD's tag, when it has one (`v3.0.1`). */
  readonly tag?: string;
  /** Has every file of the vendor's tree: a connector it lacks was dropped. */
  readonly complete: boolean;
  /** A clone whose history can order commits. */
  readonly git: boolean;
  /** The commit of a file (a path inside the checkout). */
  commitOf(path: string): string;
  /** Whether the catalogue's `recorded` commit may be replaced by the file's: see `Standing`. */
  standing(recorded: string, path: string): Standing;
}

/**
 * `same`: the file is the version the catalogue has; `newer`: the file comes after it; `kept`: the
 * catalogue's is newer than the file or not in the checkout's history, so it stays.
 */
export type Standing = "same" | "newer" | "kept";

export const MANIFEST = "vendor-sync.json";

interface Manifest {
  commit?: string;
  files?: Record<string, string>;
  complete?: boolean;
}

/** Two spellings of one commit: a short and a full hash. */
export function sameCommit(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 7 && long.toLowerCase().startsWith(short.toLowerCase());
}

function git(dir: string, args: string[]): { code: number | null; out: string } {
  const r = runSync("git", ["-C", dir, ...args], { timeoutMs: 120_000 });
  return { code: r.code, out: r.stdout.trim() };
}

export function readCheckout(dir: string, commitOverride?: string): VendorCheckout {
  if (!existsSync(join(dir, "internal", "generated"))) {
    throw new Error(`${dir}: no internal/generated here; give a checkout of the vendor's provider (github.com/streamkap-com/terraform-provider-streamkap)`);
  }
  const manifestPath = join(dir, MANIFEST);
  const isGit = existsSync(join(dir, ".git")) && git(dir, ["rev-parse", "--is-inside-work-tree"]).out === "true";
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
    const commit = commitOverride ?? m.commit;
    if (!commit) throw new Error(`${manifestPath}: "commit" is missing: name the commit of the files it does not list`);
    const files = m.files ?? {};
    return {
      dir,
      commit,
      complete: m.complete ?? false,
      git: false,
      commitOf: (path) => files[path] ?? commit,
      standing: (recorded, path) => (sameCommit(recorded, files[path] ?? commit) ? "same" : "newer"),
    };
  }
  if (!isGit) {
    if (!commitOverride) throw new Error(`${dir} is neither a clone (no .git) nor an assembled checkout (no ${MANIFEST}): give --commit <sha> to say which commit its files are`);
    return { dir, commit: commitOverride, complete: true, git: false, commitOf: () => commitOverride, standing: (recorded) => (sameCommit(recorded, commitOverride) ? "same" : "newer") };
  }
  const head = git(dir, ["rev-parse", "HEAD"]).out;
  const tagged = git(dir, ["describe", "--tags", "--exact-match", "HEAD"]);
  const known = new Map<string, Standing>();
  const standing = (recorded: string): Standing => {
    if (sameCommit(recorded, head)) return "same";
    const cached = known.get(recorded);
    if (cached) return cached;
    // An ancestor of HEAD is older: HEAD's file replaces it. Anything else (newer, another line,
    // or unknown to this clone) is kept.
    const verdict: Standing = git(dir, ["merge-base", "--is-ancestor", recorded, "HEAD"]).code === 0 ? "newer" : "kept";
    known.set(recorded, verdict);
    return verdict;
  };
  return {
    dir,
    commit: head,
    ...(tagged.code === 0 && tagged.out ? { tag: tagged.out } : {}),
    complete: true,
    git: true,
    commitOf: () => head,
    standing: (recorded) => standing(recorded),
  };
}

/** The checkout's generated files of connectors and transforms: `internal/generated/<kind>_<code>.go`. */
export function generatedFiles(checkout: VendorCheckout): string[] {
  return readdirSync(join(checkout.dir, "internal", "generated"))
    .filter((f) => /^(source|destination|transform)_.+\.go$/.test(f) && !f.endsWith("_test.go"))
    .sort();
}

export interface VendorRelease {
  /** `3.0.0-beta.24` */
  readonly version: string;
  readonly date?: string;
  /** The section's text, heading excluded. */
  readonly body: string;
}

/** The CHANGELOG's sections, newest first; `Unreleased` included when it has entries. */
export function changelogReleases(text: string): VendorRelease[] {
  const out: VendorRelease[] = [];
  const heads = [...text.matchAll(/^## \[([^\]]+)\](?:\s*-\s*(\d{4}-\d{2}-\d{2}))?.*$/gm)];
  heads.forEach((h, i) => {
    const end = i + 1 < heads.length ? heads[i + 1]!.index : text.length;
    const body = text.slice(h.index + h[0].length, end).trim();
    if (h[1] === "Unreleased" && body === "") return;
    out.push({ version: h[1]!, ...(h[2] ? { date: h[2] } : {}), body });
  });
  return out;
}

/** `v3.0.0-beta.24 (2026-07-02)`, or `[Unreleased] after 3.0.1` where the CHANGELOG has unreleased entries. */
export function releaseLabel(releases: readonly VendorRelease[]): string | undefined {
  const released = releases.find((r) => r.version !== "Unreleased");
  if (!released) return undefined;
  const label = `v${released.version}${released.date ? ` (${released.date})` : ""}`;
  return releases[0]?.version === "Unreleased" ? `[Unreleased] after ${released.version}` : label;
}

export function readChangelog(checkout: VendorCheckout): VendorRelease[] {
  const path = join(checkout.dir, "CHANGELOG.md");
  return existsSync(path) ? changelogReleases(readFileSync(path, "utf8")) : [];
}
