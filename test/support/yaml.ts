import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The checkout under test: its bin/ holds the plugin launcher, its dist/ the built plugin. */
export const REPO_ROOT = resolve(__dirname, "..", "..");

export interface YamlProgram {
  /** The program's own directory (Pulumi.yaml, and the stack files `pulumi config set` writes). */
  dir: string;
  dispose(): Promise<void>;
}

/**
 * A copy of a Pulumi YAML program in a temporary directory, its Pulumi.yaml pointing
 * `plugins.providers` at this checkout's bin/, so the engine runs the provider plugin
 * `pulumi-resource-cdc` built here (`npm run build`) and not an installed one. The program's
 * folder is left untouched (stack files go to the copy).
 */
export async function yamlProgram(sourceDir: string): Promise<YamlProgram> {
  const plugin = join(REPO_ROOT, "dist", "plugin", "main.js");
  if (!existsSync(plugin)) throw new Error(`${plugin} is missing: build first (npm run build, or cdc_build)`);
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-yaml-"));
  await cp(sourceDir, dir, { recursive: true, filter: (src) => !/Pulumi\.[^/]+\.yaml$/.test(src) });
  const project = join(dir, "Pulumi.yaml");
  const text = await readFile(project, "utf8");
  if (/^plugins:/m.test(text)) throw new Error(`${sourceDir}/Pulumi.yaml has its own plugins section: yamlProgram adds one`);
  const plugins = ["", "plugins:", "  providers:", "    - name: cdc", `      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}`, ""].join("\n");
  await writeFile(project, `${text.trimEnd()}\n${plugins}`);
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** The engine's and pulumi-yaml's output without terminal colours (pulumi-yaml colours its errors even under --color never). */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}
