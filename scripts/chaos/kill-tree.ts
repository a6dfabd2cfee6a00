import { readdirSync, readFileSync } from "node:fs";

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
