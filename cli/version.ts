import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The version `pulumi-cdc --version` prints: package.json's, the one version the schema, the SDKs,
 * the plugin's GetPluginInfo and the release artefacts carry (docs/releasing.md). package.json is
 * one level up from the sources (cli/, as the tests and ts-node run them) and two from the build
 * (dist/cli/, in the checkout and in the npm package alike).
 */
export function packageVersion(dir: string = __dirname): string {
  const file = [join(dir, "..", "package.json"), join(dir, "..", "..", "package.json")].find((f) => existsSync(f) && isOurs(f));
  if (!file) throw new Error(`no package.json of pulumi-cdc above ${dir}`);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function isOurs(file: string): boolean {
  const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
  return pkg.name === "pulumi-cdc" && typeof pkg.version === "string" && pkg.version !== "";
}
