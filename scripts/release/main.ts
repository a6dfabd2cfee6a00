import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { arch } from "node:os";
import { basename, join, relative } from "node:path";
import { CHECKSUMS_FILE, checksumProblems, writeChecksums } from "./checksums.js";
import { checkDotnetSdk } from "./dotnet-sdk.js";
import { downloadProblems, engineDownloads } from "./download-url.js";
import { must } from "../lib/process.js";
import { checkGoSdk } from "./go-sdk.js";
import { installPolicyPack, npmFileProblems, npmInstallCheck, npmPack, POLICY_DIR, policyFileProblems } from "./npm-package.js";
import { packageSbom, pluginSbom, policySbom } from "./npm-sbom.js";
import { goModuleTag, pluginAsset, type Platform } from "./platforms.js";
import { installPlugin, pluginEntryProblems, tarEntries } from "./plugin-checks.js";
import { buildPluginTarballs, type PluginTarball } from "./plugin-tarballs.js";
import { buildPythonSdk } from "./python-sdk.js";
import { runYamlQuickstart } from "./quickstart.js";
import { SBOM_DIR, sbomFileProblems, type Sbom } from "./sbom.js";
import { committedVersions, downloadUrlCopies, releaseVersion, versionProblems } from "./versions.js";
import { lintWorkflows } from "./workflows.js";

/**
 * `npm run release -- --dry-run [--tag vX.Y.Z]` (scripts/release/run.sh): builds every artefact
 * into artifacts/ with a CycloneDX SBOM per package (artifacts/sbom/), checks each, writes
 * artifacts/release.json (what the release workflow publishes), then artifacts/SHA256SUMS over
 * every file there, checks both, and prints what would be published. It publishes nothing: the release workflow
 * (.github/workflows/release.yml) does, on a tag, from the files this wrote. Every step is
 * bounded in time; a failed step does not stop the others, and any failure makes the exit code 1.
 */

interface Step {
  name: string;
  ok: boolean;
  seconds: number;
  lines: string[];
}

async function main(root: string, argv: string[]): Promise<number> {
  if (!argv.includes("--dry-run")) {
    process.stderr.write(
      "npm run release publishes nothing from a checkout: run `npm run release -- --dry-run` to build and check every artefact.\n" +
        "Publishing is the release workflow's (.github/workflows/release.yml), on a pushed tag v<version> (docs/releasing.md).\n",
    );
    return 2;
  }
  const tagAt = argv.indexOf("--tag");
  const tag = tagAt >= 0 ? argv[tagAt + 1] : undefined;
  const started = Date.now();
  const version = releaseVersion(root);
  const schema = JSON.parse(readFileSync(join(root, "generated", "schema.json"), "utf8")) as { pluginDownloadURL?: string };
  const downloadUrl = schema.pluginDownloadURL ?? "";
  const out = join(root, "artifacts");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const steps: Step[] = [];
  const step = async (name: string, body: () => Promise<string[]>) => {
    process.stderr.write(`[release] ${name}...\n`);
    const t = Date.now();
    try {
      const lines = await body();
      steps.push({ name, ok: true, seconds: (Date.now() - t) / 1000, lines });
    } catch (error) {
      steps.push({ name, ok: false, seconds: (Date.now() - t) / 1000, lines: [(error as Error).message] });
    }
    const s = steps[steps.length - 1]!;
    process.stderr.write(`[release] ${name}: ${s.ok ? "ok" : "FAILED"} (${s.seconds.toFixed(0)} s)\n`);
  };
  const rel = (f: string) => relative(root, f);
  const sbomDir = join(out, SBOM_DIR);
  const pkg = (dir: string) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name;
  // Each package's SBOM, with what it must describe: written by the step that builds the package, checked at the end.
  const sboms: Sbom[] = [];
  const size = (f: string) => `${(statSync(f).size / 1024 / 1024).toFixed(1)} MB`;

  await step("one version", async () => {
    const problems = versionProblems(committedVersions(root), version);
    if (tag !== undefined && tag !== `v${version}`) problems.push(`the tag is ${tag}, package.json says ${version} (the tag must be v${version})`);
    const cli = (await must(process.execPath, [join(root, "dist", "cli", "index.js"), "--version"], { timeoutMs: 30_000 })).stdout.trim();
    if (cli !== version) problems.push(`pulumi-cdc --version prints ${cli}`);
    if (problems.length) throw new Error(problems.join("\n"));
    return [`${version}: package.json, the schema, every SDK, CHANGELOG.md and pulumi-cdc --version agree${tag ? `, and the tag ${tag}` : ""}`];
  });

  let tarballs: PluginTarball[] = [];
  let tarballsOk = false;
  await step("plugin tarballs", async () => {
    tarballs = await buildPluginTarballs(root, join(out, "plugin"), version, downloadUrl);
    const lines: string[] = [];
    const problems: string[] = [];
    for (const t of tarballs) {
      const entries = await tarEntries(t.file);
      const bad = pluginEntryProblems(entries, t.platform);
      problems.push(...bad.map((p) => `${t.platform}: ${p}`));
      await installPlugin(t.file, version, t.platform);
      lines.push(`${rel(t.file)} (${size(t.file)}, ${entries.length} entries): contents checked, pulumi plugin install --file installs it`);
    }
    if (problems.length) throw new Error(problems.join("\n"));
    const sbom = await pluginSbom(root, sbomDir);
    sboms.push({ file: sbom, name: pkg(root), version });
    tarballsOk = true;
    return [...lines, `${rel(sbom)}: npm sbom of the repository's tree, narrowed to the packages the bundle holds`];
  });

  await step("plugin from the cache runs the YAML quickstart", async () => {
    const host = `linux-${arch() === "arm64" ? "arm64" : "amd64"}` as Platform;
    const t = tarballs.find((x) => x.platform === host);
    if (!t) throw new Error(`no ${host} tarball (the tarball step failed)`);
    const home = await installPlugin(t.file, version, host, true);
    try {
      return [`${pluginAsset(version, host)} installed into an empty PULUMI_HOME, examples/yaml-quickstart against the emulator:`, ...(await runYamlQuickstart(root, home))];
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  await step("pluginDownloadURL", async () => {
    const problems = downloadUrlCopies(root)
      .filter((c) => c.version !== downloadUrl)
      .map((c) => `${c.where} is ${c.version ?? "missing"}`);
    if (!downloadUrl.startsWith("github://")) problems.push(`the schema's pluginDownloadURL is ${downloadUrl || "missing"}`);
    const assets = tarballs.map((t) => pluginAsset(version, t.platform));
    const downloads = await engineDownloads(downloadUrl, version, assets);
    problems.push(...downloadProblems(downloads, downloadUrl, version));
    if (problems.length) throw new Error(problems.join("\n"));
    const first = downloads[0]!;
    return [
      `${downloadUrl} in the schema and every SDK`,
      `the engine (sdk/v3 at the CLI's release, no network) asks ${first.requests[0]}`,
      `and takes the platform's own asset for each of ${downloads.map((d) => d.platform).join(", ")}`,
    ];
  });

  let npmFile = "";
  await step("npm package", async () => {
    const packed = await npmPack(root, join(out, "npm"));
    const problems = npmFileProblems(packed.files);
    if (problems.length) throw new Error(problems.join("\n"));
    const installed = await npmInstallCheck(root, packed.file, version);
    const sbom = await packageSbom(root, sbomDir);
    sboms.push({ file: sbom, name: pkg(root), version });
    npmFile = packed.file;
    return [`${rel(packed.file)} (${size(packed.file)}, ${packed.files.length} files): file list checked`, ...installed, `${rel(sbom)}: npm sbom`];
  });

  let policyFile = "";
  await step("policy pack", async () => {
    if (!npmFile) throw new Error("no pulumi-cdc tarball (the npm package step failed): the pack depends on it");
    const packed = await npmPack(join(root, POLICY_DIR), join(out, "npm"));
    const problems = policyFileProblems(packed.files);
    if (problems.length) throw new Error(problems.join("\n"));
    const installed = await installPolicyPack(root, npmFile, packed.file);
    let sbom: string;
    try {
      sbom = await policySbom(root, installed.project, sbomDir);
    } finally {
      rmSync(installed.project, { recursive: true, force: true });
    }
    sboms.push({ file: sbom, name: pkg(join(root, POLICY_DIR)), version });
    policyFile = packed.file;
    return [`${rel(packed.file)} (${size(packed.file)}, ${packed.files.length} files): file list checked`, ...installed.lines, `${rel(sbom)}: npm sbom of the tree it installed`];
  });

  let goOk = false;
  await step("Go SDK", async () => {
    const r = await checkGoSdk(root, version, sbomDir);
    sboms.push(r.sbom);
    goOk = true;
    return [...r.lines, `${rel(r.sbom.file)}: cyclonedx-gomod`];
  });

  let pythonFiles: string[] = [];
  await step("Python SDK", async () => {
    const r = await buildPythonSdk(root, join(out, "python"), version, sbomDir);
    sboms.push(r.sbom);
    pythonFiles = r.files;
    return [...r.files.map((f) => `${rel(f)} (${size(f)})`), ...r.lines, `${rel(r.sbom.file)}: cyclonedx-py over the environment the wheel installed into`];
  });

  let dotnetFiles: string[] = [];
  const notChecked: string[] = [];
  await step(".NET SDK", async () => {
    const r = await checkDotnetSdk(root, join(out, "dotnet"), version);
    dotnetFiles = r.files;
    notChecked.push(...r.notChecked.map((l) => `.NET: ${l}`), ".NET: no SBOM (CycloneDX's .NET tool is a dotnet tool, and there is no dotnet SDK here)");
    return [...r.checked, ...r.notChecked.map((l) => `NOT CHECKED HERE: ${l}`)];
  });

  await step("workflows (actionlint)", async () => [`actionlint passes: ${(await lintWorkflows(root)).join(", ")}`]);

  const manifest = {
    version,
    tag: `v${version}`,
    pluginDownloadURL: downloadUrl,
    githubReleaseAssets: tarballsOk ? tarballs.map((t) => rel(t.file)) : [],
    npm: npmFile ? rel(npmFile) : null,
    npmPolicyPack: policyFile ? rel(policyFile) : null,
    python: pythonFiles.map(rel),
    dotnetSources: dotnetFiles.filter((f) => !f.endsWith(".nupkg")).map(rel),
    nuget: dotnetFiles.filter((f) => f.endsWith(".nupkg")).map(rel),
    goModuleTag: goModuleTag(version),
    sboms: sboms.map((s) => rel(s.file)),
    checksums: rel(join(out, CHECKSUMS_FILE)),
    notChecked,
  };
  // Before SHA256SUMS, which covers it as it does every file in artifacts/.
  writeFileSync(join(out, "release.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  await step(`${CHECKSUMS_FILE} and the SBOMs`, async () => {
    const sums = await writeChecksums(out);
    // Read back from the disk, as a user's sha256sum -c would: every listed file there with its hash, none left out.
    const problems = [...(await checksumProblems(out)), ...sboms.flatMap(sbomFileProblems)];
    if (problems.length) throw new Error(problems.join("\n"));
    return [
      `${rel(join(out, CHECKSUMS_FILE))}: ${sums.length} files, each hashed again and matching, none in artifacts/ left out`,
      ...sboms.map((s) => `${basename(s.file)}: CycloneDX JSON describing ${s.name} ${s.version}, with its components`),
    ];
  });

  const w = (s: string) => process.stdout.write(`${s}\n`);
  const failed = steps.filter((s) => !s.ok);
  w(`pulumi-cdc ${version}: release dry run (nothing published)`);
  w("");
  for (const s of steps) {
    w(`${s.ok ? "ok  " : "FAIL"} ${s.name} (${s.seconds.toFixed(0)} s)`);
    for (const l of s.lines.join("\n").split("\n")) w(`       ${l}`);
  }
  w("");
  w(failed.length ? `Would publish, once the ${failed.length} failed check(s) above pass (the release workflow, on the tag):` : "Would publish (the release workflow, on the tag):");
  w(`  GitHub release v${version} of github.com/pulumi-cdc/pulumi-cdc: ${manifest.githubReleaseAssets.length} plugin tarballs${tarballsOk ? "" : " (their check failed)"}, ${CHECKSUMS_FILE} and ${manifest.sboms.length} SBOMs`);
  for (const a of [...manifest.githubReleaseAssets, manifest.checksums, ...manifest.sboms]) w(`    ${a}`);
  w(`  npm: pulumi-cdc@${version} from ${manifest.npm ?? "(not built: its check failed)"}`);
  w(`  npm: pulumi-cdc-policy@${version} from ${manifest.npmPolicyPack ?? "(not built: its check failed)"}`);
  w(`  PyPI: pulumi_cdc ${version}: ${manifest.python.join(", ") || "(not built: its check failed)"}`);
  w(`  NuGet: PulumiCdc.Cdc ${version}: ${manifest.nuget.length ? manifest.nuget.join(", ") : "packed by dotnet pack on the release runner (no dotnet SDK here)"}`);
  w(`  Go: the tag ${manifest.goModuleTag} (module github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc)${goOk ? "" : " (its check failed)"}`);
  if (notChecked.length) {
    w("");
    w("Not checked here:");
    for (const n of notChecked) w(`  ${n}`);
  }
  w("");
  w(`${steps.length - failed.length} of ${steps.length} checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s; manifest: ${rel(join(out, "release.json"))}`);
  if (!existsSync(join(out, "release.json"))) return 1;
  return failed.length ? 1 : 0;
}

main(process.argv[2]!, process.argv.slice(3)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`release: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
