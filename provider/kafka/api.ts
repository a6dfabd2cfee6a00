import { z } from "zod";
import { KAFKA_RESOURCES } from "../../catalogue/kind-values.js";
import type { CdcClient } from "../client/index.js";

/**
 * The Kafka access area as the platform's Terraform client uses it
 * (/work/shared/api/kafka-access.md): users by username, which is their id. There is no get-one
 * route: a user is read by listing them all (a bare JSON array) and picking it by username; one
 * missing from the list is gone.
 */

export const KAFKA_USERS_PATH = "/kafka-access/kafka-users";
export const KAFKA_USER_PATH = "/kafka-access/kafka-users/{username}";

/** What a rule that names no resource is on: a topic (KAFKA_RESOURCES' first). */
const [DEFAULT_RESOURCE] = KAFKA_RESOURCES;

const nullishString = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

export const kafkaAclSchema = z.looseObject({
  // Answers name the topic `name` (requests say `topic_name`); either is read, `name` first.
  topic_name: z.string().optional(),
  name: z.string().optional(),
  operation: z.string(),
  resource_pattern_type: z.string(),
  // TOPIC is the platform's default when a rule says nothing.
  resource: z
    .string()
    .nullish()
    .transform((v) => (v ? v : DEFAULT_RESOURCE)),
}).refine((acl) => acl.name !== undefined || acl.topic_name !== undefined, { error: "an ACL needs its topic: name (or topic_name)" });
export type LiveKafkaAcl = z.output<typeof kafkaAclSchema>;

/** An ACL rule as pulumi-cdc holds it. */
export interface KafkaAcl {
  topicName: string;
  operation: string;
  resourcePatternType: string;
  /** One of KAFKA_RESOURCES; the first is the default. */
  resource: string;
}

export function aclOf(live: LiveKafkaAcl): KafkaAcl {
  return { topicName: live.name ?? live.topic_name ?? "", operation: live.operation, resourcePatternType: live.resource_pattern_type, resource: live.resource || DEFAULT_RESOURCE };
}

/** The whitelist as the API holds it (comma-separated), as a list. */
export function whitelistOf(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
}

export const kafkaUserSchema = z.looseObject({
  username: z.string(),
  whitelist_ips: nullishString,
  kafka_proxy_endpoint: nullishString,
  schema_proxy_endpoint: nullishString,
  kafka_acls: z
    .array(kafkaAclSchema)
    .nullish()
    .transform((a) => a ?? []),
  is_create_schema_registry: z
    .boolean()
    .nullish()
    .transform((b) => b ?? false),
  created_from: z.string().nullish(),
});
export type LiveKafkaUser = z.output<typeof kafkaUserSchema>;

/** The list answer: a bare array, as documented; the API's list envelope (`result`) is read too. */
const listSchema = z.union([z.array(kafkaUserSchema), z.looseObject({ result: z.array(kafkaUserSchema) }).transform((e) => e.result)]);

export async function listKafkaUsers(api: CdcClient): Promise<LiveKafkaUser[]> {
  return api.get(KAFKA_USERS_PATH, { schema: listSchema });
}

// One listing in flight per client is shared by the reads that ask meanwhile (the diffs of a
// preview, which the engine runs in parallel); a read that starts after it ended lists afresh.
const inFlight = new WeakMap<CdcClient, Promise<LiveKafkaUser[]>>();

/** The listing for reads (diff, refresh, lookups): joined while one is in flight. */
export function sharedKafkaUserList(api: CdcClient): Promise<LiveKafkaUser[]> {
  let pending = inFlight.get(api);
  if (!pending) {
    pending = listKafkaUsers(api).finally(() => inFlight.delete(api));
    inFlight.set(api, pending);
  }
  return pending;
}

/** The user of this exact username, or undefined when there is none (it is gone). */
export async function findKafkaUser(api: CdcClient, username: string, opts: { fresh?: boolean } = {}): Promise<LiveKafkaUser | undefined> {
  const users = opts.fresh ? await listKafkaUsers(api) : await sharedKafkaUserList(api);
  return users.find((u) => u.username === username);
}
