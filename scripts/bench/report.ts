/**
 * The benchmark's results: samples as measured, medians over repetitions, and the markdown
 * table the README shows.
 */

export const PROGRAMS = ["noop", "cdc"] as const;
export type ProgramName = (typeof PROGRAMS)[number];

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
  /** Peak resident memory of the process doing the step's API work (the dynamic provider; the drift command's own process). */
  peakMemoryMiB: number;
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

/** One row per size, latency and step: floor and pulumi-cdc (medians), their ratio, pulumi-cdc's API traffic and both programs' peak memory. */
export function markdownTable(results: readonly RunResult[]): string {
  const rows = [
    "| resources (sources + destinations) | latency | step | no-op floor (s) | pulumi-cdc (s) | ratio | API requests | of which lists + comparisons | emulator CPU, floor / pulumi-cdc (s) | provider peak memory, floor / pulumi-cdc (MiB) |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const cdc of results.filter((r) => r.program === "cdc")) {
    const noop = results.find((r) => r.program === "noop" && sameConfig(r, { ...cdc, program: "noop" }));
    if (!noop) continue;
    for (const step of STEPS) {
      const a = noop.steps[step];
      const b = cdc.steps[step];
      const ratio = a.seconds > 0 ? `${(b.seconds / a.seconds).toFixed(2)}×` : "–";
      rows.push(
        `| ${cdc.sources + cdc.destinations} (${cdc.sources} + ${cdc.destinations}) | ${cdc.latencyMs} ms | ${STEP_LABELS[step]} | ${fmt(a.seconds)} | ${fmt(b.seconds)} | ${ratio} | ${b.apiRequests} | ${listsAndComparisons(b)} | ${fmt(a.apiCpuSeconds ?? 0)} / ${fmt(b.apiCpuSeconds ?? 0)} | ${fmt(a.peakMemoryMiB)} / ${fmt(b.peakMemoryMiB)} |`,
      );
    }
  }
  return rows.join("\n");
}
