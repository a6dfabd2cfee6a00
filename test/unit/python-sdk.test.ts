import { existsSync, readFileSync, readdirSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../support/process.js";
import { pulumiRequirement, pythonToolchain, type PythonToolchain } from "../support/python.js";

// The Python SDK (generated/sdks/python) as the package users install: `python -m build` makes an sdist and,
// from that sdist, a wheel (so a file missing from the sdist fails here too), both at the
// schema's version; the wheel installs with pip into a fresh virtual environment next to
// Pulumi's Python SDK of the engine's release, and every module imports, every resource of the
// schema being a CustomResource class carrying its token. That generated/sdks/python is what the generator
// writes today is test/unit/sdks.test.ts's check. Everything comes from the toolchain's cached
// wheels (no index); without Python on the machine the tests skip with a one-line warning.

const REPO_ROOT = join(__dirname, "..", "..");
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "generated", "schema.json"), "utf8")) as { version: string; pluginDownloadURL: string; resources: Record<string, unknown> };

describe("the Python SDK as a package (wheel and sdist, pip install, import)", { timeout: 600_000 }, () => {
  let py: PythonToolchain | null;
  let work: string;
  let dist: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    py = await pythonToolchain();
    if (!py) return;
    env = { ...process.env, ...py.pipEnv };
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-pysdk-"));
    // Built from a copy: a setuptools build writes build/ and *.egg-info beside its sources.
    await cp(join(REPO_ROOT, "generated", "sdks", "python"), join(work, "src"), { recursive: true });
    dist = join(work, "dist");
  }, 1_500_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  let version: string;
  let installed = false;

  it("python -m build makes an sdist and a wheel at the schema's version, each carrying pulumi-plugin.json and py.typed", async (ctx) => {
    if (!py) return ctx.skip();
    const venv = join(work, "build-venv");
    for (const [cmd, args] of [
      [py.python, ["-m", "venv", venv]],
      [join(venv, "bin", "pip"), ["install", "--quiet", "build", "setuptools", "wheel"]],
    ] as const) {
      const r = await run(cmd, [...args], { env });
      expect(r.code, `${cmd} ${args.join(" ")}:\n${r.output}`).toBe(0);
    }
    // --no-isolation: the build venv's setuptools, so no index is asked for one.
    const build = await run(join(venv, "bin", "python"), ["-m", "build", "--no-isolation", "--outdir", dist, join(work, "src")], { env });
    expect(build.code, build.output).toBe(0);
    // The schema's version as Python spells it (PEP 440: 1.0.0-alpha.1 is 1.0.0a1).
    const pep440 = await run(join(venv, "bin", "python"), ["-c", "import sys; from packaging.version import Version; print(Version(sys.argv[1]))", schema.version], { env });
    expect(pep440.code, pep440.output).toBe(0);
    version = pep440.stdout.trim();
    const built = readdirSync(dist).sort();
    expect(built).toEqual([`pulumi_cdc-${version}-py3-none-any.whl`, `pulumi_cdc-${version}.tar.gz`]);

    const listing = await run(join(venv, "bin", "python"), [
      "-c",
      "import sys, tarfile, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist() + tarfile.open(sys.argv[2]).getnames()))",
      join(dist, built[0]!),
      join(dist, built[1]!),
    ]);
    expect(listing.code, listing.output).toBe(0);
    for (const file of ["pulumi_cdc/pulumi-plugin.json", "pulumi_cdc/py.typed", "pulumi_cdc/sources/postgresql.py", "pulumi_cdc/destinations/snowflake.py"]) {
      expect(listing.stdout).toContain(`\n${file}\n`.slice(1));
      expect(listing.stdout).toContain(`pulumi_cdc-${version}/${file}`);
    }
  });

  it("the wheel installs into a fresh virtual environment beside Pulumi's Python SDK of the engine's release, and every module and resource imports", async (ctx) => {
    if (!py) return ctx.skip();
    expect(version, "the build test failed").toBeDefined();
    const venv = join(work, "venv");
    const wheel = join(dist, `pulumi_cdc-${version}-py3-none-any.whl`);
    const make = await run(py.python, ["-m", "venv", venv], { env });
    expect(make.code, make.output).toBe(0);
    const install = await run(join(venv, "bin", "pip"), ["install", "--quiet", wheel, pulumiRequirement(py.pulumiVersion)], { env });
    expect(install.code, `pip install of the wheel failed:\n${install.output}`).toBe(0);

    // Python's own view of what got installed, from outside the source tree.
    const script = [
      "import importlib, importlib.metadata as md, json, pkgutil, sys",
      "import pulumi, pulumi_cdc",
      // As programs reach them (cdc.sources.Postgresql): the package's modules load lazily, so
      // this comes before the walk below, which imports modules in an order no program does.
      "resources = {}",
      "for token in json.loads(sys.argv[1]):",
      "    _, mod, name = token.split(':')",
      "    cls = getattr(pulumi_cdc if mod == 'index' else getattr(pulumi_cdc, mod), name, None)",
      "    resources[token] = isinstance(cls, type) and issubclass(cls, pulumi.CustomResource)",
      "modules = [m.name for m in pkgutil.walk_packages(pulumi_cdc.__path__, 'pulumi_cdc.')]",
      "for m in modules: importlib.import_module(m)",
      "plugin = json.loads(importlib.resources.files('pulumi_cdc').joinpath('pulumi-plugin.json').read_text())",
      "json.dump({'cdc': md.version('pulumi_cdc'), 'pulumi': md.version('pulumi'), 'file': pulumi_cdc.__file__, 'modules': len(modules), 'resources': resources, 'plugin': plugin}, sys.stdout)",
    ].join("\n");
    const tokens = Object.keys(schema.resources).sort();
    const r = await run(join(venv, "bin", "python"), ["-c", `import importlib.resources\n${script}`, JSON.stringify(tokens)], { cwd: work, env });
    expect(r.code, `importing the installed SDK failed:\n${r.output}`).toBe(0);
    const got = JSON.parse(r.stdout) as { cdc: string; pulumi: string; file: string; modules: number; resources: Record<string, boolean>; plugin: Record<string, unknown> };
    expect(got.cdc).toBe(version);
    expect(got.pulumi).toBe(py.pulumiVersion);
    expect(got.file.startsWith(venv)).toBe(true);
    expect(got.modules).toBeGreaterThan(tokens.length / 2);
    expect(Object.entries(got.resources).filter(([, ok]) => !ok).map(([t]) => t)).toEqual([]);
    expect(got.plugin).toEqual({ resource: true, name: "cdc", version: schema.version, server: schema.pluginDownloadURL });
    installed = true;
  });

  it("every generated/reference page's Python example resolves against the installed SDK: each class it calls exists, with the keyword arguments it passes (inspect.signature), the page's resource among them", async (ctx) => {
    if (!py) return ctx.skip();
    expect(installed, "the install test failed").toBe(true);
    const examples: Record<string, string> = {};
    const want: Record<string, string> = {};
    for (const token of Object.keys(schema.resources).sort()) {
      const [, mod, name] = token.split(":") as [string, string, string];
      const page = `${mod}/${name}.md`;
      const code = /```python\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, "generated", "reference", page), "utf8"))?.[1];
      expect(code, page).toBeDefined();
      examples[page] = code!;
      want[page] = mod === "index" ? `pulumi_cdc.${name}` : `pulumi_cdc.${mod}.${name}`;
    }
    await writeFile(join(work, "examples.json"), JSON.stringify(examples));
    // One process for all pages. Every call on `cdc.` or `pulumi.` is resolved by getattr; a
    // resource is bound (inspect.signature(...).bind: a misspelt or missing argument fails) against
    // its Args class, which takes the same inputs as the resource and has no defaults for the
    // required ones, after its one positional argument (the resource's name); any other class
    // (an Args class of an object input, pulumi.Config) against its own signature.
    const script = [
      "import ast, inspect, json, sys",
      "import pulumi, pulumi_cdc",
      "roots = {'cdc': pulumi_cdc, 'pulumi': pulumi}",
      "def target(node):",
      "    parts = []",
      "    while isinstance(node, ast.Attribute):",
      "        parts.append(node.attr)",
      "        node = node.value",
      "    if not isinstance(node, ast.Name) or node.id not in roots: return None, None",
      "    obj, path = roots[node.id], roots[node.id].__name__",
      "    for p in reversed(parts):",
      "        obj, path = getattr(obj, p), f'{path}.{p}'",
      "    return obj, path",
      "report = {}",
      "for page, code in json.load(open(sys.argv[1])).items():",
      "    problems, resources = [], []",
      "    for node in ast.walk(ast.parse(code, page)):",
      "        if not isinstance(node, ast.Call): continue",
      "        where = f'line {node.lineno}: {ast.unparse(node.func)}'",
      "        try:",
      "            obj, path = target(node.func)",
      "        except AttributeError as e:",
      "            problems.append(f'{where}: {e}')",
      "            continue",
      "        if obj is None: continue",
      "        args, kwargs = [None] * len(node.args), {k.arg: None for k in node.keywords if k.arg}",
      "        def bind(sig, *args, **kwargs):",
      "            if not any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):",
      "                unknown = sorted(set(kwargs) - set(sig.parameters))",
      "                if unknown: raise TypeError(f'no argument {\", \".join(unknown)}')",
      "            sig.bind(*args, **kwargs)",
      "        try:",
      "            if isinstance(obj, type) and issubclass(obj, pulumi.CustomResource):",
      "                resources.append(path)",
      "                if len(args) != 1: raise TypeError(f'{len(args)} positional arguments, not the name alone')",
      "                bind(inspect.signature(getattr(sys.modules[obj.__module__], obj.__name__ + 'Args')), **kwargs)",
      "            elif isinstance(obj, type) or callable(obj):",
      "                bind(inspect.signature(obj), *args, **kwargs)",
      "        except TypeError as e:",
      "            problems.append(f'{where}: {e}')",
      "    report[page] = {'problems': problems, 'resources': resources}",
      "json.dump(report, sys.stdout)",
    ].join("\n");
    const r = await run(join(work, "venv", "bin", "python"), ["-c", script, join(work, "examples.json")], { cwd: work, env });
    expect(r.code, r.output).toBe(0);
    const report = JSON.parse(r.stdout) as Record<string, { problems: string[]; resources: string[] }>;
    const problems = Object.entries(report).flatMap(([page, got]) => got.problems.map((p) => `${page}: ${p}`));
    expect(problems, `the reference's Python examples do not match the SDK:\n${problems.join("\n")}`).toEqual([]);
    expect(Object.fromEntries(Object.entries(report).map(([page, got]) => [page, got.resources]))).toEqual(Object.fromEntries(Object.entries(want).map(([page, cls]) => [page, [cls]])));
  });

  it("the toolchain's wheels hold Pulumi's Python SDK of exactly the CLI's release", (ctx) => {
    if (!py) return ctx.skip();
    expect(existsSync(join(py.wheelhouse, `pulumi-${py.pulumiVersion}-py3-none-any.whl`))).toBe(true);
  });
});
