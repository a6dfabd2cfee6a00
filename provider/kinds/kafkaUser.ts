import { z } from "zod";
import { KAFKA_GROUP_OPERATIONS, KAFKA_OPERATIONS, KAFKA_PATTERN_TYPES, KAFKA_RESOURCES } from "../../catalogue/kind-values.js";
import { knowable } from "../check.js";
import { isUnknown, MASK } from "../normalize.js";
import { declareInputs } from "./inputs.js";
import { adoptCheck, echo, STRINGS } from "./shared.js";
import type { ImportContext } from "./imported.js";
import { aclOf, whitelistOf, type LiveKafkaUser } from "../kafka/api.js";
import type { KindSpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform } from "./terraform.js";
import { isIpOrCidr } from "../../catalogue/ip.js";


/** The pattern types, by meaning: a rule names its topic exactly, or by prefix; and what a rule is on. */
const [PATTERN_EXACT, PATTERN_PREFIX] = KAFKA_PATTERN_TYPES;
const [ON_TOPIC, ON_GROUP] = KAFKA_RESOURCES;

/** 1-24 characters: letters, digits and dashes, neither first nor last a dash (the platform's rule). */
const USERNAME = /^[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]$|^[a-zA-Z0-9]$/;
/** The API's limit on the comma-separated whitelist. */
export const WHITELIST_MAX = 1000;

/** One of `values`, or unknown during a preview (checked again when known); the message names them all. */
const oneOf = (values: readonly string[], message: string) =>
  z.string({ error: message }).refine((v) => isUnknown(v) || values.includes(v), { error: message });

const aclSchema = z
  .object({
    topicName: knowable(
      z
        .string({ error: "is required: the topic (or, for a GROUP rule, the consumer group) name or prefix" })
        .min(1, { error: "must not be empty: the topic (or consumer group) name or prefix" })
        .max(255, { error: "must be at most 255 characters" }),
    ),
    operation: oneOf(KAFKA_OPERATIONS, `must be one of ${KAFKA_OPERATIONS.join(", ")} (upper case)`),
    resourcePatternType: oneOf(KAFKA_PATTERN_TYPES, `must be ${PATTERN_EXACT} (the exact name) or ${PATTERN_PREFIX} (every name starting with it)`),
    resource: oneOf(KAFKA_RESOURCES, `must be ${ON_TOPIC} (the default) or ${ON_GROUP} (a consumer group)`).optional(),
  })
  .superRefine((acl, ctx) => {
    if (acl.resource === ON_GROUP && !isUnknown(acl.operation) && !(KAFKA_GROUP_OPERATIONS as readonly string[]).includes(acl.operation)) {
      ctx.addIssue({
        code: "custom",
        path: ["operation"],
        message: `must be one of ${KAFKA_GROUP_OPERATIONS.join(", ")} for a ${ON_GROUP} rule (Kafka allows nothing else on a consumer group); got ${acl.operation}`,
      });
    }
  });

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  username: {
    type: "string",
    replaceOnChange: true,
    description: "The broker user's name, its id: 1-24 letters, digits and dashes, neither first nor last a dash; unique per tenant, regardless of case. Changing it replaces the user.",
    check: knowable(
      z
        .string({ error: "is required: the broker user's name, 1-24 letters, digits and dashes" })
        .min(1, { error: "must not be empty: 1-24 letters, digits and dashes" })
        .max(24, { error: "must be at most 24 characters" })
        .regex(USERNAME, { error: "may hold only letters, digits and dashes, and must start and end with a letter or digit" }),
    ),
  },
  password: {
    type: "string",
    secret: true,
    description:
      "The user's password, 12-128 characters: a secret, encrypted in the stack. The API never returns it (the stack keeps only a keyed digest); changing it updates the user in place.",
    check: knowable(
      z
        .string({ error: "is required: the user's password, 12-128 characters (pass it as a secret, e.g. config.requireSecret(...))" })
        .superRefine((v, ctx) => {
          // The placeholder an import writes is too short as well: this says why.
          if (v === MASK) ctx.addIssue({ code: "custom", message: `"${MASK}" is a placeholder, not a password: set the real password (e.g. config.requireSecret(...))` });
          else if (v.length < 12) ctx.addIssue({ code: "custom", message: "must be at least 12 characters" });
          else if (v.length > 128) ctx.addIssue({ code: "custom", message: "must be at most 128 characters" });
        }),
    ),
  },
  whitelistIps: {
    type: STRINGS,
    description: `IPv4 or IPv6 addresses or CIDR ranges the user may connect from, sent comma-separated (at most ${WHITELIST_MAX} characters). Unset or \`[]\`: any address. Changed outside Pulumi, it is drift.`,
    check: z
      .array(
        knowable(
          z
            .string({ error: "must be an IP address or CIDR range, as a string" })
            .transform((v) => v.trim())
            .refine(isIpOrCidr, { error: "must be an IPv4 or IPv6 address or CIDR range, e.g. 10.0.0.0/8 or 203.0.113.7" }),
        ),
        { error: "must be a list of IP addresses or CIDR ranges" },
      )
      .optional(),
  },
  isCreateSchemaRegistry: {
    type: "boolean",
    description: "Also create a schema-registry user (see `schemaProxyEndpoint`). Default `false`.",
    check: z.boolean({ error: "must be true or false" }).optional(),
  },
  kafkaAcls: {
    type: { arrayOf: { object: "cdc:index:KafkaAcl" } },
    ts: { type: "KafkaAclArgs", output: "KafkaAcl[]" },
    description: "The user's ACL rules, a set: order and duplicates do not matter. Default: none. Rules added or removed outside Pulumi are drift.",
    check: z.array(aclSchema, { error: "must be a list of ACL rules {topicName, operation, resourcePatternType, resource?}" }).optional(),
  },
  adoptId: {
    type: "string",
    check: adoptCheck("Kafka user"),
    description:
      "The username of an existing Kafka user to take over instead of creating one; it must equal `username`. `pulumi up` reads the user and writes nothing when its whitelist, ACLs and schema-registry user already equal the program's; otherwise one update makes them match, and sets the program's password. The API never shows a password, so until Pulumi writes one the program's is taken to be the user's.",
  },
});

/** A rule as the API (and the vendor's Terraform state) holds it. */
const wireAcls = (acls: unknown) =>
  (Array.isArray(acls) ? acls : []).map((a: Record<string, unknown>) => ({
    topic_name: a.topic_name,
    operation: a.operation,
    resource_pattern_type: a.resource_pattern_type,
    resource: a.resource || ON_TOPIC,
  }));

export const KAFKA_USER = {
  name: "KafkaUser",
  token: "cdc:index:KafkaUser",
  noun: "Kafka user",
  plural: "Kafka users",
  report: "kafka_user",
  internal: ["logicalName", "passwordDigest", "secretSalt"],
  imported: {
    flag: "kafka-users",
    suffix: "KafkaUser",
    order: 12,
    section: "Kafka users (the password is read from config: the API never shows it)",
    objects: (listed: readonly LiveKafkaUser[]) => listed.map((u) => ({ id: u.username, name: u.username, tagIds: [], live: u })),
    inputs: (u: LiveKafkaUser, ctx: ImportContext) => {
      const whitelist = whitelistOf(u.whitelist_ips);
      const acls = u.kafka_acls.map((a) => ({ ...aclOf(a) }));
      return {
        username: u.username,
        password: ctx.secret("password", "password"),
        whitelistIps: whitelist.length > 0 ? whitelist : undefined,
        isCreateSchemaRegistry: u.is_create_schema_registry ? true : undefined,
        kafkaAcls: acls.length > 0 ? acls : undefined,
      };
    },
  },
  terraform: {
    types: ["streamkap_kafka_user"],
    attributes: {
      id: "the username (the user's id)",
      username: "username, and adoptId: the user is adopted, with no write when it matches",
      password: "password, set in the stack's config as a secret",
      whitelist_ips: "whitelistIps (the comma-separated list, split)",
      is_create_schema_registry: "isCreateSchemaRegistry",
      kafka_acls: "kafkaAcls (topic_name → topicName, operation, resource_pattern_type → resourcePatternType, resource)",
      kafka_proxy_endpoint: "(read back: kafkaProxyEndpoint)",
      schema_proxy_endpoint: "(read back: schemaProxyEndpoint)",
    },
    live: (a) => {
      const username = tfString(a, "username") ?? tfString(a, "id");
      if (!username) return undefined;
      const password = tfString(a, "password");
      return {
        id: username,
        live: {
          username,
          // The vendor's attribute is the API's comma-separated string (a list in no version, but read as one too).
          whitelist_ips: tfString(a, "whitelist_ips") ?? tfStrings(a, "whitelist_ips").join(","),
          is_create_schema_registry: a.is_create_schema_registry === true,
          kafka_acls: wireAcls(a.kafka_acls),
          kafka_proxy_endpoint: tfString(a, "kafka_proxy_endpoint") ?? "",
          schema_proxy_endpoint: tfString(a, "schema_proxy_endpoint") ?? "",
        },
        ...(password ? { secrets: { password } } : {}),
      };
    },
  } satisfies KindTerraform,
  description:
    "A Kafka user of the platform's Kafka access: a broker user with ACL rules, for clients that read or write the platform's topics. The password is write-only (the API never returns it); ACLs, IPs or the schema-registry user changed outside Pulumi show in a plain `pulumi preview`.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "password"),
      ["username", "whitelistIps", "isCreateSchemaRegistry", "kafkaAcls"],
    ),
    { name: "kafkaProxyEndpoint", type: "string", required: true, description: "Where the user's Kafka clients connect (`bootstrap.servers`), made by the API." },
    { name: "schemaProxyEndpoint", type: "string", required: true, description: "The schema registry's URL for this user, made by the API; empty without `isCreateSchemaRegistry`." },
    { name: "createdFrom", type: "string", required: true, description: "How the user was created, as the API records it (`created_from`)." },
  ],
} satisfies KindSpec<"KafkaUser">;
