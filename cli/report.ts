import { EXIT_CLEAN, EXIT_DRIFT } from "./args.js";
import type { CheckedResource } from "./check.js";

/** The result of one drift check; `--json` prints exactly this object. */
export interface DriftRun {
  stack: string;
  /** ISO 8601, when the check ran. */
  checkedAt: string;
  clean: boolean;
  resources: CheckedResource[];
}

export function driftRun(stack: string, checkedAt: Date, resources: CheckedResource[]): DriftRun {
  return { stack, checkedAt: checkedAt.toISOString(), clean: resources.every((r) => !r.drift.detected), resources };
}

export function exitCodeFor(run: DriftRun): number {
  return run.clean ? EXIT_CLEAN : EXIT_DRIFT;
}

export function renderJson(run: DriftRun): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}

const INDENT = "    ";

function indent(text: string): string[] {
  return text
    .replace(/\n+$/, "")
    .split("\n")
    .map((line) => `${INDENT}${line}`);
}

/** How the human report names a kind (the JSON report keeps `type` as is). */
const KIND_LABELS: Readonly<Record<string, string>> = { http_connection: "HTTP connection", llm_connection: "LLM connection", kafka_user: "Kafka user", client_credential: "client credential", smt_chain: "SMT chain" };

function label(r: CheckedResource): string {
  return `${KIND_LABELS[r.type] ?? r.type} ${r.name} (id ${r.id})`;
}

function resourceLines(r: CheckedResource): string[] {
  const { drift } = r;
  if (drift.deleted) return [`✗ ${label(r)}: deleted outside Pulumi`];
  if (!drift.detected) {
    // A health state (Broken, Starting, ...) is not drift, but worth seeing next to a clean line.
    const health = drift.status && drift.status.live.toLowerCase() !== drift.status.desired ? ` (status ${drift.status.live})` : "";
    return [`✓ ${label(r)}: no drift${health}`];
  }
  const lines = [`✗ ${label(r)}: drift`];
  if (drift.maskedDiff.trim() !== "") lines.push(...indent(drift.maskedDiff));
  else if (drift.changedKeys.length > 0) lines.push(`${INDENT}changed keys: ${drift.changedKeys.join(", ")}`);
  else if (!drift.status?.drifted && drift.latestTimestamp) {
    // The API's diff is against the original config, so it is empty when an edit was undone; the history still moved.
    lines.push(`${INDENT}config rewritten at ${drift.latestTimestamp}, after Pulumi's last write at ${drift.baselineTimestamp ?? "(unknown)"}`);
  }
  if (drift.status?.drifted) lines.push(`${INDENT}status: ${drift.status.live}, the program wants ${drift.status.desired}`);
  return lines;
}

function configDrifted(r: CheckedResource): boolean {
  return r.drift.detected && !r.drift.deleted && r.type !== "tag" && r.type !== "client_credential" && !(r.drift.status?.drifted && r.drift.maskedDiff === "" && r.drift.changedKeys.length === 0);
}

/** What to run next, for the kinds of drift found (test/contract/cli/drift.test.ts runs each `pulumi up` suggested here). */
function hints(run: DriftRun): string[] {
  const drifted = run.resources.filter((r) => r.drift.detected);
  const out: string[] = [];
  if (drifted.some(configDrifted)) {
    out.push("Config changed: run `pulumi up` to put the program's config back, or `pulumi refresh` to accept the live config.");
  }
  if (drifted.some((r) => r.type === "tag" && !r.drift.deleted)) {
    // A tag's diff compares the program with the stack only: a refresh brings the live tag in first.
    out.push("Tag changed: run `pulumi up --refresh` to put the program's version back, or `pulumi refresh` to accept it.");
  }
  if (drifted.some((r) => r.type === "client_credential" && !r.drift.deleted)) {
    // The same for a credential: its diff compares the program with the stack only.
    out.push("Client credential changed: run `pulumi up --refresh` to put the program's roles and description back, or `pulumi refresh` to accept them.");
  }
  if (drifted.some((r) => r.drift.status?.drifted)) {
    out.push("Status changed: run `pulumi up` to put the program's desiredState back, or `pulumi refresh` to accept it.");
  }
  if (drifted.some((r) => r.drift.deleted)) {
    // read() drops a deleted object from the state; the update then creates it again.
    out.push("Deleted: run `pulumi up --refresh` to create it again, or `pulumi refresh` to drop it from the stack.");
  }
  return out;
}

export function renderHuman(run: DriftRun): string {
  const lines: string[] = [];
  if (run.resources.length === 0) {
    lines.push(`Stack ${run.stack} has no pulumi-cdc resources: nothing to check.`);
    return `${lines.join("\n")}\n`;
  }
  for (const r of run.resources) lines.push(...resourceLines(r));
  const drifted = run.resources.filter((r) => r.drift.detected).length;
  const total = run.resources.length;
  const noun = total === 1 ? "resource" : "resources";
  lines.push("");
  if (drifted === 0) {
    lines.push(`No drift: ${total} ${noun} of stack ${run.stack} match the API.`);
  } else {
    lines.push(`Drift: ${drifted} of ${total} ${noun} of stack ${run.stack} changed outside Pulumi.`);
    lines.push(...hints(run));
  }
  return `${lines.join("\n")}\n`;
}
