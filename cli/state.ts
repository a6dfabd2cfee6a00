import { z } from "zod";
import { jsonObject } from "../provider/client/json-object.js";
import type { ConfigMap } from "../provider/normalize.js";
import { coreProps, declarationOf } from "../provider/resource-types.js";

/** The kinds the drift command checks by their config and status, as the report names them. */
export type ConnectorKind = "source" | "destination";

/** A source or destination (a kind whose connectors the catalogue lists), by type token of either host (dynamic classes or plugin). */
function connectorKindOf(type: string): ConnectorKind | undefined {
  const catalogue = declarationOf(type)?.catalogue?.kind;
  return catalogue === "source" || catalogue === "destination" ? catalogue : undefined;
}

/**
 * The other kinds the drift command checks, as the report names them (a declaration's
 * `report`): each against the API with its rules' own findings (what a plain preview would say).
 */
export type ObjectKind = string;

/** The kinds the drift command reports: connectors, and every other kind. */
export type CheckedKind = ConnectorKind | ObjectKind;

/** A pipeline, tag, transform, topic, agent, connection or Kafka user as the stack's last deployment recorded it. */
export interface TrackedObject {
  kind: ObjectKind;
  urn: string;
  id: string;
  name: string;
  /**
   * Its outputs, which hold what the program set, less the values the state keeps encrypted (a
   * property the program made secret): those are neither readable nor compared.
   */
  outputs: Record<string, unknown>;
}

function encrypted(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "ciphertext" in value;
}

/** Every resource of a checkpoint but sources and destinations (pipelines, tags, transforms, topics, agents, ...), in state order. */
export function trackedObjects(checkpoint: unknown): TrackedObject[] {
  const parsed = checkpointSchema.safeParse(checkpoint);
  if (!parsed.success) throw new CheckpointError("the stack export is not a Pulumi checkpoint (expected {deployment: {resources: [...]}})");
  return (parsed.data.deployment?.resources ?? []).flatMap((r) => {
    const declaration = declarationOf(r.type);
    if (!declaration || connectorKindOf(r.type) || r.delete || !r.id) return [];
    const kind = declaration.report;
    const outputs = Object.fromEntries(Object.entries(coreProps(r.type, r.outputs ?? {})).filter(([, v]) => !encrypted(v)));
    const name = stringOr(outputs.name, stringOr(outputs.username, stringOr(outputs.topicId, logicalNameOf(r.urn))));
    return [{ kind, urn: r.urn, id: r.id, name, outputs }];
  });
}


/** A source or destination as the stack's last deployment recorded it. */
export interface TrackedConnector {
  kind: ConnectorKind;
  urn: string;
  id: string;
  /** The API name (outputs.name), or the resource's logical name when the name is not readable. */
  name: string;
  connector: string;
  /** Config values the state holds in plain text; secret ones are left out (see `hiddenKeys`). */
  config: ConfigMap;
  /** Config keys whose values are encrypted in the state: neither readable nor comparable. */
  hiddenKeys: string[];
  desiredState: string;
  /** Destinations: the config-history timestamp Pulumi recorded right after its own last write. */
  baselineTimestamp?: string;
  /** Destinations Pulumi created and has not written since: the baseline is the original config. */
  baselineOriginal?: boolean;
}

// Loose on purpose: the checkpoint format belongs to Pulumi and grows fields; only what is read here is checked.
const resourceSchema = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().nullish(),
  outputs: jsonObject.nullish(),
  delete: z.boolean().nullish(),
});
const checkpointSchema = z.looseObject({
  deployment: z
    .looseObject({ resources: z.array(resourceSchema).nullish() })
    .nullish(),
});

/** The checkpoint does not have the shape `pulumi stack export` prints. */
export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointError";
  }
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}

/** The last `::`-separated part of a URN is the resource's logical name. */
export function logicalNameOf(urn: string): string {
  const i = urn.lastIndexOf("::");
  return i >= 0 ? urn.slice(i + 2) : urn;
}

/**
 * Sources and destinations of a checkpoint, in state order. Secret values are stored encrypted
 * (an object with a `ciphertext`), and so is a whole property the program made secret: any
 * non-scalar is treated as a value this command cannot see, and skipped.
 */
export function trackedConnectors(checkpoint: unknown): TrackedConnector[] {
  const parsed = checkpointSchema.safeParse(checkpoint);
  if (!parsed.success) throw new CheckpointError("the stack export is not a Pulumi checkpoint (expected {deployment: {resources: [...]}})");
  const out: TrackedConnector[] = [];
  for (const resource of parsed.data.deployment?.resources ?? []) {
    const kind = connectorKindOf(resource.type);
    // `delete: true` marks the old half of a replacement that the engine has yet to delete: not part of the stack's intent.
    if (!kind || resource.delete || !resource.id) continue;
    const outputs = coreProps(resource.type, resource.outputs ?? {});
    const config: ConfigMap = {};
    const hiddenKeys: string[] = [];
    const rawConfig = outputs.config;
    if (rawConfig && typeof rawConfig === "object" && !Array.isArray(rawConfig) && !("ciphertext" in rawConfig)) {
      for (const [key, value] of Object.entries(rawConfig as Record<string, unknown>)) {
        if (isScalar(value)) config[key] = value;
        else hiddenKeys.push(key);
      }
    }
    const drift = outputs.drift;
    const recorded = drift && typeof drift === "object" ? (drift as { baselineTimestamp?: unknown; baselineOriginal?: unknown }) : {};
    const baseline = recorded.baselineTimestamp;
    const tracked: TrackedConnector = {
      kind,
      urn: resource.urn,
      id: resource.id,
      name: stringOr(outputs.name, logicalNameOf(resource.urn)),
      connector: stringOr(outputs.connector, ""),
      config,
      hiddenKeys: hiddenKeys.sort(),
      // The provider's default, for state written before desiredState existed.
      desiredState: stringOr(outputs.desiredState, "active"),
    };
    if (typeof baseline === "string" && baseline !== "") tracked.baselineTimestamp = baseline;
    if (recorded.baselineOriginal === true) tracked.baselineOriginal = true;
    out.push(tracked);
  }
  return out;
}
