import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../../cli/args.js";
import { packageVersion } from "../../../cli/version.js";
import { ResourceProviderServer } from "../../../plugin/server.js";
import { committedVersions, releaseVersion, versionProblems } from "../../../scripts/release/versions.js";
import { runOk } from "../../support/process.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");
const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

// One version, package.json's, carried into the schema, every SDK, CHANGELOG.md's latest
// release, pulumi-cdc --version and the plugin's GetPluginInfo (docs/releasing.md). The plugin
// tarballs' own package.json and pulumi-plugin.json are checked by tarballs.test.ts and the
// release dry run, the Go module's tag is made from it (scripts/release/platforms.ts).
describe("one version", () => {
  it("package.json's version is a semantic version", () => {
    expect(releaseVersion(REPO_ROOT)).toBe(version);
  });

  it("every committed copy agrees with package.json: the schema, the four SDKs' metadata and pulumi-plugin.json files, the policy pack and its pulumi-cdc, CHANGELOG.md", () => {
    const copies = committedVersions(REPO_ROOT);
    expect(copies.map((c) => c.where)).toEqual(
      expect.arrayContaining([
        "generated/schema.json version",
        "generated/sdks/nodejs/package.json version",
        "generated/sdks/go/cdc/pulumi-plugin.json version",
        "generated/sdks/python/setup.py VERSION",
        "generated/sdks/dotnet/PulumiCdc.Cdc.csproj <Version>",
        "policy/package.json version",
        'policy/package.json dependencies["pulumi-cdc"]',
        "CHANGELOG.md latest release",
      ]),
    );
    expect(versionProblems(copies, version)).toEqual([]);
  });

  it("a copy that disagrees, or is missing, is named", () => {
    const copies = committedVersions(REPO_ROOT);
    const bumped = copies.map((c) => (c.where === "generated/sdks/python/setup.py VERSION" ? { ...c, version: "9.9.9" } : c.where === "generated/sdks/dotnet/version.txt" ? { ...c, version: undefined } : c));
    expect(versionProblems(bumped, version)).toEqual([
      `generated/sdks/python/setup.py VERSION is 9.9.9, package.json is ${version}`,
      `generated/sdks/dotnet/version.txt is missing, package.json is ${version}`,
    ]);
  });

  it("pulumi-cdc --version prints it (the parser, the sources, and the built CLI)", async () => {
    expect(parseCommandLine(["--version"])).toEqual({ command: "version" });
    expect(parseCommandLine(["-V"])).toEqual({ command: "version" });
    expect(packageVersion()).toBe(version);
    const built = join(REPO_ROOT, "dist", "cli", "index.js");
    expect(existsSync(built), "npm run build first").toBe(true);
    const { stdout } = await runOk(process.execPath, [built, "--version"]);
    expect(stdout).toBe(`${version}\n`);
  });

  it("the plugin's GetPluginInfo reports it", async () => {
    const info = await new ResourceProviderServer().getPluginInfo();
    expect(info.getVersion()).toBe(version);
  });
});
