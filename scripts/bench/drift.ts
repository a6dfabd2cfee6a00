/**
 * The drift command alone, against its floor, many times over one pair of stacks: the bench's
 * `cdc` program (N sources and destinations on the dynamic classes, one source and one
 * destination then edited through the API, as the full bench does before its drift step) and
 * its floor, the same command on the `noop` program's stack (the same N resources on a no-op
 * dynamic provider: nothing for the command to check, so it only starts, reads the checkpoint
 * and prints). Both stacks are deployed once; then each round runs the floor and the cdc stack's
 * check with every CLI given, in turn, so that load from elsewhere on a shared machine hits all
 * alike. Prints the median wall time of each, the ratio of the medians, the median of the
 * rounds' ratios, the CPU time of the command and of the `pulumi` processes it ran, and the API
 * requests of each check, which must be the same for every CLI and every round.
 *
 *   bash scripts/bench/run.sh --drift-only [--count 200] [--latency-ms 0] [--repeat 9] [--cli name=path/to/cli/index.js ...]
 *
 * Without --cli it runs this checkout's dist/cli/index.js. Give two (e.g. a build of main and
 * this checkout's) to compare them in one run.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startEmulator, type EmulatorStats } from "../../dist/emulator/index.js";
import { CdcClient } from "../../dist/provider/client/index.js";
import { editOutOfBand, MAX_COUNT, MAX_LATENCY_MS, pulumi, pulumiOk, stageProgram, statsDelta } from "./bench";
import { run } from "../lib/process";
import type { ProgramName } from "./report";

const ROOT = resolve(__dirname, "..", "..");
const MAX_ROUNDS = 30;

const USAGE = `Usage: bench --drift-only [--count 200] [--latency-ms 0] [--repeat 9] [--cli name=path ...]

  --count <n>        resources per stack, 2..${MAX_COUNT}: half sources, half destinations (default 200)
  --latency-ms <n>   the emulator's added latency per request, 0..${MAX_LATENCY_MS} (default 0)
  --repeat <n>       rounds, 1..${MAX_ROUNDS}; each runs every CLI on the floor's stack and on the cdc stack (default 9)
  --cli <name=path>  a drift command to measure (its dist/cli/index.js); repeat the flag to compare several
                     (default: current=dist/cli/index.js of this checkout)
`;

interface Options {
  count: number;
  latencyMs: number;
  repeat: number;
  clis: Array<{ name: string; path: string }>;
}

function integer(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag}: an integer ${min}..${max}, got '${raw}'`);
  return n;
}

function parse(argv: string[]): Options | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      count: { type: "string" },
      "latency-ms": { type: "string" },
      repeat: { type: "string" },
      cli: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  const clis = (values.cli ?? [`current=${join(ROOT, "dist", "cli", "index.js")}`]).map((spec) => {
    const eq = spec.indexOf("=");
    if (eq <= 0 || eq === spec.length - 1) throw new Error(`--cli: expected name=path/to/cli/index.js, got '${spec}'`);
    return { name: spec.slice(0, eq), path: resolve(spec.slice(eq + 1)) };
  });
  if (new Set(clis.map((c) => c.name)).size !== clis.length) throw new Error("--cli: each name once");
  return {
    count: integer("--count", values.count ?? "200", 2, MAX_COUNT),
    latencyMs: integer("--latency-ms", values["latency-ms"] ?? "0", 0, MAX_LATENCY_MS),
    repeat: integer("--repeat", values.repeat ?? "9", 1, MAX_ROUNDS),
    clis,
  };
}

interface Sample {
  seconds: number;
  /** CPU of the command's own process, and of the `pulumi` processes it ran (its reaped children), s. */
  cpuSelf: number;
  cpuChildren: number;
  requests: Record<string, number>;
  apiRequests: number;
}

// Loaded with --require into the drift command: at exit, its own CPU and its reaped children's
// (the `pulumi` processes) from /proc/self/stat, written where BENCH_DRIFT_CPU_OUT says.
const CPU_PRELOAD = `
const { readFileSync, writeFileSync } = require("node:fs");
process.on("exit", () => {
  const out = process.env.BENCH_DRIFT_CPU_OUT;
  if (!out) return;
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14-17 of proc(5) (utime, stime, cutime, cstime), counted from the state field (3).
  const [ut, st, cut, cst] = [f[11], f[12], f[13], f[14]].map(Number);
  writeFileSync(out, JSON.stringify({ self: (ut + st) / 100, children: (cut + cst) / 100 }));
});
`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(argv: string[]): Promise<number> {
  let options: Options | "help";
  try {
    options = parse(argv);
  } catch (error) {
    process.stderr.write(`bench --drift-only: ${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const { count, latencyMs, repeat, clis } = options;
  const emulator = await startEmulator({ port: 0 });
  const web = new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" } });
  const root = await mkdtemp(join(tmpdir(), "pulumi-cdc-bench-drift-"));
  const preload = join(root, "cpu-preload.js");
  await writeFile(preload, CPU_PRELOAD);
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDC_")));
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    PULUMI_HOME: join(root, "home"),
    PULUMI_BACKEND_URL: `file://${join(root, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    NO_COLOR: "1",
  };
  await mkdir(join(root, "backend"), { recursive: true });
  const limit = Math.min(120_000 + count * 3_000, 60 * 60_000);
  const destinations = Math.floor(count / 2);
  const stacks: Array<{ program: ProgramName; stack: string; cwd: string; up: boolean }> = [];
  try {
    for (const program of ["noop", "cdc"] as const) {
      const stack = `drift-${program}-${count}`;
      const cwd = await stageProgram(program, join(root, program), undefined);
      await pulumiOk(["stack", "init", stack], cwd, env, limit);
      const entry = { program, stack, cwd, up: false };
      stacks.push(entry);
      const set = (key: string, value: string, secret = false) => pulumiOk(["config", "set", "--stack", stack, ...(secret ? ["--secret"] : []), key, value], cwd, env, limit);
      await set("bench:sources", String(count - destinations));
      await set("bench:destinations", String(destinations));
      // Both stacks hold a user's settings, the secret among them: the command decrypts the stack's
      // config whatever the stack holds (about 0.3 s of CPU with a passphrase), the floor as well.
      await set("cdc:apiUrl", emulator.url);
      await set("cdc:clientId", emulator.clientId);
      await set("cdc:clientSecret", emulator.clientSecret, true);
      process.stderr.write(`[drift-bench] pulumi up: ${program}, ${count} resources\n`);
      // Set-up, not measured: the stacks the rounds check; its preview would only add minutes.
      await pulumiOk(["up", "--yes", "--skip-preview", "--stack", stack], cwd, env, limit);
      entry.up = true;
      if (program === "cdc") await editOutOfBand(web, stack);
    }
    emulator.setFaults({ latencyMs });
    const samples = new Map<string, Sample[]>();
    for (let round = 1; round <= repeat; round++) {
      for (const cli of clis) {
        for (const { program, stack, cwd } of stacks) {
          const cpuOut = join(root, "cpu.json");
          await rm(cpuOut, { force: true });
          const before: EmulatorStats = emulator.stats();
          const started = performance.now();
          const result = await run(process.execPath, ["--require", preload, cli.path, "drift", "--stack", stack, "--json"], { cwd, env: { ...env, BENCH_DRIFT_CPU_OUT: cpuOut }, timeoutMs: limit, group: false });
          const seconds = (performance.now() - started) / 1000;
          const delta = statsDelta(before, emulator.stats());
          const expected = program === "cdc" ? 2 : 0;
          if (result.code !== expected) throw new Error(`${cli.name} on ${program}: exit ${result.code}, expected ${expected}:\n${result.stderr.slice(-2000)}`);
          const report = JSON.parse(result.stdout) as { resources: Array<{ drift: { detected: boolean } }> };
          const checked = program === "cdc" ? count : 0;
          const drifted = report.resources.filter((r) => r.drift.detected).length;
          if (report.resources.length !== checked || drifted !== (program === "cdc" ? 2 : 0)) {
            throw new Error(`${cli.name} on ${program}: ${report.resources.length} resources checked and ${drifted} drifted, expected ${checked} and ${program === "cdc" ? 2 : 0}`);
          }
          const cpu = JSON.parse(await readFile(cpuOut, "utf8")) as { self: number; children: number };
          const key = `${cli.name}/${program}`;
          samples.set(key, [...(samples.get(key) ?? []), { seconds, cpuSelf: cpu.self, cpuChildren: cpu.children, requests: delta.requests, apiRequests: delta.apiRequests }]);
          process.stderr.write(`[drift-bench] round ${round} ${key}: ${seconds.toFixed(2)} s, CPU ${cpu.self.toFixed(2)} s + pulumi ${cpu.children.toFixed(2)} s, ${delta.apiRequests} API requests\n`);
        }
      }
    }
    // The same API calls, route by route, in every round and for every CLI.
    const cdcRequests = clis.flatMap((cli) => samples.get(`${cli.name}/cdc`)!.map((s) => JSON.stringify(Object.entries(s.requests).sort())));
    const sameCalls = new Set(cdcRequests).size === 1;
    const lines = [
      `Drift command, ${count} resources (${count - destinations} sources + ${destinations} destinations), ${latencyMs} ms latency, medians of ${repeat} rounds:`,
      "",
      "| CLI | floor (s) | pulumi-cdc (s) | ratio of medians | median of the rounds' ratios | CPU, floor / pulumi-cdc: command (s) | CPU, floor / pulumi-cdc: its pulumi processes (s) | API requests |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
    ];
    for (const cli of clis) {
      const floor = samples.get(`${cli.name}/noop`)!;
      const cdc = samples.get(`${cli.name}/cdc`)!;
      const f = median(floor.map((s) => s.seconds));
      const c = median(cdc.map((s) => s.seconds));
      const perRound = median(cdc.map((s, i) => s.seconds / floor[i]!.seconds));
      const cpu = (xs: Sample[], k: "cpuSelf" | "cpuChildren") => median(xs.map((s) => s[k])).toFixed(2);
      lines.push(
        `| ${cli.name} | ${f.toFixed(2)} | ${c.toFixed(2)} | ${(c / f).toFixed(2)}× | ${perRound.toFixed(2)}× | ${cpu(floor, "cpuSelf")} / ${cpu(cdc, "cpuSelf")} | ${cpu(floor, "cpuChildren")} / ${cpu(cdc, "cpuChildren")} | ${cdc[0]!.apiRequests} |`,
      );
    }
    lines.push("", `API requests per check, by route: ${cdcRequests[0]}; ${sameCalls ? "the same in every round and for every CLI" : "NOT the same in every round and for every CLI"}.`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return sameCalls ? 0 : 1;
  } catch (error) {
    process.stderr.write(`bench --drift-only: ${(error as Error).message}\n`);
    return 1;
  } finally {
    for (const { stack, cwd, up } of stacks) {
      // Clean-up: a destroy plans from the state alone.
      if (up) await pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack], cwd, env, limit);
      await pulumi(["stack", "rm", "--yes", "--force", "--stack", stack], cwd, env, limit);
    }
    await web.close();
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
