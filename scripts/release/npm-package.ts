import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { must } from "../lib/process.js";

/** The files `npm pack` must ship: the built code, the CLIs, the plugin's launcher and schema, the catalogue, the docs and licence. */
export const NPM_REQUIRED = [
  "package.json",
  "README.md",
  "LICENSE",
  "CHANGELOG.md",
  "dist/sdk/index.js",
  "dist/sdk/index.d.ts",
  "dist/provider/index.js",
  "dist/emulator/index.js",
  "dist/emulator/cli.js",
  "dist/cli/index.js",
  "dist/plugin/main.js",
  "dist/catalogue/connectors.json",
  "bin/pulumi-resource-cdc",
  "bin/plugin-node-options",
  "generated/schema.json",
];

/**
 * What is wrong with the npm package's file list (empty when nothing): a required file missing,
 * a test or fixture, TypeScript sources (only declarations ship), or a file outside what the
 * package is (the generated SDKs, examples, scripts, the emulator's state, dependencies).
 * generated/README.md ships beside generated/schema.json (npm packs a folder's README with it),
 * saying the schema is generated.
 */
export function npmFileProblems(files: readonly string[]): string[] {
  const have = new Set(files);
  const problems = NPM_REQUIRED.filter((f) => !have.has(f)).map((f) => `${f} is missing`);
  for (const f of files) {
    if (/(^|\/)(test|tests|__tests__|fixtures?|__fixtures__)(\/|$)|\.(test|spec)\.[cm]?[jt]s$/.test(f)) problems.push(`${f} is a test or fixture`);
    else if (/\.[cm]?ts$/.test(f) && !/\.d\.[cm]?ts$/.test(f)) problems.push(`${f} is a TypeScript source`);
    else if (!/^(dist|bin)\//.test(f) && !["package.json", "README.md", "LICENSE", "CHANGELOG.md", "generated/schema.json", "generated/README.md"].includes(f)) problems.push(`${f} is outside the package`);
  }
  return problems;
}

/** `npm pack --dry-run`'s file list (no tarball written). */
export async function npmPackFiles(root: string): Promise<string[]> {
  const r = await must("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, timeoutMs: 120_000 });
  return (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path).sort();
}

/** `npm pack` into outDir; returns the tarball's path and its file list. */
export async function npmPack(root: string, outDir: string): Promise<{ file: string; files: string[] }> {
  mkdirSync(outDir, { recursive: true });
  const r = await must("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", outDir], { cwd: root, timeoutMs: 120_000 });
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { file: join(outDir, info!.filename), files: info!.files.map((f) => f.path).sort() };
}

/**
 * An empty project that depends on the tarball and on @pulumi/pulumi (the package's peer), with a
 * package-lock.json made from the repository's: the versions `npm ci` installed here, so npm
 * needs no registry metadata and takes every package from the local npm cache that `npm ci`
 * filled. The repository's development-only packages are in that lock too; npm leaves out what
 * nothing in the project requires.
 */
export function emptyProject(root: string, project: string, tarball: string, policyTarball?: string): void {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, Record<string, unknown>> };
  const peer = lock.packages["node_modules/@pulumi/pulumi"]?.version;
  if (typeof peer !== "string") throw new Error("package-lock.json has no node_modules/@pulumi/pulumi");
  // Each packed package of this repository: its name, the folder of its package.json, its tarball.
  const ours = [{ dir: root, tarball }, ...(policyTarball ? [{ dir: join(root, POLICY_DIR), tarball: policyTarball }] : [])].map((p) => ({
    ...p,
    pkg: JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8")) as Record<string, unknown> & { name: string },
    file: `file:${basename(p.tarball)}`,
  }));
  for (const p of ours) copyFileSync(p.tarball, join(project, basename(p.tarball)));
  const dependencies: Record<string, string> = { ...Object.fromEntries(ours.map((p) => [p.pkg.name, p.file])), "@pulumi/pulumi": peer };
  const manifest = { name: "release-install-check", version: "1.0.0", private: true, dependencies };
  writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const packages: Record<string, Record<string, unknown>> = { "": { name: manifest.name, version: manifest.version, dependencies } };
  const ourPaths = new Set(ours.map((p) => `node_modules/${p.pkg.name}`));
  for (const [path, entry] of Object.entries(lock.packages)) {
    // The policy folder is a workspace of the repository's lock in no way: its own entries are ours.
    if (path === "" || ourPaths.has(path) || path === POLICY_DIR || path.startsWith(`${POLICY_DIR}/`)) continue;
    // The flags say how the repository used a package; npm works them out again for this project.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...rest } = entry;
    packages[path] = rest;
  }
  for (const p of ours) {
    packages[`node_modules/${p.pkg.name}`] = {
      version: p.pkg.version,
      resolved: p.file,
      integrity: `sha512-${createHash("sha512").update(readFileSync(p.tarball)).digest("base64")}`,
      license: p.pkg.license,
      dependencies: p.pkg.dependencies,
      peerDependencies: p.pkg.peerDependencies,
      bin: p.pkg.bin,
      engines: p.pkg.engines,
    };
  }
  writeFileSync(join(project, "package-lock.json"), `${JSON.stringify({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

/** The policy pack's package folder (pulumi-cdc-policy), packed beside the root package. */
export const POLICY_DIR = "policy";

/** The files the policy pack's tarball must ship: the engine reads PulumiPolicy.yaml and runs package.json's main. */
export const POLICY_REQUIRED = ["package.json", "PulumiPolicy.yaml", "README.md", "dist/index.js", "dist/index.d.ts"];

/** What is wrong with the policy pack's file list (empty when nothing): as npmFileProblems, for policy/. */
export function policyFileProblems(files: readonly string[]): string[] {
  const have = new Set(files);
  const problems = POLICY_REQUIRED.filter((f) => !have.has(f)).map((f) => `${f} is missing`);
  for (const f of files) {
    if (/(^|\/)(test|tests|__tests__|fixtures?)(\/|$)|\.(test|spec)\.[cm]?[jt]s$/.test(f)) problems.push(`${f} is a test or fixture`);
    else if (/\.[cm]?ts$/.test(f) && !/\.d\.[cm]?ts$/.test(f)) problems.push(`${f} is a TypeScript source`);
    else if (!/^dist\//.test(f) && !["package.json", "PulumiPolicy.yaml", "README.md", "LICENSE"].includes(f)) problems.push(`${f} is outside the package`);
  }
  return problems;
}

/**
 * Both tarballs installed into a new empty project (emptyProject), offline; returns the project and
 * the installed pack's folder, the one `pulumi preview --policy-pack` names. The caller removes the project.
 */
export async function installPolicyPack(root: string, tarball: string, policyTarball: string): Promise<{ project: string; pack: string; lines: string[] }> {
  const project = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-policy-"));
  try {
    emptyProject(root, project, tarball, policyTarball);
    await must("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, timeoutMs: 300_000 });
    const pack = join(project, "node_modules", "pulumi-cdc-policy");
    for (const f of POLICY_REQUIRED) readFileSync(join(pack, f));
    // The pack reads the kinds and the catalogue through the installed pulumi-cdc, not a checkout.
    const probe = await must(process.execPath, ["-e", 'console.log(require.resolve("pulumi-cdc/policy-support", { paths: [process.argv[1]] }))', pack], { cwd: project, timeoutMs: 60_000 });
    if (!probe.stdout.startsWith(join(project, "node_modules", "pulumi-cdc"))) throw new Error(`the pack's pulumi-cdc/policy-support resolved to ${probe.stdout.trim()}, not the installed copy`);
    return { project, pack, lines: [`pulumi-cdc-policy installed offline beside pulumi-cdc into an empty project; its pulumi-cdc/policy-support is the installed copy`] };
  } catch (error) {
    rmSync(project, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The tarball installed into an empty project (emptyProject), offline, then its main entry
 * required (a few of the classes a program uses are there) and its CLI asked for its version.
 * Returns what it saw.
 */
export async function npmInstallCheck(root: string, tarball: string, version: string): Promise<string[]> {
  const project = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-npm-"));
  try {
    emptyProject(root, project, tarball);
    await must("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, timeoutMs: 300_000 });
    const probe = await must(
      process.execPath,
      ["-e", 'const m = require("pulumi-cdc"); const missing = ["Source", "Destination", "Tag", "ClientCredential", "Pipeline", "CATALOGUE"].filter((k) => m[k] === undefined); if (missing.length) { console.error("missing exports: " + missing); process.exit(1); } console.log(require.resolve("pulumi-cdc"))'],
      { cwd: project, timeoutMs: 60_000 },
    );
    if (!probe.stdout.startsWith(join(project, "node_modules"))) throw new Error(`pulumi-cdc resolved to ${probe.stdout.trim()}, not the installed copy`);
    const cli = await must(join(project, "node_modules", ".bin", "pulumi-cdc"), ["--version"], { cwd: project, timeoutMs: 60_000 });
    if (cli.stdout.trim() !== version) throw new Error(`the installed pulumi-cdc --version printed ${cli.stdout.trim()}, not ${version}`);
    const installed = readdirSync(join(project, "node_modules")).filter((d) => !d.startsWith("."));
    if (installed.includes("typescript") || installed.includes("vitest")) throw new Error("the repository's development packages were installed too");
    return [`installed offline (the local npm cache, the lockfile's versions) with ${installed.length} top-level packages`, "require(\"pulumi-cdc\") loads", `pulumi-cdc --version: ${version}`];
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
