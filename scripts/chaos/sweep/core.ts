/**
 * One point of the crash-point sweep (issue 39): a `pulumi up`, `destroy` or replacing `up` of the
 * sweep's program killed with -9 right after the API answered its k-th write (by count: the
 * emulator holds every write after k, see emulator/holds.ts), then `pulumi-cdc recover --yes` and
 * one plain `pulumi up` (or `destroy`), and the invariants checked against the emulator. Used by
 * `npm run chaos -- --sweep` (main.ts) and by the test suite's slice (test/e2e/sweep.test.ts).
 */
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { FAULTS_OFF, WRITES, startEmulator, type FaultSettings, type RunningEmulator } from "../../../dist/emulator/index.js";
import {
  agentSchema,
  CdcClient,
  clientCredentialSchema,
  destinationConnectorSchema,
  httpConnectionSchema,
  llmConnectionSchema,
  sourceConnectorSchema,
} from "../../../dist/provider/client/index.js";
import { listKafkaUsers } from "../../../dist/provider/kafka/api.js";
import { listTags } from "../../../dist/provider/lookup.js";
import { partitionCount, pipelineSchema, transformSchema } from "../../../dist/provider/pipelines/schemas.js";
import { getTopic } from "../../../dist/provider/resources/topic.js";
import { getTopicDestination } from "../../../dist/provider/resources/topicDestination.js";
import { getChain } from "../../../dist/provider/smt/api.js";
import { ENGINE_FLAGS, run, type Ran } from "../../lib/process";
import { privateStackEnv } from "../../lib/stack-env";
import { killWhenHeld } from "../kill-tree";
import { expected, TS_PROGRAM, writeYamlProgram, type Expected } from "./program";

const ROOT = resolve(__dirname, "..", "..", "..");
const CLI = join(ROOT, "dist", "cli", "index.js");
/** A guard against a hung step only: every step ends by itself long before. */
const STEP_TIMEOUT_MS = 30 * 60_000;
const PASSWORD = "sweep-secret-1";

export type Host = "dynamic" | "plugin";
export type Mode = "default" | "skipped";
export type Kill = "up" | "destroy" | "replace";

/**
 * The fault mix of the API's bad minutes, seeded: the same seed gives the same fault decisions,
 * so a failing point can be replayed (the engine's concurrency may still order requests anew).
 * With the garbled answers of issue 49: 200s that are not the API's (an HTML page, a body cut off,
 * JSON of another shape, an oversized body to a read).
 */
export function faultMix(seed: number): Partial<FaultSettings> {
  return {
    failRate: 0.1,
    dropRate: 0.01,
    lostResponseRate: 0.03,
    htmlRate: 0.02,
    truncatedRate: 0.02,
    wrongShapeRate: 0.02,
    oversizedRate: 0.02,
    rateLimit: 40,
    latencyMs: 5,
    seed,
    routes: ["/"],
  };
}

/** The faults the API injected, as stats().faults counts them. */
export type FaultsMet = ReturnType<RunningEmulator["stats"]>["faults"];

/** One stack of the sweep's program on one host and checkpoint mode, against its own emulator. */
export class SweepStack {
  private constructor(
    readonly host: Host,
    readonly mode: Mode,
    readonly prefix: string,
    readonly dir: string,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
    readonly emulator: RunningEmulator,
    readonly web: CdcClient,
    public generation: number,
  ) {}

  static async create(host: Host, mode: Mode, prefix: string, faults?: Partial<FaultSettings>): Promise<SweepStack> {
    const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-sweep-"));
    const cwd = join(dir, "program");
    if (host === "dynamic") {
      await cp(TS_PROGRAM, cwd, { recursive: true, filter: (src) => !/Pulumi\.[^/]+\.yaml$/.test(src) || src.endsWith("Pulumi.yaml") });
      await symlink(join(ROOT, "node_modules"), join(cwd, "node_modules"), "dir");
    } else {
      await writeYamlProgram(cwd, prefix, 0);
    }
    const env = privateStackEnv(dir, "sweep-passphrase", { PULUMI_NODEJS_TRANSPILE_ONLY: "true", NO_COLOR: "1", ...(mode === "skipped" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}) });
    const emulator = await startEmulator({ port: 0 });
    const web = new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" } });
    const stack = new SweepStack(host, mode, prefix, dir, cwd, env, emulator, web, 0);
    try {
      await stack.setUp(faults);
    } catch (err) {
      await stack.dispose();
      throw err;
    }
    return stack;
  }

  private async setUp(faults: Partial<FaultSettings> | undefined): Promise<void> {
    const { emulator, host, prefix } = this;
    await this.must(["stack", "init"]);
    const plain: Record<string, string> = {
      "cdc:apiUrl": emulator.url,
      "cdc:clientId": emulator.clientId,
      // Short back-offs: the retry policy is the same, the waits are not what is tested.
      "cdc:retryBaseDelayMs": "50",
      "cdc:retryMaxDelayMs": "500",
      ...(host === "dynamic" ? { "sweep:prefix": prefix } : {}),
    };
    const secret: Record<string, string> = { "cdc:clientSecret": emulator.clientSecret, [host === "dynamic" ? "sweep:password" : "password"]: PASSWORD };
    await this.must(["config", "set-all", ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]), ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`])]);
    if (faults) emulator.setFaults(faults);
  }

  /** `pulumi <args>` on this stack. */
  pulumi(args: string[]): Promise<Ran> {
    return run("pulumi", [...args, ...ENGINE_FLAGS, "--stack", "sweep"], { cwd: this.cwd, env: this.env, timeoutMs: STEP_TIMEOUT_MS });
  }

  /** `pulumi-cdc <args>` on this stack. */
  cli(args: string[]): Promise<Ran> {
    return run(process.execPath, [CLI, ...args, "--stack", "sweep"], { cwd: this.cwd, env: this.env, timeoutMs: STEP_TIMEOUT_MS });
  }

  async must(args: string[]): Promise<Ran> {
    const r = await this.pulumi(args);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited with ${r.code}:\n${tail(r.output)}`);
    return r;
  }

  config(key: string, value: string, secret = false): Promise<Ran> {
    return this.must(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
  }

  /** The next generation of the program: its replace-on-change properties change. */
  async nextGeneration(): Promise<void> {
    this.generation += 1;
    if (this.host === "dynamic") await this.config("sweep:generation", String(this.generation));
    else await writeYamlProgram(this.cwd, this.prefix, this.generation);
  }

  expected(): Expected {
    return expected(this.prefix, this.generation);
  }

  /** Writes the API answered since the last reset (a token is no write). */
  writes(): number {
    return Object.entries(this.emulator.stats().requests)
      .filter(([route]) => /^(POST|PUT|PATCH|DELETE) \//.test(route) && !route.startsWith("POST /auth/access-token"))
      .reduce((n, [, count]) => n + count, 0);
  }

  /**
   * `pulumi up` (or `destroy`) killed with -9, the whole process group and its plugins, once the
   * API has answered `k` writes (of `routes`, every write unless said) and another waits unanswered. The waiting ones are then closed
   * unhandled, so exactly `k` took effect. False when the run ended before its k-th write.
   */
  async killAfter(command: "up" | "destroy", k: number, routes: string | readonly string[] = WRITES): Promise<boolean> {
    const hold = this.emulator.hold(routes, k);
    return (await killWhenHeld([command, "--yes", ...ENGINE_FLAGS, "--stack", "sweep"], { cwd: this.cwd, env: this.env }, hold)) === "held";
  }

  async dispose(): Promise<void> {
    await this.web.close();
    await this.emulator.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

function tail(output: string, lines = 40): string {
  return output.trim().split("\n").slice(-lines).join("\n");
}

/** Everything of the prefix in the API, read with the faults off (the census is the judge, not a client under test). */
export async function census(s: SweepStack) {
  const faults = s.emulator.getFaults();
  s.emulator.setFaults(FAULTS_OFF);
  try {
    const api = s.web;
    const mine = (name: string | null | undefined) => typeof name === "string" && name.startsWith(`${s.prefix}-`);
    const pick = <T>(items: T[], name: (t: T) => string | null | undefined, id: (t: T) => string, from: (t: T) => string | null | undefined) =>
      items.filter((t) => mine(name(t))).map((t) => ({ name: name(t)!, id: id(t), createdFrom: from(t) ?? undefined }));
    const sources = await api.listAll("/sources", {}, sourceConnectorSchema);
    const destinations = await api.listAll("/destinations", {}, destinationConnectorSchema);
    const agents = (await api.listAll("/agents", {}, agentSchema)).filter((a) => a.status !== "deleted" && !a.deleted_at);
    return {
      Source: pick(sources, (x) => x.name, (x) => x.id!, (x) => x.created_from),
      Destination: pick(destinations, (x) => x.name, (x) => x.id!, (x) => x.created_from),
      Tag: pick(await listTags(api, {}), (x) => x.name, (x) => x.id, (x) => (x as { created_from?: string | null }).created_from),
      Pipeline: pick(await api.listAll("/pipelines", {}, pipelineSchema), (x) => x.name, (x) => x.id, (x) => x.created_from),
      Transform: pick(await api.listAll("/transforms", {}, transformSchema), (x) => x.name, (x) => x.id, (x) => x.created_from),
      LlmConnection: pick(await api.listAll("/agents/connections/llm", {}, llmConnectionSchema), (x) => x.name, (x) => x.connection_id, (x) => x.created_from),
      HttpConnection: pick(await api.listAll("/agents/connections/http", {}, httpConnectionSchema), (x) => x.name, (x) => x.connection_id, (x) => x.created_from),
      Agent: pick(agents, (x) => x.name, (x) => x.job_id, (x) => x.created_from),
      KafkaUser: pick(await listKafkaUsers(api), (x) => x.username, (x) => x.username, (x) => (x as { created_from?: string | null }).created_from),
      ClientCredential: pick(await api.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) }), (x) => x.description, (x) => x.client_id, (x) => x.created_from),
      sources,
      destinations,
    };
  } finally {
    s.emulator.setFaults(faults);
  }
}

const COUNTED = ["Source", "Destination", "Tag", "Pipeline", "Transform", "LlmConnection", "HttpConnection", "Agent", "KafkaUser", "ClientCredential"] as const;

/** The stack's ids by kind (either host's type tokens), pending operations and deleted halves left out. */
export async function stackIds(s: SweepStack): Promise<Map<string, string[]>> {
  const r = await s.must(["stack", "export"]);
  const checkpoint = JSON.parse(r.output.slice(r.output.indexOf("{"), r.output.lastIndexOf("}") + 1)) as { deployment?: { resources?: Array<{ type: string; id?: string; delete?: boolean }> } };
  const ids = new Map<string, string[]>();
  for (const res of checkpoint.deployment?.resources ?? []) {
    const kind = /^(?:pulumi-nodejs:dynamic\/cdc:|cdc:index:)(\w+)$/.exec(res.type)?.[1];
    if (!kind || !res.id || res.delete) continue;
    ids.set(kind, [...(ids.get(kind) ?? []), res.id]);
  }
  return ids;
}

/** The invariants after a converged run: each a sentence when broken. */
export async function convergedFailures(s: SweepStack): Promise<string[]> {
  const failures: string[] = [];
  const want = s.expected();
  const api = await census(s);
  const ids = await stackIds(s);
  const names: Record<(typeof COUNTED)[number], string[]> = {
    Source: want.sources,
    Destination: want.destinations,
    Tag: want.tags,
    Pipeline: want.pipelines,
    Transform: want.transforms,
    LlmConnection: want.llmConnections,
    HttpConnection: want.httpConnections,
    Agent: want.agents,
    KafkaUser: want.kafkaUsers,
    ClientCredential: want.credentials,
  };
  for (const kind of COUNTED) {
    const got = api[kind].map((o) => o.name).sort();
    if (JSON.stringify(got) !== JSON.stringify([...names[kind]].sort())) failures.push(`${kind}: the API holds [${got.join(", ")}], the program declares [${[...names[kind]].sort().join(", ")}]`);
    const tracked = new Set(ids.get(kind) ?? []);
    const untracked = api[kind].filter((o) => o.createdFrom !== "web" && !tracked.has(o.id));
    if (untracked.length > 0) failures.push(`${kind}: made by Pulumi and in no stack: ${untracked.map((o) => `${o.name} ${o.id}`).join(", ")}`);
    const live = new Set(api[kind].map((o) => o.id));
    const gone = [...tracked].filter((id) => !live.has(id));
    if (gone.length > 0) failures.push(`${kind}: the stack tracks ids the API does not have: ${gone.join(", ")}`);
  }
  const sourceId = (name: string) => api.sources.find((x) => x.name === name)?.id ?? undefined;
  const destinationId = (name: string) => api.destinations.find((x) => x.name === name)?.id ?? undefined;
  for (const t of want.topics) {
    const id = sourceId(t.source);
    const topic = id ? await getTopic(s.web, `source_${id}.${t.table}`) : undefined;
    if (!topic || partitionCount(topic) !== 3) failures.push(`topic ${t.table} of ${t.source}: ${topic ? `${partitionCount(topic)} partitions, the program wants 3` : "missing"}`);
  }
  const crm = sourceId(want.binding.source);
  const warehouse = destinationId(want.binding.destination);
  if (!crm || !warehouse || !(await getTopicDestination(s.web, { topicId: `source_${crm}.${want.binding.topic}`, destinationId: warehouse }))) failures.push(`${want.binding.topic} of ${want.binding.source} is not sent to ${want.binding.destination}`);
  const chained = destinationId(want.chain);
  const chain = chained ? await getChain(s.web, chained) : undefined;
  if (!chain || chain.transforms.length !== 1) failures.push(`the SMT chain of ${want.chain} holds ${chain?.transforms.length ?? "no"} entries, the program 1`);
  // No secret lost: the stored password is the program's, so a connection made with it authenticates.
  const pg0 = sourceId(`${s.prefix}-pg-0`);
  if (!pg0 || s.emulator.storedSecret("sources", pg0, "database.password") !== PASSWORD) failures.push("the password stored for pg-0 is not the program's");
  const preview = await s.pulumi(["preview", "--expect-no-changes"]);
  if (preview.code !== 0) failures.push(`pulumi preview --expect-no-changes exited with ${preview.code}:\n${tail(preview.output, 25)}`);
  return failures;
}

/** How many of the program's objects the API holds, of every counted kind. */
export async function liveCount(s: SweepStack): Promise<number> {
  const api = await census(s);
  return COUNTED.reduce((n, kind) => n + api[kind].length, 0);
}

/** After a destroy: nothing of the program is left. */
export async function destroyedFailures(s: SweepStack): Promise<string[]> {
  const api = await census(s);
  const left = COUNTED.flatMap((kind) => api[kind].map((o) => `${kind} ${o.name}`));
  return left.length === 0 ? [] : [`left after destroy: ${left.join(", ")}`];
}

/** A point's outcome: what was killed where, and what broke. */
export interface PointResult {
  host: Host;
  mode: Mode;
  kill: Kill;
  k: number;
  /** False when the run ended before its k-th write: the point was never reached. */
  reached: boolean;
  failures: string[];
  seconds: number;
  /** The faults the point met: its killed run, recover and the plain run after (none when it was not run). */
  faults?: FaultsMet;
}

/**
 * Kills the run at write k, recovers, and finishes with one plain run; the stack is then left
 * converged (up, replace) or destroyed (destroy). `up` expects a fresh stack, `destroy` and
 * `replace` a converged one.
 */
export async function killAndRecover(s: SweepStack, kill: Kill, k: number): Promise<PointResult> {
  const started = Date.now();
  const before = s.emulator.stats().faults;
  const result = (reached: boolean, failures: string[]): PointResult => {
    const after = s.emulator.stats().faults;
    const faults = Object.fromEntries(Object.entries(after).map(([name, n]) => [name, n - before[name as keyof FaultsMet]])) as FaultsMet;
    return { host: s.host, mode: s.mode, kill, k, reached, failures, seconds: Math.round((Date.now() - started) / 1000), faults };
  };
  if (kill === "replace") await s.nextGeneration();
  const reached = await s.killAfter(kill === "destroy" ? "destroy" : "up", k);
  const recovered = await s.cli(["recover", "--yes"]);
  const failures: string[] = [];
  if (recovered.code !== 0) failures.push(`pulumi-cdc recover --yes exited with ${recovered.code}:\n${tail(recovered.output, 25)}`);
  if (/not a pulumi-cdc resource/.test(recovered.output)) failures.push(`recover called one of ours "not a pulumi-cdc resource":\n${tail(recovered.output, 25)}`);
  if (failures.length > 0) return result(reached, failures);
  const finish = await s.pulumi(kill === "destroy" ? ["destroy", "--yes"] : ["up", "--yes"]);
  if (finish.code !== 0) return result(reached, [`the plain pulumi ${kill === "destroy" ? "destroy" : "up"} after recover exited with ${finish.code}:\n${tail(finish.output, 30)}\nrecover said:\n${tail(recovered.output, 20)}`]);
  return result(reached, kill === "destroy" ? await destroyedFailures(s) : await convergedFailures(s));
}

/** `n` points spread over a run of `total` writes: the k-th writes, first and last included. */
export function spread(total: number, n: number): number[] {
  if (total < 1) return [];
  const points = Array.from({ length: n }, (_, i) => Math.max(1, Math.min(total - 1, Math.round(((i + 1) * total) / (n + 1)))));
  return [...new Set(points)];
}
