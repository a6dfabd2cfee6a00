import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/generate/schema.js";
import { installPlugin, pluginEntryProblems, tarEntries } from "../../../scripts/release/plugin-checks.js";
import { buildPluginTarballs, minNode, type PluginTarball } from "../../../scripts/release/plugin-tarballs.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");
const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

// Two of the release's plugin tarballs, built as `npm run release -- --dry-run` builds all five
// (scripts/release/plugin-tarballs.ts, from the build npm test made): their contents, the install
// with `pulumi plugin install --file`, the launcher's line when there is no Node.js. That the
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

  it("each carries its launcher, pulumi-plugin.json, the code and its dependencies, and no tests or fixtures", async () => {
    for (const t of tarballs) expect(pluginEntryProblems(await tarEntries(t.file), t.platform), t.platform).toEqual([]);
    // The check itself: another platform's launcher, a missing file and a test are named.
    const linux = await tarEntries(tarballs[0]!.file);
    expect(pluginEntryProblems([...linux.filter((e) => e !== "pulumi-plugin.json"), "pulumi-resource-cdc.cmd", "node_modules/zod/tests/a.test.js"], "linux-amd64")).toEqual([
      "pulumi-plugin.json is missing",
      "pulumi-resource-cdc.cmd is another platform's launcher",
      "tests or fixtures: node_modules/zod/tests/a.test.js",
    ]);
  });

  it("name the version and the Node.js they need (package.json's engines, pulumi-plugin.json, the launchers)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-tarball-x-"));
    try {
      for (const t of tarballs) {
        await new Promise<void>((resolve, reject) => execFile("tar", ["-xzf", t.file, "-C", dir], (e) => (e ? reject(e) : resolve())));
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string; engines: { node: string } };
        expect(pkg.version).toBe(version);
        expect(pkg.engines.node).toBe(`>=${minNode(REPO_ROOT)}`);
        expect(JSON.parse(readFileSync(join(dir, "pulumi-plugin.json"), "utf8"))).toEqual({ resource: true, name: "cdc", version, server: PLUGIN_DOWNLOAD_URL });
      }
      expect(readFileSync(join(dir, "pulumi-resource-cdc.cmd"), "utf8")).toContain(`needs Node.js ^>= ${minNode(REPO_ROOT)}`);
      expect(readFileSync(join(dir, "pulumi-resource-cdc.cmd"), "utf8")).toContain('node "%~dp0dist\\plugin\\main.js" %*');
      // The POSIX launcher without a node on PATH: one line naming the version, exit 1.
      const r = await new Promise<{ code: number; err: string }>((resolve) =>
        execFile("/bin/sh", [join(dir, "pulumi-resource-cdc")], { env: { PATH: "/nonexistent" } }, (e, _o, stderr) => resolve({ code: e ? Number(e.code) : 0, err: stderr })),
      );
      expect(r.code).toBe(1);
      expect(r.err).toBe(`pulumi-resource-cdc needs Node.js >= ${minNode(REPO_ROOT)} on PATH, and there is no node: install Node.js ${minNode(REPO_ROOT)} or newer\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("each installs with pulumi plugin install resource cdc <version> --file, into an empty PULUMI_HOME", async () => {
    for (const t of tarballs) await installPlugin(t.file, version, t.platform);
  });
});
