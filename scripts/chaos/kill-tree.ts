import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";

/** Every process below `pid` (Linux /proc), found before the kill: the CLI starts its plugins in process groups of their own. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The field after the parenthesised command name is the state, then the parent pid.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Exited while we looked.
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * Kills a run started in a process group of its own (spawn's `detached`) as a crash would: its
 * group and every process below it at once, the plugins too (else they outlive the run).
 */
export function killTree(pid: number): void {
  const all = descendants(pid);
  for (const target of [-pid, ...all]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // Already gone with its group.
    }
  }
}

/** An emulator hold (emulator/holds.ts): reached once the run has had its count answered and sent one more. */
export interface Hold {
  reached: Promise<unknown>;
  release(): void;
}

/**
 * `pulumi <args>` in a process group of its own, killed with -9 (killTree) the moment `hold` is
 * reached: by count, never by time. The held request is then released unanswered. Says whether the
 * hold was reached, the run ended first, or `timeoutMs` (a guard against a hung run only) passed;
 * the run's output goes to `log` when given (else nowhere).
 */
export async function killWhenHeld(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; log?: string; timeoutMs?: number },
  hold: Hold,
): Promise<"held" | "exited" | "timeout"> {
  const out = options.log === undefined ? "ignore" : openSync(options.log, "w");
  const child = spawn("pulumi", [...args], { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", out, out] });
  if (typeof out === "number") closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let guard: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    if (options.timeoutMs !== undefined) guard = setTimeout(() => resolve("timeout"), options.timeoutMs);
  });
  try {
    return await Promise.race([hold.reached.then(() => "held" as const), exited.then(() => "exited" as const), timedOut]);
  } finally {
    clearTimeout(guard);
    killTree(child.pid!);
    await exited;
    hold.release();
  }
}
