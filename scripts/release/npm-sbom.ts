import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";
import { POLICY_DIR } from "./npm-package.js";
import { PLUGIN_EXECUTABLE } from "./platforms.js";
import { narrowBom, writeBom, type Bom } from "./sbom.js";

// The SBOMs of what npm builds: `npm sbom`, CycloneDX. npm names the root component after the
// folder it runs in, not after package.json (a checkout in wt-release/ made a "wt-release"), so
// each runs in a temporary folder named for its package.

/** Peer dependencies (@pulumi/pulumi) are the program's own install, and development ones are not shipped. */
const OMIT = ["--omit", "dev", "--omit", "peer"];

function manifest(dir: string): { name: string; version: string } {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string };
}

async function npmSbom(dir: string, args: readonly string[]): Promise<Bom> {
  const r = await must("npm", ["sbom", "--sbom-format", "cyclonedx", ...args], { cwd: dir, timeoutMs: 120_000 });
  return JSON.parse(r.stdout) as Bom;
}

/** A temporary folder named for the package of `from`, holding its package.json; the caller removes `work`. */
function namedFolder(from: string): { work: string; dir: string; name: string; version: string } {
  const { name, version } = manifest(from);
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-sbom-"));
  const dir = join(work, name);
  mkdirSync(dir);
  copyFileSync(join(from, "package.json"), join(dir, "package.json"));
  return { work, dir, name, version };
}

/** `npm sbom` of the repository's own package from its package-lock.json: the versions `npm ci` installs, with no install. */
async function rootLockSbom(root: string, args: readonly string[]): Promise<Bom> {
  const f = namedFolder(root);
  try {
    copyFileSync(join(root, "package-lock.json"), join(f.dir, "package-lock.json"));
    return await npmSbom(f.dir, ["--package-lock-only", ...args]);
  } finally {
    rmSync(f.work, { recursive: true, force: true });
  }
}

/** pulumi-cdc's SBOM, named as its tarball is (pulumi-cdc-<version>.cdx.json); returns the file. */
export async function packageSbom(root: string, sbomDir: string): Promise<string> {
  const { name, version } = manifest(root);
  const file = join(sbomDir, `${name}-${version}.cdx.json`);
  writeBom(file, await rootLockSbom(root, OMIT));
  return file;
}

/**
 * The policy pack's SBOM, from the tree npm installed for it in `project` (installPolicyPack's): the
 * pack has no lock file of its own, and depends on this release's pulumi-cdc, which only its
 * tarball holds. Takes the project's node_modules; the caller removes the project.
 */
export async function policySbom(root: string, project: string, sbomDir: string): Promise<string> {
  const f = namedFolder(join(root, POLICY_DIR));
  try {
    const modules = join(f.dir, "node_modules");
    renameSync(join(project, "node_modules"), modules);
    // The pack itself is the root here, not one of its dependencies; and npm's record of the
    // project's tree would bring it back, so npm reads the folders instead.
    rmSync(join(modules, f.name), { recursive: true, force: true });
    rmSync(join(modules, ".package-lock.json"), { force: true });
    const file = join(sbomDir, `${f.name}-${f.version}.cdx.json`);
    writeBom(file, await npmSbom(f.dir, OMIT));
    return file;
  } finally {
    rmSync(f.work, { recursive: true, force: true });
  }
}

/**
 * The package folders (node_modules/<name>, node_modules/@scope/name, nested ones whole) that
 * esbuild's inputs come from; the repository's own sources are not among them.
 */
export function bundledPackageDirs(inputs: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replaceAll("\\", "/"));
    if (m) dirs.add(m[1]!);
  }
  return [...dirs].sort();
}

/**
 * The plugin's SBOM (one for every platform's tarball: they hold the same bundle); returns the file. The bundle is
 * pulumi-cdc's code with the packages it runs inlined, some of them the Pulumi SDK's (gRPC, the
 * protocol definitions), which pulumi-cdc's own SBOM leaves to the program. So: `npm sbom` of the
 * repository's whole tree, narrowed to the packages esbuild's record of the bundle names.
 */
export async function pluginSbom(root: string, sbomDir: string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-plugin-sbom-"));
  try {
    const metafile = join(work, "meta.json");
    await must(process.execPath, [join(root, "scripts", "bundle-plugin.mjs"), "--stage", join(work, "stage"), "--launcher", "none", "--metafile", metafile], { cwd: root, timeoutMs: 120_000 });
    const inputs = Object.keys((JSON.parse(readFileSync(metafile, "utf8")) as { inputs: Record<string, unknown> }).inputs);
    const refs = new Set(bundledPackageDirs(inputs).map((dir) => {
      const p = manifest(join(root, dir));
      return `${p.name}@${p.version}`;
    }));
    const narrowed = narrowBom(await rootLockSbom(root, []), refs);
    const listed = new Set((narrowed.components ?? []).map((c) => c["bom-ref"]));
    const missing = [...refs].filter((r) => !listed.has(r));
    if (missing.length) throw new Error(`the plugin's bundle holds ${missing.join(", ")}, which npm sbom of the repository does not list`);
    const file = join(sbomDir, `${PLUGIN_EXECUTABLE}-v${manifest(root).version}.cdx.json`);
    writeBom(file, narrowed);
    return file;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
