import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, toolchainTool } from "../support/process.js";

// The SDKs of the other languages and the reference pages, generated from generated/schema.json by
// tools/pulumi-cdc-codegen (`npm run generate`): not stale, and checked as far as this machine
// can without a .NET SDK. Python: every file byte-compiles, setup.py (or pyproject.toml) requires
// `pulumi` within a version range, every resource is registered; test/unit/python-sdk.test.ts
// builds it into a wheel and installs it, test/e2e/python-quickstart.test.ts runs it.
// .NET: the project file is well-formed XML and includes a class file per resource of the
// schema (an SDK-style project compiles every .cs file under it). Node.js (generated/sdks/nodejs, the npm
// package the TypeScript of `pulumi import` imports): it type-checks (tsc on its own tsconfig),
// its package.json names the schema's packageName and version, a class per resource carries its
// token. Go is built and run for real by test/e2e/go-quickstart.test.ts, the Node.js SDK under the
// engine by test/e2e/import-ts.test.ts.

const REPO_ROOT = join(__dirname, "..", "..");
const OWNED = ["generated/sdks/go", "generated/sdks/python", "generated/sdks/dotnet", "generated/sdks/nodejs", "generated/reference"];

type Json = Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "generated", "schema.json"), "utf8")) as { resources: Json; language?: Record<string, Json> };
const resourceTokens = Object.keys(schema.resources).sort();

/** What the generated .gitignore files leave out (byte code, build output): not compared. */
const IGNORED = /(^|\/)(__pycache__|\.mypy_cache|bin|obj|build|dist|[^/]*\.egg-info)(\/|$)|\.pyc$/;

/** Every file under a directory, as paths relative to it. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((f) => !IGNORED.test(f))
    .sort();
}

/** The generator: PULUMI_CDC_CODEGEN (set by the toolchain that npm test sources), else built now by cdc_ensure_codegen. */
const codegen = () => toolchainTool("PULUMI_CDC_CODEGEN", "cdc_ensure_codegen");

/** The module of a token (`cdc:sources:Postgresql` -> `sources`), `index` for the top level. */
const moduleOf = (token: string) => token.split(":")[1]!;
const nameOf = (token: string) => token.split(":")[2]!;
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

describe("the generated SDKs and reference pages", () => {
  let fresh: string;

  beforeAll(async () => {
    fresh = await mkdtemp(join(tmpdir(), "pulumi-cdc-sdks-"));
    const r = await run(await codegen(), [join(REPO_ROOT, "generated", "schema.json"), fresh]);
    if (r.code !== 0) throw new Error(`pulumi-cdc-codegen failed:\n${r.output}`);
  }, 1_500_000);

  afterAll(async () => {
    if (fresh) await rm(fresh, { recursive: true, force: true });
  });

  it.each(OWNED)("%s is up to date with generated/schema.json (run `npm run generate` when this fails)", (dir) => {
    const want = files(join(fresh, dir));
    expect(want.length).toBeGreaterThan(0);
    const have = files(join(REPO_ROOT, dir));
    expect(have, `${dir}: files to add or remove: run npm run generate`).toEqual(want);
    for (const f of want) {
      const a = readFileSync(join(REPO_ROOT, dir, f));
      const b = readFileSync(join(fresh, dir, f));
      expect(a.equals(b), `${dir}/${f} is stale: run npm run generate`).toBe(true);
    }
  });

  describe("Python (generated/sdks/python)", () => {
    const root = join(REPO_ROOT, "generated", "sdks", "python");

    it("every file byte-compiles (python3 -m py_compile)", async () => {
      const py = files(root).filter((f) => f.endsWith(".py"));
      expect(py.length).toBeGreaterThan(resourceTokens.length);
      const cache = await mkdtemp(join(tmpdir(), "pulumi-cdc-pycache-"));
      try {
        // The byte code goes to a temporary prefix, not beside the sources.
        const r = await run("python3", ["-m", "py_compile", ...py], { cwd: root, env: { ...process.env, PYTHONPYCACHEPREFIX: cache, PYTHONDONTWRITEBYTECODE: "" } });
        expect(r.code, r.output).toBe(0);
      } finally {
        await rm(cache, { recursive: true, force: true });
      }
    });

    it("its package metadata requires pulumi within a version range, and carries the schema's version", async () => {
      // setup.py's setup() keywords (or pyproject.toml's [project]), read by Python itself.
      const script = [
        "import ast, json, os, sys",
        "meta = {}",
        "if os.path.exists('pyproject.toml'):",
        "    import tomllib",
        "    p = tomllib.load(open('pyproject.toml', 'rb'))['project']",
        "    meta = {'name': p['name'], 'version': p.get('version'), 'requires': p.get('dependencies', [])}",
        "else:",
        "    tree = ast.parse(open('setup.py').read())",
        "    consts = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) for t in n.targets if isinstance(t, ast.Name)}",
        "    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, 'id', '') == 'setup')",
        "    kw = {k.arg: k.value for k in call.keywords}",
        "    version = kw['version']",
        "    meta = {'name': ast.literal_eval(kw['name']), 'version': consts.get(version.id) if isinstance(version, ast.Name) else ast.literal_eval(version), 'requires': ast.literal_eval(kw['install_requires'])}",
        "json.dump(meta, sys.stdout)",
      ].join("\n");
      const r = await run("python3", ["-c", script], { cwd: root });
      expect(r.code, r.output).toBe(0);
      const meta = JSON.parse(r.stdout) as { name: string; version: string; requires: string[] };
      expect(meta.name).toBe((schema.language?.python?.packageName as string | undefined) ?? "pulumi_cdc");
      expect(meta.version).toBe(schemaVersion());
      const pulumi = meta.requires.filter((req) => /^pulumi\s*[<>=~!]/.test(req));
      expect(pulumi, `install_requires: ${meta.requires.join("; ")}`).toHaveLength(1);
      // A range: a lower bound and an upper bound below the next major version.
      expect(pulumi[0]).toMatch(/>=\s*3\.\d+\.\d+/);
      expect(pulumi[0]).toMatch(/<\s*4(\.0)*\b/);
    });

    it("registers every resource of the schema (a class file and its type token)", () => {
      const pkgDir = join(root, "pulumi_cdc");
      const text = files(pkgDir)
        .filter((f) => f.endsWith(".py"))
        .map((f) => readFileSync(join(pkgDir, f), "utf8"))
        .join("\n");
      for (const token of resourceTokens) {
        expect(text, token).toContain(`'${token}'`);
        expect(text, token).toContain(`class ${nameOf(token)}(pulumi.CustomResource)`);
      }
    });
  });

  describe(".NET (generated/sdks/dotnet)", () => {
    const root = join(REPO_ROOT, "generated", "sdks", "dotnet");

    it("the project file is well-formed XML: an SDK-style project on the Pulumi package within a version range, compiling every .cs file under it", async () => {
      const projects = files(root).filter((f) => f.endsWith(".csproj"));
      expect(projects).toHaveLength(1);
      // Parsed by a real XML parser (Python's): any well-formedness error fails.
      const script = [
        "import json, sys, xml.etree.ElementTree as ET",
        "root = ET.parse(sys.argv[1]).getroot()",
        "json.dump({'tag': root.tag, 'sdk': root.get('Sdk'),",
        "  'refs': {e.get('Include'): e.get('Version') for e in root.iter('PackageReference')},",
        "  'props': {e.tag: (e.text or '').strip() for g in root.iter('PropertyGroup') for e in g},",
        "  'compile': [dict(e.attrib) for e in root.iter('Compile')]}, sys.stdout)",
      ].join("\n");
      const r = await run("python3", ["-c", script, join(root, projects[0]!)]);
      expect(r.code, r.output).toBe(0);
      const project = JSON.parse(r.stdout) as { tag: string; sdk: string; refs: Record<string, string>; props: Record<string, string>; compile: object[] };
      expect(project.tag).toBe("Project");
      expect(project.sdk).toBe("Microsoft.NET.Sdk");
      expect(project.refs["Pulumi"]).toMatch(/^\[3\.[\d.]+,4\)$/);
      expect(project.props["Version"]).toBe(schemaVersion());
      // Nothing turns off or narrows the default compile items.
      expect(project.props["EnableDefaultCompileItems"] ?? "true").not.toBe("false");
      expect(project.compile).toEqual([]);
    });

    it("has a class file for every resource of the schema, with its type token", () => {
      const cs = files(root).filter((f) => f.endsWith(".cs"));
      for (const token of resourceTokens) {
        const mod = moduleOf(token);
        const file = mod === "index" ? `${nameOf(token)}.cs` : join(upperFirst(mod), `${nameOf(token)}.cs`);
        expect(cs, token).toContain(file);
        expect(readFileSync(join(root, file), "utf8"), file).toContain(`ResourceType("${token}")`);
      }
      // And no class file of a resource the schema no longer has.
      const declared = cs.flatMap((f) => [...readFileSync(join(root, f), "utf8").matchAll(/ResourceType\("([^"]+)"\)/g)].map((m) => m[1]!));
      expect([...new Set(declared)].filter((t) => t !== "pulumi:providers:cdc").sort()).toEqual(resourceTokens);
    });
  });

  describe("Node.js (generated/sdks/nodejs)", () => {
    const root = join(REPO_ROOT, "generated", "sdks", "nodejs");

    it("type-checks on its own tsconfig (tsc, strict), with @pulumi/pulumi and @types/node of this repository", async () => {
      const r = await run(process.execPath, [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.json"), "--noEmit"]);
      expect(r.code, r.output).toBe(0);
    }, 120_000);

    it("its package.json is the schema's packageName at the schema's version, on @pulumi/pulumi, a resource package of cdc", () => {
      const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string; dependencies: Record<string, string>; pulumi: Json };
      expect(pkg.name).toBe(schema.language?.nodejs?.packageName);
      expect(pkg.version).toBe(schemaVersion());
      expect(pkg.dependencies).toHaveProperty("@pulumi/pulumi");
      expect(pkg.pulumi).toMatchObject({ resource: true, name: "cdc", version: schemaVersion() });
    });

    it("has a class per resource of the schema, with its token", () => {
      const tokens: string[] = [];
      for (const f of files(root).filter((f) => f.endsWith(".ts"))) {
        const m = /__pulumiType = '([^']+)'/.exec(readFileSync(join(root, f), "utf8"));
        // The provider's class carries the package's name ("cdc"), not a resource's token.
        if (m && m[1]!.includes(":")) tokens.push(m[1]!);
      }
      expect(tokens.sort()).toEqual(resourceTokens);
    });
  });

  it("the Go module's path is the schema's go importBasePath, on the CLI's Pulumi SDK release", () => {
    const mod = readFileSync(join(REPO_ROOT, "generated", "sdks", "go", "cdc", "go.mod"), "utf8");
    expect(mod).toMatch(new RegExp(`^module ${String(schema.language?.go?.importBasePath).replace(/\./g, "\\.")}$`, "m"));
    const toolchain = readFileSync(join(REPO_ROOT, "scripts", "toolchain.sh"), "utf8");
    const release = /^CDC_PULUMI_VERSION=(\S+)$/m.exec(toolchain)![1]!;
    expect(mod).toContain(`github.com/pulumi/pulumi/sdk/v3 v${release}`);
  });

  it("the reference has a page per resource, each with an example in TypeScript, YAML, Go and Python", () => {
    const pages = files(join(REPO_ROOT, "generated", "reference")).filter((f) => f !== "README.md");
    expect(pages).toEqual(resourceTokens.map((t) => `${moduleOf(t)}/${nameOf(t)}.md`).sort());
    for (const token of resourceTokens) {
      const page = readFileSync(join(REPO_ROOT, "generated", "reference", moduleOf(token), `${nameOf(token)}.md`), "utf8");
      for (const section of ["## Example usage", "```typescript", "```yaml", "```go", "```python", "## Inputs", "## Outputs", "## Import"]) expect(page, `${token}: ${section}`).toContain(section);
      expect(page).toContain(`pulumi import ${token} `);
      expect(page).toContain(`type: ${token}`);
    }
  });

  it("the reference's TypeScript examples type-check against this package (tsc)", async () => {
    // Inside the repository (node_modules/.cache), so `pulumi-cdc` and `@pulumi/pulumi` resolve as
    // for the examples/ programs: the package's built declarations (npm run build).
    const cacheDir = join(REPO_ROOT, "node_modules", ".cache");
    await mkdir(cacheDir, { recursive: true });
    const dir = await mkdtemp(join(cacheDir, "pulumi-cdc-docs-ts-"));
    try {
      const pages = files(join(REPO_ROOT, "generated", "reference")).filter((f) => f !== "README.md");
      const names: string[] = [];
      for (const page of pages) {
        const code = /```typescript\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, "generated", "reference", page), "utf8"))?.[1];
        expect(code, page).toBeDefined();
        const name = `${page.replace(/\.md$/, "").replace(/[/\\]/g, "-")}.ts`;
        await writeFile(join(dir, name), code!);
        names.push(name);
      }
      const tsconfig = { compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "node16", moduleResolution: "node16", esModuleInterop: true, skipLibCheck: true, types: ["node"] }, files: names };
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
      const r = await run(process.execPath, [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")]);
      expect(r.code, r.output).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("the reference's Python examples compile (Python's compile(), all in one process), each constructing its page's class of pulumi_cdc", async () => {
    // That their calls name the SDK's classes and keyword arguments is checked against the
    // installed SDK by test/unit/python-sdk.test.ts.
    const examples: Record<string, string> = {};
    for (const token of resourceTokens) {
      const page = `${moduleOf(token)}/${nameOf(token)}.md`;
      const code = /```python\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, "generated", "reference", page), "utf8"))?.[1];
      expect(code, page).toBeDefined();
      expect(code, page).toContain("import pulumi_cdc as cdc\n");
      const cls = moduleOf(token) === "index" ? `cdc.${nameOf(token)}` : `cdc.${moduleOf(token)}.${nameOf(token)}`;
      expect(code, page).toContain(`= ${cls}(`);
      examples[page] = code!;
    }
    const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-docs-py-"));
    try {
      await writeFile(join(dir, "examples.json"), JSON.stringify(examples));
      const script = [
        "import json, sys",
        "errors = {}",
        "for page, code in json.load(open(sys.argv[1])).items():",
        "    try:",
        "        compile(code, page, 'exec', dont_inherit=True)",
        "    except SyntaxError as e:",
        "        errors[page] = f'{e.msg} (line {e.lineno}): {(e.text or \"\").strip()}'",
        "json.dump({'compiled': len(json.load(open(sys.argv[1]))) - len(errors), 'errors': errors}, sys.stdout)",
      ].join("\n");
      const r = await run("python3", ["-c", script, join(dir, "examples.json")]);
      expect(r.code, r.output).toBe(0);
      const got = JSON.parse(r.stdout) as { compiled: number; errors: Record<string, string> };
      expect(got.errors).toEqual({});
      expect(got.compiled).toBe(resourceTokens.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function schemaVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, "generated", "schema.json"), "utf8")) as { version: string }).version;
}
