import { randomUUID } from "node:crypto";
import { SECRET_SIG, SIG_KEY } from "../provider/secret-signature.js";
import { UNKNOWN } from "../provider/normalize.js";
import { recoverable, type PendingOperation } from "./pending.js";
import { coreProps } from "../provider/resource-types.js";

/**
 * What a run killed with skipped checkpoints (`PULUMI_SKIP_CHECKPOINTS=true`, docs/large-stacks.md)
 * loses: the engine writes the stack only at the end, so after a kill the stack is as it was
 * before the run. It has no pending operation for the objects the run created; a plain `pulumi up`
 * would create them again (409). The program still declares them, so a preview lists them as
 * creates, with the inputs it would send (names included). Each such planned create is looked up
 * in the API like a pending create (`decide` in recover.ts), and one found there is taken into the
 * stack: a resource record built from the preview's, with the object's id.
 */

/** How `pulumi preview --json` shows a secret value. */
const SECRET_SHOWN = "[secret]";

/** A create `pulumi preview --json` plans: the resource as it would be registered. */
export interface PlannedState {
  urn: string;
  type: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  parent?: string;
  provider?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  protect?: boolean;
  [key: string]: unknown;
}

export interface Planned {
  /** The planned creates of the kinds recover can find, as pending creates; op.planned is true. */
  ops: PendingOperation[];
  /** Every planned create's state by URN (parents and providers too), to build the records from. */
  states: Map<string, PlannedState>;
}

/** A value with the engine's unknowns left out: object keys and list items that are unknown are dropped. */
export function withoutUnknowns(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== UNKNOWN).map(withoutUnknowns);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === UNKNOWN ? [] : [[k, withoutUnknowns(v)]])));
  }
  return value;
}

/**
 * The preview's inputs as a checkpoint holds them: unknowns dropped, and each secret the preview
 * hides as "[secret]" kept a secret (its value is not known here: `pulumi stack import` encrypts
 * the placeholder, the refresh keeps it, and the next `pulumi up` sends the program's value again).
 */
export function checkpointInputs(inputs: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (value === SECRET_SHOWN) return { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(SECRET_SHOWN) };
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(withoutUnknowns(inputs)) as Record<string, unknown>;
}

/**
 * The creates of `pulumi preview --json` output that the stack does not hold: those of a kind
 * recover can find, as pending creates: never one of a pending operation's URN (`pending`: it is
 * settled as such), nor one the stack holds (`known`) unless it is the new half of a replacement.
 * And every planned state.
 */
export function plannedCreates(preview: unknown, known: ReadonlySet<string>, pending: ReadonlySet<string> = new Set()): Planned {
  const steps = (typeof preview === "object" && preview !== null && Array.isArray((preview as { steps?: unknown }).steps) ? (preview as { steps: unknown[] }).steps : []) as Array<{
    op?: string;
    urn?: string;
    newState?: PlannedState;
  }>;
  const states = new Map<string, PlannedState>();
  const ops: PendingOperation[] = [];
  for (const step of steps) {
    const state = step.newState;
    // The new half of a replacement too: a killed run may have made it, under the URN the stack still holds for the old one.
    const replacing = step.op === "replace" || step.op === "create-replacement";
    if ((step.op !== "create" && !replacing) || !state || typeof state.urn !== "string" || typeof state.type !== "string") continue;
    if (ops.some((op) => op.urn === state.urn)) continue;
    states.set(state.urn, state);
    // A pending operation's resource is settled as such, never twice.
    if (pending.has(state.urn) || (known.has(state.urn) && !replacing) || !recoverable(state.type)) continue;
    const inputs = withoutUnknowns(state.inputs ?? {}) as Record<string, unknown>;
    const waiting = JSON.stringify(inputs) !== JSON.stringify(state.inputs ?? {});
    ops.push({ type: "creating", urn: state.urn, resourceType: state.type, inputs: coreProps(state.type, inputs), resource: state as Record<string, unknown>, planned: true, ...(waiting ? { waiting: true as const } : {}) });
  }
  return { ops, states };
}

type Resource = Record<string, unknown> & { urn: string };

/** The URN part of a provider reference `urn::id`. */
const providerUrn = (ref: string) => ref.slice(0, ref.lastIndexOf("::"));

/**
 * The checkpoint with the adopted planned creates added as resources, after the stack's own: each
 * with the object's id, its preview inputs (also standing in for outputs until the refresh reads
 * the object), and what it needs that the stack lacks (the stack resource, a component parent, its
 * default provider with a new id, as the engine would have recorded them). References to
 * resources the stack does not hold are left out of its dependencies. A create whose parent or
 * provider cannot be built from the preview is skipped, and named in `skipped`.
 */
export function addAdopted(checkpoint: unknown, adopt: ReadonlyMap<string, string>, states: ReadonlyMap<string, PlannedState>): { checkpoint: unknown; skipped: string[] } {
  const copy = structuredClone(checkpoint) as { deployment: { resources?: Resource[] } };
  const resources = (copy.deployment.resources ??= []);
  const present = new Map<string, Resource>(resources.map((r) => [r.urn, r]));
  const skipped: string[] = [];
  const add = (r: Resource) => {
    resources.push(r);
    present.set(r.urn, r);
  };
  const record = (state: PlannedState, extra: Record<string, unknown>): Resource => {
    const { sourcePosition: _p, stackTrace: _t, ...rest } = state;
    const inputs = checkpointInputs(state.inputs ?? {});
    return { ...rest, inputs, outputs: inputs, ...extra } as Resource;
  };
  /** The parent chain of a planned resource: present, or added from the preview when it is a component (the stack resource is one). */
  const ensureParent = (urn: string | undefined): boolean => {
    if (urn === undefined || present.has(urn)) return true;
    const state = states.get(urn);
    if (!state || state.custom) return false;
    if (!ensureParent(state.parent)) return false;
    add(record(state, {}));
    return true;
  };
  /** A provider reference that holds: the stack's provider, or the planned one, added with a new id. */
  const ensureProvider = (ref: string | undefined): string | undefined | false => {
    if (ref === undefined || ref === "") return ref;
    const urn = providerUrn(ref);
    const existing = present.get(urn);
    if (existing) return typeof existing.id === "string" ? `${urn}::${existing.id}` : false;
    const state = states.get(urn);
    if (!state || !ensureParent(state.parent)) return false;
    const id = randomUUID();
    add(record(state, { id }));
    return `${urn}::${id}`;
  };
  for (const [urn, id] of adopt) {
    const state = states.get(urn);
    if (!state || !ensureParent(state.parent)) {
      skipped.push(urn);
      continue;
    }
    const provider = ensureProvider(state.provider);
    if (provider === false) {
      skipped.push(urn);
      continue;
    }
    const held = (u: string) => present.has(u);
    // A replacement the killed run made: the object it replaces is deleted already (the refresh
    // drops it) or is deleted by the next `pulumi up`, as the interrupted run would have.
    for (const old of resources) if (old.urn === urn && old.delete !== true) old.delete = true;
    const r = record(state, { id, custom: true, ...(provider ? { provider } : {}) });
    r.dependencies = (state.dependencies ?? []).filter(held);
    r.propertyDependencies = Object.fromEntries(Object.entries(state.propertyDependencies ?? {}).map(([k, v]) => [k, v.filter(held)]));
    add(r);
  }
  return { checkpoint: copy, skipped };
}
