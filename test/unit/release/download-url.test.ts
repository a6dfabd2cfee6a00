import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/generate/schema.js";
import { downloadProblems, engineDownloads } from "../../../scripts/release/download-url.js";
import { PLATFORMS, pluginAsset } from "../../../scripts/release/platforms.js";
import { downloadUrlCopies } from "../../../scripts/release/versions.js";
import { toolchainTool } from "../../support/process.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "generated", "schema.json"), "utf8")) as { version: string; pluginDownloadURL: string };

// Where `pulumi` fetches the plugin from when a program needs it: the schema's pluginDownloadURL,
// as the engine's own plugin code (sdk/v3 at the CLI's release, tools/pulumi-cdc-plugin-url)
// resolves it, with no network call: the tool answers the engine's HTTP requests itself.
describe("pluginDownloadURL", () => {
  beforeAll(async () => {
    process.env.PULUMI_CDC_PLUGIN_URL = await toolchainTool("PULUMI_CDC_PLUGIN_URL", "cdc_ensure_codegen");
  }, 1_200_000);

  it("is the project's GitHub release assets in the schema, and every generated SDK carries it", () => {
    expect(schema.pluginDownloadURL).toBe("github://api.github.com/pulumi-cdc/pulumi-cdc");
    expect(PLUGIN_DOWNLOAD_URL).toBe(schema.pluginDownloadURL);
    const copies = downloadUrlCopies(REPO_ROOT);
    expect(copies.length).toBe(5);
    expect(copies.filter((c) => c.version !== schema.pluginDownloadURL)).toEqual([]);
  });

  it("the engine asks the project's release of this version for each platform's own tarball, the names the release builds", async () => {
    const assets = PLATFORMS.map((p) => pluginAsset(schema.version, p));
    const downloads = await engineDownloads(schema.pluginDownloadURL, schema.version, assets);
    expect(downloadProblems(downloads, schema.pluginDownloadURL, schema.version)).toEqual([]);
    for (const d of downloads) {
      expect(d.requests[0]).toBe(`https://api.github.com/repos/pulumi-cdc/pulumi-cdc/releases/tags/v${schema.version}`);
      expect(d.asset).toBe(`pulumi-resource-cdc-v${schema.version}-${d.platform}.tar.gz`);
    }
  }, 60_000);

  it("a release without a platform's tarball fails that platform's download", async () => {
    const assets = PLATFORMS.filter((p) => p !== "darwin-arm64").map((p) => pluginAsset(schema.version, p));
    await expect(engineDownloads(schema.pluginDownloadURL, schema.version, assets)).rejects.toThrow(/plugin asset 'pulumi-resource-cdc-v[^']+-darwin-arm64\.tar\.gz' not found/);
  }, 60_000);
});
