import { cp } from "node:fs/promises";
import { join } from "node:path";
import { run, runOkSync } from "./process.js";

const REPO_ROOT = join(__dirname, "..", "..");

export interface PythonToolchain {
  /** The machine's python3 (3.9 or newer, able to make virtual environments). */
  python: string;
  /** The toolchain's cached wheels: Pulumi's Python SDK at the CLI's release, its dependencies, the build tools. */
  wheelhouse: string;
  /** The Pulumi CLI release the toolchain pins (scripts/toolchain.sh CDC_PULUMI_VERSION). */
  pulumiVersion: string;
  /** pip's settings that make every install come from the wheelhouse, never from an index. */
  pipEnv: Record<string, string>;
}

/**
 * scripts/toolchain.sh's cdc_ensure_python (npm test's setup has already run it, so this takes a
 * second). null, after a one-line warning, only where the machine has no Python 3.9+ at all;
 * any other failure (PyPI unreachable on a first run, no venv module) throws, so a test fails.
 */
export async function pythonToolchain(): Promise<PythonToolchain | null> {
  const r = await run("bash", ["-c", 'source scripts/toolchain.sh && cdc_ensure_python >&2 && printf "\\n%s\\n%s\\n%s" "$PULUMI_CDC_PYTHON" "$PULUMI_CDC_WHEELHOUSE" "$CDC_PULUMI_VERSION"'], { timeout: 1_200_000 });
  if (r.code === 2) {
    console.warn(`skipped: ${/warning: (.*)/.exec(r.output)?.[1] ?? "no Python 3.9+ on this machine"}`);
    return null;
  }
  if (r.code !== 0) throw new Error(`cdc_ensure_python failed:\n${r.output}`);
  const [python, wheelhouse, pulumiVersion] = r.stdout.trimEnd().split("\n").slice(-3) as [string, string, string];
  return {
    python,
    wheelhouse,
    pulumiVersion,
    pipEnv: { PIP_NO_INDEX: "1", PIP_FIND_LINKS: wheelhouse, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
  };
}

/** The pip requirement that matches the engine: Pulumi's Python SDK of the CLI's minor release. */
export function pulumiRequirement(pulumiVersion: string): string {
  const [major, minor] = pulumiVersion.split(".").map(Number) as [number, number];
  return `pulumi>=${pulumiVersion},<${major}.${minor + 1}.0`;
}

/**
 * The PATH with a Python language host on it: scripts/toolchain.sh's cdc_ensure_codegen links
 * tools/pulumi-language-python unless the machine has Pulumi's (built once into the cache).
 */
export async function pathWithPythonHost(): Promise<string> {
  // The host's own directory first (its build in the cache, named by a hash of tools/): the shared
  // shim directory's link is re-pointed or removed when another checkout's toolchain runs meanwhile.
  const script = 'source scripts/toolchain.sh && cdc_ensure_codegen >&2 && host="$(readlink -f "$(command -v pulumi-language-python)")" && printf "\\n%s:%s" "$(dirname "$host")" "$PATH"';
  const r = await run("bash", ["-c", script], { timeout: 1_200_000 });
  if (r.code !== 0) throw new Error(`cdc_ensure_codegen failed:\n${r.output}`);
  return r.output.trimEnd().split("\n").pop()!;
}

/**
 * A copy of this checkout's generated/sdks/python at `dest`, for a program's requirements.txt: pip
 * builds a local project in place (build/, *.egg-info), so never from the checkout itself, which
 * other tests read at the same time.
 */
export async function pythonSdkCopy(dest: string): Promise<string> {
  await cp(join(REPO_ROOT, "generated", "sdks", "python"), dest, { recursive: true, filter: (src) => !/\/(build|__pycache__)$|\.egg-info$/.test(src) });
  return dest;
}

/** Python's own parser reads `source` as a program's __main__.py: a syntax error throws, with python3's message. */
export function parsePython(source: string): void {
  runOkSync("python3", ["-c", "import ast,sys; ast.parse(sys.stdin.read(), '__main__.py')"], { input: source });
}
