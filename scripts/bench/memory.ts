import { readFile, readdir, readlink } from "node:fs/promises";

/**
 * Peak resident memory (VmHWM, Linux /proc) of the processes a step starts, sampled while the
 * step runs. VmHWM is the kernel's own high-water mark, so sampling only has to catch each
 * process once before it exits, not at its peak.
 */
export class PeakMemory {
  #peakKiB = 0;
  #timer: NodeJS.Timeout | undefined;
  #sampling: Promise<void> = Promise.resolve();
  readonly #known = new Set<number>();
  readonly #ignored = new Set<number>();

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

  /** Stops sampling (one last sample first) and returns the peak in MiB; 0 when no process was seen. */
  async stop(): Promise<number> {
    const timer = this.#timer;
    this.#timer = undefined;
    if (timer) clearTimeout(timer);
    await this.#sampling;
    await this.#sample();
    return Math.round((this.#peakKiB / 1024) * 10) / 10;
  }

  async #sample(): Promise<void> {
    const entries = await readdir("/proc").catch(() => [] as string[]);
    await Promise.all(
      entries.map(async (entry) => {
        const pid = Number(entry);
        if (!Number.isInteger(pid) || this.#ignored.has(pid)) return;
        if (!this.#known.has(pid)) {
          // The working directory survives exec, so a process outside it is never one of ours;
          // one inside it may still be a shell about to exec node, so its command line is read again.
          const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
          if (cwd === undefined) return;
          if (cwd !== this.target.cwd) {
            this.#ignored.add(pid);
            return;
          }
          const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).replace(/\0/g, " ");
          if (!cmdline.includes(this.target.command)) return;
          this.#known.add(pid);
        }
        const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
        if (hwm) this.#peakKiB = Math.max(this.#peakKiB, Number(hwm[1]));
      }),
    );
  }
}

/** Processes running in `cwd` whose command line contains `command`. */
export interface WatchTarget {
  cwd: string;
  command: string;
}

/** The dynamic-provider process of a Pulumi program: the `pulumi-resource-pulumi-nodejs` shim runs it with node, in the program's directory. */
export function dynamicProviderOf(programDir: string): WatchTarget {
  return { cwd: programDir, command: "cmd/dynamic-provider" };
}
