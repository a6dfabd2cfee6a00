import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";
import { goSbom } from "./go-sbom.js";
import { GO_MODULE_DIR, goModuleTag } from "./platforms.js";
import type { Sbom } from "./sbom.js";

/**
 * The Go SDK as `go get` takes it: its go.mod and go.sum are committed (git ls-files), and the
 * module builds on its own with go.mod read-only (a missing go.sum entry fails), with no
 * workspace, from a copy of what git tracks (so an untracked file cannot help it); its SBOM is
 * written into sbomDir from that copy. Returns what was checked, the tag the release pushes and the SBOM.
 */
export async function checkGoSdk(root: string, version: string, sbomDir: string): Promise<{ lines: string[]; sbom: Sbom }> {
  const tracked = (await must("git", ["ls-files", "--", GO_MODULE_DIR], { cwd: root, timeoutMs: 30_000 })).stdout.split("\n").filter(Boolean);
  for (const file of ["go.mod", "go.sum"]) {
    if (!tracked.includes(`${GO_MODULE_DIR}/${file}`)) throw new Error(`${GO_MODULE_DIR}/${file} is not committed`);
  }
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-go-"));
  try {
    // The committed files, as a clone at the tag would have them.
    await must("bash", ["-c", `git ls-files -z -- '${GO_MODULE_DIR}' | xargs -0 tar -cf - | tar -xf - -C '${work}'`], { cwd: root, timeoutMs: 60_000 });
    const dir = join(work, GO_MODULE_DIR);
    const env = { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local" };
    // -trimpath: the build cache serves a second run from another temporary directory.
    // A first build compiles the Pulumi SDK and its dependencies (minutes on two busy cores); the next take seconds.
    await must("go", ["build", "-trimpath", "./..."], { cwd: dir, env, timeoutMs: 1_800_000 });
    const mod = (await must("go", ["list", "-m"], { cwd: dir, env, timeoutMs: 60_000 })).stdout.trim();
    const sbom = { file: await goSbom(dir, version, sbomDir, env), name: mod, version: `v${version}` };
    return {
      lines: [`${tracked.length} committed files, go.sum among them`, `go build ./... passes standalone (-mod=readonly, no workspace)`, `module ${mod}, tag ${goModuleTag(version)}`],
      sbom,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
