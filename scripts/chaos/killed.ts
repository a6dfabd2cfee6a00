/**
 * The recovery figure for very large stacks (not a test): the benchmark's provider-plugin program
 * (scripts/bench/programs/cdc-plugin: half PostgreSQL sources, half Snowflake destinations) with
 * PULUMI_SKIP_CHECKPOINTS=true, the setting docs/large-stacks.md recommends. A `pulumi up` is
 * killed with -9 (the whole process group and its plugins) once half the objects exist, then
 * `pulumi-cdc recover --yes` and one `pulumi up`; a `pulumi destroy` is killed the same way once
 * half are deleted (both moments by count: the emulator holds the writes after half, see
 * killMidway), then `recover --yes` and one `pulumi up` again. After each: every object of the
 * program exists exactly once, the stack tracks each of them, none other is left (no orphan), and a
 * preview shows no change. Ends with a destroy that leaves nothing.
 *
 *   bash scripts/chaos/run-killed.sh [--count 1000] [--latency-ms 0] [--out .chaos/killed.json]
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { killWhenHeld } from "./kill-tree";
import { startEmulator, type RunningEmulator } from "../../dist/emulator/index.js";
import { CdcClient, destinationConnectorSchema, sourceConnectorSchema } from "../../dist/provider/client/index.js";
import { ENGINE_FLAGS, run, type Ran } from "../lib/process";
import { privateStackEnv } from "../lib/stack-env";

const ROOT = resolve(__dirname, "..", "..");
const PROGRAM = join(ROOT, "scripts", "bench", "programs", "cdc-plugin");
const CLI = join(ROOT, "dist", "cli", "index.js");
const STEP_TIMEOUT_MS = 60 * 60_000;
const TYPES = ["cdc:index:Source", "cdc:index:Destination"];

function parseOptions(argv: string[]) {
  const { values } = parseArgs({ args: argv, strict: true, options: { count: { type: "string" }, "latency-ms": { type: "string" }, out: { type: "string" } } });
  const count = Number(values.count ?? "1000");
  if (!Number.isInteger(count) || count < 4 || count > 1000) throw new Error(`--count must be an integer 4..1000, got '${values.count}'`);
  const latencyMs = Number(values["latency-ms"] ?? "0");
  if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > 2000) throw new Error(`--latency-ms must be an integer 0..2000`);
  return { count, latencyMs, out: resolve(values.out ?? join(ROOT, ".chaos", "killed.json")) };
}

/** In the terminal's process group (group: false): a Ctrl-C stops the step with this script. */
const exec = (file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) => run(file, args, { cwd, env, timeoutMs: STEP_TIMEOUT_MS, group: false });

const pulumi = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => exec("pulumi", [...args, ...ENGINE_FLAGS], cwd, env);

async function must(what: string, r: Promise<Ran>): Promise<Ran> {
  const result = await r;
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}:\n${result.output.trim().split("\n").slice(-30).join("\n")}`);
  return result;
}

/**
 * Runs `pulumi <command>` and kills it with -9 (all its processes) halfway, by count: the emulator
 * holds `routes` once `after` of their requests are answered 2xx, and the kill comes when one more
 * waits unanswered (emulator/README.md, "Holds"). The waiting ones are then closed unhandled, so
 * exactly `after` took effect. Bounded by STEP_TIMEOUT_MS, a guard against a hung run only.
 */
async function killMidway(command: "up" | "destroy", cwd: string, env: NodeJS.ProcessEnv, stack: string, emulator: RunningEmulator, routes: string[], after: number, count: () => Promise<number>): Promise<{ seconds: number; objects: number }> {
  const started = Date.now();
  const hold = emulator.hold(routes, after);
  // No preview first: the run's creates or deletes are what is killed.
  const first = await killWhenHeld([command, "--yes", "--skip-preview", ...ENGINE_FLAGS, "--stack", stack], { cwd, env, timeoutMs: STEP_TIMEOUT_MS }, hold);
  if (first === "exited") throw new Error(`pulumi ${command} ended before it was killed (${hold.answered()} of ${routes.join(", ")} answered)`);
  if (first === "timeout") throw new Error(`pulumi ${command} did not get halfway in time`);
  return { seconds: Math.round((Date.now() - started) / 100) / 10, objects: await count() };
}

interface Census {
  names: string[];
  ids: string[];
}

async function census(web: CdcClient, prefix: string): Promise<Census> {
  const mine = (n: string | null | undefined) => typeof n === "string" && n.startsWith(`${prefix}-`);
  const sources = (await web.listAll("/sources", {}, sourceConnectorSchema)).filter((s) => mine(s.name));
  const destinations = (await web.listAll("/destinations", {}, destinationConnectorSchema)).filter((d) => mine(d.name));
  const all = [...sources, ...destinations];
  return { names: all.map((o) => o.name!), ids: all.map((o) => o.id!) };
}

async function stackIds(cwd: string, env: NodeJS.ProcessEnv, stack: string): Promise<string[]> {
  const r = await must("pulumi stack export", pulumi(["stack", "export", "--stack", stack], cwd, env));
  const parsed = JSON.parse(r.output.slice(0, r.output.lastIndexOf("}") + 1)) as { deployment?: { resources?: Array<{ type: string; id?: string; delete?: boolean }>; pending_operations?: unknown[] } };
  return (parsed.deployment?.resources ?? []).filter((x) => TYPES.includes(x.type) && x.id && !x.delete).map((x) => x.id!);
}

/** Every name of the program once in the API, each tracked by the stack, nothing else of the prefix. */
async function check(what: string, web: CdcClient, prefix: string, count: number, cwd: string, env: NodeJS.ProcessEnv, stack: string) {
  const api = await census(web, prefix);
  const tracked = new Set(await stackIds(cwd, env, stack));
  const distinct = new Set(api.names).size;
  const result = {
    what,
    objects: api.names.length,
    expected: count,
    duplicates: api.names.length - distinct,
    orphans: api.ids.filter((id) => !tracked.has(id)).length,
    trackedButGone: [...tracked].filter((id) => !api.ids.includes(id)).length,
  };
  process.stderr.write(`[killed] ${what}: ${JSON.stringify(result)}\n`);
  return { ...result, ok: result.objects === count && result.duplicates === 0 && result.orphans === 0 && result.trackedButGone === 0 };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-killed-"));
  const emulator: RunningEmulator = await startEmulator({ port: 0 });
  emulator.setFaults({ latencyMs: options.latencyMs });
  const web = new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" } });
  const log: Record<string, unknown> = { count: options.count, latencyMs: options.latencyMs, setting: "PULUMI_SKIP_CHECKPOINTS=true" };
  const time = async <T>(key: string, f: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const out = await f();
    log[`${key}Seconds`] = Math.round((Date.now() - t) / 100) / 10;
    process.stderr.write(`[killed] ${key}: ${log[`${key}Seconds`]} s\n`);
    return out;
  };
  try {
    const cwd = join(dir, "program");
    await mkdir(cwd, { recursive: true });
    for (const f of ["package.json", "tsconfig.json", "index.ts"]) await copyFile(join(PROGRAM, f), join(cwd, f));
    const project = await readFile(join(PROGRAM, "Pulumi.yaml"), "utf8");
    await writeFile(join(cwd, "Pulumi.yaml"), project.replace(/^(\s*path:\s*)(\S.*?)\s*$/gm, (_l, key: string, p: string) => `${key}${JSON.stringify(resolve(PROGRAM, p))}`));
    await symlink(join(ROOT, "node_modules"), join(cwd, "node_modules"), "dir");
    // The setting under test.
    const env = privateStackEnv(dir, "killed-passphrase", { PULUMI_SKIP_CHECKPOINTS: "true" });
    const stack = "killed";
    const prefix = stack;
    await must("stack init", pulumi(["stack", "init", stack], cwd, env));
    const set = (key: string, value: string, secret = false) => must(`config set ${key}`, pulumi(["config", "set", "--stack", stack, ...(secret ? ["--secret"] : []), key, value], cwd, env));
    const destinations = Math.floor(options.count / 2);
    await set("bench:sources", String(options.count - destinations));
    await set("bench:destinations", String(destinations));
    await set("cdc:apiUrl", emulator.url);
    await set("cdc:clientId", emulator.clientId);
    await set("cdc:clientSecret", emulator.clientSecret, true);
    const objects = async () => (await census(web, prefix)).names.length;
    const checks = [];

    // 1. A killed up: the stack records nothing of it.
    const half = Math.ceil(options.count / 2);
    log.killedUp = await killMidway("up", cwd, env, stack, emulator, ["POST /sources", "POST /destinations"], half, objects);
    log.trackedAfterKilledUp = (await stackIds(cwd, env, stack)).length;
    const recoverUp = await time("recoverAfterUp", () => exec(process.execPath, [CLI, "recover", "--stack", stack, "--yes"], cwd, env));
    if (recoverUp.code !== 0) throw new Error(`recover exited with ${recoverUp.code}:\n${recoverUp.output}`);
    log.recoverAfterUp = recoverUp.output.split("\n").filter((l) => !/^\s+adopt\s/.test(l)).join("\n").trim();
    log.adoptedAfterUp = recoverUp.output.split("\n").filter((l) => /^\s+adopt\s/.test(l)).length;
    const up = await time("upAfterRecover", () => pulumi(["up", "--yes", "--stack", stack], cwd, env));
    log.upAfterRecover = { code: up.code, conflicts: (up.output.match(/409 Conflict|already exists/g) ?? []).length, summary: up.output.split("\n").filter((l) => /^\s+[+~-]?\s*\d+ (created|updated|unchanged|deleted)/.test(l)).map((l) => l.trim()) };
    if (up.code !== 0) throw new Error(`pulumi up after recover exited with ${up.code}:\n${up.output.slice(-3000)}`);
    checks.push(await check("after a killed up, recover and one up", web, prefix, options.count, cwd, env, stack));
    const preview = await time("previewAfterUp", () => pulumi(["preview", "--expect-no-changes", "--stack", stack], cwd, env));
    log.previewAfterUpClean = preview.code === 0;

    // 2. A killed destroy: the stack still lists what it deleted.
    log.killedDestroy = await killMidway("destroy", cwd, env, stack, emulator, ["DELETE /sources/:source_id", "DELETE /destinations/:destination_id"], half, objects);
    log.trackedAfterKilledDestroy = (await stackIds(cwd, env, stack)).length;
    const recoverDestroy = await time("recoverAfterDestroy", () => exec(process.execPath, [CLI, "recover", "--stack", stack, "--yes"], cwd, env));
    if (recoverDestroy.code !== 0) throw new Error(`recover exited with ${recoverDestroy.code}:\n${recoverDestroy.output}`);
    log.recoverAfterDestroy = recoverDestroy.output.trim();
    log.trackedAfterRecoverDestroy = (await stackIds(cwd, env, stack)).length;
    const again = await time("upAfterRecoverDestroy", () => pulumi(["up", "--yes", "--stack", stack], cwd, env));
    log.upAfterRecoverDestroy = { code: again.code, conflicts: (again.output.match(/409 Conflict|already exists|404 Not Found/g) ?? []).length, summary: again.output.split("\n").filter((l) => /^\s+[+~-]?\s*\d+ (created|updated|unchanged|deleted)/.test(l)).map((l) => l.trim()) };
    if (again.code !== 0) throw new Error(`pulumi up after recover exited with ${again.code}:\n${again.output.slice(-3000)}`);
    checks.push(await check("after a killed destroy, recover and one up", web, prefix, options.count, cwd, env, stack));
    const preview2 = await time("previewAfterDestroy", () => pulumi(["preview", "--expect-no-changes", "--stack", stack], cwd, env));
    log.previewAfterDestroyClean = preview2.code === 0;

    // Clean-up: a destroy plans from the state alone, so its preview checks nothing.
    await time("destroy", () => must("pulumi destroy", pulumi(["destroy", "--yes", "--skip-preview", "--stack", stack], cwd, env)));
    log.leftAfterDestroy = await objects();
    log.checks = checks;
    const ok = checks.every((c) => c.ok) && log.previewAfterUpClean === true && log.previewAfterDestroyClean === true && log.leftAfterDestroy === 0;
    log.ok = ok;
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(log, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(log, null, 2)}\n`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await web.close();
    await emulator.stop();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`killed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
