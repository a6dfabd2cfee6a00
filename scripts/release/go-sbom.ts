import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { must } from "../lib/process.js";

/**
 * The Go SDK's SBOM: cyclonedx-gomod (the toolchain's cdc_ensure_sbom_tools) over `dir`, a copy
 * of the module's committed files, with `env` (no workspace, go.mod read-only). The tool takes the
 * module's version only from a git tag `v<semver>` at HEAD (never from a tag with a directory
 * before it, as the release's generated/sdks/go/cdc/v<version> is), so the copy becomes a
 * repository of its own tagged v<version>: the version `go get` resolves that tag to. Returns the file.
 */
export async function goSbom(dir: string, version: string, sbomDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const tool = process.env.PULUMI_CDC_CYCLONEDX_GOMOD;
  if (!tool) throw new Error("PULUMI_CDC_CYCLONEDX_GOMOD is not set: scripts/release/run.sh runs cdc_ensure_sbom_tools first");
  const git = (...args: string[]) =>
    must("git", ["-c", "user.name=pulumi-cdc release", "-c", "user.email=release@pulumi-cdc.invalid", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", ...args], { cwd: dir, timeoutMs: 60_000 });
  await git("init", "--quiet");
  await git("add", "--all");
  await git("commit", "--quiet", "--no-verify", "--message", `the Go SDK at v${version}`);
  await git("tag", `v${version}`);
  mkdirSync(sbomDir, { recursive: true });
  const file = join(sbomDir, `pulumi-cdc-go-sdk-v${version}.cdx.json`);
  await must(tool, ["mod", "-json", "-type", "library", "-output", file, dir], { cwd: dir, env, timeoutMs: 300_000 });
  return file;
}
