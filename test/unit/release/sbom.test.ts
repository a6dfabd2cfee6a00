import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledPackageDirs, packageSbom, pluginSbom } from "../../../scripts/release/npm-sbom.js";
import { canonicalPythonName } from "../../../scripts/release/python-sbom.js";
import { bomProblems, narrowBom, sbomFileProblems, type Bom } from "../../../scripts/release/sbom.js";

const REPO_ROOT = join(__dirname, "..", "..", "..");
const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

const good = (): Bom => ({
  bomFormat: "CycloneDX",
  specVersion: "1.6",
  metadata: { component: { "bom-ref": "pkg@1.0.0", name: "pkg", version: "1.0.0" } },
  components: [{ "bom-ref": "dep@2.0.0", name: "dep", version: "2.0.0" }],
});

// The checks the release dry run makes of each SBOM it wrote (scripts/release/sbom.ts).
describe("an SBOM's check", () => {
  const want = { name: "pkg", version: "1.0.0" };

  it("passes CycloneDX JSON describing the package at its version, with its components", () => {
    expect(bomProblems(good(), want)).toEqual([]);
  });

  it("names what is wrong: the format, the spec version, the package, its version, the components", () => {
    expect(bomProblems({ ...good(), bomFormat: "SPDX", specVersion: undefined }, want)).toEqual([
      'bomFormat is "SPDX", not "CycloneDX"',
      "specVersion is undefined, not a CycloneDX version (1.x)",
    ]);
    expect(bomProblems({ ...good(), metadata: { component: { name: "wt-release", version: "0.9.0" } } }, want)).toEqual([
      'metadata.component is named "wt-release", not pkg',
      'metadata.component\'s version is "0.9.0", not 1.0.0',
    ]);
    expect(bomProblems({ ...good(), metadata: {} }, want)).toEqual(["has no metadata.component (the package it describes)"]);
    expect(bomProblems({ ...good(), components: [] }, want)).toEqual(["lists no components (pkg has dependencies)"]);
    expect(bomProblems({ ...good(), components: [{ name: "dep" }, { name: "x", version: "1" }] }, want)).toEqual(["1 of its 2 components lack a name or a version"]);
  });

  it("a file that is not JSON fails, and every problem names the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-sbom-check-"));
    try {
      writeFileSync(join(dir, "a.cdx.json"), "<bom/>");
      expect(sbomFileProblems({ file: join(dir, "a.cdx.json"), ...want })[0]).toMatch(/^a\.cdx\.json: not a JSON file/);
      writeFileSync(join(dir, "b.cdx.json"), JSON.stringify({ ...good(), bomFormat: "x" }));
      expect(sbomFileProblems({ file: join(dir, "b.cdx.json"), ...want })).toEqual(['b.cdx.json: bomFormat is "x", not "CycloneDX"']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the plugin's SBOM, narrowed to its bundle", () => {
  it("finds the package folders of esbuild's inputs: scoped, nested, and none for the repository's own files", () => {
    expect(
      bundledPackageDirs([
        "plugin/main.ts",
        "node_modules/undici/index.js",
        "node_modules/undici/lib/core/request.js",
        "node_modules/@grpc/grpc-js/build/src/index.js",
        "node_modules/a/node_modules/@s/b/x.js",
        "node_modules\\zod\\index.cjs",
      ]),
    ).toEqual(["node_modules/@grpc/grpc-js", "node_modules/a/node_modules/@s/b", "node_modules/undici", "node_modules/zod"]);
  });

  it("keeps the root, the components it is told to and the graph between them, and unmarks them as development packages", () => {
    const bom: Bom = {
      ...good(),
      components: [
        { "bom-ref": "a@1", name: "a", version: "1", properties: [{ name: "cdx:npm:package:development", value: "true" }] },
        { "bom-ref": "b@1", name: "b", version: "1", properties: [] },
      ],
      dependencies: [
        { ref: "pkg@1.0.0", dependsOn: ["a@1", "b@1"] },
        { ref: "a@1", dependsOn: ["b@1"] },
        { ref: "b@1", dependsOn: [] },
      ],
    };
    const narrowed = narrowBom(bom, new Set(["a@1"]));
    expect(narrowed.metadata).toEqual(bom.metadata);
    expect(narrowed.components).toEqual([{ "bom-ref": "a@1", name: "a", version: "1", properties: [] }]);
    expect(narrowed.dependencies).toEqual([
      { ref: "pkg@1.0.0", dependsOn: ["a@1"] },
      { ref: "a@1", dependsOn: [] },
    ]);
  });
});

// The real tools on this repository: npm sbom from the lock file (no install), and the plugin's
// bundle built again for esbuild's record of it (needs npm run build's node_modules, seconds).
describe("npm sbom of this repository", { timeout: 120_000 }, () => {
  let dir: string;
  let pkg: Bom;
  let plugin: Bom;
  let files: { pkg: string; plugin: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-npm-sbom-"));
    files = { pkg: await packageSbom(REPO_ROOT, dir), plugin: await pluginSbom(REPO_ROOT, dir) };
    pkg = JSON.parse(readFileSync(files.pkg, "utf8")) as Bom;
    plugin = JSON.parse(readFileSync(files.plugin, "utf8")) as Bom;
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const names = (bom: Bom) => (bom.components ?? []).map((c) => c.name);

  it("pulumi-cdc's names the package at its version, whatever the checkout's folder is called, and lists its dependencies but no development ones", () => {
    expect(files.pkg).toBe(join(dir, `pulumi-cdc-${version}.cdx.json`));
    expect(sbomFileProblems({ file: files.pkg, name: "pulumi-cdc", version })).toEqual([]);
    expect(names(pkg)).toEqual(expect.arrayContaining(["undici", "zod", "fastify"]));
    expect(names(pkg)).not.toContain("vitest");
    expect(names(pkg)).not.toContain("@pulumi/pulumi");
  });

  it("the plugin's lists what the bundle inlines, gRPC among it, and not what it leaves out (the emulator's fastify)", () => {
    expect(files.plugin).toBe(join(dir, `pulumi-resource-cdc-v${version}.cdx.json`));
    expect(sbomFileProblems({ file: files.plugin, name: "pulumi-cdc", version })).toEqual([]);
    expect(names(plugin)).toEqual(expect.arrayContaining(["undici", "zod", "@grpc/grpc-js", "google-protobuf"]));
    expect(names(plugin)).not.toContain("fastify");
    expect(names(plugin)).not.toContain("vitest");
  });
});

describe("a Python package's name in its SBOM", () => {
  it("is PyPI's normal form of it", () => {
    expect(canonicalPythonName("pulumi_cdc")).toBe("pulumi-cdc");
    expect(canonicalPythonName("Pulumi.CDC__x")).toBe("pulumi-cdc-x");
  });
});
