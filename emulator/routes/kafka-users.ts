import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context.js";
import { hashSecret } from "../crypto.js";
import { conflict, notFound } from "../errors.js";
import type { KafkaAclRecord, KafkaUserRecord, Store } from "../store.js";
import { createdFromField, err, laxBool, pathId, resolveCreatedFrom, validateRequest, type ValidationDetail } from "../validation.js";
import { isIpOrCidr } from "../../catalogue/ip.js";

/**
 * Kafka access: broker users and their ACLs, as the platform's Terraform client uses them
 * (/work/shared/api/kafka-access.md). The username is the id; the list is a bare JSON array;
 * the password is write-only (stored as a hash, never answered); the two proxy endpoints are
 * the server's, derived from the tenant and the username.
 */

export const KAFKA_OPERATIONS = ["ALL", "ALTER", "ALTER_CONFIGS", "CREATE", "DELETE", "DESCRIBE", "DESCRIBE_CONFIGS", "READ", "WRITE"] as const;
/** What a consumer group ACL may allow (Kafka's own rule): the platform's client documents the same three. */
export const KAFKA_GROUP_OPERATIONS = ["DELETE", "DESCRIBE", "READ"] as const;
export const KAFKA_PATTERN_TYPES = ["LITERAL", "PREFIXED"] as const;
export const KAFKA_RESOURCES = ["TOPIC", "GROUP"] as const;

/** 1-24 characters, letters, digits and dashes, neither starting nor ending with a dash. */
export const USERNAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]$|^[a-zA-Z0-9]$/;

const usernameField = z.string().min(1).max(24).regex(USERNAME_PATTERN);
const passwordField = z.string().min(12).max(128);
const whitelistField = z.string().max(1000);
/**
 * `topic_name` is the request's alias of the ACL's `name`, the field answers carry (decision):
 * either is taken, so a client may send back an ACL as it read it. Errors name `topic_name`.
 */
const aclNameAlias = (raw: unknown) =>
  raw !== null && typeof raw === "object" && !("topic_name" in raw) && "name" in raw ? (({ name, ...rest }) => ({ ...rest, topic_name: name }))(raw as { name: unknown }) : raw;
const aclField = z.preprocess(aclNameAlias, z.object({
  // Kafka's own bound on a topic name is 249; a group id may be longer.
  topic_name: z.string().min(1).max(255),
  operation: z.enum(KAFKA_OPERATIONS),
  resource_pattern_type: z.enum(KAFKA_PATTERN_TYPES),
  resource: z.enum(KAFKA_RESOURCES).optional(),
}));
// The platform's client always sends the list; a Go nil slice would arrive as null, taken as none.
const aclsField = z.array(aclField).nullable();

const createBody = z.object({
  username: usernameField,
  password: passwordField,
  whitelist_ips: whitelistField.nullable().optional(),
  kafka_acls: aclsField,
  is_create_schema_registry: laxBool().optional(),
  created_from: createdFromField,
});
const updateBody = z.object({
  // `omitempty` in the platform's client: sent only to change it.
  password: z.union([z.literal(""), passwordField]).nullable().optional(),
  whitelist_ips: whitelistField.nullable().optional(),
  kafka_acls: aclsField,
  is_create_schema_registry: laxBool().optional(),
});
const userPath = z.object({ username: pathId });

/** Problems of a whitelist: each comma-separated entry must be an IP or CIDR range. */
function whitelistErrors(value: string | null | undefined): ValidationDetail[] {
  if (!value) return [];
  const bad = value.split(",").map((e) => e.trim()).filter((e) => !isIpOrCidr(e));
  if (bad.length === 0) return [];
  const shown = bad.map((e) => (e === "" ? "an empty entry" : `'${e}'`)).join(", ");
  return [err.valueError(["body", "whitelist_ips"], value, `${shown} is not an IP address or CIDR range`)];
}

/** A group ACL may only allow what Kafka allows on a consumer group. */
function aclErrors(acls: ReadonlyArray<z.output<typeof aclField>> | null): ValidationDetail[] {
  return (acls ?? []).flatMap((acl, i) =>
    acl.resource === "GROUP" && !(KAFKA_GROUP_OPERATIONS as readonly string[]).includes(acl.operation)
      ? [err.valueError(["body", "kafka_acls", i, "operation"], acl.operation, `a GROUP ACL allows ${KAFKA_GROUP_OPERATIONS.join(", ")}, not ${acl.operation}`)]
      : [],
  );
}

/** Trimmed entries, joined again: what the server keeps and answers. */
function normaliseWhitelist(value: string | null | undefined): string {
  return (value ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .join(",");
}

const aclKey = (a: KafkaAclRecord) => [a.resource, a.topic_name, a.resource_pattern_type, a.operation].join("\u0000");

/** ACLs are a set: duplicates collapse, and the server answers them in its own order (sorted), not the request's. */
function normaliseAcls(acls: ReadonlyArray<z.output<typeof aclField>> | null): KafkaAclRecord[] {
  const out = new Map<string, KafkaAclRecord>();
  for (const acl of acls ?? []) {
    const record: KafkaAclRecord = {
      topic_name: acl.topic_name,
      operation: acl.operation,
      resource_pattern_type: acl.resource_pattern_type,
      resource: acl.resource ?? "TOPIC",
    };
    out.set(aclKey(record), record);
  }
  return [...out.values()].sort((a, b) => (aclKey(a) < aclKey(b) ? -1 : aclKey(a) > aclKey(b) ? 1 : 0));
}

/** The tenant part of a host name: `tnt_3f2a…` → `3f2a…` (host names take no `_`). */
function tenantLabel(store: Store): string {
  return store.data.tenant_id.replace(/^tnt_/, "").toLowerCase();
}

export function renderKafkaUser(store: Store, record: KafkaUserRecord) {
  const host = `${record.username.toLowerCase()}.${tenantLabel(store)}`;
  return {
    username: record.username,
    whitelist_ips: record.whitelist_ips,
    kafka_proxy_endpoint: `${host}.kafka.cdc.local:9092`,
    ...(record.is_create_schema_registry ? { schema_proxy_endpoint: `https://${host}.schema-registry.cdc.local` } : {}),
    // Requests name the topic `topic_name`, answers `name` (the platform's newest client reads both).
    kafka_acls: record.kafka_acls.map(({ topic_name, ...rest }) => ({ name: topic_name, ...rest })),
    is_create_schema_registry: record.is_create_schema_registry,
    created_from: record.created_from,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function registerKafkaUserRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const users = () => store.data.kafka_users;
  const find = (username: string): KafkaUserRecord => {
    const record = users()[username];
    if (!record) throw notFound(`Kafka user '${username}' not found`);
    return record;
  };

  app.post("/kafka-access/kafka-users", { config: { permission: "kafka_users:write" } }, async (request) => {
    const { body } = validateRequest(request, { body: createBody }, ({ body: b }) => [...whitelistErrors(b.whitelist_ips), ...aclErrors(b.kafka_acls)]);
    // Broker principals are case-sensitive, but the endpoints are host names: two users differing only in case would share one.
    const taken = Object.keys(users()).find((u) => u.toLowerCase() === body.username.toLowerCase());
    if (taken !== undefined) throw conflict(`Kafka user '${taken}' already exists`);
    const now = store.nowIso();
    const record: KafkaUserRecord = {
      username: body.username,
      password_hash: await hashSecret(body.password),
      whitelist_ips: normaliseWhitelist(body.whitelist_ips),
      kafka_acls: normaliseAcls(body.kafka_acls),
      is_create_schema_registry: body.is_create_schema_registry ?? false,
      created_from: resolveCreatedFrom(body.created_from),
      created_at: now,
      updated_at: now,
    };
    // The hash took a moment: another create of the same name may have landed meanwhile.
    if (users()[record.username]) throw conflict(`Kafka user '${record.username}' already exists`);
    users()[record.username] = record;
    store.markDirty();
    return renderKafkaUser(store, record);
  });

  // A bare array, no envelope and no paging, as the platform's client decodes it.
  app.get("/kafka-access/kafka-users", { config: { permission: "kafka_users:read" } }, async () =>
    Object.values(users())
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((u) => renderKafkaUser(store, u)),
  );

  // The body is the user's whole setting: what it leaves out is the zero value (the platform's
  // client omits an empty whitelist), except the password, kept unless a new one is sent.
  app.put("/kafka-access/kafka-users/:username", { config: { permission: "kafka_users:write" } }, async (request) => {
    const { path, body } = validateRequest(request, { path: userPath, body: updateBody }, ({ body: b }) => [
      ...whitelistErrors(b.whitelist_ips),
      ...aclErrors(b.kafka_acls),
    ]);
    const record = find(path.username);
    if (body.password) record.password_hash = await hashSecret(body.password);
    record.whitelist_ips = normaliseWhitelist(body.whitelist_ips);
    record.kafka_acls = normaliseAcls(body.kafka_acls);
    record.is_create_schema_registry = body.is_create_schema_registry ?? false;
    record.updated_at = store.nowIso();
    store.markDirty();
    return renderKafkaUser(store, record);
  });

  // The platform's client decodes the answer as JSON (an empty body would fail its decoder), so a small object.
  app.delete("/kafka-access/kafka-users/:username", { config: { permission: "kafka_users:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: userPath });
    const record = find(path.username);
    delete users()[record.username];
    store.markDirty();
    return { username: record.username, deleted: true };
  });
}
