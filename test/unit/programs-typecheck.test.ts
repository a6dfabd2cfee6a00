import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../support/process.js";
import { REPO_ROOT } from "../support/yaml.js";

// The end-to-end suites run their TypeScript programs with PULUMI_NODEJS_TRANSPILE_ONLY (see
// test/support/pulumi.ts): ts-node would otherwise type-check each program again at every engine
// run. The type check is here instead, once for all of them: every example a user starts from
// and every fixture program, with the examples' own compiler options (strict).

const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");

/** The TypeScript programs: each directory of examples/ and test/e2e/fixtures/ that has an index.ts. */
function programs(): string[] {
  const found: string[] = [];
  for (const parent of ["examples", join("test", "e2e", "fixtures")]) {
    for (const entry of readdirSync(join(REPO_ROOT, parent), { withFileTypes: true })) {
      const index = join(REPO_ROOT, parent, entry.name, "index.ts");
      if (entry.isDirectory() && existsSync(index)) found.push(index);
    }
  }
  return found.sort();
}

const tsc = (project: string) => run(process.execPath, [TSC, "-p", project]);

describe("every TypeScript program the examples and the end-to-end tests run", () => {
  const exampleOptions = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "quickstart", "tsconfig.json"), "utf8")).compilerOptions as Record<string, unknown>;
  let dir: string;

  beforeAll(async () => {
    // Inside the repository (node_modules/.cache), so `pulumi-cdc` and `@pulumi/pulumi` resolve
    // from a generated tsconfig as they do for the programs: the package's built declarations.
    const cacheDir = join(REPO_ROOT, "node_modules", ".cache");
    await mkdir(cacheDir, { recursive: true });
    dir = await mkdtemp(join(cacheDir, "pulumi-cdc-programs-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function project(name: string, files: string[]): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, JSON.stringify({ compilerOptions: { ...exampleOptions, noEmit: true }, files }));
    return path;
  }

  it("the examples share one tsconfig, the one checked here", () => {
    for (const index of programs().filter((p) => p.startsWith(join(REPO_ROOT, "examples")))) {
      const own = JSON.parse(readFileSync(join(index, "..", "tsconfig.json"), "utf8")) as { compilerOptions: unknown; files: string[] };
      expect(own.compilerOptions, index).toEqual(exampleOptions);
      expect(own.files, index).toEqual(["index.ts"]);
    }
  });

  it("type-check (tsc, strict), examples and fixtures alike", async () => {
    const files = programs();
    expect(files.filter((p) => p.includes(join("test", "e2e", "fixtures"))).length).toBeGreaterThanOrEqual(10);
    expect(files.filter((p) => p.startsWith(join(REPO_ROOT, "examples"))).length).toBeGreaterThanOrEqual(7);
    const r = await tsc(await project("tsconfig.json", files));
    expect(r.code, r.output).toBe(0);
  }, 120_000);

  it("and the same check fails on a program with a type error, naming the file and the line", async () => {
    const broken = join(dir, "broken.ts");
    await writeFile(broken, 'import { Source } from "pulumi-cdc";\nnew Source("s", { connector: 42 });\n');
    const r = await tsc(await project("tsconfig.broken.json", [programs()[0]!, broken]));
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/broken\.ts\(2,\d+\): error TS/);
  }, 120_000);
});
