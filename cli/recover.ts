import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { anyJsonSchema, isNotFound, redact, resolveSettings, resolveTuning, type CdcClient } from "../provider/client/index.js";
import { EXIT_ERROR, type RecoverOptions } from "./args.js";
import { findBrokenSidecars, readCheckpointFile, removeSidecars, UNREADABLE_CHECKPOINT } from "./backend.js";
import { describeError, programDir } from "./common.js";
import { lastWritten, recoverable, pendingOperations, settlePendingCreates, trackedIds, type PendingOperation } from "./pending.js";
import type { CommandIO } from "./io.js";
import { exportStack, failed, PulumiCommandError, pulumiErrorText, selectedStack, stackSettingsConfig } from "./pulumi.js";
import { logicalNameOf } from "./state.js";
import { addAdopted, plannedCreates, type Planned, type PlannedState } from "./untracked.js";

export interface RecoverDeps extends CommandIO {
  /** Whether a process of this host is alive: decides if a stale lock may be broken. */
  processAlive?: (pid: number) => boolean;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A create the killed run sent may still be on its way through the API: "not found" right after
 * the kill is not yet "never created". So before clearing a pending create, recover lets this
 * much time pass since the interrupted run last wrote its state, then looks again.
 */
export const IN_FLIGHT_GRACE_MS = 15_000;

/** What recover decided for one pending operation. */
export type Decision =
  | { op: PendingOperation; action: "adopt"; id: string; note: string }
  | { op: PendingOperation; action: "clear"; note: string }
  | { op: PendingOperation; action: "delete-and-clear"; ids: string[]; note: string }
  | { op: PendingOperation; action: "refresh"; note: string }
  | { op: PendingOperation; action: "leave"; note: string }
  /** One of ours recover cannot settle without a person: named, and recover fails. */
  | { op: PendingOperation; action: "unsettled"; note: string };

/** Rounds of looking again for planned creates that waited on others: the program's depth of references, at most. */
const MAX_ROUNDS = 5;

// A refresh reads every resource of the stack: minutes for a big stack on a slow API.
const REFRESH_TIMEOUT_MS = 60 * 60_000;
// The preview runs the program and diffs every resource: as long, at worst.
const PREVIEW_TIMEOUT_MS = 60 * 60_000;

/**
 * The creates the program plans that the stack does not hold (untracked.ts), from `pulumi
 * preview --json` (which takes no lock, so it runs beside a killed run's stale one). A preview
 * that fails is said, and recover goes on with the pending operations alone.
 */
async function planned(deps: RecoverDeps, stack: string, cwd: string, checkpoint: unknown, ops: PendingOperation[]): Promise<Planned> {
  const known = new Set(stackUrns(checkpoint));
  const pending = new Set(ops.map((op) => op.urn));
  const result = await deps.runPulumi(["preview", "--json", "--stack", stack], cwd, { timeoutMs: PREVIEW_TIMEOUT_MS });
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    parsed = undefined;
  }
  if (result.code !== 0 || typeof parsed !== "object" || parsed === null) {
    const why = result.code === 0 ? "printed no plan" : `exited with ${result.code}: ${pulumiErrorText(result.stderr, diagnostics(parsed))}`;
    deps.stdout(`Could not list the program's resources (\`pulumi preview --json\` ${why}), so only the stack's pending operations are settled; objects a run killed with skipped checkpoints created are not looked for.\n`);
    return { ops: [], states: new Map() };
  }
  return plannedCreates(parsed, known, pending);
}

/** A JSON preview's diagnostics as the text lines a plain preview prints (`error: ...`). */
function diagnostics(preview: unknown): string {
  const list = (preview as { diagnostics?: Array<{ message?: unknown; severity?: unknown }> } | undefined)?.diagnostics ?? [];
  return list.filter((d) => d.severity === "error" && typeof d.message === "string").map((d) => `error: ${d.message as string}`).join("\n");
}

function stackUrns(checkpoint: unknown): string[] {
  const resources = (checkpoint as { deployment?: { resources?: Array<{ urn?: unknown }> } } | undefined)?.deployment?.resources ?? [];
  return resources.flatMap((r) => (typeof r.urn === "string" ? [r.urn] : []));
}

/**
 * What to do about the program's planned creates: those found in the API are adopted. A
 * credential is deleted (its secret died with the run) only when the run evidently was
 * interrupted, i.e. another planned object was found; the rest (never created, or not readable)
 * are the next `pulumi up`'s to create, and are not listed.
 */
function plannedDecisions(all: Decision[], interruptedBefore = false): Decision[] {
  const interrupted = interruptedBefore || all.some((d) => d.action === "adopt");
  return all.filter((d) => d.action === "adopt" || d.action === "unsettled" || (d.action === "delete-and-clear" && interrupted));
}

/** Decides every pending operation; asks the API, changes nothing. */
export async function decide(api: CdcClient, ops: PendingOperation[], tracked: ReadonlySet<string>): Promise<Decision[]> {
  const decisions: Decision[] = [];
  // Kinds with no unique name (credentials, the agents area): each create may take one object.
  const claimed = new Set<string>();
  for (const op of ops) {
    const kind = recoverable(op.resourceType);
    if (op.type !== "creating") {
      decisions.push({ op, action: "refresh", note: `interrupted while ${op.type}: \`pulumi refresh\` reads its live state` });
      continue;
    }
    if (!kind) {
      decisions.push({ op, action: "leave", note: "not a pulumi-cdc resource: resolve it with `pulumi refresh` run interactively" });
      continue;
    }
    // An adoption creates nothing: its object was there before the run, and is adopted again by
    // the next `pulumi up` (with no write when it matches). Never taken for a lost create: a
    // credential would be deleted.
    if (typeof op.inputs.adoptId === "string" && op.inputs.adoptId !== "") {
      decisions.push({ op, action: "clear", note: `it adopts ${op.inputs.adoptId}, which was there before the run: nothing was created; \`pulumi up\` adopts it again` });
      continue;
    }
    const context = { tracked: (id: string) => tracked.has(`${op.resourceType}\0${id}`), claimed, logicalName: logicalNameOf(op.urn), planned: op.planned === true };
    const found = await (await kind.rules()).findCreated(api, op.inputs, context);
    // Its inputs wait on another planned create: looked at again once that one is taken in (runRecover).
    if (op.waiting && "unsettled" in found) continue;
    if ("found" in found) decisions.push({ op, action: "adopt", id: found.found, note: found.what });
    else if ("lost" in found) decisions.push({ op, action: "delete-and-clear", ids: found.lost, note: found.what });
    else if ("absent" in found) decisions.push({ op, action: "clear", note: found.absent });
    else if ("foreign" in found) decisions.push({ op, action: "clear", note: found.foreign });
    else decisions.push({ op, action: "unsettled", note: found.unsettled });
  }
  return decisions;
}

/** Recover's exit code: an error while anything of ours is unsettled, since the next `pulumi up` cannot be trusted. */
function settledAll(decisions: Decision[]): number {
  return decisions.some((d) => d.action === "unsettled") ? EXIT_ERROR : 0;
}

export function renderPlan(stack: string, decisions: Decision[], applied: boolean): string {
  if (decisions.length === 0) {
    return applied
      ? `Stack ${stack}: no pending operations and no untracked objects of the program; the refresh read the stack's objects (one an interrupted destroy deleted is gone from the stack).\n`
      : `Stack ${stack}: no pending operations and no untracked objects of the program, nothing to settle. With --yes, a refresh reads the stack's objects (after a destroy killed with skipped checkpoints, it drops those already deleted).\n`;
  }
  const pending = decisions.filter((d) => !d.op.planned).length;
  const untracked = decisions.length - pending;
  const what = [
    ...(pending > 0 ? [`${pending} pending operation${pending === 1 ? "" : "s"}`] : []),
    ...(untracked > 0 ? [`${untracked} object${untracked === 1 ? "" : "s"} of the program made but not recorded (a run killed with skipped checkpoints)`] : []),
  ];
  const lines = [`Stack ${stack}: ${what.join(" and ")} from an interrupted run.`];
  for (const d of decisions) lines.push(`  ${d.action.padEnd(16)} ${logicalNameOf(d.op.urn)} (${d.op.planned ? "not in the stack" : d.op.type}): ${d.note}`);
  const unsettled = decisions.filter((d) => d.action === "unsettled").length;
  if (unsettled > 0) {
    lines.push(
      `Not finished: ${unsettled === 1 ? "1 object" : `${unsettled} objects`} of the program could not be settled (marked unsettled above), and \`pulumi up\` could fail on ${unsettled === 1 ? "it" : "them"} or make ${unsettled === 1 ? "it" : "them"} twice. ` +
        `Do what each says, then run \`pulumi-cdc recover\` again.${applied ? " The rest was settled." : " Nothing was changed."}`,
    );
  } else {
    lines.push(applied ? "Done. Run `pulumi up` to finish what the interrupted run started." : "Nothing was changed. Run again with --yes to do this.");
  }
  return `${lines.join("\n")}\n`;
}

const LOCKED = /currently locked/i;
const LOCK_OWNER = /created by ([^@\s]+)@(\S+) \(pid (\d+)\)/;

function defaultProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs a command that needs the stack's lock. A run killed with -9 leaves its lock behind; it
 * is broken (`pulumi cancel`) only when its owner was a process of this host that is gone.
 */
async function withLock(deps: RecoverDeps, args: string[], cwd: string, stack: string, timeoutMs?: number): Promise<void> {
  let result = await deps.runPulumi(args, cwd, { timeoutMs });
  if (result.code !== 0 && LOCKED.test(result.stderr)) {
    const owner = LOCK_OWNER.exec(result.stderr);
    const alive = deps.processAlive ?? defaultProcessAlive;
    if (owner && owner[2] !== hostname()) {
      // Whether a process on another machine (a CI runner elsewhere) still runs cannot be seen from here.
      throw new PulumiCommandError(
        `the stack is locked by ${owner[1]}@${owner[2]} (pid ${owner[3]}), a run on another host, and recover never releases a lock it cannot tell is dead. ` +
          `If that run is over (its machine stopped, its job cancelled), release the lock deliberately with \`pulumi cancel --stack ${stack}\`, then run recover again; if it still runs, wait for it to finish`,
      );
    }
    if (!owner || alive(Number(owner[3]))) {
      throw new PulumiCommandError(
        `the stack is locked by another pulumi process${owner ? ` (pid ${owner[3]} on ${owner[2]})` : ""}: wait for it to finish; if it is gone, run \`pulumi cancel --stack ${stack}\` and recover again`,
      );
    }
    deps.stdout(`The interrupted run's lock (pid ${owner[3]}, no longer running) was released.\n`);
    const cancel = ["cancel", "--yes", "--stack", stack];
    const cancelled = await deps.runPulumi(cancel, cwd);
    if (cancelled.code !== 0) throw failed(cancel, cancelled);
    result = await deps.runPulumi(args, cwd, { timeoutMs });
  }
  if (result.code !== 0) throw failed(args, result);
}

/**
 * The stack's checkpoint. When the CLI cannot load it because the kill cut Pulumi's metadata
 * sidecar short (see backend.ts), --yes removes the broken sidecar and exports again; without
 * --yes the checkpoint file is read directly, so the plan can still be shown with nothing changed.
 */
async function loadCheckpoint(deps: RecoverDeps, stack: string, cwd: string, yes: boolean | undefined): Promise<{ checkpoint: unknown; unreadable: boolean }> {
  try {
    return { checkpoint: await exportStack(deps.runPulumi, stack, cwd), unreadable: false };
  } catch (error) {
    if (!(error instanceof PulumiCommandError) || !UNREADABLE_CHECKPOINT.test(error.message)) throw error;
    const broken = await findBrokenSidecars(deps.runPulumi, stack, cwd);
    if (broken.length === 0) throw error;
    const files = broken.map((b) => b.sidecar).join(", ");
    if (!yes) {
      deps.stdout(`The interrupted run was killed while Pulumi wrote its checkpoint's metadata file, so Pulumi cannot load the stack (nor its config): --yes removes ${files} (Pulumi reads a missing one as default metadata; the checkpoint itself is whole).\n`);
      return { checkpoint: await readCheckpointFile(broken[0]!.checkpoint), unreadable: true };
    }
    await removeSidecars(broken);
    deps.stdout(`Removed ${files}: the interrupted run was killed while Pulumi wrote it, and Pulumi could not load the stack.\n`);
    return { checkpoint: await exportStack(deps.runPulumi, stack, cwd), unreadable: false };
  }
}

/** `pulumi-cdc recover`: settles the pending operations of an interrupted run. Does not throw. */
export async function runRecover(options: RecoverOptions, deps: RecoverDeps): Promise<{ code: number; decisions?: Decision[] }> {
  let api: CdcClient | undefined;
  let scratch: string | undefined;
  try {
    const cwd = await programDir(deps.cwd, options.cwd);
    const stack = options.stack ?? (await selectedStack(deps.runPulumi, cwd));
    const { checkpoint, unreadable } = await loadCheckpoint(deps, stack, cwd, options.yes);
    const ops = pendingOperations(checkpoint);
    if (unreadable) {
      // Pulumi reads the stack's config (the API credentials) only once it can load the stack, so
      // what to do with each pending operation is decided after the repair, by --yes.
      const names = ops.map((op) => `  ${logicalNameOf(op.urn)} (${op.type})`);
      deps.stdout(
        `Stack ${stack}: ${ops.length} pending operation${ops.length === 1 ? "" : "s"} from an interrupted run${ops.length > 0 ? ":" : "."}\n${names.map((n) => `${n}\n`).join("")}` +
          "Each is settled (adopted, cleared or refreshed) once Pulumi can load the stack again.\nNothing was changed. Run again with --yes to do this.\n",
      );
      return { code: 0, decisions: [] };
    }
    const now = deps.now ?? Date.now;
    const started = now();
    const config = await stackSettingsConfig(deps.runPulumi, stack, cwd);
    api = deps.createClient(resolveSettings(config, deps.env), resolveTuning(config, deps.env));
    const plan = await planned(deps, stack, cwd, checkpoint, ops);
    const decideAll = async () => [...(await decide(api!, ops, trackedIds(checkpoint))), ...plannedDecisions(await decide(api!, plan.ops, trackedIds(checkpoint)))];
    let decisions = await decideAll();
    const since = lastWritten(checkpoint);
    const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const wait = since === undefined ? 0 : IN_FLIGHT_GRACE_MS - (now() - since);
    // With skipped checkpoints the stack's time says nothing of when the run stopped; objects of
    // the program found untracked say it was interrupted, at the latest when recover started.
    const untracked = decisions.some((d) => d.op.planned && d.action === "adopt");
    const plannedWait = untracked && decisions.filter((d) => d.op.planned).length < plan.ops.length ? IN_FLIGHT_GRACE_MS - (now() - started) : 0;
    if (wait > 0 && decisions.some((d) => d.action === "clear" || d.action === "delete-and-clear")) {
      deps.stdout(`The interrupted run stopped ${Math.round((now() - since!) / 1000)} s ago; waiting ${Math.ceil(wait / 1000)} s for requests it may still have in flight, then looking again.\n`);
      await sleep(wait);
      decisions = await decideAll();
    } else if (plannedWait > 0) {
      deps.stdout(`Objects of the program were found outside the stack (a run killed with skipped checkpoints made them); waiting ${Math.ceil(plannedWait / 1000)} s for requests it may still have had in flight, then looking again.\n`);
      await sleep(plannedWait);
      decisions = await decideAll();
    }
    if (!options.yes) {
      deps.stdout(renderPlan(stack, decisions, false));
      return { code: settledAll(decisions), decisions };
    }
    for (const d of decisions) {
      if (d.action !== "delete-and-clear") continue;
      // Gone already (an earlier attempt's answer lost) is what the delete wants.
      for (const id of d.ids) await api.delete("/auth/client-credentials/{id}", { params: { id }, schema: anyJsonSchema }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    const adopt = new Map(decisions.flatMap((d) => (d.action === "adopt" && !d.op.planned ? [[d.op.urn, d.id] as const] : [])));
    const adoptPlanned = new Map(decisions.flatMap((d) => (d.action === "adopt" && d.op.planned ? [[d.op.urn, d.id] as const] : [])));
    const clear = new Set(decisions.filter((d) => (d.action === "clear" || d.action === "delete-and-clear") && !d.op.planned).map((d) => d.op.urn));
    // `pulumi refresh --import-pending-creates` would be the engine's own way, but this engine
    // drops the pending import instead of adding the resource (see docs/recovery.md); so the
    // checkpoint is edited through `pulumi stack import` and the refresh reads what it holds.
    scratch = await mkdtemp(join(tmpdir(), "pulumi-cdc-recover-"));
    const file = join(scratch, "checkpoint.json");
    const importCheckpoint = async (settled: unknown) => {
      await writeFile(file, JSON.stringify(settled), { mode: 0o600 });
      await withLock(deps, ["stack", "import", "--file", file, "--stack", stack], cwd, stack);
    };
    let current = checkpoint;
    if (adopt.size > 0 || clear.size > 0) {
      current = settlePendingCreates(checkpoint, adopt, clear);
      await importCheckpoint(current);
    }
    /** Takes planned creates found in the API into the stack (the checkpoint written back). */
    const takeIn = async (found: ReadonlyMap<string, string>, states: Planned["states"]) => {
      let added = addAdopted(current, found, states);
      const stackUrn = [...states.values(), ...((current as { deployment?: { resources?: PlannedState[] } }).deployment?.resources ?? [])].find((r) => r.type === "pulumi:pulumi:Stack")?.urn;
      if (added.skipped.length > 0 && stackUrn) {
        // A first run killed with skipped checkpoints leaves not even the stack resource and the
        // default providers, whose records (their config, as the engine keeps it) only the engine
        // writes: an update that targets the stack resource alone records them and creates nothing else.
        deps.stdout("The stack holds no record of its default provider yet: recording it (`pulumi up --target` the stack resource, which creates no object).\n");
        // No preview: the target is the stack resource alone, and recover has said what it does.
        await withLock(deps, ["up", "--yes", "--skip-preview", "--target", stackUrn, "--stack", stack], cwd, stack, REFRESH_TIMEOUT_MS);
        current = await exportStack(deps.runPulumi, stack, cwd);
        added = addAdopted(current, found, states);
      }
      for (const urn of added.skipped) deps.stdout(`  not taken: ${logicalNameOf(urn)}: its parent or provider is not in the stack; \`pulumi up\` will report its name as taken\n`);
      current = added.checkpoint;
      await importCheckpoint(current);
    };
    if (adoptPlanned.size > 0) await takeIn(adoptPlanned, plan.states);
    // A planned create whose inputs waited on one just taken in (a binding of a source's topic)
    // can be looked for now: the preview knows that one's id. Rounds until nothing more is found.
    let waiting = plan.ops.some((op) => op.waiting) && adoptPlanned.size > 0;
    for (let round = 0; waiting && round < MAX_ROUNDS; round++) {
      const again = await planned(deps, stack, cwd, current, []);
      const more = plannedDecisions(await decide(api, again.ops, trackedIds(current)), true);
      decisions.push(...more);
      const found = new Map(more.flatMap((d) => (d.action === "adopt" ? [[d.op.urn, d.id] as const] : [])));
      if (found.size > 0) await takeIn(found, again.states);
      waiting = found.size > 0 && again.ops.some((op) => op.waiting);
    }
    // Reads every adopted object (its real outputs, the drift baseline) and resolves the other pending operations.
    await withLock(deps, ["refresh", "--yes", "--skip-preview", "--stack", stack], cwd, stack, REFRESH_TIMEOUT_MS);
    deps.stdout(renderPlan(stack, decisions, true));
    return { code: settledAll(decisions), decisions };
  } catch (error) {
    deps.stderr(`pulumi-cdc recover: ${redact(describeError(error))}\n`);
    return { code: EXIT_ERROR };
  } finally {
    await api?.close().catch(() => undefined);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
