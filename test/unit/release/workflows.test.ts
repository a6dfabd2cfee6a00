import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { lintWorkflows } from "../../../scripts/release/workflows.js";
import { run, toolchainTool } from "../../support/process.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");
const read = (name: string) => readFileSync(join(REPO_ROOT, ".github", "workflows", name), "utf8");

// The workflows of .github/workflows: actionlint (built from its Go module by the toolchain)
// passes them, and they do what docs/releasing.md says.
describe("the GitHub workflows", () => {
  beforeAll(async () => {
    process.env.PULUMI_CDC_ACTIONLINT = await toolchainTool("PULUMI_CDC_ACTIONLINT", "cdc_ensure_actionlint");
  }, 1_200_000);

  it("actionlint passes ci.yml, release.yml and vendor-sync.yml", async () => {
    expect(await lintWorkflows(REPO_ROOT)).toEqual(["ci.yml", "release.yml", "vendor-sync.yml"]);
  }, 120_000);

  it("actionlint fails a broken workflow (an unknown job key, an undefined step output)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-actionlint-"));
    try {
      mkdirSync(join(dir, ".github", "workflows"), { recursive: true });
      writeFileSync(
        join(dir, ".github", "workflows", "bad.yml"),
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    timeout: 5\n    steps:\n      - run: echo ${{ steps.nope.outputs.x }}\n",
      );
      const r = await run(process.env.PULUMI_CDC_ACTIONLINT!, ["-no-color", ".github/workflows/bad.yml"], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/unexpected key "timeout"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("CI runs what .ci/run runs", () => {
    const ci = read("ci.yml");
    expect(readFileSync(join(REPO_ROOT, ".ci", "run"), "utf8")).toMatch(/^npm test$/m);
    expect(ci).toMatch(/^\s+run: \.ci\/run$/m);
    expect(ci).toMatch(/pull_request/);
  });

  it("the release, on a tag, builds with the dry run and publishes to the GitHub release (with SHA256SUMS and the SBOMs), npm, PyPI, NuGet and the Go module's tag", () => {
    const release = read("release.yml");
    expect(release).toMatch(/tags: \["v/);
    expect(release).toContain('npm run release -- --dry-run --tag "$GITHUB_REF_NAME"');
    expect(release).toContain("gh release create");
    // Users verify a download against SHA256SUMS and read the SBOMs: both are the release's assets.
    expect(release).toContain("artifacts/plugin/*.tar.gz artifacts/SHA256SUMS artifacts/sbom/*.cdx.json");
    // The package, then its policy pack: the tarballs the dry run packed, in that order.
    expect(release).toContain("for tarball in artifacts/npm/pulumi-cdc-[0-9]*.tgz artifacts/npm/pulumi-cdc-policy-[0-9]*.tgz; do");
    expect(release).toContain('npm publish --provenance --access public "$tarball"');
    expect(release).toContain("twine upload");
    expect(release).toContain("dotnet pack generated/sdks/dotnet/PulumiCdc.Cdc.csproj");
    expect(release).toContain("dotnet nuget push");
    expect(release).toContain('tag="generated/sdks/go/cdc/v$VERSION"');
  });

  it("the vendor sync, weekly and on demand, runs npm run vendor-sync on the vendor's newest tag and opens a pull request with its report", () => {
    const sync = read("vendor-sync.yml");
    expect(sync).toMatch(/schedule:\n\s+- cron: /);
    expect(sync).toContain("workflow_dispatch:");
    expect(sync).toContain("git clone --quiet https://github.com/streamkap-com/terraform-provider-streamkap.git");
    expect(sync).toContain("--sort=-v:refname");
    expect(sync).toContain('npm run vendor-sync -- "$VENDOR_DIR" --report "$RUNNER_TEMP/vendor-sync.md"');
    expect(sync).toContain('gh pr create --head "$branch" --title "Vendor sync: $REF" --body-file "$RUNNER_TEMP/body.md"');
  });

  it("name no host but github.com's: each registry is its tool's default, or a secret", () => {
    for (const name of ["ci.yml", "release.yml", "vendor-sync.yml"]) {
      const urls = read(name).match(/[a-z][a-z0-9+.-]*:\/\/[^\s"')]+/gi) ?? [];
      expect(urls.filter((u) => !/^https:\/\/github\.com\//.test(u)), name).toEqual([]);
      expect(read(name)).not.toMatch(/registry-url|--index-url|--repository-url/);
    }
  });
});
