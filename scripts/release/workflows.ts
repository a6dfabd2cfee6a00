import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { run } from "../lib/process.js";

/** actionlint (built by the toolchain: cdc_ensure_actionlint) over .github/workflows; returns the files it passed, throws with its report otherwise. */
export async function lintWorkflows(root: string): Promise<string[]> {
  const tool = process.env.PULUMI_CDC_ACTIONLINT;
  if (!tool) throw new Error("PULUMI_CDC_ACTIONLINT is not set: source scripts/toolchain.sh and run cdc_ensure_actionlint first");
  const dir = join(root, ".github", "workflows");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
  if (files.length === 0) throw new Error("no workflow in .github/workflows");
  const r = await run(tool, ["-no-color", ...files.map((f) => join(".github", "workflows", f))], { cwd: root, timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`actionlint found problems:\n${r.stdout}${r.stderr}`);
  return files;
}
