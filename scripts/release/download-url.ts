import { must } from "../lib/process.js";
import { PLATFORMS, PLUGIN_NAME, pluginAsset } from "./platforms.js";

export interface EngineDownload {
  platform: string;
  source: string;
  requests: string[];
  asset: string;
}

/**
 * For each platform, what the engine's own plugin code (tools/pulumi-cdc-plugin-url, built against
 * sdk/v3 at the CLI's release by the toolchain) would fetch for `pulumiDownloadURL` and `version`,
 * given a release holding `assets`: the source's URL, each URL it asked for, and the asset it
 * took. No network call is made. Throws when the engine wants an asset that is not in `assets`.
 */
export async function engineDownloads(pluginDownloadURL: string, version: string, assets: readonly string[]): Promise<EngineDownload[]> {
  const tool = process.env.PULUMI_CDC_PLUGIN_URL;
  if (!tool) throw new Error("PULUMI_CDC_PLUGIN_URL is not set: source scripts/toolchain.sh and run cdc_ensure_codegen first");
  const out: EngineDownload[] = [];
  for (const platform of PLATFORMS) {
    const r = await must(tool, [pluginDownloadURL, PLUGIN_NAME, version, platform, ...assets], { timeoutMs: 30_000 });
    out.push({ platform, ...(JSON.parse(r.stdout) as Omit<EngineDownload, "platform">) });
  }
  return out;
}

/** What is wrong with the engine's answers (empty when nothing): each platform must get its own tarball, from the schema's source. */
export function downloadProblems(downloads: readonly EngineDownload[], pluginDownloadURL: string, version: string): string[] {
  const problems: string[] = [];
  for (const d of downloads) {
    if (d.source !== pluginDownloadURL) problems.push(`${d.platform}: the engine's source is ${d.source}, not ${pluginDownloadURL}`);
    const want = pluginAsset(version, d.platform as (typeof PLATFORMS)[number]);
    if (d.asset !== want) problems.push(`${d.platform}: the engine fetched ${d.asset || "nothing"}, not ${want}`);
  }
  return problems;
}
