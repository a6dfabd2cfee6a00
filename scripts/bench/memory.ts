import { readFile, readdir, readlink } from "node:fs/promises";

/** What a step's processes used, from Linux /proc. */
export interface StepUsage {
  /** Peak resident memory (VmHWM) of the watched process, MiB; 0 when none was seen. */
  peakMemoryMiB: number;
  /** CPU time (user + system) of the watched process, s. */
  providerCpuSeconds: number;
  /** CPU time of every process the step ran in the program's directory (CLI and engine, language host, program, providers), s. */
  stepCpuSeconds: number;
}

const TICKS_PER_SECOND = 100; // Linux's USER_HZ (getconf CLK_TCK) on every platform Node.js supports

/**
 * Peak resident memory (VmHWM, Linux /proc) and CPU time of the processes a step starts,
 * sampled while the step runs. VmHWM is the kernel's own high-water mark, so sampling only has
 * to catch each process once before it exits, not at its peak. CPU time is a process's last
 * sampled utime + stime, so up to one interval of a process's last moments is missed; on a
 * shared machine it still says more than wall time about the work a step did.
 */
export class PeakMemory {
  #peakKiB = 0;
  #timer: NodeJS.Timeout | undefined;
  #sampling: Promise<void> = Promise.resolve();
  readonly #known = new Set<number>();
  readonly #ignored = new Set<number>();
  /** Processes in the program's directory, and the largest CPU time seen for each (ticks). */
  readonly #inCwd = new Map<number, number>();

  constructor(
    private readonly target: WatchTarget,
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    const tick = () => {
      this.#sampling = this.#sample().finally(() => {
        if (this.#timer) this.#timer = setTimeout(tick, this.intervalMs);
      });
    };
    this.#timer = setTimeout(tick, 0);
  }

  /** Stops sampling (one last sample first) and returns what was used. */
  async stop(): Promise<StepUsage> {
    const timer = this.#timer;
    this.#timer = undefined;
    if (timer) clearTimeout(timer);
    await this.#sampling;
    await this.#sample();
    const seconds = (pids: Iterable<number>) => Math.round(([...pids].reduce((n, pid) => n + (this.#inCwd.get(pid) ?? 0), 0) / TICKS_PER_SECOND) * 100) / 100;
    return {
      peakMemoryMiB: Math.round((this.#peakKiB / 1024) * 10) / 10,
      providerCpuSeconds: seconds(this.#known),
      stepCpuSeconds: seconds(this.#inCwd.keys()),
    };
  }

  async #sample(): Promise<void> {
    const entries = await readdir("/proc").catch(() => [] as string[]);
    await Promise.all(
      entries.map(async (entry) => {
        const pid = Number(entry);
        if (!Number.isInteger(pid) || this.#ignored.has(pid)) return;
        if (!this.#inCwd.has(pid)) {
          // The working directory survives exec, so a process outside it is never one of ours.
          const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
          if (cwd === undefined) return;
          if (cwd !== this.target.cwd) {
            this.#ignored.add(pid);
            return;
          }
          this.#inCwd.set(pid, 0);
        }
        const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
        // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ticks = Number(fields[11]) + Number(fields[12]);
        if (Number.isFinite(ticks)) this.#inCwd.set(pid, Math.max(this.#inCwd.get(pid) ?? 0, ticks));
        if (!this.#known.has(pid)) {
          // One in the directory may still be a shell about to exec node, so its command line is read again.
          const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).replace(/\0/g, " ");
          const commands = typeof this.target.command === "string" ? [this.target.command] : this.target.command;
          if (!commands.some((command) => cmdline.includes(command))) return;
          this.#known.add(pid);
        }
        const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
        if (hwm) this.#peakKiB = Math.max(this.#peakKiB, Number(hwm[1]));
      }),
    );
  }
}

/** Processes running in `cwd` whose command line contains `command` (or one of them). */
export interface WatchTarget {
  cwd: string;
  command: string | readonly string[];
}

/** The dynamic-provider process of a Pulumi program: the `pulumi-resource-pulumi-nodejs` shim runs it with node, in the program's directory. */
export function dynamicProviderOf(programDir: string): WatchTarget {
  return { cwd: programDir, command: "cmd/dynamic-provider" };
}

/**
 * The provider plugin pulumi-resource-cdc of a Pulumi program: the engine starts every plugin in
 * the program's directory. bin/pulumi-resource-cdc is a shell script that execs node on the
 * bundle dist/plugin/pulumi-resource-cdc.js (the same process; dist/plugin/main.js unbundled);
 * an installed plugin's launcher and bundle are named the same.
 */
export function cdcPluginOf(programDir: string): WatchTarget {
  return { cwd: programDir, command: ["dist/plugin/main.js", "pulumi-resource-cdc"] };
}

/** The benchmark's no-op provider plugin pulumi-resource-bench (scripts/bench/noop-plugin), started the same way. */
export function benchPluginOf(programDir: string): WatchTarget {
  return { cwd: programDir, command: ["noop-plugin/main.js", "pulumi-resource-bench"] };
}
