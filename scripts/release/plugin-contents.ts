import { join } from "node:path";
import { must } from "../lib/process.js";
import { isWindows, type Platform } from "./platforms.js";

/**
 * What goes into the provider plugin for `platform`: what `node scripts/bundle-plugin.mjs --stage`
 * writes, the one list of the plugin's contents (the bundle dist/plugin/pulumi-resource-cdc.js,
 * generated/schema.json, a package.json naming the version, license and the Node.js it needs
 * (`engines`), LICENSE) and the platform's launcher from the same script (sh, or .cmd on Windows;
 * both run the bundle under bin/plugin-node-options' heap options). No node_modules: the bundle
 * holds its dependencies. pulumi-plugin.json is added by plugin-tarballs.ts.
 */
export async function stagePluginContents(root: string, stage: string, platform: Platform): Promise<void> {
  await must(process.execPath, [join(root, "scripts", "bundle-plugin.mjs"), "--stage", stage, "--launcher", isWindows(platform) ? "windows" : "posix"], {
    cwd: root,
    timeoutMs: 120_000,
  });
}
