import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Where a copy of the version lives and what it says there. */
export interface VersionCopy {
  where: string;
  version: string | undefined;
}

const read = (root: string, file: string) => readFileSync(join(root, file), "utf8");
const json = (root: string, file: string) => JSON.parse(read(root, file)) as Record<string, unknown>;

/** The one version: package.json's. */
export function releaseVersion(root: string): string {
  const version = json(root, "package.json").version;
  if (typeof version !== "string" || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`package.json's version ${JSON.stringify(version)} is not a semantic version`);
  return version;
}

/**
 * Every committed copy of the version the generators carry from package.json: the schema and
 * what each SDK says (its package metadata and the pulumi-plugin.json the engine reads). The
 * Go module has no version of its own (its tag is made from package.json's), only its
 * pulumi-plugin.json.
 */
export function committedVersions(root: string): VersionCopy[] {
  const copies: VersionCopy[] = [];
  const add = (where: string, version: unknown) => copies.push({ where, version: typeof version === "string" ? version : undefined });
  const lock = json(root, "package-lock.json");
  add("package-lock.json version", lock.version);
  add("generated/schema.json version", json(root, "generated/schema.json").version);
  const node = json(root, "generated/sdks/nodejs/package.json");
  add("generated/sdks/nodejs/package.json version", node.version);
  add("generated/sdks/nodejs/package.json pulumi.version", (node.pulumi as { version?: unknown } | undefined)?.version);
  for (const file of ["generated/sdks/go/cdc/pulumi-plugin.json", "generated/sdks/python/pulumi_cdc/pulumi-plugin.json", "generated/sdks/dotnet/pulumi-plugin.json"]) {
    add(`${file} version`, existsSync(join(root, file)) ? json(root, file).version : undefined);
  }
  add("generated/sdks/python/setup.py VERSION", /^VERSION = "([^"]*)"$/m.exec(read(root, "generated/sdks/python/setup.py"))?.[1]);
  add("generated/sdks/dotnet/PulumiCdc.Cdc.csproj <Version>", /<Version>([^<]*)<\/Version>/.exec(read(root, "generated/sdks/dotnet/PulumiCdc.Cdc.csproj"))?.[1]);
  add("generated/sdks/dotnet/version.txt", read(root, "generated/sdks/dotnet/version.txt").trim());
  // The policy pack is released with the package, and needs that very release of it.
  const pack = json(root, "policy/package.json");
  add("policy/package.json version", pack.version);
  add('policy/package.json dependencies["pulumi-cdc"]', (pack.dependencies as Record<string, unknown> | undefined)?.["pulumi-cdc"]);
  const changelog = /^## \[(\d[^\]]*)\]/m.exec(read(root, "CHANGELOG.md"))?.[1];
  add("CHANGELOG.md latest release", changelog);
  return copies;
}

/** The copies that disagree with `version`, as lines. */
export function versionProblems(copies: readonly VersionCopy[], version: string): string[] {
  return copies.filter((c) => c.version !== version).map((c) => `${c.where} is ${c.version === undefined ? "missing" : c.version}, package.json is ${version}`);
}

/** Every SDK's pulumi-plugin.json "server" (the engine's download URL), which must be the schema's pluginDownloadURL. */
export function downloadUrlCopies(root: string): VersionCopy[] {
  const out: VersionCopy[] = [];
  const server = (v: unknown) => (typeof v === "string" ? v : undefined);
  out.push({ where: "generated/schema.json pluginDownloadURL", version: server(json(root, "generated/schema.json").pluginDownloadURL) });
  out.push({ where: "generated/sdks/nodejs/package.json pulumi.server", version: server((json(root, "generated/sdks/nodejs/package.json").pulumi as { server?: unknown } | undefined)?.server) });
  for (const file of ["generated/sdks/go/cdc/pulumi-plugin.json", "generated/sdks/python/pulumi_cdc/pulumi-plugin.json", "generated/sdks/dotnet/pulumi-plugin.json"]) {
    out.push({ where: `${file} server`, version: existsSync(join(root, file)) ? server(json(root, file).server) : undefined });
  }
  return out;
}
