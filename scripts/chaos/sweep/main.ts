/**
 * The crash-point sweep (issue 39), not a test: `npm run chaos -- --sweep`.
 *
 *   bash scripts/chaos/run.sh --sweep [--hosts dynamic,plugin] [--modes default,skipped]
 *     [--up 10] [--destroy 5] [--replace 3] [--seed N | --no-faults] [--out .chaos/sweep.json]
 *
 * For each host and checkpoint mode: a reference run counts the API writes of an up, a replacing
 * up and a destroy of the sweep's program (every kind, 41 resources). Then each point kills a
 * run with -9 right after its k-th write (k spread over the whole run), runs `pulumi-cdc recover
 * --yes` and one plain `pulumi up` (or `destroy`), and checks the invariants against the emulator
 * (core.ts). The API has bad minutes throughout (a seeded fault mix, garbled answers among them;
 * the seed is printed, and `--seed` replays it). One line per point, then a summary that counts
 * the faults met by kind; exits 1 when any point failed.
 */
import { randomInt } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { faultMix, killAndRecover, spread, SweepStack, type FaultsMet, type Host, type Mode, type PointResult } from "./core";

const ROOT = resolve(__dirname, "..", "..", "..");

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      sweep: { type: "boolean" },
      hosts: { type: "string" },
      modes: { type: "string" },
      up: { type: "string" },
      destroy: { type: "string" },
      replace: { type: "string" },
      seed: { type: "string" },
      "no-faults": { type: "boolean" },
      out: { type: "string" },
    },
  });
  const list = <T extends string>(value: string | undefined, all: readonly T[], flag: string): T[] => {
    const got = (value ?? all.join(",")).split(",").filter((v) => v !== "");
    const bad = got.filter((v) => !all.includes(v as T));
    if (bad.length > 0 || got.length === 0) throw new Error(`--${flag} takes ${all.join(", ")} (comma-separated), got '${value}'`);
    return got as T[];
  };
  const count = (value: string | undefined, fallback: number, flag: string, min: number) => {
    const n = Number(value ?? fallback);
    if (!Number.isInteger(n) || n < min || n > 50) throw new Error(`--${flag} must be an integer ${min}..50, got '${value}'`);
    return n;
  };
  const seed = values.seed === undefined ? randomInt(1, 2 ** 31 - 1) : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 1) throw new Error(`--seed must be a positive integer, got '${values.seed}'`);
  return {
    hosts: list<Host>(values.hosts, ["dynamic", "plugin"], "hosts"),
    modes: list<Mode>(values.modes, ["default", "skipped"], "modes"),
    up: count(values.up, 10, "up", 1),
    destroy: count(values.destroy, 5, "destroy", 0),
    replace: count(values.replace, 3, "replace", 0),
    seed,
    faults: values["no-faults"] !== true,
    out: resolve(values.out ?? join(ROOT, ".chaos", "sweep.json")),
  };
}

const say = (line: string) => process.stdout.write(`${line}\n`);

function line(r: PointResult, total: number): string {
  const what = `${r.host.padEnd(7)} ${r.mode.padEnd(7)} ${r.kill.padEnd(7)} after write ${String(r.k).padStart(3)}/${total}`;
  if (!r.reached) return `${what}: FAIL, the run ended before its ${r.k}th write (${r.seconds} s)`;
  return r.failures.length === 0 ? `${what}: ok (${r.seconds} s)` : `${what}: FAIL (${r.seconds} s)\n${r.failures.map((f) => `    ${f.split("\n").join("\n    ")}`).join("\n")}`;
}

/** What the fault mix did over the whole sweep, every kind named (the garbled answers of issue 49 among them). */
function faultsMet(results: PointResult[]): string {
  const names: Array<[keyof FaultsMet, string]> = [
    ["failed", "503"],
    ["dropped", "dropped"],
    ["lost", "lost answer"],
    ["rateLimited", "429"],
    ["html", "HTML page"],
    ["truncated", "cut off"],
    ["wrongShape", "other shape"],
    ["oversized", "oversized"],
  ];
  const total = (name: keyof FaultsMet) => results.reduce((n, r) => n + (r.faults?.[name] ?? 0), 0);
  return `faults met: ${names.map(([name, words]) => `${words} ×${total(name)}`).join(", ")}`;
}

/** The writes of an up, a replacing up and a destroy of the program, counted on a clean API. */
async function reference(host: Host, mode: Mode): Promise<{ up: number; replace: number; destroy: number }> {
  const s = await SweepStack.create(host, mode, "ref");
  try {
    const count = async (step: () => Promise<unknown>) => {
      s.emulator.resetStats();
      await step();
      return s.writes();
    };
    const up = await count(() => s.must(["up", "--yes"]));
    const replace = await count(async () => {
      await s.nextGeneration();
      await s.must(["up", "--yes"]);
    });
    const destroy = await count(() => s.must(["destroy", "--yes"]));
    return { up, replace, destroy };
  } finally {
    await s.dispose();
  }
}

async function main() {
  const o = options(process.argv.slice(2));
  say(`crash-point sweep: hosts ${o.hosts.join(", ")}; checkpoints ${o.modes.join(", ")}; ${o.up} up, ${o.destroy} destroy and ${o.replace} replace points each; ${o.faults ? `faults seeded ${o.seed} (replay with --seed ${o.seed})` : "no faults"}`);
  const results: PointResult[] = [];
  const started = Date.now();
  for (const host of o.hosts) {
    for (const mode of o.modes) {
      const writes = await reference(host, mode);
      say(`${host} ${mode}: an up makes ${writes.up} writes, a replacing up ${writes.replace}, a destroy ${writes.destroy}`);
      const destroyPoints = spread(writes.destroy, o.destroy);
      const replacePoints = spread(writes.replace, o.replace);
      const upPoints = spread(writes.up, o.up);
      for (const [i, k] of upPoints.entries()) {
        const s = await SweepStack.create(host, mode, `sw${i}`, o.faults ? faultMix(o.seed + i) : undefined);
        try {
          const up = await killAndRecover(s, "up", k);
          results.push(up);
          say(line(up, writes.up));
          // The stack the point left converged carries a destroy or a replace point of its own.
          const next = i < destroyPoints.length ? { kill: "destroy" as const, k: destroyPoints[i]!, total: writes.destroy } : i - destroyPoints.length < replacePoints.length ? { kill: "replace" as const, k: replacePoints[i - destroyPoints.length]!, total: writes.replace } : undefined;
          if (next && up.reached && up.failures.length === 0) {
            const r = await killAndRecover(s, next.kill, next.k);
            results.push(r);
            say(line(r, next.total));
          } else if (next) {
            say(`${host} ${mode} ${next.kill} after write ${next.k}: not run, its up point failed`);
            results.push({ host, mode, kill: next.kill, k: next.k, reached: false, failures: ["not run: its up point failed"], seconds: 0 });
          }
        } finally {
          await s.dispose();
        }
      }
    }
  }
  const failed = results.filter((r) => !r.reached || r.failures.length > 0);
  const by = (kill: string) => results.filter((r) => r.kill === kill).length;
  const summary = `sweep: ${results.length} points (${o.hosts.length} hosts × ${o.modes.length} checkpoint modes × ${by("up") / (o.hosts.length * o.modes.length)} up, ${by("destroy") / (o.hosts.length * o.modes.length)} destroy, ${by("replace") / (o.hosts.length * o.modes.length)} replace), failures ${failed.length}; ${o.faults ? `seed ${o.seed}; ${faultsMet(results)}` : "no faults"}; ${Math.round((Date.now() - started) / 60_000)} min`;
  say(summary);
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, `${JSON.stringify({ summary, seed: o.faults ? o.seed : null, results }, null, 2)}\n`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`sweep: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
