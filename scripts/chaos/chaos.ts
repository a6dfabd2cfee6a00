/**
 * The full-size reliability figure (not a test): a stack of 66 resources (60 PostgreSQL
 * sources, a MySQL source, Snowflake, ClickHouse and S3 destinations, a tag, a client
 * credential) deployed and destroyed against the emulator under the fault mix of issue 8
 * (20% 503s, 2% dropped connections, 5% lost answers, 40 requests/s rate limit, 10 ms
 * latency) and the garbled answers of issue 49 (2% each: an HTML page, a body cut off, another
 * shape, an oversized body to a read), once per seed. For each seed it prints how many `pulumi up` / `pulumi destroy`
 * runs it took to converge, orphans and duplicates left in the API, the requests the API
 * received and the faults the run met (each one retried or recovered by the provider).
 *
 *   bash scripts/chaos/run.sh [--seeds 1,2,3] [--sources 60] [--out .chaos/result.json]
 */
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { FAULTS_OFF, startEmulator, type EmulatorStats, type RunningEmulator } from "../../dist/emulator/index.js";
import { CdcClient, clientCredentialSchema, destinationConnectorSchema, sourceConnectorSchema } from "../../dist/provider/client/index.js";
import { listTags } from "../../dist/provider/lookup.js";
import { ENGINE_FLAGS, run, type Ran } from "../lib/process";
import { privateStackEnv } from "../lib/stack-env";

const ROOT = resolve(__dirname, "..", "..");
const PROGRAM = join(ROOT, "test", "e2e", "fixtures", "chaos");
/** A run that has not converged after this many `pulumi up` (or destroy) runs is reported as not converging. */
const MAX_RUNS = 3;
const RUN_TIMEOUT_MS = 20 * 60_000;
const FAULTS = {
  failRate: 0.2,
  dropRate: 0.02,
  lostResponseRate: 0.05,
  htmlRate: 0.02,
  truncatedRate: 0.02,
  wrongShapeRate: 0.02,
  oversizedRate: 0.02,
  rateLimit: 40,
  latencyMs: 10,
  routes: ["/"],
};

interface Options {
  seeds: number[];
  sources: number;
  out: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { seeds: { type: "string" }, sources: { type: "string" }, out: { type: "string" } },
  });
  const seeds = (values.seeds ?? "1,2,3").split(",").map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 0) throw new Error(`--seeds: each seed must be a non-negative integer, got '${s}'`);
    return n;
  });
  if (seeds.length > 10) throw new Error("--seeds: at most 10 seeds (each is a full deploy and destroy)");
  const sources = Number(values.sources ?? "60");
  if (!Number.isInteger(sources) || sources < 1 || sources > 500) throw new Error(`--sources must be an integer 1..500, got '${values.sources}'`);
  return { seeds, sources, out: resolve(values.out ?? join(ROOT, ".chaos", "result.json")) };
}

/** In the terminal's process group (group: false): a Ctrl-C stops the run with this script. */
function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return run("pulumi", [...args, ...ENGINE_FLAGS], { cwd, env, timeoutMs: RUN_TIMEOUT_MS, group: false });
}

async function must(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const r = await pulumi(args, cwd, env);
  if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited with ${r.code}:\n${r.output.trim().split("\n").slice(-20).join("\n")}`);
}

interface Census {
  objects: number;
  /** Names that appear more than once. */
  duplicates: number;
  ids: Set<string>;
}

/** Every object of this run's prefix in the API, read with faults off. */
async function census(emulator: RunningEmulator, web: CdcClient, prefix: string): Promise<Census> {
  const saved = emulator.getFaults();
  emulator.setFaults(FAULTS_OFF);
  try {
    const mine = (n: string | null | undefined) => typeof n === "string" && n.startsWith(`${prefix}-`);
    const sources = (await web.listAll("/sources", {}, sourceConnectorSchema)).filter((s) => mine(s.name));
    const destinations = (await web.listAll("/destinations", {}, destinationConnectorSchema)).filter((d) => mine(d.name));
    const tags = (await listTags(web, {})).filter((t) => mine(t.name));
    const creds = (await web.get("/auth/client-credentials", { schema: clientCredentialSchema.array() })).filter((c) => c.description === `${prefix} reader`);
    const names = [...sources, ...destinations, ...tags].map((o) => o.name!);
    return {
      objects: names.length + creds.length,
      duplicates: names.length - new Set(names).size + Math.max(0, creds.length - 1),
      ids: new Set([...sources, ...destinations, ...tags].map((o) => o.id!).concat(creds.map((c) => c.client_id))),
    };
  } finally {
    emulator.setFaults(saved);
  }
}

async function stackIds(cwd: string, env: NodeJS.ProcessEnv, stack: string): Promise<Set<string>> {
  const r = await pulumi(["stack", "export", "--stack", stack], cwd, env);
  const parsed = JSON.parse(r.output.slice(0, r.output.lastIndexOf("}") + 1)) as { deployment?: { resources?: Array<{ type: string; id?: string }> } };
  return new Set((parsed.deployment?.resources ?? []).filter((x) => x.type.startsWith("pulumi-nodejs:dynamic/cdc:") && x.id).map((x) => x.id!));
}

interface SeedResult {
  seed: number;
  resources: number;
  upRuns: number | null;
  destroyRuns: number | null;
  orphans: number;
  duplicates: number;
  leftAfterDestroy: number;
  requests: number;
  faults: EmulatorStats["faults"];
  seconds: number;
}

async function runSeed(seed: number, sources: number): Promise<SeedResult> {
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), `pulumi-cdc-chaos-${seed}-`));
  const emulator = await startEmulator({ port: 0 });
  const web = new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" } });
  try {
    const cwd = join(dir, "program");
    await cp(PROGRAM, cwd, { recursive: true });
    await symlink(join(ROOT, "node_modules"), join(cwd, "node_modules"), "dir");
    const env = privateStackEnv(dir, "chaos-passphrase");
    const stack = "chaos";
    const prefix = `chaos${seed}`;
    await must(["stack", "init", stack], cwd, env);
    const set = (key: string, value: string, secret = false) => must(["config", "set", "--stack", stack, ...(secret ? ["--secret"] : []), key, value], cwd, env);
    await set("cdc:apiUrl", emulator.url);
    await set("cdc:clientId", emulator.clientId);
    await set("cdc:clientSecret", emulator.clientSecret, true);
    await set("chaos:dbPassword", "chaos-db-secret", true);
    await set("chaos:sources", String(sources));
    await set("chaos:prefix", prefix);

    emulator.setFaults({ ...FAULTS, seed });
    emulator.resetStats();
    let upRuns: number | null = null;
    for (let i = 1; i <= MAX_RUNS && upRuns === null; i++) {
      // No preview: the faults are meant for the writes, and the runs count only those.
      const r = await pulumi(["up", "--yes", "--skip-preview", "--stack", stack], cwd, env);
      if (r.code === 0) upRuns = i;
      else process.stderr.write(`[chaos] seed ${seed}: up run ${i} failed:\n${r.output.trim().split("\n").filter((l) => /error/i.test(l)).slice(0, 5).join("\n")}\n`);
    }
    const afterUp = await census(emulator, web, prefix);
    const tracked = await stackIds(cwd, env, stack);
    const orphans = [...afterUp.ids].filter((id) => !tracked.has(id)).length;

    let destroyRuns: number | null = null;
    for (let i = 1; i <= MAX_RUNS && destroyRuns === null; i++) {
      const r = await pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack], cwd, env);
      if (r.code === 0) destroyRuns = i;
    }
    const stats = emulator.stats();
    const left = await census(emulator, web, prefix);
    return {
      seed,
      resources: sources + 6,
      upRuns,
      destroyRuns,
      orphans,
      duplicates: afterUp.duplicates,
      leftAfterDestroy: left.objects,
      requests: stats.total,
      faults: stats.faults,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await web.close();
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function table(results: SeedResult[]): string {
  const head =
    "| seed | resources | `up` runs to converge | `destroy` runs | orphans | duplicates | left after destroy | API requests | faults met (503 / dropped / lost / 429) | garbled (HTML / cut off / shape / oversized) | seconds |";
  const rule = "|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|";
  const rows = results.map(
    (r) =>
      `| ${r.seed} | ${r.resources} | ${r.upRuns ?? `> ${MAX_RUNS}`} | ${r.destroyRuns ?? `> ${MAX_RUNS}`} | ${r.orphans} | ${r.duplicates} | ${r.leftAfterDestroy} | ${r.requests} | ${r.faults.failed} / ${r.faults.dropped} / ${r.faults.lost} / ${r.faults.rateLimited} | ${r.faults.html} / ${r.faults.truncated} / ${r.faults.wrongShape} / ${r.faults.oversized} | ${r.seconds} |`,
  );
  return [head, rule, ...rows].join("\n");
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const results: SeedResult[] = [];
  for (const seed of options.seeds) {
    process.stderr.write(`[chaos] seed ${seed}: deploying ${options.sources + 6} resources under faults...\n`);
    results.push(await runSeed(seed, options.sources));
  }
  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, JSON.stringify({ faults: FAULTS, results }, null, 2));
  process.stdout.write(`${table(results)}\n`);
  const bad = results.filter((r) => r.upRuns !== 1 || r.destroyRuns !== 1 || r.orphans > 0 || r.duplicates > 0 || r.leftAfterDestroy > 0);
  process.exitCode = bad.length > 0 ? 1 : 0;
}

main().catch((err: unknown) => {
  process.stderr.write(`chaos: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
