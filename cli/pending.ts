import { z } from "zod";
import { jsonObject } from "../provider/client/json-object.js";
import { CheckpointError } from "./state.js";
import type { Registered } from "../provider/kinds/index.js";
import { coreProps, declarationOf } from "../provider/resource-types.js";

/**
 * The declaration of a kind of ours by type token of either host (dynamic classes or plugin):
 * every kind's rules can tell what a killed run's create made (findCreated).
 */
export function recoverable(type: string): Registered | undefined {
  return declarationOf(type);
}

/** The kind of a resource `recover` can find, in camelCase (`source`, `clientCredential`); undefined for any other. */
export function recoverableKind(type: string): string | undefined {
  const name = recoverable(type)?.name;
  return name === undefined ? undefined : `${name[0]!.toLowerCase()}${name.slice(1)}`;
}

/** An operation the engine started and never saw finish: the run was interrupted. */
export interface PendingOperation {
  /** creating, updating, deleting, reading, importing. */
  type: string;
  urn: string;
  resourceType: string;
  /** The inputs the engine sent, as the core has them (coreProps: a typed resource's as its connector and config); secret values stay encrypted objects. */
  inputs: Record<string, unknown>;
  /** The whole resource record, to write it back as a resource when adopted. */
  resource: Record<string, unknown>;
  /**
   * Not a pending operation of the stack but a create the program plans that the stack does not
   * hold (untracked.ts): what a run killed with skipped checkpoints created leaves no other trace.
   */
  planned?: true;
  /**
   * A planned create some of whose inputs the preview could not know: they wait on another
   * planned create (a topic of a source the stack does not hold yet). It is decided once that
   * one is taken in; if that one was never made, neither was this.
   */
  waiting?: true;
}

const resourceSchema = z.looseObject({ urn: z.string(), type: z.string(), inputs: jsonObject.nullish() });
const checkpointSchema = z.looseObject({
  deployment: z
    .looseObject({
      manifest: z.looseObject({ time: z.string().nullish() }).nullish(),
      resources: z.array(z.looseObject({ urn: z.string(), id: z.string().nullish(), type: z.string() })).nullish(),
      pending_operations: z.array(z.looseObject({ resource: resourceSchema, type: z.string() })).nullish(),
    })
    .nullish(),
});

function parse(checkpoint: unknown) {
  const parsed = checkpointSchema.safeParse(checkpoint);
  if (!parsed.success) throw new CheckpointError("the stack export is not a Pulumi checkpoint (expected {deployment: {resources: [...]}})");
  return parsed.data;
}

export function pendingOperations(checkpoint: unknown): PendingOperation[] {
  return (parse(checkpoint).deployment?.pending_operations ?? []).map((op) => ({
    type: op.type,
    urn: op.resource.urn,
    resourceType: op.resource.type,
    inputs: coreProps(op.resource.type, op.resource.inputs ?? {}),
    resource: op.resource as Record<string, unknown>,
  }));
}

/** When the stack's state was last written: for an interrupted run, about when it stopped. */
export function lastWritten(checkpoint: unknown): number | undefined {
  const time = parse(checkpoint).deployment?.manifest?.time;
  const ms = time ? Date.parse(time) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** Ids the stack already tracks, per type token: an object tracked there is never adopted twice. */
export function trackedIds(checkpoint: unknown): Set<string> {
  const ids = new Set<string>();
  for (const r of parse(checkpoint).deployment?.resources ?? []) if (r.id) ids.add(`${r.type}\0${r.id}`);
  return ids;
}

/**
 * The checkpoint with the given pending creates settled: each adopted one becomes a resource
 * with the object's id (its inputs stand in for outputs until the refresh reads the object),
 * each cleared one is dropped. Other pending operations stay for `pulumi refresh` to resolve.
 */
export function settlePendingCreates(checkpoint: unknown, adopt: ReadonlyMap<string, string>, clear: ReadonlySet<string>): unknown {
  const copy = structuredClone(checkpoint) as { deployment: { resources?: Array<Record<string, unknown>>; pending_operations?: Array<{ type: string; resource: Record<string, unknown> }> } };
  const deployment = copy.deployment;
  const remaining: typeof deployment.pending_operations = [];
  const resources = deployment.resources ?? [];
  for (const op of deployment.pending_operations ?? []) {
    const urn = op.resource.urn as string;
    const id = op.type === "creating" ? adopt.get(urn) : undefined;
    if (id !== undefined) {
      // The create of a replacement: the object it replaces is no longer the resource. Deleted
      // already when the replacement deletes first (the refresh drops it), else the next
      // `pulumi up` deletes it, as the interrupted run would have.
      for (const r of resources) {
        if (r.urn === urn && r.delete !== true) {
          r.delete = true;
          delete r.pendingReplacement;
        }
      }
      // Appended: what it depends on (its parent, its provider) is already listed, and nothing can depend on a resource still being created.
      resources.push({ ...op.resource, id, outputs: op.resource.inputs ?? {} });
    } else if (!(op.type === "creating" && clear.has(urn))) {
      remaining.push(op);
    }
  }
  deployment.resources = resources;
  deployment.pending_operations = remaining;
  return copy;
}
