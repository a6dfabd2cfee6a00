import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NPM_REQUIRED, npmFileProblems, npmPackFiles, POLICY_DIR, POLICY_REQUIRED, policyFileProblems } from "../../../scripts/release/npm-package.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");

// What `npm pack` ships (package.json's files): the built code, the CLIs, bin/ and the schema the
// plugin serves, the catalogue, README, LICENSE and CHANGELOG; no tests, fixtures or sources. The
// release dry run also installs the packed tarball into an empty project (npm-package.ts).
describe("the npm package's file list", () => {
  it("npm pack --dry-run ships every required file and nothing else (needs npm run build)", async () => {
    const files = await npmPackFiles(REPO_ROOT);
    expect(npmFileProblems(files)).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(NPM_REQUIRED));
    expect(files.filter((f) => f.startsWith("dist/catalogue/")).length).toBeGreaterThan(3);
  }, 120_000);

  it("names a test, a fixture, a source, a stray file and a missing licence", () => {
    const good = [...NPM_REQUIRED];
    expect(npmFileProblems(good)).toEqual([]);
    const bad = [...good.filter((f) => f !== "LICENSE"), "dist/test/unit/x.test.js", "dist/e2e/fixtures/a.json", "sdk/index.ts", "examples/quickstart/index.js"];
    expect(npmFileProblems(bad)).toEqual([
      "LICENSE is missing",
      "dist/test/unit/x.test.js is a test or fixture",
      "dist/e2e/fixtures/a.json is a test or fixture",
      "sdk/index.ts is a TypeScript source",
      "examples/quickstart/index.js is outside the package",
    ]);
  });
});

// The policy pack (policy/, pulumi-cdc-policy) is packed beside it; that the packed pack installs
// into an empty folder and runs from there under the engine is test/e2e/policy-pack.test.ts's.
describe("the policy pack's file list", () => {
  it("npm pack --dry-run in policy/ ships PulumiPolicy.yaml, the built pack and its README, and nothing else (needs npm run build)", async () => {
    const files = await npmPackFiles(join(REPO_ROOT, POLICY_DIR));
    expect(policyFileProblems(files)).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(POLICY_REQUIRED));
  }, 120_000);

  it("names a missing PulumiPolicy.yaml, a source and a stray file", () => {
    expect(policyFileProblems([...POLICY_REQUIRED.filter((f) => f !== "PulumiPolicy.yaml"), "src/index.ts", "tsconfig.json"])).toEqual([
      "PulumiPolicy.yaml is missing",
      "src/index.ts is a TypeScript source",
      "tsconfig.json is outside the package",
    ]);
  });
});
