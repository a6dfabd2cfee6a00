/**
 * The benchmark's results: samples as measured, medians over repetitions, and the markdown
 * table docs/benchmarks.md shows.
 */

/**
 * The programs, in the order each round runs them: the no-op dynamic provider (the dynamic
 * floor), pulumi-cdc's dynamic classes, the no-op provider plugin (the plugin floor), and
 * pulumi-cdc's provider plugin pulumi-resource-cdc.
 */
export const PROGRAMS = ["noop", "cdc", "noop-plugin", "cdc-plugin"] as const;
export type ProgramName = (typeof PROGRAMS)[number];

/** The programs that talk to the API (the others are floors). */
export function usesApi(program: ProgramName): boolean {
  return program === "cdc" || program === "cdc-plugin";
}

export const STEPS = ["up", "preview", "previewAfterEdit", "drift", "refresh", "destroy"] as const;
export type StepName = (typeof STEPS)[number];

export const STEP_LABELS: Record<StepName, string> = {
  up: "up",
  preview: "preview, no change",
  previewAfterEdit: "preview after an out-of-band edit",
  drift: "drift command",
  refresh: "refresh",
  destroy: "destroy",
};

/** Route keys of the emulator's counters that are list calls and config comparisons. */
export const LIST_ROUTES = ["GET /sources", "GET /destinations"];
export const COMPARISON_ROUTE = "GET /destinations/:destination_id/config-history/compare-to-original";

export interface StepSample {
  seconds: number;
  /** Requests the emulator received during the step (token requests included). */
  apiRequests: number;
  tokenRequests: number;
  /** Non-zero per-route counts, e.g. {"POST /sources": 50}. */
  requests: Record<string, number>;
  /** Peak resident memory of the process doing the step's API work (the dynamic provider or the plugin; the drift command's own process). */
  peakMemoryMiB: number;
  /** CPU time of that process (s). */
  providerCpuSeconds?: number;
  /** CPU time of all the step's processes in the program's directory: CLI and engine, language host, program, provider (s). */
  stepCpuSeconds?: number;
  /** After up and refresh: the mean size of one of the program's resources in the stack's state (JSON bytes, secrets encrypted). */
  stateBytesPerResource?: number;
  /**
   * CPU time of the bench's own process during the step: the emulator's work answering the
   * API calls, plus the memory sampling (what the floor's column shows). The stand-in API
   * shares the machine's cores with the engine; a hosted API would not.
   */
  apiCpuSeconds: number;
}

/** One run of one program at one size and latency: every step, on a fresh stack. */
export interface RunSample {
  program: ProgramName;
  sources: number;
  destinations: number;
  latencyMs: number;
  round: number;
  steps: Record<StepName, StepSample>;
}

export interface StepResult extends Omit<StepSample, "seconds"> {
  /** Median over the repetitions. */
  seconds: number;
  samples: number[];
}

export interface RunResult {
  program: ProgramName;
  sources: number;
  destinations: number;
  latencyMs: number;
  steps: Record<StepName, StepResult>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 100) / 100;
}

const sameConfig = (a: Omit<RunSample, "steps" | "round">, b: Omit<RunSample, "steps" | "round">) =>
  a.program === b.program && a.sources === b.sources && a.destinations === b.destinations && a.latencyMs === b.latencyMs;

/** Medians per program, size and latency; API traffic and memory are the most any repetition saw. */
export function summarise(samples: readonly RunSample[]): RunResult[] {
  const out: RunResult[] = [];
  for (const sample of samples) {
    if (out.some((r) => sameConfig(r, sample))) continue;
    const same = samples.filter((s) => sameConfig(s, sample));
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
        peakMemoryMiB: Math.max(...all.map((x) => x.peakMemoryMiB)),
        apiCpuSeconds: median(all.map((x) => x.apiCpuSeconds ?? 0)),
        providerCpuSeconds: median(all.map((x) => x.providerCpuSeconds ?? 0)),
        stepCpuSeconds: median(all.map((x) => x.stepCpuSeconds ?? 0)),
        ...(all[0]?.stateBytesPerResource !== undefined ? { stateBytesPerResource: Math.max(...all.map((x) => x.stateBytesPerResource ?? 0)) } : {}),
      };
    }
    const { program, sources, destinations, latencyMs } = sample;
    out.push({ program, sources, destinations, latencyMs, steps });
  }
  return out;
}

/** `lists + comparisons` of a step, e.g. "2 + 100". */
export function listsAndComparisons(step: Pick<StepSample, "requests">): string {
  const lists = LIST_ROUTES.reduce((n, route) => n + (step.requests[route] ?? 0), 0);
  return `${lists} + ${step.requests[COMPARISON_ROUTE] ?? 0}`;
}

const fmt = (n: number) => n.toFixed(1);
const ratioOf = (a: number | undefined, b: number | undefined): number | undefined => (a !== undefined && b !== undefined && a > 0 ? b / a : undefined);
const fmtRatio = (r: number | undefined) => (r === undefined ? "–" : `${r.toFixed(2)}×`);

/** 150 MB, the plugin's memory goal, in the MiB the bench reports (VmHWM / 1024²). */
export const PLUGIN_MEMORY_GOAL_MIB = 150e6 / 2 ** 20;

/**
 * The provider plugin's goals (issue 20). Time goals compare medians of the same run. The drift
 * command is no step of the plugin (it is pulumi-cdc's own process, reading the stack's state and
 * the API, whichever host made the stack), and the floors' stacks have no connectors for it to
 * check, so no goal names it.
 */
export interface Goal {
  id: "pluginFloor" | "upDestroy" | "previewRefresh" | "memory";
  text: string;
  steps: readonly StepName[];
  /** The largest value that holds; `of` is the column it is measured against. */
  limit: number;
  of: "noop-plugin" | "noop" | "memory";
  /** Only at this many resources (the memory goal). */
  count?: number;
}

const PLUGIN_STEPS: readonly StepName[] = STEPS.filter((s) => s !== "drift");

export const GOALS: readonly Goal[] = [
  { id: "pluginFloor", text: "every step on the plugin ≤ 1.1× the no-op plugin floor", steps: PLUGIN_STEPS, limit: 1.1, of: "noop-plugin" },
  { id: "upDestroy", text: "up and destroy on the plugin ≤ 0.7× the dynamic no-op floor", steps: ["up", "destroy"], limit: 0.7, of: "noop" },
  { id: "previewRefresh", text: "previews and refresh on the plugin ≤ 0.9× the dynamic no-op floor", steps: ["preview", "previewAfterEdit", "refresh"], limit: 0.9, of: "noop" },
  { id: "memory", text: "the plugin process's peak RSS under 150 MB (143.1 MiB) at 1,000 resources", steps: PLUGIN_STEPS, limit: PLUGIN_MEMORY_GOAL_MIB, of: "memory", count: 1_000 },
];

export interface GoalCheck {
  goal: Goal;
  /** For the goals against the dynamic floor: the no-op plugin's own ratio per step, what any plugin on this host starts from. */
  floorRatios?: Array<{ step: StepName; ratio: number }>;
  /** undefined: not measured here (a program missing, or another size). */
  holds: boolean | undefined;
  /**
   * Each step's value (ratio of seconds, or MiB), and whether it is within the limit; for the time
   * goals also the same ratio of the steps' CPU time, which other work on a shared machine moves
   * much less than wall time (it is not the goal's measure).
   */
  values: Array<{ step: StepName; value: number; ok: boolean; cpuRatio?: number }>;
}

/** One size and latency: the four programs' results, where run. */
export interface Block {
  sources: number;
  destinations: number;
  latencyMs: number;
  runs: Partial<Record<ProgramName, RunResult>>;
}

export function blocks(results: readonly RunResult[]): Block[] {
  const out: Block[] = [];
  for (const r of results) {
    let block = out.find((b) => b.sources === r.sources && b.destinations === r.destinations && b.latencyMs === r.latencyMs);
    if (!block) out.push((block = { sources: r.sources, destinations: r.destinations, latencyMs: r.latencyMs, runs: {} }));
    block.runs[r.program] = r;
  }
  return out;
}

export function checkGoals(block: Block): GoalCheck[] {
  const plugin = block.runs["cdc-plugin"];
  return GOALS.map((goal) => {
    if (!plugin || (goal.count !== undefined && goal.count !== block.sources + block.destinations)) return { goal, holds: undefined, values: [] };
    const values: GoalCheck["values"] = [];
    for (const step of goal.steps) {
      let value: number | undefined;
      let cpuRatio: number | undefined;
      if (goal.of === "memory") value = plugin.steps[step].peakMemoryMiB;
      else {
        const floor = block.runs[goal.of]?.steps[step];
        value = ratioOf(floor?.seconds, plugin.steps[step].seconds);
        cpuRatio = floor?.stepCpuSeconds && plugin.steps[step].stepCpuSeconds ? ratioOf(floor.stepCpuSeconds, plugin.steps[step].stepCpuSeconds) : undefined;
      }
      if (value === undefined) return { goal, holds: undefined, values: [] };
      values.push({ step, value, ok: goal.of === "memory" ? value < goal.limit : value <= goal.limit, ...(cpuRatio !== undefined ? { cpuRatio } : {}) });
    }
    const floorRatios: GoalCheck["floorRatios"] = [];
    if (goal.of === "noop") {
      for (const step of goal.steps) {
        const ratio = ratioOf(block.runs.noop?.steps[step].seconds, block.runs["noop-plugin"]?.steps[step].seconds);
        if (ratio !== undefined) floorRatios.push({ step, ratio });
      }
    }
    return { goal, holds: values.every((v) => v.ok), values, ...(floorRatios.length > 0 ? { floorRatios } : {}) };
  });
}

function describeCheck(check: GoalCheck): string {
  if (check.holds === undefined) return `- ${check.goal.text}: not measured here`;
  const show = (v: GoalCheck["values"][number]) => `${STEP_LABELS[v.step]} ${check.goal.of === "memory" ? `${fmt(v.value)} MiB` : fmtRatio(v.value)}`;
  const floor = check.floorRatios ? `; the no-op plugin's own: ${check.floorRatios.map((f) => `${STEP_LABELS[f.step]} ${fmtRatio(f.ratio)}`).join(", ")}` : "";
  const cpu = check.values.every((v) => v.cpuRatio !== undefined) && check.values.length > 0 ? `; by the steps' CPU time: ${check.values.map((v) => `${STEP_LABELS[v.step]} ${fmtRatio(v.cpuRatio)}`).join(", ")}` : "";
  if (check.holds) {
    const worst = check.values.reduce((a, b) => (b.value > a.value ? b : a));
    return `- ${check.goal.text}: **holds** (highest: ${show(worst)}${cpu}${floor})`;
  }
  const more = `${cpu}${floor}`;
  return `- ${check.goal.text}: **does not hold**: ${check.values.filter((v) => !v.ok).map(show).join(", ")}${more ? ` (${more.slice(2)})` : ""}`;
}

const cell = (run: RunResult | undefined, step: StepName, f: (s: StepResult) => string) => (run ? f(run.steps[step]) : "–");

/**
 * A table per size and latency: for each step the four programs' seconds (medians), pulumi-cdc's
 * ratio to its host's floor, the plugin's and the plugin floor's ratios to the dynamic floor, the
 * API requests (list calls and comparisons) of both hosts, the CPU time of each step's processes
 * and of its provider process, and the peak memory of the four provider processes (the emulator's
 * CPU is in the JSON); below it, the state size per resource and which of the plugin's goals
 * hold there.
 */
export function markdownTables(results: readonly RunResult[]): string {
  const out: string[] = [];
  for (const block of blocks(results)) {
    const { noop, cdc } = block.runs;
    const noopPlugin = block.runs["noop-plugin"];
    const cdcPlugin = block.runs["cdc-plugin"];
    out.push(`**${block.sources + block.destinations} resources (${block.sources} sources + ${block.destinations} destinations), ${block.latencyMs} ms per request**`, "");
    out.push(
      "| step | dynamic floor (s) | dynamic pulumi-cdc (s) | ratio to dynamic floor | plugin floor (s) | plugin pulumi-cdc (s) | ratio to plugin floor | plugin to dynamic floor | plugin floor to dynamic floor | API requests (lists + comparisons), dynamic / plugin | step CPU (s): dynamic floor / dynamic / plugin floor / plugin | provider CPU (s): dynamic floor / dynamic / plugin floor / plugin | provider peak memory (MiB): dynamic floor / dynamic / plugin floor / plugin |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const step of STEPS) {
      const secs = (r: RunResult | undefined) => cell(r, step, (s) => fmt(s.seconds));
      const api = (s: StepResult) => `${s.apiRequests} (${listsAndComparisons(s)})`;
      const four = (f: (s: StepResult) => string) => [noop, cdc, noopPlugin, cdcPlugin].map((r) => cell(r, step, f)).join(" / ");
      const ratio = (a: RunResult | undefined, b: RunResult | undefined) => fmtRatio(ratioOf(a?.steps[step].seconds, b?.steps[step].seconds));
      out.push(
        `| ${STEP_LABELS[step]} | ${secs(noop)} | ${secs(cdc)} | ${ratio(noop, cdc)} | ${secs(noopPlugin)} | ${secs(cdcPlugin)} | ${ratio(noopPlugin, cdcPlugin)} | ${ratio(noop, cdcPlugin)} | ${ratio(noop, noopPlugin)} | ` +
          `${cell(cdc, step, api)} / ${cell(cdcPlugin, step, api)} | ` +
          `${four((s) => fmt(s.stepCpuSeconds ?? 0))} | ${four((s) => fmt(s.providerCpuSeconds ?? 0))} | ${four((s) => fmt(s.peakMemoryMiB))} |`,
      );
    }
    const state = [noop, cdc, noopPlugin, cdcPlugin].map((r) => (r?.steps.up.stateBytesPerResource === undefined ? "–" : `${(r.steps.up.stateBytesPerResource / 1024).toFixed(1)} KiB`));
    out.push("", `State per resource after up (dynamic floor / dynamic / plugin floor / plugin): ${state.join(" / ")}.`);
    out.push("", "The plugin's goals here:", ...checkGoals(block).map(describeCheck), "");
  }
  return out.join("\n").trimEnd();
}

/** Across every size and latency run: which of the plugin's goals hold everywhere they were measured. */
export function goalsText(results: readonly RunResult[]): string {
  const all = blocks(results).map((b) => ({ b, checks: checkGoals(b) }));
  const lines = ["Goals of the provider plugin, over this run (the drift command is no step of the plugin and is left out):"];
  for (const goal of GOALS) {
    const measured = all.map(({ b, checks }) => ({ b, check: checks.find((c) => c.goal.id === goal.id)! })).filter((x) => x.check.holds !== undefined);
    if (measured.length === 0) {
      lines.push(`- ${goal.text}: not measured in this run`);
      continue;
    }
    const failing = measured.filter((x) => !x.check.holds);
    const where = (x: (typeof measured)[number]) => `${x.b.sources + x.b.destinations} @ ${x.b.latencyMs} ms`;
    lines.push(
      failing.length === 0
        ? `- ${goal.text}: **holds** (${measured.map(where).join(", ")})`
        : `- ${goal.text}: **does not hold** at ${failing.map((x) => `${where(x)} (${x.check.values.filter((v) => !v.ok).map((v) => `${STEP_LABELS[v.step]} ${goal.of === "memory" ? `${fmt(v.value)} MiB` : fmtRatio(v.value)}`).join(", ")})`).join("; ")}`,
    );
  }
  return lines.join("\n");
}
