import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";
import { canonicalPythonName, pythonSbom } from "./python-sbom.js";
import type { Sbom } from "./sbom.js";

/** The toolchain's Python (cdc_ensure_python exports these): python3 and the cached wheels, so no step asks an index. */
function pythonEnv(): { python: string; env: NodeJS.ProcessEnv } {
  const python = process.env.PULUMI_CDC_PYTHON;
  const wheelhouse = process.env.PULUMI_CDC_WHEELHOUSE;
  if (!python || !wheelhouse) throw new Error("PULUMI_CDC_PYTHON and PULUMI_CDC_WHEELHOUSE are not set: scripts/release/run.sh runs cdc_ensure_python first (it needs Python 3.9+)");
  return { python, env: { ...process.env, PIP_NO_INDEX: "1", PIP_FIND_LINKS: wheelhouse, PIP_DISABLE_PIP_VERSION_CHECK: "1" } };
}

/**
 * generated/sdks/python built as PyPI takes it: `python -m build` makes the sdist and, from it, the
 * wheel, into outDir; both must be named for the version (PEP 440's spelling of it), and the
 * wheel installs into a fresh virtual environment beside Pulumi's Python SDK (from the wheelhouse)
 * and imports, reporting the version and its pulumi-plugin.json. That environment, holding what
 * the wheel's install brought and nothing else, is what its SBOM (into sbomDir) describes.
 */
export async function buildPythonSdk(root: string, outDir: string, version: string, sbomDir: string): Promise<{ files: string[]; lines: string[]; sbom: Sbom }> {
  const { python, env } = pythonEnv();
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-py-"));
  try {
    cpSync(join(root, "generated", "sdks", "python"), join(work, "src"), { recursive: true });
    const venv = join(work, "build-venv");
    await must(python, ["-m", "venv", venv], { env, timeoutMs: 120_000 });
    await must(join(venv, "bin", "pip"), ["install", "--quiet", "build", "setuptools", "wheel", "packaging"], { env, timeoutMs: 300_000 });
    const pep440 = (await must(join(venv, "bin", "python"), ["-c", "import sys; from packaging.version import Version; print(Version(sys.argv[1]))", version], { env, timeoutMs: 60_000 })).stdout.trim();
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    await must(join(venv, "bin", "python"), ["-m", "build", "--no-isolation", "--outdir", outDir, join(work, "src")], { env, timeoutMs: 600_000 });
    const files = readdirSync(outDir).sort();
    const want = [`pulumi_cdc-${pep440}-py3-none-any.whl`, `pulumi_cdc-${pep440}.tar.gz`];
    if (JSON.stringify(files) !== JSON.stringify(want)) throw new Error(`python -m build made ${files.join(", ")}, not ${want.join(", ")}`);

    const run = join(work, "venv");
    // No pip in it (the build environment's pip installs into it), so its SBOM lists no installer.
    await must(python, ["-m", "venv", "--without-pip", run], { env, timeoutMs: 120_000 });
    const pulumiVersion = process.env.CDC_PULUMI_VERSION ?? "";
    await must(join(venv, "bin", "pip"), ["--python", join(run, "bin", "python"), "install", "--quiet", join(outDir, want[0]!), ...(pulumiVersion ? [`pulumi==${pulumiVersion}`] : [])], { env, timeoutMs: 600_000 });
    const probe = await must(
      join(run, "bin", "python"),
      ["-c", "import importlib.metadata as md, importlib.resources as r, json, pulumi_cdc; print(json.dumps({'version': md.version('pulumi_cdc'), 'plugin': json.loads(r.files('pulumi_cdc').joinpath('pulumi-plugin.json').read_text())}))"],
      { cwd: work, env, timeoutMs: 120_000 },
    );
    const got = JSON.parse(probe.stdout) as { version: string; plugin: { version?: string; server?: string } };
    if (got.version !== pep440) throw new Error(`the installed pulumi_cdc is ${got.version}, not ${pep440}`);
    if (got.plugin.version !== version) throw new Error(`the installed pulumi_cdc's pulumi-plugin.json says ${got.plugin.version}, not ${version}`);
    const sbom = { file: await pythonSbom(run, sbomDir, "pulumi_cdc", env), name: canonicalPythonName("pulumi_cdc"), version: pep440 };
    return {
      files: want.map((f) => join(outDir, f)),
      lines: [`sdist and wheel at ${pep440}`, `the wheel installs beside pulumi ${pulumiVersion || "(any)"} and imports; pulumi-plugin.json ${got.plugin.version}, server ${got.plugin.server}`],
      sbom,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
