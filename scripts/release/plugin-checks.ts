import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";
import { PLUGIN_EXECUTABLE, PLUGIN_NAME, isWindows, launcherName, type Platform } from "./platforms.js";

/** The entries of a tarball, without the leading "./" and directories' trailing "/". */
export async function tarEntries(file: string): Promise<string[]> {
  const r = await must("tar", ["-tzf", file], { timeoutMs: 60_000 });
  return r.stdout
    .split("\n")
    .map((e) => e.replace(/^\.\//, "").replace(/\/$/, ""))
    .filter((e) => e !== "" && e !== ".");
}

/** Paths that are tests or fixtures, in our code or a dependency's. */
const TEST_PATH = /(^|\/)(test|tests|__tests__|fixtures?|__fixtures__)(\/|$)|\.(test|spec)\.[cm]?[jt]s$/;

/**
 * What is wrong with a plugin tarball's entries for `platform` (empty when nothing): its launcher
 * and no other platform's, pulumi-plugin.json, package.json, LICENSE, the bundle and the schema
 * (scripts/bundle-plugin.mjs --stage), no node_modules (the bundle holds its dependencies), the
 * unbundled build (dist/plugin/main.js and the rest of tsc's output) nowhere, and no tests or fixtures.
 */
export function pluginEntryProblems(entries: readonly string[], platform: Platform): string[] {
  const have = new Set(entries);
  const problems: string[] = [];
  const required = [launcherName(platform), "pulumi-plugin.json", "package.json", "LICENSE", "dist/plugin/pulumi-resource-cdc.js", "generated/schema.json"];
  for (const file of required) if (!have.has(file)) problems.push(`${file} is missing`);
  const other = isWindows(platform) ? PLUGIN_EXECUTABLE : `${PLUGIN_EXECUTABLE}.cmd`;
  if (have.has(other)) problems.push(`${other} is another platform's launcher`);
  if (entries.some((e) => e === "node_modules" || e.startsWith("node_modules/"))) problems.push("node_modules is there (the bundle holds the dependencies)");
  const unbundled = entries.filter((e) => e.startsWith("dist/") && !["dist", "dist/plugin", "dist/plugin/pulumi-resource-cdc.js"].includes(e));
  if (unbundled.length > 0) problems.push(`not the bundle: ${unbundled.slice(0, 5).join(", ")}${unbundled.length > 5 ? ` and ${unbundled.length - 5} more` : ""}`);
  const tests = entries.filter((e) => TEST_PATH.test(e));
  if (tests.length > 0) problems.push(`tests or fixtures: ${tests.slice(0, 5).join(", ")}${tests.length > 5 ? ` and ${tests.length - 5} more` : ""}`);
  return problems;
}

/**
 * `pulumi plugin install resource cdc <version> --file <tarball>` into a fresh PULUMI_HOME (removed
 * afterwards unless `keep`), and the installed plugin's directory holds its launcher. Returns the
 * PULUMI_HOME.
 */
export async function installPlugin(file: string, version: string, platform: Platform, keep = false): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-home-"));
  try {
    await must("pulumi", ["plugin", "install", "resource", PLUGIN_NAME, version, "--file", file], {
      env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
      timeoutMs: 120_000,
    });
    const dir = join(home, "plugins", `resource-${PLUGIN_NAME}-v${version}`);
    if (!existsSync(join(dir, launcherName(platform)))) throw new Error(`pulumi plugin install put no ${launcherName(platform)} in ${dir}`);
    if (!existsSync(join(dir, "pulumi-plugin.json"))) throw new Error(`no pulumi-plugin.json in ${dir}`);
    return home;
  } finally {
    if (!keep) rmSync(home, { recursive: true, force: true });
  }
}
