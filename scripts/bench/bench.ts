/**
 * Benchmark: deploy N pulumi-cdc Sources and time `pulumi up`, `pulumi preview` and
 * `pulumi destroy`, against the same N resources on a no-op dynamic provider (the floor the
 * engine itself costs). Counts the API requests and token requests of each step from the
 * emulator's counters. Writes a JSON result and prints a markdown table.
 *
 *   bash scripts/bench/run.sh [--counts 50,200] [--repeat 3] [--out .bench/result.json]
 *
 * run.sh sources the toolchain and builds first: this script uses the compiled emulator, and the
 * programs load the compiled package, as users' programs do.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { cpus, platform, arch, release, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
// The built emulator (run.sh builds): the same code `npx pulumi-cdc-emulator` runs.
import { startEmulator, type EmulatorStats, type RunningEmulator } from "../../dist/emulator/index.js";

const ROOT = resolve(__dirname, "..", "..");
const PROGRAMS_DIR = join(__dirname, "programs");
/** The floor first in each round; see main() for why the programs alternate. */
const PROGRAMS = ["noop", "cdc"] as const;
type ProgramName = (typeof PROGRAMS)[number];
const STEPS = ["up", "preview", "destroy"] as const;
type StepName = (typeof STEPS)[number];
const RESOURCE_TYPES: Record<ProgramName, string> = {
  cdc: "pulumi-nodejs:dynamic/cdc:Source",
  noop: "pulumi-nodejs:dynamic/bench:NoopSource",
};
export const MAX_COUNT = 500;
export const MAX_REPEAT = 5;

const USAGE = `Usage: bench [--counts 50,200] [--repeat 1] [--out .bench/result.json]

  --counts <n,...>  resource counts to deploy, each 1..${MAX_COUNT} (default 50,200)
  --repeat <n>      runs per count and program, 1..${MAX_REPEAT}; the table shows the median (default 1)
  --out <file>      where to write the JSON result (default .bench/result.json)
`;

interface BenchOptions {
  counts: number[];
  repeat: number;
  out: string;
}

export function parseBenchArgs(argv: string[]): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: { counts: { type: "string" }, repeat: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) return "help";
  const counts = (values.counts ?? "50,200").split(",").map((raw) => {
    const n = Number(raw.trim());
    // Bounded: a typo like 20000 would run for hours and fill the disk with checkpoints.
    if (!Number.isInteger(n) || n < 1 || n > MAX_COUNT) throw new Error(`--counts: each count must be an integer 1..${MAX_COUNT}, got '${raw}'`);
    return n;
  });
  const repeat = Number(values.repeat ?? "1");
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) throw new Error(`--repeat must be an integer 1..${MAX_REPEAT}, got '${values.repeat}'`);
  return { counts, repeat, out: resolve(values.out ?? join(ROOT, ".bench", "result.json")) };
}

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `pulumi` with a hard time limit; the limit grows with the resource count. */
function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CommandResult> {
  return new Promise((done) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive", "--color", "never"],
      { cwd, env, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

async function pulumiOk(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CommandResult> {
  const result = await pulumi(args, cwd, env, timeoutMs);
  if (result.code !== 0) {
    const how = result.code === null ? `was stopped (time limit ${Math.round(timeoutMs / 1000)} s)` : `exited with ${result.code}`;
    const tail = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-25).join("\n");
    throw new Error(`pulumi ${args.join(" ")} ${how}:\n${tail}`);
  }
  return result;
}

export interface StepSample {
  seconds: number;
  /** Requests the emulator received during the step (token requests included). */
  apiRequests: number;
  /** Requests on POST /auth/access-token and /auth/access-token/refresh. */
  tokenRequests: number;
  /** Non-zero per-route counts, e.g. {"POST /sources": 50}. */
  requests: Record<string, number>;
}

/** One run of one program at one count: up, preview, destroy on a fresh stack. */
export interface RunSample {
  program: ProgramName;
  count: number;
  steps: Record<StepName, StepSample>;
}

/** A step over the repetitions: the median time, every sample, and the most API traffic seen. */
export interface StepResult {
  seconds: number;
  samples: number[];
  apiRequests: number;
  tokenRequests: number;
  requests: Record<string, number>;
}

export interface RunResult {
  program: ProgramName;
  count: number;
  steps: Record<StepName, StepResult>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 100) / 100;
}

export function summarise(samples: readonly RunSample[]): RunResult[] {
  const out: RunResult[] = [];
  for (const sample of samples) {
    if (out.some((r) => r.program === sample.program && r.count === sample.count)) continue;
    const same = samples.filter((s) => s.program === sample.program && s.count === sample.count);
    const steps = {} as Record<StepName, StepResult>;
    for (const step of STEPS) {
      const all = same.map((s) => s.steps[step]);
      const busiest = all.reduce((a, b) => (b.apiRequests > a.apiRequests ? b : a));
      steps[step] = {
        seconds: median(all.map((x) => x.seconds)),
        samples: all.map((x) => x.seconds),
        apiRequests: busiest.apiRequests,
        tokenRequests: Math.max(...all.map((x) => x.tokenRequests)),
        requests: busiest.requests,
      };
    }
    out.push({ program: sample.program, count: sample.count, steps });
  }
  return out;
}

export function statsDelta(before: EmulatorStats, after: EmulatorStats): Omit<StepSample, "seconds"> {
  const requests: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.requests)) {
    const d = n - (before.requests[route] ?? 0);
    if (d !== 0) requests[route] = d;
  }
  const tokens = (s: EmulatorStats) => s.tokenRequests.accessToken + s.tokenRequests.refresh;
  return { apiRequests: after.total - before.total, tokenRequests: tokens(after) - tokens(before), requests };
}

/**
 * A copy of the program in a temporary directory, so stack config files never land in the
 * repository; its node_modules links to the repository's, where `pulumi-cdc` links to the package.
 */
async function stageProgram(program: ProgramName, dir: string): Promise<string> {
  const target = join(dir, "program");
  await mkdir(target, { recursive: true });
  for (const file of ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts"]) {
    await copyFile(join(PROGRAMS_DIR, program, file), join(target, file));
  }
  await symlink(join(ROOT, "node_modules"), join(target, "node_modules"), "dir");
  return target;
}

function resourcesOfType(checkpoint: string, type: string): number {
  const parsed = JSON.parse(checkpoint) as { deployment?: { resources?: Array<{ type: string }> } };
  return (parsed.deployment?.resources ?? []).filter((r) => r.type === type).length;
}

async function benchOne(program: ProgramName, count: number, round: number, emulator: RunningEmulator): Promise<RunSample> {
  const dir = await mkdtemp(join(tmpdir(), `pulumi-cdc-bench-${program}-${count}-`));
  // Distinct per round: resource names derive from the stack name and are unique per tenant in the shared emulator.
  const stack = `bench-${program}-${count}-${round}`;
  // The CDC_* variables are dropped so the provider reads the stack config set below, like a user's stack.
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDC_")));
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    PULUMI_HOME: join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${join(dir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    NO_COLOR: "1",
  };
  const setupLimit = 60_000;
  // Generous for slow machines, and still bounded: a hung engine cannot stall the run forever.
  const stepLimit = Math.min(60_000 + count * 3_000, 30 * 60_000);
  await mkdir(join(dir, "backend"), { recursive: true });
  const cwd = await stageProgram(program, dir);
  let initialised = false;
  let destroyed = false;
  try {
    await pulumiOk(["stack", "init", stack], cwd, env, setupLimit);
    initialised = true;
    await pulumiOk(["config", "set", "--stack", stack, "bench:count", String(count)], cwd, env, setupLimit);
    if (program === "cdc") {
      await pulumiOk(["config", "set", "--stack", stack, "cdc:apiUrl", emulator.url], cwd, env, setupLimit);
      await pulumiOk(["config", "set", "--stack", stack, "cdc:clientId", emulator.clientId], cwd, env, setupLimit);
      await pulumiOk(["config", "set", "--stack", stack, "--secret", "cdc:clientSecret", emulator.clientSecret], cwd, env, setupLimit);
    }
    const commands: Record<StepName, string[]> = {
      up: ["up", "--yes", "--skip-preview", "--stack", stack],
      // --expect-no-changes: a preview right after up that wants changes would be a perpetual diff, not a timing.
      preview: ["preview", "--expect-no-changes", "--stack", stack],
      destroy: ["destroy", "--yes", "--skip-preview", "--stack", stack],
    };
    const steps = {} as Record<StepName, StepSample>;
    for (const step of STEPS) {
      const before = emulator.stats();
      const started = performance.now();
      await pulumiOk(commands[step], cwd, env, stepLimit);
      const seconds = (performance.now() - started) / 1000;
      steps[step] = { seconds: Math.round(seconds * 100) / 100, ...statsDelta(before, emulator.stats()) };
      // Outside the timing: the numbers only count if the step did what it should.
      const deployed = resourcesOfType((await pulumiOk(["stack", "export", "--stack", stack], cwd, env, setupLimit)).stdout, RESOURCE_TYPES[program]);
      const expected = step === "destroy" ? 0 : count;
      if (deployed !== expected) throw new Error(`${program} ${count}: after ${step} the stack holds ${deployed} resources, expected ${expected}`);
      if (step === "destroy") destroyed = true;
      process.stderr.write(`[bench] ${program} ${count} #${round}: ${step} ${seconds.toFixed(1)} s, ${steps[step].apiRequests} API requests\n`);
    }
    return { program, count, steps };
  } finally {
    if (initialised) {
      // After a failure: a half-deployed stack must not be left behind (the emulator is in memory anyway).
      if (!destroyed) await pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack], cwd, env, stepLimit);
      // pulumi() resolves whatever the exit code: cleanup goes on, and the temporary directory goes below anyway.
      await pulumi(["stack", "rm", "--yes", "--force", "--stack", stack], cwd, env, setupLimit);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

async function pulumiVersion(): Promise<string> {
  const result = await pulumi(["version"], ROOT, process.env, 30_000);
  return result.stdout.trim() || "unknown";
}

export interface BenchResult {
  generatedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string; pulumi: string };
  settings: { counts: number[]; repeat: number; steps: string[]; resource: Record<ProgramName, string> };
  notes: string[];
  /** Per program and count: median seconds over the repetitions, and the API traffic of each step. */
  results: RunResult[];
  /** Every repetition as measured. */
  samples: RunSample[];
}

function fmt(seconds: number): string {
  return seconds.toFixed(1);
}

/** One row per count and step: floor, pulumi-cdc (medians), the difference, and pulumi-cdc's API traffic. */
export function markdownTable(result: BenchResult): string {
  const rows = [
    "| resources | step | no-op floor (s) | pulumi-cdc (s) | difference (s) | API requests | token requests |",
    "|---:|---|---:|---:|---:|---:|---:|",
  ];
  const counts = [...new Set(result.results.map((r) => r.count))];
  for (const count of counts) {
    const noop = result.results.find((r) => r.count === count && r.program === "noop");
    const cdc = result.results.find((r) => r.count === count && r.program === "cdc");
    if (!noop || !cdc) continue;
    for (const step of STEPS) {
      const a = noop.steps[step];
      const b = cdc.steps[step];
      const diff = b.seconds - a.seconds;
      rows.push(`| ${count} | ${step} | ${fmt(a.seconds)} | ${fmt(b.seconds)} | ${diff >= 0 ? "+" : ""}${fmt(diff)} | ${b.apiRequests} | ${b.tokenRequests} |`);
    }
  }
  return rows.join("\n");
}

async function main(argv: string[]): Promise<number> {
  let options: BenchOptions | "help";
  try {
    options = parseBenchArgs(argv);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const emulator = await startEmulator({ port: 0 });
  try {
    const samples: RunSample[] = [];
    for (const count of options.counts) {
      // Programs alternate within each round, so a burst of load from elsewhere hits both alike.
      for (let round = 1; round <= options.repeat; round++) {
        for (const program of PROGRAMS) samples.push(await benchOne(program, count, round, emulator));
      }
    }
    const cpu = cpus();
    const result: BenchResult = {
      generatedAt: new Date().toISOString(),
      machine: {
        cpus: cpu.length,
        cpuModel: cpu[0]?.model.trim() ?? "unknown",
        memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
        os: `${platform()} ${release()} ${arch()}`,
        node: process.version,
        pulumi: await pulumiVersion(),
      },
      settings: { counts: options.counts, repeat: options.repeat, steps: [...STEPS], resource: RESOURCE_TYPES },
      notes: [
        "Resources: postgresql Sources (pulumi-cdc) vs the same inputs on a dynamic provider that makes no API call (no-op floor).",
        "API: the local emulator in this process, no added latency: the difference is pulumi-cdc's own cost, not network time.",
        "Each step is one pulumi command with default parallelism, timed from start to exit (CLI start-up and program run included).",
      ],
      results: summarise(samples),
      samples,
    };
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${markdownTable(result)}\n\n`);
    process.stdout.write(
      `Machine: ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGiB} GiB, Node ${result.machine.node}, Pulumi ${result.machine.pulumi}.\n`,
    );
    process.stdout.write(`Result written to ${options.out}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await emulator.stop();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
