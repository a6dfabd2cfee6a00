import { spawn, spawnSync } from "node:child_process";

// The one way the scripts (release, bench, chaos, conformance, generate) run a command to its
// end. Servers a script starts and stops (the emulator) are not commands run to their end.

/** What every `pulumi` command runs with, the CLI's (no prompt, no colour codes in what it prints). */
// Without an extension: the chaos scripts run under ts-node, which resolves no `.js` to its `.ts`.
export { ENGINE_FLAGS } from "../../cli/engine-flags";

/** What a command did: its exit code, and its output. */
export interface Ran {
  /** null when it has none: stopped at its time limit, killed by a signal, or not started. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout, then stderr (not interleaved: stdout's JSON stays whole at its start). */
  output: string;
  /** Stopped at its time limit. */
  timedOut: boolean;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The command is killed (SIGKILL) after this long; every step is bounded. */
  timeoutMs: number;
  /** Its output as it comes, to stderr, for the long steps (a package install, an engine run). */
  echo?: boolean;
  /** Each piece of its output (stdout and stderr) as it comes. */
  onOutput?: (text: string) => void;
  /**
   * Run it in a process group of its own and kill the whole group at the time limit (npm, pulumi
   * and their children): true unless given. A group of its own does not get the terminal's Ctrl-C,
   * so the runs people stop by hand (bench, chaos) turn it off.
   */
  group?: boolean;
}

/** Runs a command to its end or its time limit; never throws for a non-zero exit (see `must`). */
export function run(command: string, args: readonly string[], opts: RunOptions): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: opts.group ?? true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const take = (into: "stdout" | "stderr") => (text: string) => {
      if (into === "stdout") stdout += text;
      else stderr += text;
      if (opts.echo) process.stderr.write(text);
      opts.onOutput?.(text);
    };
    child.stdout.setEncoding("utf8").on("data", take("stdout"));
    child.stderr.setEncoding("utf8").on("data", take("stderr"));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (opts.group ?? true) process.kill(-child.pid!, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, opts.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(ran(null, stdout, `${stderr}${error.message}\n`, timedOut));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const note = timedOut ? `\n(stopped after ${Math.round(opts.timeoutMs / 1000)} s, its time limit)\n` : signal ? `\n(killed by ${signal})\n` : "";
      resolve(ran(code, stdout, stderr + note, timedOut));
    });
  });
}

/** Runs a command and throws, with the end of its output, unless it exits 0. */
export async function must(command: string, args: readonly string[], opts: RunOptions): Promise<Ran> {
  return succeeded(`${command} ${args.join(" ")}`, await run(command, args, opts));
}

/** `run`, blocking, for the few synchronous steps (git and go in the generators' and the conformance run's set-up). */
export function runSync(command: string, args: readonly string[], opts: Omit<RunOptions, "echo" | "onOutput" | "group"> & { inherit?: boolean }): Ran {
  const r = spawnSync(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    timeout: opts.timeoutMs,
    killSignal: "SIGKILL",
    // inherit: its output straight to this process's (a build's progress), not kept.
    stdio: ["ignore", opts.inherit ? "inherit" : "pipe", opts.inherit ? "inherit" : "pipe"],
  });
  const stdout = r.stdout ?? "";
  const stderr = r.error ? `${r.stderr ?? ""}${r.error.message}\n` : (r.stderr ?? "");
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return ran(r.error ? null : r.status, stdout, stderr, timedOut);
}

/** `must`, blocking. */
export function mustSync(command: string, args: readonly string[], opts: Parameters<typeof runSync>[2]): Ran {
  return succeeded(`${command} ${args.join(" ")}`, runSync(command, args, opts));
}

/** Why a command failed, in a line: its exit code, or that it was stopped. */
export function howItEnded(r: Ran): string {
  return r.timedOut ? "was stopped at its time limit" : r.code === null ? "was killed or did not start" : `exited with ${r.code}`;
}

function ran(code: number | null, stdout: string, stderr: string, timedOut: boolean): Ran {
  return { code, stdout, stderr, output: `${stdout}\n${stderr}`, timedOut };
}

function succeeded(what: string, r: Ran): Ran {
  if (r.code !== 0) throw new Error(`${what} ${howItEnded(r)}\n${tail(r.stdout)}${tail(r.stderr)}`);
  return r;
}

function tail(text: string, lines = 40): string {
  const all = text.trimEnd().split("\n");
  return all.length > lines ? `...\n${all.slice(-lines).join("\n")}\n` : text ? `${text.trimEnd()}\n` : "";
}
