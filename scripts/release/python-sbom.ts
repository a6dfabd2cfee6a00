import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";

/** A Python package's name as PyPI and package URLs spell it (PEP 503: lower case, runs of -_. as one -). */
export function canonicalPythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** TOML's basic strings read JSON's escapes, so a JSON string is a TOML string. */
const toml = (s: string): string => JSON.stringify(s);

/**
 * The Python package's SBOM: cyclonedx-py (the toolchain's cdc_ensure_sbom_tools) over `venv`, a
 * virtual environment holding the installed wheel and what pip installed with it, and nothing
 * else (no pip). cyclonedx-py takes the package it describes from a pyproject.toml (PEP 621),
 * which the SDK has not (setup.py builds it): one is written from the installed wheel's own
 * metadata, its name, version, summary and requirements, so the SBOM's root is the wheel and its
 * direct dependencies are the ones the wheel declares. Returns the file, named as the wheel is.
 */
export async function pythonSbom(venv: string, sbomDir: string, distribution: string, env: NodeJS.ProcessEnv): Promise<string> {
  const tool = process.env.PULUMI_CDC_CYCLONEDX_PY;
  if (!tool) throw new Error("PULUMI_CDC_CYCLONEDX_PY is not set: scripts/release/run.sh runs cdc_ensure_sbom_tools first");
  const probe = await must(
    join(venv, "bin", "python"),
    ["-c", "import importlib.metadata as md, json, sys; d = md.distribution(sys.argv[1]); print(json.dumps({'name': d.metadata['Name'], 'version': d.version, 'summary': d.metadata.get('Summary') or '', 'requires': d.requires or []}))", distribution],
    { env, timeoutMs: 60_000 },
  );
  const meta = JSON.parse(probe.stdout) as { name: string; version: string; summary: string; requires: string[] };
  const name = canonicalPythonName(meta.name);
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-python-sbom-"));
  try {
    const pyproject = join(work, "pyproject.toml");
    writeFileSync(pyproject, `[project]\nname = ${toml(name)}\nversion = ${toml(meta.version)}\ndescription = ${toml(meta.summary)}\ndependencies = [${meta.requires.map(toml).join(", ")}]\n`);
    mkdirSync(sbomDir, { recursive: true });
    const file = join(sbomDir, `${name.replaceAll("-", "_")}-${meta.version}.cdx.json`);
    await must(tool, ["environment", "--pyproject", pyproject, "--mc-type", "library", "--output-format", "JSON", "--output-file", file, venv], { env, timeoutMs: 300_000 });
    return file;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
