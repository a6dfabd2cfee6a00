import { spawn } from "node:child_process";

/** What a command did: its exit code (or the signal that stopped it), and its output. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The command is killed (its process group) after this long; every step of the release is bounded. */
  timeoutMs: number;
  /** Its output as it comes, for the long steps (a package install, an engine run). */
  echo?: boolean;
}

/** Runs a command to its end or its time limit; never throws for a non-zero exit (see `must`). */
export function run(command: string, args: readonly string[], opts: RunOptions): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        // The whole group: npm, pulumi and their children.
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, opts.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: 127, stdout, stderr: `${stderr}${error.message}\n` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const note = timedOut ? `\n(stopped after ${Math.round(opts.timeoutMs / 1000)} s, its time limit)\n` : signal ? `\n(killed by ${signal})\n` : "";
      resolve({ code: code ?? 1, stdout, stderr: stderr + note });
    });
  });
}

/** Runs a command and throws, with its output, unless it exits 0. */
export async function must(command: string, args: readonly string[], opts: RunOptions): Promise<Ran> {
  const r = await run(command, args, opts);
  if (r.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${r.code}\n${tail(r.stdout)}${tail(r.stderr)}`);
  }
  return r;
}

function tail(text: string, lines = 40): string {
  const all = text.trimEnd().split("\n");
  return all.length > lines ? `...\n${all.slice(-lines).join("\n")}\n` : text ? `${text.trimEnd()}\n` : "";
}
