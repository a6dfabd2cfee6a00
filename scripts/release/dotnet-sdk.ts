import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { must, run } from "../lib/process.js";

const DIR = "generated/sdks/dotnet";
const PROJECT = "PulumiCdc.Cdc.csproj";

export interface DotnetResult {
  files: string[];
  checked: string[];
  notChecked: string[];
}

/**
 * The .NET SDK. Checked everywhere: the project's <Version>, version.txt and pulumi-plugin.json
 * say the release's version, the files the project packs (version.txt, pulumi-plugin.json,
 * logo.png, README.md) are there, and the sources are archived into outDir (what `dotnet pack`
 * compiles on the release runner). Only where a dotnet SDK is on PATH: `dotnet pack` itself, the
 * .nupkg. Otherwise that is said, not pretended: the release workflow runs `dotnet pack` on its
 * runner, which has the SDK.
 */
export async function checkDotnetSdk(root: string, outDir: string, version: string): Promise<DotnetResult> {
  const dir = join(root, DIR);
  const csproj = readFileSync(join(dir, PROJECT), "utf8");
  const projectVersion = /<Version>([^<]*)<\/Version>/.exec(csproj)?.[1];
  if (projectVersion !== version) throw new Error(`${DIR}/${PROJECT} <Version> is ${projectVersion}, not ${version}`);
  for (const file of ["version.txt", "pulumi-plugin.json", "logo.png", "README.md"]) {
    if (!existsSync(join(dir, file))) throw new Error(`${DIR}/${file} is missing (the project packs it)`);
  }
  if (readFileSync(join(dir, "version.txt"), "utf8").trim() !== version) throw new Error(`${DIR}/version.txt is not ${version}`);
  const plugin = JSON.parse(readFileSync(join(dir, "pulumi-plugin.json"), "utf8")) as { version?: string };
  if (plugin.version !== version) throw new Error(`${DIR}/pulumi-plugin.json says ${plugin.version}, not ${version}`);
  const sources = (await must("git", ["ls-files", "--", DIR], { cwd: root, timeoutMs: 30_000 })).stdout.split("\n").filter((f) => f.endsWith(".cs"));
  if (sources.length === 0) throw new Error(`no committed .cs file under ${DIR}`);

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const archive = join(outDir, `pulumi-cdc-dotnet-sources-v${version}.tar.gz`);
  await must("bash", ["-c", `git ls-files -z -- '${DIR}' | xargs -0 tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' -czf '${archive}'`], { cwd: root, timeoutMs: 60_000 });
  const checked = [`${PROJECT} <Version>, version.txt and pulumi-plugin.json say ${version}`, `${sources.length} C# sources archived (the input of dotnet pack)`];
  const files = [archive];

  const dotnet = await run("dotnet", ["--version"], { timeoutMs: 60_000 });
  if (dotnet.code !== 0) {
    return { files, checked, notChecked: ["no dotnet SDK on this machine: the C# is not compiled and no .nupkg is made here; the release workflow runs dotnet pack on its runner and pushes that"] };
  }
  await must("dotnet", ["pack", join(dir, PROJECT), "-c", "Release", "-o", outDir], { cwd: root, timeoutMs: 900_000 });
  const nupkg = readdirSync(outDir).filter((f) => f.endsWith(".nupkg"));
  if (!nupkg.includes(`PulumiCdc.Cdc.${version}.nupkg`)) throw new Error(`dotnet pack made ${nupkg.join(", ")}, not PulumiCdc.Cdc.${version}.nupkg`);
  return { files: [...files, ...nupkg.map((f) => join(outDir, f))], checked: [...checked, `dotnet ${dotnet.stdout.trim()} packs PulumiCdc.Cdc.${version}.nupkg`], notChecked: [] };
}
