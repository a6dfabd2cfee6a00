import { execFile } from "node:child_process";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..", "..");

/**
 * A variable a toolchain function exports (PULUMI_CDC_PLUGIN_URL from cdc_ensure_codegen,
 * PULUMI_CDC_ACTIONLINT from cdc_ensure_actionlint): from the environment when npm test's setup
 * set it, else by running the function (which builds the tool into the cache the first time).
 */
export function toolchainTool(variable: string, fn: string): Promise<string> {
  if (process.env[variable]) return Promise.resolve(process.env[variable]!);
  return new Promise((resolve, reject) =>
    execFile("bash", ["-c", `source scripts/toolchain.sh && ${fn} >&2 && printf '\\n%s' "$${variable}"`], { cwd: REPO_ROOT, timeout: 1_200_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${fn} failed:\n${stderr}`)) : resolve(stdout.trimEnd().split("\n").pop()!),
    ),
  );
}
