/**
 * Benchmark: N pulumi-cdc sources and destinations through every step a user runs (up, a
 * no-change preview, a preview after an out-of-band edit, the drift command, refresh,
 * destroy) on both hosts: the dynamic classes, next to the same program on a no-op dynamic
 * provider (the floor the engine itself costs), and the provider plugin pulumi-resource-cdc,
 * next to the same program on a no-op provider plugin (noop-plugin/), all in the same run, at
 * the emulator latencies asked for. Counts each step's API requests from the emulator and
 * samples the peak memory of the process doing the API work (the dynamic-provider host, the
 * plugin). Writes a JSON result and prints a markdown table per size and latency, with the
 * plugin's goals and whether they hold.
 *
 *   bash scripts/bench/run.sh [--counts 200,1000] [--latency-ms 0,100] [--repeat 1] [--programs ...] [--out .bench/result.json]
 *
 * run.sh sources the toolchain and builds first: this script uses the compiled emulator and
 * drift command, and the programs load the compiled package, as users' programs do.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { arch, cpus, platform, release, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
// The built emulator and client (run.sh builds): the same code `npx pulumi-cdc-emulator` runs.
import { startEmulator, type EmulatorStats, type RunningEmulator } from "../../dist/emulator/index.js";
import { CdcClient, DEFAULT_CREATED_FROM, destinationConnectorSchema, sourceConnectorSchema } from "../../dist/provider/client/index.js";
import { benchPluginOf, cdcPluginOf, dynamicProviderOf, PeakMemory, type WatchTarget } from "./memory";
import { buildVendor, cannotBuild } from "../conformance/vendor";
import { ENGINE_FLAGS, howItEnded, run, type Ran } from "../lib/process";
import {
  CHECKPOINT_MODES,
  goalsText,
  markdownTables,
  PROGRAMS,
  STEP_LABELS,
  STEPS,
  summarise,
  TERRAFORM,
  TERRAFORM_STEPS,
  usesApi,
  type CheckpointMode,
  type ProgramName,
  type RunResult,
  type RunSample,
  type StepName,
  type StepSample,
} from "./report";

const ROOT = resolve(__dirname, "..", "..");
const PROGRAMS_DIR = join(__dirname, "programs");
const DRIFT_CLI = join(ROOT, "dist", "cli", "index.js");
const PROFILE_PRELOAD = join(__dirname, "profile", "preload.js");
const RESOURCE_TYPES: Record<Exclude<ProgramName, typeof TERRAFORM>, string[]> = {
  noop: ["pulumi-nodejs:dynamic/bench:NoopSource", "pulumi-nodejs:dynamic/bench:NoopDestination"],
  cdc: ["pulumi-nodejs:dynamic/cdc:Source", "pulumi-nodejs:dynamic/cdc:Destination"],
  "noop-plugin": ["bench:index:NoopSource", "bench:index:NoopDestination"],
  "cdc-plugin": ["cdc:index:Source", "cdc:index:Destination"],
};
/** The process that does a program's provider work: the dynamic-provider host, or the provider plugin. */
const PROVIDER_PROCESS: Record<Exclude<ProgramName, typeof TERRAFORM>, (programDir: string) => WatchTarget> = {
  noop: dynamicProviderOf,
  cdc: dynamicProviderOf,
  "noop-plugin": benchPluginOf,
  "cdc-plugin": cdcPluginOf,
};
export const MAX_COUNT = 1_000;
export const MAX_REPEAT = 5;
export const MAX_LATENCY_MS = 2_000;

const USAGE = `Usage: bench [--counts 200] [--latency-ms 0] [--repeat 1] [--programs ${PROGRAMS.join(",")}] [--checkpoints skip] [--steps ...] [--terraform <clone>] [--max-concurrency n] [--parallel n] [--neighbours 0] [--out .bench/result.json]

  --counts <n,...>      resources per stack, each 2..${MAX_COUNT}: half sources, half destinations (default 200)
  --latency-ms <n,...>  the emulator's added latency per request, each 0..${MAX_LATENCY_MS} (default 0)
  --repeat <n>          runs per size, latency and program, 1..${MAX_REPEAT}; the table shows the median (default 1)
  --programs <p,...>    which programs to run (default all four): noop (no-op dynamic provider), cdc (the dynamic
                        classes), noop-plugin (no-op provider plugin), cdc-plugin (the provider plugin)
  --checkpoints <m,...>  how the engine saves the Pulumi stacks, each run in turn (default skip): skip
                        (PULUMI_SKIP_CHECKPOINTS=true: once, at the end; what docs/large-stacks.md recommends), every
                        (a checkpoint after every step, Pulumi's own default)
  --steps <s,...>       which steps to run, in their order (default all): ${STEPS.join(", ")}
  --terraform <clone>   add a column for the vendor's Terraform provider, built from this clone (go build, cached by
                        commit, as npm run conformance builds its tests) and run by terraform on the same sources
                        against the same emulator (scripts/bench/terraform/main.tf); also CDC_BENCH_TERRAFORM. Skipped
                        with a notice when Go, terraform or the clone is missing
  --max-concurrency <n> set cdc:maxConcurrency on the pulumi-cdc stacks (default: unset, the provider's default)
  --parallel <n>        operations the engine runs at once, 1..256: PULUMI_PARALLEL for every Pulumi step and
                        -parallelism for terraform (default: each tool's own, Pulumi 4 per CPU, terraform 10)
  --neighbours <n>      connectors of another stack in the same tenant, made with the same IaC value before
                        the runs, half sources and half destinations, 0..${MAX_COUNT} (default 0): a tenant shared
                        by dev and prod stacks, whose objects every listing returns
  --out <file>          where to write the JSON result (default .bench/result.json)
  --profile-dir <dir>   profile the provider processes (dynamic-provider host, both plugins) of every step into
                        <dir>/<program>-<count>-<latency>ms-<round>/<step>/: CPU profile, memory, GC, RPC times
                        (profile/preload.js; summarise with node scripts/bench/profile/summarise.js <dir>).
                        Profiling slows the providers: its timings are not the benchmark's
  --plugin-node-args=<a> run both provider plugins (cdc-plugin's and the no-op floor's) as node <a> main.js, e.g.
                        --plugin-node-args=--max-semi-space-size=2 (with "=": the value starts with a dash), through
                        launchers made for the run (bin/ is left as it is)
`;

interface BenchOptions {
  checkpoints: CheckpointMode[];
  steps: StepName[];
  /** A clone of the vendor's Terraform provider (--terraform or CDC_BENCH_TERRAFORM); undefined: no Terraform column. */
  terraform: string | undefined;
  counts: number[];
  latencies: number[];
  repeat: number;
  programs: ProgramName[];
  maxConcurrency: number | undefined;
  /** --parallel: the engine's and terraform's parallelism; undefined: each tool's default. */
  parallel: number | undefined;
  neighbours: number;
  out: string;
  profileDir: string | undefined;
  pluginNodeArgs: string | undefined;
}

function integers(flag: string, raw: string, min: number, max: number): number[] {
  return raw.split(",").map((part) => {
    const n = Number(part.trim());
    // Bounded: a typo like 20000 would run for hours and fill the disk with checkpoints.
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag}: each value must be an integer ${min}..${max}, got '${part}'`);
    return n;
  });
}

export function parseBenchArgs(argv: string[]): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      counts: { type: "string" },
      "latency-ms": { type: "string" },
      repeat: { type: "string" },
      programs: { type: "string" },
      "max-concurrency": { type: "string" },
      parallel: { type: "string" },
      neighbours: { type: "string" },
      out: { type: "string" },
      "profile-dir": { type: "string" },
      "plugin-node-args": { type: "string" },
      checkpoints: { type: "string" },
      steps: { type: "string" },
      terraform: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  const [repeat] = integers("--repeat", values.repeat ?? "1", 1, MAX_REPEAT);
  const programs = values.programs === undefined ? [...PROGRAMS] : values.programs.split(",").map((p) => p.trim());
  for (const p of programs) {
    if (!(PROGRAMS as readonly string[]).includes(p)) throw new Error(`--programs: '${p}' is none of ${PROGRAMS.join(", ")}`);
  }
  const checkpoints = (values.checkpoints ?? "skip").split(",").map((c) => c.trim());
  for (const c of checkpoints) {
    if (!(CHECKPOINT_MODES as readonly string[]).includes(c)) throw new Error(`--checkpoints: '${c}' is none of ${CHECKPOINT_MODES.join(", ")}`);
  }
  const steps = values.steps === undefined ? [...STEPS] : values.steps.split(",").map((s) => s.trim());
  for (const s of steps) {
    if (!(STEPS as readonly string[]).includes(s)) throw new Error(`--steps: '${s}' is none of ${STEPS.join(", ")}`);
  }
  const terraform = values.terraform ?? process.env.CDC_BENCH_TERRAFORM;
  return {
    checkpoints: CHECKPOINT_MODES.filter((c) => checkpoints.includes(c)),
    steps: STEPS.filter((s) => steps.includes(s)),
    terraform: terraform === undefined || terraform.trim() === "" ? undefined : resolve(terraform),
    counts: integers("--counts", values.counts ?? "200", 2, MAX_COUNT),
    latencies: integers("--latency-ms", values["latency-ms"] ?? "0", 0, MAX_LATENCY_MS),
    repeat: repeat!,
    // In PROGRAMS' order whatever the order asked for: floors run before what they are the floor of.
    programs: PROGRAMS.filter((p) => programs.includes(p)),
    maxConcurrency: values["max-concurrency"] === undefined ? undefined : integers("--max-concurrency", values["max-concurrency"], 1, 256)[0],
    parallel: values.parallel === undefined ? undefined : integers("--parallel", values.parallel, 1, 256)[0],
    neighbours: integers("--neighbours", values.neighbours ?? "0", 0, MAX_COUNT)[0]!,
    out: resolve(values.out ?? join(ROOT, ".bench", "result.json")),
    profileDir: values["profile-dir"] === undefined ? undefined : resolve(values["profile-dir"]),
    pluginNodeArgs: pluginNodeArgs(values["plugin-node-args"]),
  };
}

// The bench's commands run in the terminal's process group (group: false): a Ctrl-C stops them with it.

export function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  return run("pulumi", [...args, ...ENGINE_FLAGS], { cwd, env, timeoutMs, group: false });
}

function failure(what: string, result: Ran): Error {
  const tail = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-25).join("\n");
  return new Error(`${what} ${howItEnded(result)}:\n${tail}`);
}

export async function pulumiOk(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  const result = await pulumi(args, cwd, env, timeoutMs);
  if (result.code !== 0) throw failure(`pulumi ${args.join(" ")}`, result);
  return result;
}

export function statsDelta(before: EmulatorStats, after: EmulatorStats): Pick<StepSample, "apiRequests" | "tokenRequests" | "requests"> {
  const requests: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.requests)) {
    const d = n - (before.requests[route] ?? 0);
    if (d !== 0) requests[route] = d;
  }
  const tokens = (s: EmulatorStats) => s.tokenRequests.accessToken + s.tokenRequests.refresh;
  return { apiRequests: after.total - before.total, tokenRequests: tokens(after) - tokens(before), requests };
}

/** Node.js options for the plugins' launchers: options only, nothing a shell would interpret. */
function pluginNodeArgs(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  for (const arg of raw.trim().split(/\s+/)) {
    if (!/^--[a-z0-9-]+(=[A-Za-z0-9._,/:=-]+)?$/.test(arg)) throw new Error(`--plugin-node-args: '${arg}' is not a plain --option or --option=value`);
  }
  return raw.trim().split(/\s+/).join(" ");
}

/** The script each plugin's launcher runs, by the folder plugins.providers names. */
const PLUGIN_MAINS: Record<string, { name: string; main: string }> = {
  [join(ROOT, "bin")]: { name: "cdc", main: join(ROOT, "dist", "plugin", "pulumi-resource-cdc.js") },
  [join(__dirname, "noop-plugin")]: { name: "bench", main: join(__dirname, "noop-plugin", "main.js") },
};

/**
 * With --plugin-node-args: a launcher per plugin in `dir` that runs its script under those
 * options, as bin/pulumi-resource-cdc and noop-plugin/pulumi-resource-bench run it without them;
 * Pulumi.yaml's plugin folders are pointed at these.
 */
async function pluginLaunchers(project: string, dir: string, nodeArgs: string): Promise<string> {
  let out = project;
  for (const [folder, { name, main }] of Object.entries(PLUGIN_MAINS)) {
    if (!out.includes(JSON.stringify(folder))) continue;
    const launcherDir = join(dir, "launchers", name);
    await mkdir(launcherDir, { recursive: true });
    await writeFile(join(launcherDir, `pulumi-resource-${name}`), `#!/bin/sh\nexec node ${nodeArgs} ${JSON.stringify(main)} "$@"\n`, { mode: 0o755 });
    out = out.replace(JSON.stringify(folder), JSON.stringify(launcherDir));
  }
  return out;
}

/**
 * A copy of the program in a temporary directory, so stack config files never land in the
 * repository; its node_modules links to the repository's, where `pulumi-cdc` links to the package.
 * The plugins' paths in Pulumi.yaml (relative to the program's folder here) are made absolute.
 */
export async function stageProgram(program: ProgramName, dir: string, nodeArgs: string | undefined): Promise<string> {
  const target = join(dir, "program");
  await mkdir(target, { recursive: true });
  for (const file of ["package.json", "tsconfig.json", "index.ts"]) {
    await copyFile(join(PROGRAMS_DIR, program, file), join(target, file));
  }
  const project = await readFile(join(PROGRAMS_DIR, program, "Pulumi.yaml"), "utf8");
  const absolute = absolutePluginPaths(project, join(PROGRAMS_DIR, program));
  await writeFile(join(target, "Pulumi.yaml"), nodeArgs ? await pluginLaunchers(absolute, dir, nodeArgs) : absolute);
  await symlink(join(ROOT, "node_modules"), join(target, "node_modules"), "dir");
  return target;
}

/** `path: ../x` lines of a Pulumi.yaml (its plugins) resolved against `from`. */
export function absolutePluginPaths(project: string, from: string): string {
  return project.replace(/^(\s*path:\s*)(\S.*?)\s*$/gm, (_line, key: string, path: string) => `${key}${JSON.stringify(resolve(from, path.replace(/^["']|["']$/g, "")))}`);
}

/** How many of the stack's resources are of `types`, and the mean size of one in the stack's state (JSON bytes, secrets encrypted). */
function resourcesOf(checkpoint: string, types: readonly string[]): { count: number; meanBytes: number } {
  const parsed = JSON.parse(checkpoint) as { deployment?: { resources?: Array<{ type: string }> } };
  const ours = (parsed.deployment?.resources ?? []).filter((r) => types.includes(r.type));
  const bytes = ours.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0);
  return { count: ours.length, meanBytes: ours.length === 0 ? 0 : Math.round(bytes / ours.length) };
}

/** A person in the web console changes the first source and the first destination of the stack. */
export async function editOutOfBand(web: CdcClient, stack: string): Promise<void> {
  const [source] = (await web.listAll("/sources", { partial_name: `${stack}-src-0` }, sourceConnectorSchema)).filter((s) => s.name === `${stack}-src-0`);
  const [destination] = (await web.listAll("/destinations", { partial_name: `${stack}-dst-0` }, destinationConnectorSchema)).filter((d) => d.name === `${stack}-dst-0`);
  if (!source?.id || !destination?.id) throw new Error(`bench: ${stack}-src-0 or ${stack}-dst-0 is missing from the emulator`);
  await web.put("/sources/{id}", { params: { id: source.id }, body: { name: source.name, connector: source.connector, config: { ...source.config, "database.hostname.user.defined": "edited-by-hand" } } });
  await web.put("/destinations/{id}", {
    params: { id: destination.id },
    body: { name: destination.name, connector: destination.connector, config: { ...destination.config, "snowflake.schema.name": "EDITED_BY_HAND" } },
  });
}

interface StepCommand {
  file: string;
  args: string[];
  ok: (code: number | null) => boolean;
  /** The process whose peak memory the step reports. */
  watch: WatchTarget;
}

interface Round {
  /** How the engine saves the stack (--checkpoints). */
  checkpoints: CheckpointMode;
  /** The steps to run (--steps). */
  steps: readonly StepName[];
  /** cdc:maxConcurrency for the pulumi-cdc stack; undefined: the provider's default. */
  maxConcurrency: number | undefined;
  /** The engine's and terraform's parallelism (--parallel); undefined: their defaults. */
  parallel: number | undefined;
  program: Exclude<ProgramName, typeof TERRAFORM>;
  sources: number;
  destinations: number;
  latencyMs: number;
  round: number;
  /** Where the provider processes' profiles go (--profile-dir); undefined: no profiling. */
  profileDir: string | undefined;
  /** Node.js options for both plugins (--plugin-node-args). */
  pluginNodeArgs: string | undefined;
}

async function benchOne(r: Round, emulator: RunningEmulator, web: CdcClient): Promise<RunSample> {
  const { program, sources, destinations } = r;
  const count = sources + destinations;
  const dir = await mkdtemp(join(tmpdir(), `pulumi-cdc-bench-${program}-${count}-`));
  // Distinct per round: resource names derive from the stack name and are unique per tenant in the shared emulator.
  const stack = `bench-${program}-${count}-${r.latencyMs}ms-${r.checkpoints}-${r.round}`;
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
    ...(r.checkpoints === "skip" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
    ...(r.parallel !== undefined ? { PULUMI_PARALLEL: String(r.parallel) } : {}),
    // Profiling: every Node.js process of a step loads the preload, which profiles only the providers.
    ...(r.profileDir ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${PROFILE_PRELOAD}`.trim() } : {}),
  };
  const setupLimit = 120_000;
  // Generous for slow machines, and still bounded: a hung engine cannot stall the run forever.
  const stepLimit = Math.min(120_000 + count * 3_000, 60 * 60_000);
  await mkdir(join(dir, "backend"), { recursive: true });
  const cwd = await stageProgram(program, dir, r.pluginNodeArgs);
  let initialised = false;
  let destroyed = false;
  try {
    await pulumiOk(["stack", "init", stack], cwd, env, setupLimit);
    initialised = true;
    const set = (key: string, value: string, secret = false) =>
      pulumiOk(["config", "set", "--stack", stack, ...(secret ? ["--secret"] : []), key, value], cwd, env, setupLimit);
    await set("bench:sources", String(sources));
    await set("bench:destinations", String(destinations));
    // Every stack, the floors' too, holds the settings a user's stack holds, the secret among them:
    // the CLI decrypts a stack's secrets in every step (about 0.3 s of CPU with a passphrase), which
    // is the engine's cost, not the provider's, so the floors pay it as well.
    await set("cdc:apiUrl", emulator.url);
    await set("cdc:clientId", emulator.clientId);
    await set("cdc:clientSecret", emulator.clientSecret, true);
    if (r.maxConcurrency !== undefined) await set("cdc:maxConcurrency", String(r.maxConcurrency));
    const pulumiStep = (args: string[]): StepCommand => ({
      file: "pulumi",
      args: [...args, ...ENGINE_FLAGS],
      ok: (code) => code === 0,
      watch: PROVIDER_PROCESS[program](cwd),
    });
    const commands: Record<StepName, StepCommand> = {
      // Each step is timed alone: the preview a plain `up` runs first is the next row's.
      up: pulumiStep(["up", "--yes", "--skip-preview", "--stack", stack]),
      // --expect-no-changes: a preview right after up that wants changes would be a perpetual diff, not a timing.
      preview: pulumiStep(["preview", "--expect-no-changes", "--stack", stack]),
      previewAfterEdit: pulumiStep(["preview", "--stack", stack]),
      // Exit 2 is "drift found", which is what the edit before it should give; the floor's stack has no connectors to check.
      drift: {
        file: process.execPath,
        args: [DRIFT_CLI, "drift", "--stack", stack, "--json"],
        ok: (code) => code === (usesApi(program) ? 2 : 0),
        watch: { cwd, command: "cli/index.js drift" },
      },
      // Refresh and destroy plan from the state alone: their previews check nothing, and are not what is timed.
      refresh: pulumiStep(["refresh", "--yes", "--skip-preview", "--stack", stack]),
      destroy: pulumiStep(["destroy", "--yes", "--skip-preview", "--stack", stack]),
    };

    const steps: Partial<Record<StepName, StepSample>> = {};
    for (const step of r.steps) {
      if (step === "previewAfterEdit" && usesApi(program)) await editOutOfBand(web, stack);
      const { file, args, ok, watch } = commands[step];
      const memory = new PeakMemory(watch);
      memory.start();
      const before = emulator.stats();
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const stepEnv = r.profileDir ? { ...env, BENCH_PROFILE_OUT: join(r.profileDir, `${program}-${count}-${r.latencyMs}ms-${r.round}`, step) } : env;
      const result = await run(file, args, { cwd, env: stepEnv, timeoutMs: stepLimit, group: false });
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const apiCpuSeconds = Math.round((cpu.user + cpu.system) / 1e4) / 100;
      const after = emulator.stats();
      const usage = await memory.stop();
      if (!ok(result.code)) throw failure(`${program} ${STEP_LABELS[step]}`, result);
      const sample: StepSample = { seconds: Math.round(seconds * 100) / 100, ...statsDelta(before, after), ...usage, apiCpuSeconds };
      steps[step] = sample;
      // Outside the timing: the numbers only count if the step did what it should.
      const stateBytesPerResource = await verify(r, step, result, stack, cwd, env, setupLimit);
      if (stateBytesPerResource !== undefined) sample.stateBytesPerResource = stateBytesPerResource;
      if (step === "destroy") destroyed = true;
      process.stderr.write(
        `[bench] ${program} ${count} @${r.latencyMs} ms ${r.checkpoints} checkpoints #${r.round}: ${STEP_LABELS[step]} ${seconds.toFixed(1)} s, ${sample.apiRequests} API requests, ${usage.peakMemoryMiB} MiB, CPU: provider ${usage.providerCpuSeconds} s, step ${usage.stepCpuSeconds} s, emulator ${apiCpuSeconds} s\n`,
      );
    }
    const { steps: _asked, ...round } = r;
    return { ...round, steps };
  } finally {
    if (initialised) {
      // After a failure: a half-deployed stack must not be left behind in the shared emulator.
      // A destroy plans from the state alone.
      if (!destroyed) await pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack], cwd, env, stepLimit);
      await pulumi(["stack", "rm", "--yes", "--force", "--stack", stack], cwd, env, setupLimit);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** The vendor's Terraform provider, built for the run: the folder terraform's dev override points at. */
interface TerraformSetup {
  providerDir: string;
  terraform: string;
}

/**
 * The Terraform column: what `terraform` asks, or why it is skipped (one line). Go, terraform and
 * the clone must all be there; the provider is built as `npm run conformance` builds its tests.
 */
function terraformSetup(clone: string | undefined): TerraformSetup | string {
  if (clone === undefined) return "no Terraform column: give --terraform <clone of the vendor's Terraform provider> (or CDC_BENCH_TERRAFORM) to add one";
  const why = cannotBuild(clone);
  if (why) return `Terraform column skipped: ${why}`;
  const terraform = process.env.TF_ACC_TERRAFORM_PATH ?? (process.env.PATH ?? "").split(":").map((d) => join(d, "terraform")).find((f) => existsSync(f));
  if (!terraform) return "Terraform column skipped: no terraform CLI on PATH (or TF_ACC_TERRAFORM_PATH)";
  try {
    return { providerDir: dirname(buildVendor(clone, "provider", (line) => process.stderr.write(`[bench] ${line}\n`))), terraform };
  } catch (error) {
    return `Terraform column skipped: ${(error as Error).message}`;
  }
}

/**
 * The same sources and destinations as the Pulumi programs (scripts/bench/terraform/main.tf: same
 * names, connectors and configs), through the same steps where Terraform has one (see
 * TERRAFORM_STEPS), on the vendor's provider against the same emulator, with terraform's defaults
 * (parallelism 10, a refresh before each plan, local state).
 */
async function terraformOne(r: Omit<Round, "program" | "checkpoints">, tf: TerraformSetup, emulator: RunningEmulator, web: CdcClient): Promise<RunSample> {
  const { sources, destinations } = r;
  const count = sources + destinations;
  const dir = await mkdtemp(join(tmpdir(), `pulumi-cdc-bench-terraform-${count}-`));
  const prefix = `bench-terraform-${count}-${r.latencyMs}ms-${r.round}`;
  await copyFile(join(__dirname, "terraform", "main.tf"), join(dir, "main.tf"));
  const cliConfig = join(dir, "cli.tfrc");
  // The provider built from the clone, and nothing else: no registry, no plugin cache.
  await writeFile(cliConfig, `provider_installation {\n  dev_overrides {\n    "streamkap-com/streamkap" = ${JSON.stringify(tf.providerDir)}\n  }\n  direct {}\n}\n`);
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDC_") && !k.startsWith("TF_"))),
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    STREAMKAP_HOST: emulator.url,
    STREAMKAP_CLIENT_ID: emulator.clientId,
    STREAMKAP_SECRET: emulator.clientSecret,
    TF_VAR_prefix: prefix,
    TF_VAR_sources: String(sources),
    TF_VAR_destinations: String(destinations),
    TF_VAR_db_password: "bench-password",
    TF_VAR_private_key: "bench-private-key",
  };
  const stepLimit = Math.min(120_000 + count * 3_000, 60 * 60_000);
  const tfArgs = (...args: string[]) => [...args, "-input=false", "-no-color", ...(r.parallel !== undefined ? [`-parallelism=${r.parallel}`] : [])];
  // plan -detailed-exitcode: 0 no changes, 2 changes; the edited pair must show as changes.
  const commands: Partial<Record<StepName, { args: string[]; ok: (code: number | null) => boolean }>> = {
    up: { args: tfArgs("apply", "-auto-approve"), ok: (c) => c === 0 },
    preview: { args: tfArgs("plan", "-detailed-exitcode"), ok: (c) => c === 0 },
    previewAfterEdit: { args: tfArgs("plan", "-detailed-exitcode"), ok: (c) => c === 2 },
    refresh: { args: tfArgs("apply", "-refresh-only", "-auto-approve"), ok: (c) => c === 0 },
    destroy: { args: tfArgs("destroy", "-auto-approve"), ok: (c) => c === 0 },
  };
  const inState = async () => {
    const listed = await run(tf.terraform, ["state", "list"], { cwd: dir, env, timeoutMs: 120_000, group: false });
    return listed.stdout.split("\n").filter((l) => /^streamkap_/.test(l)).length;
  };
  let applied = false;
  let destroyed = false;
  try {
    const steps: Partial<Record<StepName, StepSample>> = {};
    for (const step of r.steps) {
      const command = commands[step];
      if (!command) continue;
      if (step === "previewAfterEdit") await editOutOfBand(web, prefix);
      const memory = new PeakMemory({ cwd: dir, command: "terraform-provider-streamkap" });
      memory.start();
      const before = emulator.stats();
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await run(tf.terraform, command.args, { cwd: dir, env, timeoutMs: stepLimit, group: false });
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const after = emulator.stats();
      const usage = await memory.stop();
      if (step === "up") applied = true;
      if (!command.ok(result.code)) throw failure(`terraform ${STEP_LABELS[step]}`, result);
      const expected = step === "destroy" ? 0 : count;
      if (step === "up" || step === "refresh" || step === "destroy") {
        const n = await inState();
        if (n !== expected) throw new Error(`terraform ${count}: ${STEP_LABELS[step]}: the state holds ${n} resources, expected ${expected}`);
      }
      if (step === "destroy") destroyed = true;
      steps[step] = { seconds: Math.round(seconds * 100) / 100, ...statsDelta(before, after), ...usage, apiCpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100 };
      process.stderr.write(
        `[bench] terraform ${count} @${r.latencyMs} ms #${r.round}: ${TERRAFORM_STEPS[step]} ${seconds.toFixed(1)} s, ${steps[step]!.apiRequests} API requests, provider ${usage.peakMemoryMiB} MiB, CPU: provider ${usage.providerCpuSeconds} s, step ${usage.stepCpuSeconds} s\n`,
      );
    }
    return { program: TERRAFORM, sources, destinations, latencyMs: r.latencyMs, round: r.round, steps };
  } finally {
    // After a failure: what was applied must not be left behind in the shared emulator.
    if (applied && !destroyed) await run(tf.terraform, tfArgs("destroy", "-auto-approve"), { cwd: dir, env, timeoutMs: stepLimit, group: false });
    await rm(dir, { recursive: true, force: true });
  }
}

/** What each step must have done for its timing to count; after up and refresh, the mean state size of a resource. */
async function verify(r: Round, step: StepName, result: Ran, stack: string, cwd: string, env: NodeJS.ProcessEnv, limit: number): Promise<number | undefined> {
  const what = `${r.program} ${r.sources + r.destinations}: ${STEP_LABELS[step]}`;
  let meanBytes: number | undefined;
  if (step === "up" || step === "refresh" || step === "destroy") {
    const deployed = resourcesOf((await pulumiOk(["stack", "export", "--stack", stack], cwd, env, limit)).stdout, RESOURCE_TYPES[r.program]);
    const expected = step === "destroy" ? 0 : r.sources + r.destinations;
    if (deployed.count !== expected) throw new Error(`${what}: the stack holds ${deployed.count} resources, expected ${expected}`);
    if (step !== "destroy") meanBytes = deployed.meanBytes;
  }
  if (step === "previewAfterEdit" && usesApi(r.program) && !/~ 2 to update/.test(result.stdout)) {
    throw new Error(`${what}: expected the two edited resources to show as updates:\n${result.stdout.slice(-2000)}`);
  }
  if (step === "drift" && usesApi(r.program)) {
    const report = JSON.parse(result.stdout) as { resources: Array<{ drift: { detected: boolean } }> };
    const drifted = report.resources.filter((x) => x.drift.detected).length;
    if (report.resources.length !== r.sources + r.destinations || drifted !== 2) {
      throw new Error(`${what}: expected ${r.sources + r.destinations} resources checked and 2 drifted, got ${report.resources.length} and ${drifted}`);
    }
  }
  return meanBytes;
}

/**
 * Another stack's connectors, made as pulumi-cdc makes them (the same IaC value in
 * `created_from`), so that the measured stacks share the tenant with them as dev and prod
 * stacks do: every listing returns them, and the provider must not spend its reads on them.
 */
async function makeNeighbours(emulator: RunningEmulator, count: number): Promise<void> {
  if (count === 0) return;
  const api = new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: DEFAULT_CREATED_FROM } });
  try {
    const destinations = Math.floor(count / 2);
    for (let i = 0; i < count - destinations; i++) {
      const config = { "database.hostname.user.defined": "db.internal", "database.port.user.defined": 5432, "database.user": "cdc", "database.password": "bench-password", "database.dbname": "shop", "table.include.list.user.defined": `public.orders_${i}`, "schema.include.list": "public" };
      await api.post("/sources", { body: { name: `neighbour-src-${i}`, connector: "postgresql", config, created_from: DEFAULT_CREATED_FROM } });
    }
    for (let i = 0; i < destinations; i++) {
      const config = { "snowflake.url.name": "acme.snowflakecomputing.com", "snowflake.user.name": "LOADER", "snowflake.private.key": "bench-private-key", "snowflake.database.name": "ANALYTICS", "snowflake.schema.name": `RAW_${i}` };
      await api.post("/destinations", { body: { name: `neighbour-dst-${i}`, connector: "snowflake", config, created_from: DEFAULT_CREATED_FROM } });
    }
  } finally {
    await api.close();
  }
}

async function pulumiVersion(): Promise<string> {
  const result = await pulumi(["version"], ROOT, process.env, 30_000);
  return result.stdout.trim() || "unknown";
}

export interface BenchResult {
  generatedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string; pulumi: string };
  settings: {
    counts: number[];
    latenciesMs: number[];
    repeat: number;
    programs: ProgramName[];
    checkpoints: CheckpointMode[];
    pluginNodeArgs?: string;
    maxConcurrency: number | string;
    parallel: number | string;
    neighbours: number;
    steps: string[];
    resources: Record<Exclude<ProgramName, typeof TERRAFORM>, string[]>;
  };
  notes: string[];
  /** Per program, size and latency: median seconds over the repetitions, API traffic and peak memory of each step. */
  results: RunResult[];
  /** Every repetition as measured. */
  samples: RunSample[];
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
  const web = new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" } });
  try {
    await makeNeighbours(emulator, options.neighbours);
    const tf = terraformSetup(options.terraform);
    if (typeof tf === "string") process.stderr.write(`[bench] ${tf}\n`);
    const samples: RunSample[] = [];
    for (const count of options.counts) {
      const destinations = Math.floor(count / 2);
      for (const latencyMs of options.latencies) {
        emulator.setFaults({ latencyMs });
        // Programs alternate within each round, so a burst of load from elsewhere hits both alike.
        for (let round = 1; round <= options.repeat; round++) {
          const shape = { sources: count - destinations, destinations, latencyMs, round, steps: options.steps, maxConcurrency: options.maxConcurrency, parallel: options.parallel, profileDir: options.profileDir, pluginNodeArgs: options.pluginNodeArgs };
          for (const checkpoints of options.checkpoints) {
            for (const program of options.programs) {
              if (program === TERRAFORM) continue;
              samples.push(await benchOne({ ...shape, program, checkpoints }, emulator, web));
            }
          }
          if (typeof tf !== "string") samples.push(await terraformOne(shape, tf, emulator, web));
        }
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
      settings: {
        counts: options.counts,
        latenciesMs: options.latencies,
        repeat: options.repeat,
        programs: [...options.programs, ...(typeof tf === "string" ? [] : [TERRAFORM] as const)],
        checkpoints: options.checkpoints,
        steps: options.steps,
        ...(options.pluginNodeArgs ? { pluginNodeArgs: options.pluginNodeArgs } : {}),
        maxConcurrency: options.maxConcurrency ?? "provider default",
        parallel: options.parallel ?? "each tool's default",
        neighbours: options.neighbours,
        resources: RESOURCE_TYPES,
      },
      notes: [
        "Resources: postgresql Sources and snowflake Destinations, half each, on pulumi-cdc's dynamic classes (cdc) and on its provider plugin pulumi-resource-cdc (cdc-plugin, raw CustomResources of cdc:index:Source/Destination); each beside the same inputs on a provider that makes no API call: a dynamic provider (noop, the dynamic floor) and a provider plugin (noop-plugin, scripts/bench/noop-plugin, the plugin floor).",
        "API: the local emulator in this process, with the given latency added to every request.",
        `Each step is one command, ${options.parallel === undefined ? "with each tool's default parallelism (Pulumi: 4 per CPU; terraform: 10)" : `with parallelism ${options.parallel} (PULUMI_PARALLEL, terraform -parallelism)`}, timed from start to exit (CLI start-up and program run included).`,
        "Before 'preview after an out-of-band edit', one source and one destination are edited through the API; the drift command and refresh then see that drift.",
        "Peak memory: VmHWM of the dynamic-provider process or of the provider plugin's process (for the drift command, of the command's own process).",
        "CPU (from /proc, sampled every 100 ms): providerCpuSeconds is the provider process's (the drift command's own for that step), stepCpuSeconds all the step's processes' in the program's directory (CLI and engine, language host, program, provider); apiCpuSeconds the bench's own process (the emulator).",
        ...(options.pluginNodeArgs ? [`Both provider plugins ran as node ${options.pluginNodeArgs} (--plugin-node-args).`] : []),
        ...(options.profileDir ? [`Profiled (--profile-dir ${options.profileDir}): the provider processes ran under a CPU profiler, so these timings are not the benchmark's.`] : []),
        ...(options.checkpoints.includes("skip") ? ["Checkpoints 'skip': the Pulumi steps ran with PULUMI_SKIP_CHECKPOINTS=true (the engine saves the stack once, at the end; docs/large-stacks.md)."] : []),
        ...(typeof tf === "string"
          ? []
          : [`Terraform: the vendor's provider built from ${options.terraform} (go build, a dev override), terraform at ${tf.terraform} with its defaults (parallelism 10, local state), scripts/bench/terraform/main.tf: the same names, connectors and configs; peak memory is the provider's process.`]),
        ...(options.neighbours > 0 ? [`The tenant also held ${options.neighbours} connectors of another stack, made with the same IaC value: listings return them too.`] : []),
      ],
      results: summarise(samples),
      samples,
    };
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${markdownTables(result.results)}\n\n${goalsText(result.results)}\n\n`);
    process.stdout.write(
      `Machine: ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGiB} GiB, Node ${result.machine.node}, Pulumi ${result.machine.pulumi}.\n`,
    );
    process.stdout.write(`Result written to ${options.out}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await web.close();
    await emulator.stop();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
