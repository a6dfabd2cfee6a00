import { DECLARATIONS } from "../provider/kinds/index.js";
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

/** How the human and Markdown reports name a kind: its declaration's noun (the JSON report keeps `type` as is). */
function kindLabel(r: CheckedResource): string {
  return DECLARATIONS.find((d) => d.report === r.type)?.noun ?? r.type;
}

function label(r: CheckedResource): string {
  return `${kindLabel(r)} ${r.name} (id ${r.id})`;
}

/** What changed on a drifted resource, one line each, unindented: the masked diff, the changed keys, the status. */
function changeLines(r: CheckedResource): string[] {
  const { drift } = r;
  if (drift.deleted) return ["deleted outside Pulumi"];
  const lines: string[] = [];
  if (drift.maskedDiff.trim() !== "") lines.push(...drift.maskedDiff.replace(/\n+$/, "").split("\n"));
  else if (drift.changedKeys.length > 0) lines.push(`changed keys: ${drift.changedKeys.join(", ")}`);
  else if (!drift.status?.drifted && drift.latestTimestamp) {
    // The API's diff is against the original config, so it is empty when an edit was undone; the history still moved.
    lines.push(`config rewritten at ${drift.latestTimestamp}, after Pulumi's last write at ${drift.baselineTimestamp ?? "(unknown)"}`);
  }
  if (drift.status?.drifted) lines.push(`status: ${drift.status.live}, the program wants ${drift.status.desired}`);
  return lines;
}

function resourceLines(r: CheckedResource): string[] {
  const { drift } = r;
  if (drift.deleted) return [`✗ ${label(r)}: deleted outside Pulumi`];
  if (!drift.detected) {
    // A health state (Broken, Starting, ...) is not drift, but worth seeing next to a clean line.
    const health = drift.status && drift.status.live.toLowerCase() !== drift.status.desired ? ` (status ${drift.status.live})` : "";
    return [`✓ ${label(r)}: no drift${health}`];
  }
  return [`✗ ${label(r)}: drift`, ...changeLines(r).map((line) => `${INDENT}${line}`)];
}

function configDrifted(r: CheckedResource): boolean {
  return r.drift.detected && !r.drift.deleted && r.type !== "tag" && r.type !== "client_credential" && !(r.drift.status?.drifted && r.drift.maskedDiff === "" && r.drift.changedKeys.length === 0);
}

/** The ways a drifted resource is put right, in the order the reports list them. */
type Fix = "config" | "tag" | "credential" | "status" | "deleted";
const FIX_ORDER: readonly Fix[] = ["config", "tag", "credential", "status", "deleted"];

/** What to run next for one drifted resource (none for a clean one). */
function fixesFor(r: CheckedResource): Fix[] {
  if (!r.drift.detected) return [];
  const fixes = new Set<Fix>();
  if (configDrifted(r)) fixes.add("config");
  // A tag's or a credential's diff compares the program with the stack only: a refresh brings the live object in first.
  if (r.type === "tag" && !r.drift.deleted) fixes.add("tag");
  if (r.type === "client_credential" && !r.drift.deleted) fixes.add("credential");
  if (r.drift.status?.drifted) fixes.add("status");
  // read() drops a deleted object from the state; the update then creates it again.
  if (r.drift.deleted) fixes.add("deleted");
  return FIX_ORDER.filter((f) => fixes.has(f));
}

/** The human report's closing hints, one per kind of fix (test/contract/cli/drift.test.ts runs each `pulumi up` suggested here). */
const HINTS: Readonly<Record<Fix, string>> = {
  config: "Config changed: run `pulumi up` to put the program's config back, or `pulumi refresh` to accept the live config.",
  tag: "Tag changed: run `pulumi up --refresh` to put the program's version back, or `pulumi refresh` to accept it.",
  credential: "Client credential changed: run `pulumi up --refresh` to put the program's roles and description back, or `pulumi refresh` to accept them.",
  status: "Status changed: run `pulumi up` to put the program's desiredState back, or `pulumi refresh` to accept it.",
  deleted: "Deleted: run `pulumi up --refresh` to create it again, or `pulumi refresh` to drop it from the stack.",
};

/** The same fixes as the Markdown report's "fix" cell: the command first, Markdown code spans intended. */
const FIX_CELLS: Readonly<Record<Fix, string>> = {
  config: "`pulumi up` puts the program's config back; `pulumi refresh` accepts the live config",
  tag: "`pulumi up --refresh` puts the program's version back; `pulumi refresh` accepts it",
  credential: "`pulumi up --refresh` puts the program's roles and description back; `pulumi refresh` accepts them",
  status: "`pulumi up` puts the program's desiredState back; `pulumi refresh` accepts the live status",
  deleted: "`pulumi up --refresh` creates it again; `pulumi refresh` drops it from the stack",
};

/** What to run next, for the kinds of drift found. */
function hints(run: DriftRun): string[] {
  const found = new Set(run.resources.flatMap(fixesFor));
  return FIX_ORDER.filter((f) => found.has(f)).map((f) => HINTS[f]);
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

/** Most lines of "what changed" a Markdown row shows, and most characters of one line: the report is a summary. */
export const MARKDOWN_MAX_LINES = 12;
export const MARKDOWN_MAX_LINE = 200;

/**
 * Text as one Markdown table cell that shows it literally: `|` would end the cell, a newline the
 * row, a backtick open a code span; `*`, `_`, `[`, `~` and backslashes would format or link, and
 * `<`, `>`, `&` would be read as HTML. Lines are joined with `<br>`, the only line break a cell has.
 */
export function markdownCell(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) =>
      line
        // Control characters (a tab, an escape sequence) show as a space.
        .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, " ")
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/[\\`|*_[\]~]/g, (c) => `\\${c}`),
    )
    .join("<br>");
}

/** A unified diff's changed lines (its `---`/`+++` headers, hunk lines and context left out); other text as it is. */
function changedOnly(lines: string[]): string[] {
  if (!lines.some((l) => l.startsWith("@@"))) return lines;
  return lines.filter((l) => (l.startsWith("+") || l.startsWith("-")) && !l.startsWith("+++ ") && !l.startsWith("--- ") && l !== "+++" && l !== "---");
}

function shortLines(lines: string[]): string[] {
  const clipped = lines.map((l) => (l.length > MARKDOWN_MAX_LINE ? `${l.slice(0, MARKDOWN_MAX_LINE - 1)}…` : l));
  if (clipped.length <= MARKDOWN_MAX_LINES) return clipped;
  const more = clipped.length - (MARKDOWN_MAX_LINES - 1);
  return [...clipped.slice(0, MARKDOWN_MAX_LINES - 1), `… ${more} more lines: run pulumi-cdc drift for all of them`];
}

/**
 * The report as GitHub-flavoured Markdown, for a CI job's summary (`$GITHUB_STEP_SUMMARY`) or a
 * pull-request comment: one line when nothing drifted, else that line and a table with a row per
 * drifted resource (its kind, its name and id, what changed, the fix). What changed is the human
 * report's text (the same masked diff: secrets masked as there), escaped cell by cell.
 */
export function renderMarkdown(run: DriftRun): string {
  const stack = markdownCell(run.stack);
  const title = "**pulumi-cdc drift**";
  if (run.resources.length === 0) return `${title}: stack ${stack} has no pulumi-cdc resources, nothing to check.\n`;
  const total = run.resources.length;
  const noun = total === 1 ? "resource" : "resources";
  const drifted = run.resources.filter((r) => r.drift.detected);
  if (drifted.length === 0) return `${title}: no drift, the ${total} ${noun} of stack ${stack} match the API.\n`;
  const lines = [
    `${title}: drift, ${drifted.length} of ${total} ${noun} of stack ${stack} changed outside Pulumi.`,
    "",
    "| kind | name | what changed | fix |",
    "|---|---|---|---|",
  ];
  for (const r of drifted) {
    const kind = markdownCell(kindLabel(r));
    const name = `${markdownCell(r.name)} (id ${markdownCell(r.id)})`;
    const what = changedOnly(changeLines(r).map((l) => l.replace(/\r$/, "")));
    const changed = shortLines(what.length > 0 ? what : ["changed outside Pulumi"])
      .map(markdownCell)
      .join("<br>");
    const fix = fixesFor(r)
      .map((f) => FIX_CELLS[f])
      .join("<br>");
    lines.push(`| ${kind} | ${name} | ${changed} | ${fix} |`);
  }
  return `${lines.join("\n")}\n`;
}
