import { echo, STRINGS } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";


const inputs: PropertySpec[] = [
  {
    name: "username",
    type: "string",
    required: true,
    replaceOnChange: true,
    description: "The broker user's name, its id: 1-24 letters, digits and dashes, neither first nor last a dash; unique per tenant, regardless of case. Changing it replaces the user.",
  },
  {
    name: "password",
    type: "string",
    required: true,
    secret: true,
    description:
      "The user's password, 12-128 characters: a secret, encrypted in the stack. The API never returns it (the stack keeps only a keyed digest); changing it updates the user in place.",
  },
  {
    name: "whitelistIps",
    type: STRINGS,
    description: "IPv4 or IPv6 addresses or CIDR ranges the user may connect from, sent comma-separated (at most 1000 characters). Unset or `[]`: any address. Changed outside Pulumi, it is drift.",
  },
  { name: "isCreateSchemaRegistry", type: "boolean", description: "Also create a schema-registry user (see `schemaProxyEndpoint`). Default `false`." },
  {
    name: "kafkaAcls",
    type: { arrayOf: { object: "cdc:index:KafkaAcl" } },
    ts: { type: "KafkaAclArgs", output: "KafkaAcl[]" },
    description: "The user's ACL rules, a set: order and duplicates do not matter. Default: none. Rules added or removed outside Pulumi are drift.",
  },
];

export const KAFKA_USER = {
  name: "KafkaUser",
  token: "cdc:index:KafkaUser",
  noun: "Kafka user",
  plural: "Kafka users",
  report: "kafka_user",
  recover: "username",
  internal: ["logicalName", "passwordDigest", "secretSalt"],
  description:
    "A Kafka user of the platform's Kafka access: a broker user with ACL rules, for clients that read or write the platform's topics. The password is write-only (the API never returns it); ACLs, IPs or the schema-registry user changed outside Pulumi show in a plain `pulumi preview`.",
  inputs,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "password"),
      ["username", "whitelistIps", "isCreateSchemaRegistry", "kafkaAcls"],
    ),
    { name: "kafkaProxyEndpoint", type: "string", required: true, description: "Where the user's Kafka clients connect (`bootstrap.servers`), made by the API." },
    { name: "schemaProxyEndpoint", type: "string", required: true, description: "The schema registry's URL for this user, made by the API; empty without `isCreateSchemaRegistry`." },
    { name: "createdFrom", type: "string", required: true, description: "How the user was created, as the API records it (`created_from`)." },
  ],
  rules: async () => new (await import("../resources/kafkaUser.js")).KafkaUserProvider(),
} satisfies KindSpec<"KafkaUser">;
