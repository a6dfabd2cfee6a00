import { z } from "zod";
import { jsonObject } from "../client/json-object.js";
import { CdcApiError, isNotFound, type CdcClient } from "../client/index.js";

/**
 * A destination's SMT chain on the wire (the vendor's internal/api/smt_chain.go and its wire
 * fixture, wire_version 1): `GET` and `PUT /destinations/{id}/smt-chain`. Every 4xx these routes
 * raise is `{"detail": {code, message, issues[]}}`.
 */

export const SMT_CHAIN_PATH = "/destinations/{id}/smt-chain";

const typedInstanceSchema = z.looseObject({
  kind: z.literal("typed").default("typed"),
  id: z.string(),
  alias: z.string(),
  type: z.string(),
  schema_version: z.number(),
  codec_version: z.number(),
  name: z.string(),
  enabled: z.boolean(),
  config: jsonObject,
  configured_secret_paths: z.array(z.string()),
  predicate: z.unknown().nullish(),
});

const opaqueInstanceSchema = z.looseObject({
  kind: z.literal("opaque"),
  id: z.string(),
  alias: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  reason: z.string(),
});

const instanceSchema = z.union([opaqueInstanceSchema, typedInstanceSchema]);

const snapshotSchema = z.looseObject({
  chain_revision: z.string(),
  deployment_generation: z.number(),
  transforms: z.array(instanceSchema),
  managed: z.array(z.unknown()).optional(),
  managed_overrides: z.record(z.string(), z.boolean()).optional(),
  order: z.array(z.looseObject({ origin: z.string(), reference: z.string() })).optional(),
});

export const chainReadSchema = z.looseObject({
  desired: snapshotSchema,
  last_applied: snapshotSchema.nullable(),
  application_status: z.string(),
});

export type LiveInstance = z.output<typeof instanceSchema>;
export type TypedInstance = z.output<typeof typedInstanceSchema>;
export type ChainRead = z.output<typeof chainReadSchema>;

/** A destination's chain as Pulumi sees it: none yet (`smt_chain_absent`) reads as an empty chain without a revision. */
export interface LiveChain {
  /** Undefined when the destination has no chain document yet: a first write sends no expected revision. */
  revision: string | undefined;
  applicationStatus: string;
  transforms: LiveInstance[];
}

export interface SecretOperation {
  pointer: string;
  operation: "replace" | "clear";
  value?: string;
}

export interface InstanceWrite {
  id?: string;
  type: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  secret_operations?: SecretOperation[];
}

export interface ChainWrite {
  expected_revision?: string;
  transforms: InstanceWrite[];
}

export interface SmtIssue {
  code: string;
  message: string;
  instance_id?: string | null;
  request_key?: string | null;
  pointer?: string;
}

export interface SmtErrorEnvelope {
  code: string;
  message: string;
  issues: SmtIssue[];
}

/** The structured envelope of a chain route's error, when it is one. */
export function smtErrorOf(err: unknown): SmtErrorEnvelope | undefined {
  if (!(err instanceof CdcApiError)) return undefined;
  const detail = err.detail as { code?: unknown; message?: unknown; issues?: unknown } | undefined;
  if (!detail || typeof detail !== "object" || typeof detail.code !== "string") return undefined;
  return {
    code: detail.code,
    message: typeof detail.message === "string" ? detail.message : "",
    issues: Array.isArray(detail.issues) ? (detail.issues as SmtIssue[]) : [],
  };
}

export function liveChain(read: ChainRead): LiveChain {
  return { revision: read.desired.chain_revision, applicationStatus: read.application_status, transforms: read.desired.transforms };
}

/** The chain of a destination; undefined when the destination itself is gone. */
export async function getChain(api: CdcClient, destinationId: string): Promise<LiveChain | undefined> {
  try {
    return liveChain(await api.get(SMT_CHAIN_PATH, { params: { id: destinationId }, schema: chainReadSchema }));
  } catch (err) {
    if (smtErrorOf(err)?.code === "smt_chain_absent") return { revision: undefined, applicationStatus: "applied", transforms: [] };
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * Replaces the user chain. Sent once: the body carries secret values, and a replay of a write
 * whose answer was lost would meet the revision guard as a false conflict, hiding the outcome
 * of the first. The client logs only the body's key names, never a value.
 */
export async function putChain(api: CdcClient, destinationId: string, write: ChainWrite): Promise<LiveChain> {
  return liveChain(await api.put(SMT_CHAIN_PATH, { params: { id: destinationId }, body: write, schema: chainReadSchema, once: true }));
}
