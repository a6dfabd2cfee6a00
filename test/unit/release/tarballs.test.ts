import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/generate/schema.js";
import { installPlugin, pluginEntryProblems, tarEntries } from "../../../scripts/release/plugin-checks.js";
import { buildPluginTarballs, minNode, type PluginTarball } from "../../../scripts/release/plugin-tarballs.js";
import { run, runOk } from "../../support/process.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");
const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The heap options the launchers must pass (bin/plugin-node-options; docs/benchmarks.md measured these). */
const HEAP_OPTIONS = ["--max-semi-space-size=1", "--heap-growing-percent=30"];

// Two of the release's plugin tarballs, built as `npm run release -- --dry-run` builds all five
// (scripts/release/plugin-tarballs.ts, through scripts/bundle-plugin.mjs --stage): their contents
// (the bundle, no node_modules), the install with `pulumi plugin install --file`, the launchers'
// heap options and their line when there is no Node.js. That the
// linux tarball runs the YAML quickstart from the plugin cache is the dry run's check and
// test/e2e/plugin-install.test.ts's.
describe("the plugin tarballs", { timeout: 600_000 }, () => {
  let out: string;
  let tarballs: PluginTarball[];
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "pulumi-cdc-tarballs-"));
    tarballs = await buildPluginTarballs(REPO_ROOT, out, version, PLUGIN_DOWNLOAD_URL, ["linux-amd64", "windows-amd64"]);
  }, 600_000);
  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("are named as the engine asks a release for them", () => {
    expect(tarballs.map((t) => t.file.slice(out.length + 1))).toEqual([`pulumi-resource-cdc-v${version}-linux-amd64.tar.gz`, `pulumi-resource-cdc-v${version}-windows-amd64.tar.gz`]);
  });

  it("each carries its launcher, pulumi-plugin.json, the bundle, the schema, package.json and LICENSE, and nothing else", async () => {
    for (const t of tarballs) expect(pluginEntryProblems(await tarEntries(t.file), t.platform), t.platform).toEqual([]);
    const common = ["LICENSE", "dist", "dist/plugin", "dist/plugin/pulumi-resource-cdc.js", "generated", "generated/schema.json", "package.json", "pulumi-plugin.json"];
    expect((await tarEntries(tarballs[0]!.file)).sort()).toEqual([...common, "pulumi-resource-cdc"].sort());
    expect((await tarEntries(tarballs[1]!.file)).sort()).toEqual([...common, "pulumi-resource-cdc.cmd"].sort());
    // The check itself: a missing file, another platform's launcher, node_modules, the unbundled
    // build and a test are named.
    const linux = await tarEntries(tarballs[0]!.file);
    expect(
      pluginEntryProblems(
        [
          ...linux.filter((e) => e !== "pulumi-plugin.json" && e !== "dist/plugin/pulumi-resource-cdc.js"),
          "pulumi-resource-cdc.cmd",
          "node_modules",
          "node_modules/zod/package.json",
          "dist/plugin/main.js",
          "plugin/a.test.js",
        ],
        "linux-amd64",
      ),
    ).toEqual([
      "pulumi-plugin.json is missing",
      "dist/plugin/pulumi-resource-cdc.js is missing",
      "pulumi-resource-cdc.cmd is another platform's launcher",
      "node_modules is there (the bundle holds the dependencies)",
      "not the bundle: dist/plugin/main.js",
      "tests or fixtures: plugin/a.test.js",
    ]);
  });

  it("name the version and the Node.js they need (package.json's engines, pulumi-plugin.json, the launchers)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-tarball-x-"));
    try {
      for (const t of tarballs) {
        await runOk("tar", ["-xzf", t.file, "-C", dir]);
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
        expect(pkg).toMatchObject({ name: "pulumi-resource-cdc", version, license: "Apache-2.0", engines: { node: `>=${minNode(REPO_ROOT)}` } });
        expect(pkg.dependencies).toBeUndefined();
        expect(JSON.parse(readFileSync(join(dir, "pulumi-plugin.json"), "utf8"))).toEqual({ resource: true, name: "cdc", version, server: PLUGIN_DOWNLOAD_URL });
      }
      expect(readFileSync(join(dir, "pulumi-resource-cdc.cmd"), "utf8")).toContain(`needs Node.js ^>= ${minNode(REPO_ROOT)}`);
      expect(readFileSync(join(dir, "pulumi-resource-cdc.cmd"), "utf8")).toContain(`\r\nnode ${HEAP_OPTIONS.join(" ")} "%~dp0dist\\plugin\\pulumi-resource-cdc.js" %*\r\n`);
      // The POSIX launcher with a node on PATH (one that prints its malloc setting and arguments): the heap options, then the bundle beside it.
      const fakeBin = join(dir, "fake-bin");
      mkdirSync(fakeBin);
      writeFileSync(join(fakeBin, "node"), '#!/bin/sh\necho "MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX-unset}"\nfor a in "$@"; do echo "$a"; done\n');
      chmodSync(join(fakeBin, "node"), 0o755);
      const ran = (await runOk(join(dir, "pulumi-resource-cdc"), ["x"], { env: { PATH: `${fakeBin}:/usr/bin:/bin` } })).stdout;
      expect(ran.trim().split("\n")).toEqual(["MALLOC_ARENA_MAX=2", ...HEAP_OPTIONS, `${dir}/dist/plugin/pulumi-resource-cdc.js`, "x"]);
      // The POSIX launcher without a node on PATH: one line naming the version, exit 1.
      const r = await run("/bin/sh", [join(dir, "pulumi-resource-cdc")], { env: { PATH: "/nonexistent" } });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`pulumi-resource-cdc needs Node.js >= ${minNode(REPO_ROOT)} on PATH, and there is no node: install Node.js ${minNode(REPO_ROOT)} or newer\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("each installs with pulumi plugin install resource cdc <version> --file, into an empty PULUMI_HOME", async () => {
    for (const t of tarballs) await installPlugin(t.file, version, t.platform);
  });
});
