/**
 * The platforms a plugin tarball is built for, and the asset names: the name the engine asks a
 * GitHub release for (sdk/v3 workspace's standardAssetName: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz),
 * which the release checks ask the engine's own code for (download-url.ts).
 */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLUGIN_NAME = "cdc";
export const PLUGIN_EXECUTABLE = "pulumi-resource-cdc";

export function pluginAsset(version: string, platform: Platform): string {
  return `${PLUGIN_EXECUTABLE}-v${version}-${platform}.tar.gz`;
}

export function isWindows(platform: Platform): boolean {
  return platform.startsWith("windows-");
}

/** The launcher's file name: Pulumi looks for <name>.exe then <name>.cmd on Windows (workspace's plugin search), <name> elsewhere. */
export function launcherName(platform: Platform): string {
  return isWindows(platform) ? `${PLUGIN_EXECUTABLE}.cmd` : PLUGIN_EXECUTABLE;
}

/** The Go module's tag: a module in a subdirectory is tagged <dir>/v<version>. */
export const GO_MODULE_DIR = "generated/sdks/go/cdc";
export function goModuleTag(version: string): string {
  return `${GO_MODULE_DIR}/v${version}`;
}
