import { TAG_TYPES } from "../../catalogue/kind-values.js";
import { TOPIC_LOOKUP } from "./object-types.js";
import { list, STRINGS, TRANSFORM_TYPES } from "./shared.js";
import type { FunctionSpec, FunctionToken, PropertySpec } from "./spec.js";

/** The provider's lookup functions (invokes), by token. */

const byName = (what: string): PropertySpec[] => [{ name: "name", type: "string", required: true, description: `The ${what}'s exact name (names are case-sensitive).` }];

function connectorLookup(what: "source" | "destination"): PropertySpec[] {
  return [
    { name: "id", type: "string", required: true, description: `The ${what}'s id.` },
    { name: "name", type: "string", required: true, description: `The ${what}'s name.` },
    { name: "connector", type: "string", required: true, description: `The ${what}'s connector kind, e.g. \`${what === "source" ? "postgresql" : "snowflake"}\`.` },
    { name: "status", type: "string", required: true, description: `The API's \`connector_status\` of the ${what}: Active, Paused, Stopped, Broken, ...` },
    { name: "config", type: { mapOf: "any" }, required: true, description: `The ${what}'s live config, in the platform's keys; secret values come back masked.` },
    { name: "topics", type: STRINGS, required: true, description: `The ${what}'s topics, by name.` },
  ];
}

const LOOKUP_NOTE = "It reads with the credentials the resources use, and fails with a clear message when nothing, or more than one object, matches.";

export const FUNCTIONS: Readonly<Record<FunctionToken, FunctionSpec>> = {
  "cdc:index:getRoles": {
    token: "cdc:index:getRoles",
    description: "The roles a `ClientCredential` can be bound to (`GET /auth/roles`).",
    inputs: [],
    outputs: [{ name: "roles", type: { arrayOf: { object: "cdc:index:Role" } }, required: true, description: "Every role of the tenant." }],
  },
  "cdc:index:getSource": {
    token: "cdc:index:getSource",
    description: `A source by its exact name, e.g. to use its id or topics in a program that does not manage it. ${LOOKUP_NOTE}`,
    inputs: byName("source"),
    outputs: connectorLookup("source"),
  },
  "cdc:index:getDestination": {
    token: "cdc:index:getDestination",
    description: `A destination by its exact name. ${LOOKUP_NOTE}`,
    inputs: byName("destination"),
    outputs: connectorLookup("destination"),
  },
  "cdc:index:getTag": {
    token: "cdc:index:getTag",
    description: `A tag by its exact name. ${LOOKUP_NOTE}`,
    inputs: byName("tag"),
    outputs: [
      { name: "id", type: "string", required: true, description: "The tag's id: what the `tags` of a source, destination, pipeline, transform or topic take." },
      { name: "name", type: "string", required: true, description: "The tag's name." },
      { name: "type", type: STRINGS, required: true, description: "What the tag is for, e.g. `sources`, `destinations`." },
      { name: "description", type: "string", required: true, description: "What the tag means; empty when it has no description." },
      { name: "system", type: "boolean", required: true, description: "Whether the tag is one of the platform's own." },
    ],
  },
  "cdc:index:getTags": {
    token: "cdc:index:getTags",
    description: "Tags: all of them, or only those named exactly `name` and those for any of `type`. A list, empty when none match.",
    inputs: [
      { name: "name", type: "string", description: "Only the tags of this exact name." },
      { name: "type", type: STRINGS, description: `Only the tags for any of these: ${list(TAG_TYPES)}.` },
    ],
    outputs: [{ name: "tags", type: { arrayOf: { object: "cdc:index:TagInfo" } }, required: true, description: "The tags that match." }],
  },
  "cdc:index:getTopics": {
    token: "cdc:index:getTopics",
    description:
      "Topics with their partition counts: all of them, or those of one source, destination or transform (by its exact name), optionally only those named exactly `name`. A list, empty when none match; an owner that does not exist, or whose name more than one has, is an error.",
    inputs: [
      { name: "source", type: "string", description: "The exact name of the source whose topics to list." },
      { name: "destination", type: "string", description: "The exact name of the destination whose topics to list." },
      { name: "transform", type: "string", description: "The exact name of the transform whose topics to list." },
      { name: "name", type: "string", description: "Only the topic of this exact name (e.g. `public.orders`) or id." },
    ],
    outputs: [{ name: "topics", type: { arrayOf: { object: "cdc:index:TopicInfo" } }, required: true, description: "The topics that match." }],
  },
  "cdc:index:getTopic": {
    token: "cdc:index:getTopic",
    description: "One topic by its id, with its partition count. It fails with a clear message when there is no such topic.",
    inputs: [{ name: "id", type: "string", required: true, description: "The topic's id, e.g. a `Source`'s `topicIds[0]` (`source_<id>.public.orders`)." }],
    outputs: TOPIC_LOOKUP,
  },
  "cdc:index:getTopicMetrics": {
    token: "cdc:index:getTopicMetrics",
    description:
      "The API's metrics of topics, by id (`POST /topics/table_metrics`): partitions, replication factor, retention, last message, snapshot status and record errors, one entry per topic in the order asked. A topic the tenant does not own, or an id of no topic, is left out with a warning naming it.",
    inputs: [{ name: "ids", type: STRINGS, required: true, description: "The topics' ids, at least one." }],
    outputs: [{ name: "metrics", type: { arrayOf: { object: "cdc:index:TopicMetrics" } }, required: true, description: "One entry per topic of the tenant asked for." }],
  },
  "cdc:index:getTransform": {
    token: "cdc:index:getTransform",
    description: `A transform by its exact name: its id, type, topics and settings (secrets masked). ${LOOKUP_NOTE}`,
    inputs: byName("transform"),
    outputs: [
      { name: "id", type: "string", required: true, description: "The transform's id." },
      { name: "name", type: "string", required: true, description: "The transform's name." },
      { name: "transform", type: "string", required: true, description: `The transform's type: ${list(TRANSFORM_TYPES)}.` },
      { name: "status", type: "string", required: true, description: "The API's status of the transform." },
      { name: "config", type: { mapOf: "any" }, required: true, description: "The transform's settings, in the platform's keys; secret values come back masked." },
      { name: "topics", type: STRINGS, required: true, description: "The topics the transform writes, by name." },
      { name: "topicIds", type: STRINGS, required: true, description: "The ids of the topics the transform writes." },
      { name: "topicMap", type: { arrayOf: { object: "cdc:index:TopicRef" } }, required: true, description: "Each topic's id with its name." },
      { name: "startTime", type: "string", required: true, description: "When the transform's job started; empty when it has not." },
      { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the transform has." },
    ],
  },
  "cdc:index:getKafkaUser": {
    token: "cdc:index:getKafkaUser",
    description: `A Kafka user by its exact username: its ACLs, IPs and endpoints, never a password (the API returns none). ${LOOKUP_NOTE}`,
    inputs: [{ name: "username", type: "string", required: true, description: "The Kafka user's exact username." }],
    outputs: [
      { name: "username", type: "string", required: true, description: "The user's name." },
      { name: "whitelistIps", type: STRINGS, required: true, description: "The addresses or CIDR ranges it may connect from; empty: any." },
      { name: "isCreateSchemaRegistry", type: "boolean", required: true, description: "Whether it has a schema-registry user." },
      { name: "kafkaAcls", type: { arrayOf: { object: "cdc:index:KafkaAcl" } }, required: true, description: "Its ACL rules." },
      { name: "kafkaProxyEndpoint", type: "string", required: true, description: "Where its Kafka clients connect." },
      { name: "schemaProxyEndpoint", type: "string", required: true, description: "Its schema registry's URL; empty without a schema-registry user." },
    ],
  },
};
