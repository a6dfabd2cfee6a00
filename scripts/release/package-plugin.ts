import { readFileSync } from "node:fs";
import { arch } from "node:os";
import { join, relative } from "node:path";
import { PLATFORMS, type Platform } from "./platforms.js";
import { buildPluginTarballs } from "./plugin-tarballs.js";
import { releaseVersion } from "./versions.js";

/**
 * `npm run package-plugin [-- --all]` (scripts/package-plugin.sh): the plugin tarball of this
 * machine's linux platform (or of every platform with --all) into artifacts/ (the release puts them in artifacts/plugin/), as the
 * release builds them; prints each path, relative to the repository, the last one being this
 * machine's.
 */
async function main(root: string, argv: string[]): Promise<void> {
  const host = `linux-${arch() === "arm64" ? "arm64" : "amd64"}` as Platform;
  const platforms = argv.includes("--all") ? [...PLATFORMS.filter((p) => p !== host), host] : [host];
  const schema = JSON.parse(readFileSync(join(root, "generated", "schema.json"), "utf8")) as { pluginDownloadURL: string };
  const version = releaseVersion(root);
  for (const t of await buildPluginTarballs(root, join(root, "artifacts"), version, schema.pluginDownloadURL, platforms)) {
    process.stderr.write(`[package-plugin] wrote ${relative(root, t.file)}; install it with: pulumi plugin install resource cdc ${version} --file ${relative(root, t.file)}\n`);
    process.stdout.write(`${relative(root, t.file)}\n`);
  }
}

main(process.argv[2]!, process.argv.slice(3)).catch((error: unknown) => {
  process.stderr.write(`package-plugin: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
