import type { FastifyInstance, FastifyReply } from "fastify";
import { findSmtType, materializedConfig, SMT_TYPE_IDS, smtConfigIssues, type SmtType } from "../../catalogue/smt.js";
import type { EmulatorContext } from "../context.js";
import { objectId, randomHex } from "../crypto.js";
import type { SmtChainRecord, SmtInstanceRecord, SmtSnapshotRecord } from "../records.js";

/**
 * A destination's chain of single message transforms, as the platform's wire fixture
 * (wire_version 1, the vendor's internal/api/testdata/smt_wire_fixtures.json) has it:
 * `GET`/`PUT /destinations/{id}/smt-chain`, a full replacement of the user chain under a
 * revision guard, typed instances validated against the SMT catalogue (catalogue/smt.ts), and
 * write-only secrets carried as `secret_operations`, sealed, and shown only as
 * `configured_secret_paths`. Every 4xx is `{"detail": {code, message, issues[]}}`. Sources have
 * no such route: they answer the plain 404 of any unknown path.
 */

interface Issue {
  code: string;
  message: string;
  instance_id: string | null;
  request_key: string | null;
  pointer: string;
}

class SmtError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
  }
}

// The platform's own transforms, which every feeding pipeline adds (the fixture's `base:` slots).
const MANAGED = [
  {
    slot_id: "base:InsertField",
    alias: "InsertField",
    type: "insert_field",
    reason:
      "Adds the _streamkap_* metadata columns every sink relies on; added for every feeding pipeline, dropped only when a feeding kafkadirect source already carries them (records.carry.streamkap.metadata)",
  },
  { slot_id: "base:ToDecimalJ", alias: "ToDecimalJ", type: "to_decimal", reason: "Coerces decimal values for the sink; added for every feeding pipeline" },
].map((m) => ({ ...m, schema_version: 1, codec_version: 1, config: {}, configured_secret_paths: [], predicate: null, policy: "required", enabled: true, override: null }));

const WRITE_KEYS = new Set(["expected_revision", "transforms", "managed_overrides"]);
const INSTANCE_KEYS = new Set(["id", "type", "name", "enabled", "config", "secret_operations", "predicate"]);

function renderSnapshot(snapshot: SmtSnapshotRecord, overrides: Record<string, boolean>) {
  return {
    chain_revision: snapshot.revision,
    deployment_generation: snapshot.generation,
    transforms: snapshot.transforms.map((t) => ({
      kind: "typed",
      id: t.id,
      alias: t.alias,
      type: t.type,
      schema_version: t.schema_version,
      codec_version: t.codec_version,
      name: t.name,
      enabled: t.enabled,
      config: t.config,
      configured_secret_paths: Object.keys(t.secrets).sort(),
      predicate: null,
    })),
    managed: MANAGED.map((m) => ({ ...m, override: overrides[m.slot_id] ?? null })),
    managed_overrides: overrides,
    order: [...MANAGED.map((m) => ({ origin: "managed", reference: m.slot_id })), ...snapshot.transforms.map((t) => ({ origin: "user", reference: t.id }))],
  };
}

function render(chain: SmtChainRecord) {
  return {
    desired: renderSnapshot(chain.desired, chain.managed_overrides),
    last_applied: chain.last_applied ? renderSnapshot(chain.last_applied, chain.managed_overrides) : null,
    application_status: chain.application_status,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nonBlank = (v: unknown): v is string => typeof v === "string" && /\S/.test(v);
const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The issues of one instance of a write, each located by its pointer into the request. */
function instanceIssues(raw: unknown, i: number, current: Map<string, SmtInstanceRecord>, seenIds: Set<string>): { issues: Issue[]; type?: SmtType } {
  const at = `/transforms/${i}`;
  if (!isObject(raw)) return { issues: [{ code: "smt_instance_invalid", message: "Input should be a valid object", instance_id: null, request_key: String(i), pointer: at }] };
  const id = typeof raw.id === "string" ? raw.id : null;
  const issue = (code: string, message: string, pointer: string): Issue => ({ code, message, instance_id: id, request_key: id ? null : String(i), pointer });
  const issues: Issue[] = [];
  for (const key of Object.keys(raw)) if (!INSTANCE_KEYS.has(key)) issues.push(issue("smt_extra_forbidden", "Extra inputs are not permitted", `${at}/${escapePointer(key)}`));
  if ("id" in raw) {
    if (!nonBlank(raw.id)) issues.push(issue("smt_instance_id_invalid", "An id is a non-empty string; omit it to create an instance", `${at}/id`));
    else if (!current.has(raw.id)) issues.push(issue("smt_unknown_instance", "No instance of this chain has this id", `${at}/id`));
    else if (seenIds.has(raw.id)) issues.push(issue("smt_duplicate_instance", "The same instance appears twice", `${at}/id`));
    if (nonBlank(raw.id)) seenIds.add(raw.id);
  }
  const type = typeof raw.type === "string" ? findSmtType(raw.type) : undefined;
  if (!type) issues.push(issue("smt_unknown_type", `Type must be one of ${SMT_TYPE_IDS.join(", ")}`, `${at}/type`));
  else if (id && current.get(id) && current.get(id)!.type !== type.typeId) issues.push(issue("smt_instance_type_changed", "An instance keeps its type; omit the id to create another", `${at}/type`));
  if (!nonBlank(raw.name)) issues.push(issue("smt_name_invalid", "String should have at least 1 character", `${at}/name`));
  if ("enabled" in raw && typeof raw.enabled !== "boolean") issues.push(issue("smt_enabled_invalid", "Input should be a valid boolean", `${at}/enabled`));
  if (raw.predicate !== undefined && raw.predicate !== null) issues.push(issue("smt_predicate_unsupported", "Predicates are not published for these types", `${at}/predicate`));
  if (!isObject(raw.config)) issues.push(issue("smt_config_missing", "Field required", `${at}/config`));
  else if (type) {
    for (const c of smtConfigIssues(type, raw.config)) {
      issues.push(issue(c.code, c.message, `${at}/config/${escapePointer(c.key)}${c.index !== undefined ? `/${c.index}` : ""}`));
    }
  }
  if (raw.secret_operations !== undefined) {
    if (!Array.isArray(raw.secret_operations)) issues.push(issue("smt_secret_operations_invalid", "Input should be a valid list", `${at}/secret_operations`));
    else {
      const paths = new Set(type?.fields.filter((f) => f.secret).map((f) => `/${f.key}`));
      const pointers = new Set<string>();
      raw.secret_operations.forEach((op: unknown, j: number) => {
        const where = `${at}/secret_operations/${j}`;
        if (!isObject(op)) return issues.push(issue("smt_secret_operation_invalid", "Input should be a valid object", where));
        if (typeof op.pointer !== "string" || !paths.has(op.pointer)) issues.push(issue("smt_unknown_secret_path", "Pointer addresses no secret path of this type", `${where}/pointer`));
        else if (pointers.has(op.pointer)) issues.push(issue("smt_duplicate_secret_operation", "One operation per pointer", `${where}/pointer`));
        else pointers.add(op.pointer);
        if (op.operation === "replace") {
          if (typeof op.value !== "string" || op.value.length < 1) issues.push(issue("smt_secret_value_missing", "A replace carries a value of at least 1 character", `${where}/value`));
        } else if (op.operation === "clear") {
          if (op.value !== undefined) issues.push(issue("smt_extra_forbidden", "A clear carries no value", `${where}/value`));
        } else issues.push(issue("smt_secret_operation_invalid", "Operation must be 'replace' or 'clear'", `${where}/operation`));
        return undefined;
      });
    }
  }
  return type ? { issues, type } : { issues };
}

function sendError(reply: FastifyReply, error: SmtError) {
  return reply.code(error.status).send({ detail: { code: error.code, message: error.message, issues: error.issues } });
}

const CONFLICT_ISSUE: Issue = { code: "smt_revision_conflict", message: "expected revision is stale", instance_id: null, request_key: null, pointer: "/expected_revision" };

export function registerSmtChainRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const destination = (id: string) => {
    const record = store.data.destinations[id];
    if (!record) throw new SmtError(404, "smt_connector_not_found", `Destination '${id}' not found`);
    return record;
  };

  app.get("/destinations/:destination_id/smt-chain", { config: { permission: "destinations:read" } }, async (request, reply) => {
    try {
      const record = destination((request.params as { destination_id: string }).destination_id);
      const chain = record.smt_chain;
      if (!chain) throw new SmtError(404, "smt_chain_absent", "The destination has no SMT chain yet");
      // The emulator's workers take a saved chain at once: the next read finds it applied.
      if (chain.application_status === "pending") {
        chain.application_status = "applied";
        chain.last_applied = structuredClone(chain.desired);
        store.markDirty();
      }
      return render(chain);
    } catch (error) {
      if (error instanceof SmtError) return sendError(reply, error);
      throw error;
    }
  });

  app.put("/destinations/:destination_id/smt-chain", { config: { permission: "destinations:write" } }, async (request, reply) => {
    try {
      const record = destination((request.params as { destination_id: string }).destination_id);
      const body = request.body;
      if (!isObject(body)) throw new SmtError(422, "smt_validation_failed", "The chain was not saved; fix the issues and send it again", [{ ...CONFLICT_ISSUE, code: "smt_request_invalid", message: "Input should be a valid object", pointer: "" }]);
      const extra = Object.keys(body).filter((k) => !WRITE_KEYS.has(k));
      if (extra.length > 0) {
        throw new SmtError(
          422,
          "smt_validation_failed",
          "The chain was not saved; fix the issues and send it again",
          extra.map((k) => ({ code: "smt_extra_forbidden", message: "Extra inputs are not permitted", instance_id: null, request_key: null, pointer: `/${escapePointer(k)}` })),
        );
      }
      const chain = record.smt_chain;
      const expected = body.expected_revision ?? null;
      if (expected !== null && !nonBlank(expected)) {
        throw new SmtError(422, "smt_validation_failed", "The chain was not saved; fix the issues and send it again", [
          { code: "smt_expected_revision_invalid", message: "String should have at least 1 character", instance_id: null, request_key: null, pointer: "/expected_revision" },
        ]);
      }
      if (chain && expected === null) {
        throw new SmtError(409, "smt_expected_revision_required", "The destination already has a chain; send the revision you read as expected_revision", [
          { ...CONFLICT_ISSUE, code: "smt_expected_revision_required", message: "expected revision is required" },
        ]);
      }
      if ((chain && expected !== chain.desired.revision) || (!chain && expected !== null)) {
        throw new SmtError(409, "smt_revision_conflict", "The chain changed since it was read; read it again before saving", [CONFLICT_ISSUE]);
      }
      const current = new Map((chain?.desired.transforms ?? []).map((t) => [t.id, t]));
      let transforms = chain?.desired.transforms ?? [];
      if (body.transforms !== undefined && body.transforms !== null) {
        if (!Array.isArray(body.transforms)) {
          throw new SmtError(422, "smt_validation_failed", "The chain was not saved; fix the issues and send it again", [
            { code: "smt_transforms_invalid", message: "Input should be a valid list", instance_id: null, request_key: null, pointer: "/transforms" },
          ]);
        }
        const seenIds = new Set<string>();
        const checked = body.transforms.map((raw: unknown, i: number) => ({ raw: raw as Record<string, unknown>, ...instanceIssues(raw, i, current, seenIds) }));
        const issues = checked.flatMap((c) => c.issues);
        if (issues.length > 0) throw new SmtError(422, "smt_validation_failed", "The chain was not saved; fix the issues and send it again", issues);
        const aliasCount = new Map<string, number>();
        for (const t of current.values()) aliasCount.set(t.alias.replace(/\d+$/, ""), Math.max(aliasCount.get(t.alias.replace(/\d+$/, "")) ?? 0, Number(/\d+$/.exec(t.alias)?.[0] ?? 0)));
        transforms = checked.map(({ raw, type }) => {
          const before = typeof raw.id === "string" ? current.get(raw.id) : undefined;
          const secrets = { ...(before?.secrets ?? {}) };
          for (const op of (raw.secret_operations as Array<{ pointer: string; operation: string; value?: string }> | undefined) ?? []) {
            if (op.operation === "clear") delete secrets[op.pointer];
            else secrets[op.pointer] = store.vault.seal(op.value!);
          }
          const next = (aliasCount.get(type!.aliasBase) ?? 0) + 1;
          if (!before) aliasCount.set(type!.aliasBase, next);
          return {
            id: before?.id ?? objectId(),
            alias: before?.alias ?? `${type!.aliasBase}${next}`,
            type: type!.typeId,
            schema_version: type!.schemaVersion,
            codec_version: type!.codecVersion,
            name: raw.name as string,
            enabled: raw.enabled === undefined ? true : (raw.enabled as boolean),
            config: materializedConfig(type!, raw.config as Record<string, unknown>),
            secrets,
          };
        });
      }
      const overrides = isObject(body.managed_overrides) ? (body.managed_overrides as Record<string, boolean>) : (chain?.managed_overrides ?? {});
      const saved: SmtChainRecord = {
        desired: { revision: randomHex(16), generation: (chain?.desired.generation ?? 0) + 1, transforms },
        last_applied: chain?.last_applied ?? null,
        application_status: "pending",
        managed_overrides: overrides,
      };
      record.smt_chain = saved;
      store.markDirty();
      return render(saved);
    } catch (error) {
      if (error instanceof SmtError) return sendError(reply, error);
      throw error;
    }
  });
}
