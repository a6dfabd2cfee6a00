import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

// The one way the tests run a command to its end (the Pulumi CLI, pulumi-cdc, tsc, go, python,
// bash for the toolchain, tar ...). Processes a test starts and keeps running (the emulator's
// CLI, a plugin it dials, a `pulumi up` it kills) are not commands run to their end, and stay
// with their tests.

const REPO_ROOT = resolve(__dirname, "..", "..");

/** The built `pulumi-cdc` CLI (`npm run build`). */
export const CDC_CLI = resolve(REPO_ROOT, "dist", "cli", "index.js");

export interface CommandResult {
  /** The exit code; -1 when there is none (killed at its time limit or by a signal, not started, or its output over 64 MiB). */
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for assertions and for failure messages. */
  output: string;
}

export interface RunOptions {
  /** The repository's root unless given. */
  cwd?: string;
  /** This process's environment unless given. */
  env?: NodeJS.ProcessEnv;
  /** A bound, not a speed assertion: 10 minutes unless given. */
  timeout?: number;
  /** Written to the command's standard input (closed either way). */
  input?: string;
}

/** Runs a command to its end; resolves whatever the exit code (see `runOk`). */
export function run(command: string, args: readonly string[], opts: RunOptions = {}): Promise<CommandResult> {
  return new Promise((done) => {
    const child = execFile(
      command,
      args,
      { cwd: opts.cwd ?? REPO_ROOT, env: opts.env ?? process.env, maxBuffer: 64 * 1024 * 1024, timeout: opts.timeout ?? 600_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        done({ code, stdout, stderr, output: `${stdout}\n${stderr}` });
      },
    );
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(opts.input);
  });
}

/** Runs a command and rejects, with its output, unless it exits 0. */
export async function runOk(command: string, args: readonly string[], opts: RunOptions = {}): Promise<CommandResult> {
  return succeeded(command, args, await run(command, args, opts));
}

/** `run`, blocking: only where a test needs the answer synchronously (while vitest collects its tests). */
export function runSync(command: string, args: readonly string[], opts: RunOptions = {}): CommandResult {
  const r = spawnSync(command, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: opts.env ?? process.env,
    input: opts.input ?? "",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: opts.timeout ?? 600_000,
  });
  const stdout = r.stdout ?? "";
  const stderr = r.stderr ?? "";
  return { code: r.error || r.status === null ? -1 : r.status, stdout, stderr, output: `${stdout}\n${stderr}` };
}

/** `runOk`, blocking. */
export function runOkSync(command: string, args: readonly string[], opts: RunOptions = {}): CommandResult {
  return succeeded(command, args, runSync(command, args, opts));
}

function succeeded(command: string, args: readonly string[], result: CommandResult): CommandResult {
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.code}:\n${result.output}`);
  return result;
}

/** Runs the built `pulumi-cdc <args>` with this Node.js; resolves whatever the exit code (0, 1 an error, 2 drift). */
export function runCdc(args: readonly string[], opts: RunOptions = {}): Promise<CommandResult> {
  return run(process.execPath, [CDC_CLI, ...args], opts);
}

/**
 * Runs a function of scripts/toolchain.sh and prints a variable it exports (the tool it built or
 * found, a PATH); rejects with its output when it fails. `npm test`'s set-up has already run the
 * functions, so this takes a second.
 */
export async function toolchainValue(fn: string, variable: string): Promise<string> {
  const r = await run("bash", ["-c", `source scripts/toolchain.sh && ${fn} >&2 && printf '\\n%s' "$${variable}"`], { timeout: 1_200_000 });
  if (r.code !== 0) throw new Error(`${fn} failed:\n${r.output}`);
  return r.stdout.trimEnd().split("\n").pop()!;
}

/**
 * A tool a toolchain function exports (PULUMI_CDC_CODEGEN or PULUMI_CDC_PLUGIN_URL from
 * cdc_ensure_codegen, PULUMI_CDC_ACTIONLINT from cdc_ensure_actionlint): from the environment when
 * npm test's set-up set it, else by running the function (which builds it the first time).
 */
export async function toolchainTool(variable: string, fn: string): Promise<string> {
  const given = process.env[variable];
  if (given && (!given.startsWith("/") || existsSync(given))) return given;
  return toolchainValue(fn, variable);
}
