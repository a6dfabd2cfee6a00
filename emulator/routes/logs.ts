import { randomUUID } from "node:crypto";
import { objectId } from "../crypto.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.js";
import { notFound } from "../errors.js";
import type { LogSummaryRecord, Store } from "../store.js";
import { InvalidJsonBody, RequestValidationError, addPydanticIssue, err, validateRequest, type ValidationDetail } from "../validation.js";

/**
 * `POST /logs/summary`: generates and stores a structured summary of one log entry. The entry is
 * identified either by `log_uuid` or by the six identifying fields, which are required only
 * when `log_uuid` is absent. Summaries are stored, so asking again returns the same one.
 */

const IDENTIFYING = ["connector_name", "namespace_name", "timestamp", "entity_id", "log_section", "entity_type"] as const;
export const TIMESTAMP_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$";
const TIMESTAMP = new RegExp(TIMESTAMP_PATTERN);
const UUID = /^(urn:uuid:)?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** UTC ISO 8601 with exactly six fractional digits and Z, and a real calendar instant. */
const timestampField = z.string().transform((value, ctx): string => {
  if (!TIMESTAMP.test(value)) {
    addPydanticIssue(ctx, {
      msg: `String should match pattern '${TIMESTAMP_PATTERN}'`,
      type: "string_pattern_mismatch",
      input: value,
      ctx: { pattern: TIMESTAMP_PATTERN },
    });
    return z.NEVER;
  }
  const millis = Date.parse(`${value.slice(0, 23)}Z`);
  if (Number.isNaN(millis) || new Date(millis).toISOString().slice(0, 19) !== value.slice(0, 19)) {
    const message = "timestamp is not a valid UTC date and time";
    addPydanticIssue(ctx, { msg: `Value error, ${message}`, type: "value_error", input: value, ctx: { error: message } });
    return z.NEVER;
  }
  return value;
});

const uuidField = z.string().transform((value, ctx): string => {
  if (!UUID.test(value)) {
    addPydanticIssue(ctx, {
      msg: "Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-]",
      type: "uuid_parsing",
      input: value,
    });
    return z.NEVER;
  }
  const hex = value.replace(/^urn:uuid:/, "").replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
});

const summaryBody = z.object({
  connector_name: z.string().min(1).nullable().optional(),
  namespace_name: z.string().min(1).nullable().optional(),
  timestamp: timestampField.nullable().optional(),
  entity_id: z.string().min(1).nullable().optional(),
  log_section: z.string().min(1).nullable().optional(),
  entity_type: z.enum(["source", "destination"]).nullable().optional(),
  log_uuid: uuidField.nullable().optional(),
});

/** The conditional requirement, checked on the raw body so it is reported with the other errors. */
function conditionalMissing(raw: unknown): ValidationDetail[] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw) || raw instanceof InvalidJsonBody) return [];
  const body = raw as Record<string, unknown>;
  if (body.log_uuid !== undefined && body.log_uuid !== null) return [];
  return IDENTIFYING.filter((f) => body[f] === undefined || body[f] === null).map((f) => err.missing(["body", f], body));
}

function severityOf(section: string): LogSummaryRecord["severity"] {
  if (/error|exception|fail|fatal|crash/i.test(section)) return "error";
  if (/warn|lag|retry|timeout|slow/i.test(section)) return "warning";
  return "info";
}

function buildSummary(store: Store, logUuid: string, fields: Record<(typeof IDENTIFYING)[number], string>): LogSummaryRecord {
  const entityType = fields.entity_type as "source" | "destination";
  const severity = severityOf(fields.log_section);
  const entity = (entityType === "source" ? store.data.sources : store.data.destinations)[fields.entity_id];
  const keyPoints = [
    `${entityType === "source" ? "Source" : "Destination"} connector '${fields.connector_name}' (id ${fields.entity_id})`,
    `Namespace '${fields.namespace_name}', section '${fields.log_section}'`,
    `Logged at ${fields.timestamp}`,
    entity ? `The ${entityType} currently reports status ${entity.connector_status}` : `The ${entityType} no longer exists`,
  ];
  const actions =
    severity === "error"
      ? [`Inspect the ${entityType}'s configuration and credentials`, `Resume the ${entityType} once the cause is fixed`]
      : severity === "warning"
        ? [`Watch the ${entityType}'s lag and throughput for recurrence`]
        : [];
  return {
    summary_id: objectId(),
    log_uuid: logUuid,
    connector_name: fields.connector_name,
    namespace_name: fields.namespace_name,
    timestamp: fields.timestamp,
    entity_id: fields.entity_id,
    entity_type: entityType,
    log_section: fields.log_section,
    severity,
    summary: `${severity.toUpperCase()} entry from ${entityType} connector '${fields.connector_name}' in section '${fields.log_section}' at ${fields.timestamp}.`,
    key_points: keyPoints,
    suggested_actions: actions,
    created_at: store.nowIso(),
  };
}

export function registerLogRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  app.post("/logs/summary", { config: { permission: "logs:write" } }, async (request) => {
    const conditional = conditionalMissing(request.body);
    let body: z.infer<typeof summaryBody>;
    try {
      body = validateRequest(request, { body: summaryBody }).body;
    } catch (error) {
      if (error instanceof RequestValidationError) throw new RequestValidationError([...error.details, ...conditional]);
      throw error;
    }
    if (conditional.length > 0) throw new RequestValidationError(conditional);

    if (body.log_uuid) {
      const stored = store.data.log_summaries[body.log_uuid];
      if (stored) return stored;
    }
    const complete = IDENTIFYING.every((f) => typeof body[f] === "string");
    if (!complete) throw notFound(`Log entry '${body.log_uuid}' not found`);
    const fields = Object.fromEntries(IDENTIFYING.map((f) => [f, body[f] as string])) as Record<(typeof IDENTIFYING)[number], string>;
    const existing = Object.values(store.data.log_summaries).find((s) => IDENTIFYING.every((f) => s[f] === fields[f]));
    if (existing) return existing;
    const record = buildSummary(store, body.log_uuid ?? randomUUID(), fields);
    store.data.log_summaries[record.log_uuid] = record;
    store.markDirty();
    return record;
  });
}
