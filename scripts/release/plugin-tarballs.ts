import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";
import { PLATFORMS, PLUGIN_NAME, pluginAsset, type Platform } from "./platforms.js";
import { stagePluginContents } from "./plugin-contents.js";

export interface PluginTarball {
  platform: Platform;
  file: string;
}

/** The oldest Node.js the plugin runs on, from package.json's engines (">=22.19.0"). */
export function minNode(root: string): string {
  const engines = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines?: { node?: string } }).engines?.node ?? "";
  const m = /^>=\s*(\d+\.\d+\.\d+)$/.exec(engines.trim());
  if (!m) throw new Error(`package.json's engines.node is ${JSON.stringify(engines)}, not ">=X.Y.Z"`);
  return m[1]!;
}

/**
 * One tarball per platform into outDir: the contents and the platform's launcher (plugin-contents.ts,
 * by scripts/bundle-plugin.mjs --stage) and pulumi-plugin.json. `platforms` defaults to all of them.
 */
export async function buildPluginTarballs(root: string, outDir: string, version: string, downloadUrl: string, platforms: readonly Platform[] = PLATFORMS): Promise<PluginTarball[]> {
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-plugin-"));
  try {
    mkdirSync(outDir, { recursive: true });
    const out: PluginTarball[] = [];
    for (const platform of platforms) {
      const stage = join(work, platform);
      await stagePluginContents(root, stage, platform);
      writeFileSync(join(stage, "pulumi-plugin.json"), `${JSON.stringify({ resource: true, name: PLUGIN_NAME, version, server: downloadUrl }, null, 2)}\n`);
      const file = join(outDir, pluginAsset(version, platform));
      rmSync(file, { force: true });
      // Owner and times fixed, so the same inputs give the same bytes.
      await must("tar", ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=2000-01-01 00:00Z", "-czf", file, "-C", stage, "."], { timeoutMs: 120_000 });
      out.push({ platform, file });
    }
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
