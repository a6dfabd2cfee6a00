import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "./exec.js";

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
  "plugin/schema.json",
];

/**
 * What is wrong with the npm package's file list (empty when nothing): a required file missing,
 * a test or fixture, TypeScript sources (only declarations ship), or a file outside what the
 * package is (the generated SDKs, examples, scripts, the emulator's state, dependencies).
 */
export function npmFileProblems(files: readonly string[]): string[] {
  const have = new Set(files);
  const problems = NPM_REQUIRED.filter((f) => !have.has(f)).map((f) => `${f} is missing`);
  for (const f of files) {
    if (/(^|\/)(test|tests|__tests__|fixtures?|__fixtures__)(\/|$)|\.(test|spec)\.[cm]?[jt]s$/.test(f)) problems.push(`${f} is a test or fixture`);
    else if (/\.[cm]?ts$/.test(f) && !/\.d\.[cm]?ts$/.test(f)) problems.push(`${f} is a TypeScript source`);
    else if (!/^(dist|bin)\//.test(f) && !["package.json", "README.md", "LICENSE", "CHANGELOG.md", "plugin/schema.json"].includes(f)) problems.push(`${f} is outside the package`);
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
 * The tarball installed into an empty project, offline (its dependencies and the @pulumi/pulumi
 * peer from the local npm cache that `npm ci` filled), then its main entry required (a few of the
 * classes a program uses are there) and its CLI asked for its version. Returns what it saw.
 */
export async function npmInstallCheck(tarball: string, version: string): Promise<string[]> {
  const project = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-npm-"));
  try {
    writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "release-install-check", version: "1.0.0", private: true }, null, 2)}\n`);
    await must("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project, timeoutMs: 300_000 });
    const probe = await must(
      process.execPath,
      ["-e", 'const m = require("pulumi-cdc"); const missing = ["Source", "Destination", "Tag", "ClientCredential", "Pipeline", "CATALOGUE"].filter((k) => m[k] === undefined); if (missing.length) { console.error("missing exports: " + missing); process.exit(1); } console.log(require.resolve("pulumi-cdc"))'],
      { cwd: project, timeoutMs: 60_000 },
    );
    if (!probe.stdout.startsWith(join(project, "node_modules"))) throw new Error(`pulumi-cdc resolved to ${probe.stdout.trim()}, not the installed copy`);
    const cli = await must(join(project, "node_modules", ".bin", "pulumi-cdc"), ["--version"], { cwd: project, timeoutMs: 60_000 });
    if (cli.stdout.trim() !== version) throw new Error(`the installed pulumi-cdc --version printed ${cli.stdout.trim()}, not ${version}`);
    const installed = readdirSync(join(project, "node_modules")).filter((d) => !d.startsWith("."));
    return [`installed offline with ${installed.length} top-level packages`, "require(\"pulumi-cdc\") loads", `pulumi-cdc --version: ${version}`];
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
