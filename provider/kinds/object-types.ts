import { defaultFirstText, KAFKA_GROUP_OPERATIONS, KAFKA_OPERATIONS, KAFKA_PATTERN_TYPES, KAFKA_RESOURCES, oneOfText } from "../../catalogue/kind-values.js";
import { list, STRINGS } from "./shared.js";
import { SMT_TRANSFORM_TYPE } from "./smt.js";
import type { ObjectTypeSpec, ObjectTypeToken, PropertySpec } from "./spec.js";

/** The object types the kinds' properties and the lookup functions use, by token. */

/** The pattern types, by meaning: a rule names its topic exactly, or by prefix. */
const [PATTERN_EXACT, PATTERN_PREFIX] = KAFKA_PATTERN_TYPES;

export const TOPIC_LOOKUP: PropertySpec[] = [
  { name: "id", type: "string", required: true, description: "The topic's id, e.g. `source_<id>.public.orders`: what a `Topic` resource's `topicId` takes." },
  { name: "name", type: "string", required: true, description: "The topic's name, without its owner's prefix." },
  { name: "prefix", type: "string", required: true, description: "The prefix of the topic's id, e.g. `source_<id>`." },
  { name: "entityType", type: "string", required: true, description: "What made the topic: `sources`, `transforms` or `destinations`." },
  { name: "entityId", type: "string", required: true, description: "The id of the source, transform or destination the topic belongs to." },
  { name: "entityName", type: "string", required: true, description: "The name of the source, transform or destination the topic belongs to." },
  { name: "partitionCount", type: "integer", required: true, description: "The topic's Kafka partitions." },
  { name: "retentionMs", type: "integer", description: "Kafka's `retention.ms` of the topic (the API's `retention_ms`), when the API reports it." },
  { name: "cleanupPolicy", type: "string", description: "Kafka's `cleanup.policy` of the topic (the API's `cleanup_policy`: `delete`, `compact`), when the API reports it." },
  { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the topic has." },
];

export const OBJECT_TYPES: Readonly<Record<ObjectTypeToken, ObjectTypeSpec>> = {
  "cdc:index:SmtTransform": SMT_TRANSFORM_TYPE,
  "cdc:index:TagInfo": {
    token: "cdc:index:TagInfo",
    description: "A tag, as `getTags` lists it.",
    properties: [
      { name: "id", type: "string", required: true, description: "The tag's id: what the `tags` of a source, destination, pipeline, transform or topic take." },
      { name: "name", type: "string", required: true, description: "The tag's name." },
      { name: "type", type: STRINGS, required: true, description: "What the tag is for, e.g. `sources`, `destinations`." },
      { name: "description", type: "string", required: true, description: "What the tag means; empty when it has no description." },
      { name: "system", type: "boolean", required: true, description: "Whether the tag is one of the platform's own." },
      { name: "custom", type: "boolean", required: true, description: "Whether the tag was made by a user." },
    ],
  },
  "cdc:index:TopicInfo": {
    token: "cdc:index:TopicInfo",
    description: "A topic a source or transform made, with its partition count, as `getTopic` and `getTopics` read it.",
    properties: TOPIC_LOOKUP,
  },
  "cdc:index:TopicMetrics": {
    token: "cdc:index:TopicMetrics",
    description: "One topic as the API's topic metrics report it (`POST /topics/table_metrics`); a value the API does not report is absent, a reported zero stays zero.",
    properties: [
      { name: "topicId", type: "string", required: true, description: "The topic's id." },
      { name: "entityId", type: "string", required: true, description: "The id of the source, transform or destination the topic belongs to." },
      { name: "partitionCount", type: "integer", description: "The topic's Kafka partitions." },
      { name: "replicationFactor", type: "integer", description: "How many brokers hold a copy of each partition." },
      { name: "retentionMs", type: "integer", description: "Kafka's `retention.ms` of the topic: how long messages are kept, in milliseconds." },
      { name: "lastMessageTimestamp", type: "string", description: "When the topic last received a message, as the API gives it." },
      { name: "snapshotStatus", type: "any", description: "The snapshot status of the topic's table, parsed from the JSON the API sends (`snapshot_status_json`)." },
      { name: "recordErrorTotal", type: "integer", description: "How many of the topic's records failed." },
    ],
  },
  "cdc:index:TopicRef": {
    token: "cdc:index:TopicRef",
    description: "A topic of a transform: its id and its name.",
    properties: [
      { name: "id", type: "string", required: true, description: "The topic's id (`transform_<id>_<version>.<name>`)." },
      { name: "name", type: "string", required: true, description: "The topic's name, as a `Pipeline`'s `transforms[].topics` takes it." },
    ],
  },
  "cdc:index:KafkaAcl": {
    token: "cdc:index:KafkaAcl",
    description: "One ACL rule of a Kafka user: what it may do on a topic or consumer group.",
    properties: [
      { name: "topicName", type: "string", required: true, description: "The topic (or, for a GROUP rule, the consumer group) name, or its prefix with `PREFIXED`." },
      { name: "operation", type: "string", required: true, description: `What the rule allows: ${list(KAFKA_OPERATIONS)}; a GROUP rule only ${oneOfText(KAFKA_GROUP_OPERATIONS)}.` },
      { name: "resourcePatternType", type: "string", required: true, description: `\`${PATTERN_EXACT}\`: exactly \`topicName\`; \`${PATTERN_PREFIX}\`: every name that starts with it.` },
      { name: "resource", type: "string", description: `${defaultFirstText(KAFKA_RESOURCES)}, a consumer group.` },
    ],
  },
  "cdc:index:ConnectorRef": {
    token: "cdc:index:ConnectorRef",
    description: "A source or destination as a pipeline refers to it.",
    properties: [
      { name: "id", type: "string", required: true, description: "The id of the source or destination." },
      { name: "name", type: "string", description: "Its name. Unset: read from the API." },
      { name: "connector", type: "string", description: "Its connector kind, e.g. `postgresql`. Unset: read from the API." },
    ],
  },
  "cdc:index:PipelineTransform": {
    token: "cdc:index:PipelineTransform",
    description: "A transform of a pipeline, with the topics of it that go to the destination.",
    properties: [
      { name: "id", type: "string", required: true, description: "The id of the transform." },
      {
        name: "topics",
        type: STRINGS,
        required: true,
        description: "The transform's topics that go to the destination, at least one, as the transform names them (its `topics` output).",
      },
    ],
  },
  "cdc:index:DriftReport": {
    token: "cdc:index:DriftReport",
    description: "Changes made to an object outside Pulumi, as of the last refresh.",
    properties: [
      { name: "detected", type: "boolean", required: true, description: "Whether the object was changed outside Pulumi." },
      { name: "maskedDiff", type: "string", required: true, description: "A unified diff of the config, secrets masked: the API's for destinations, the provider's for sources. Empty when nothing changed." },
      { name: "changedKeys", type: STRINGS, required: true, description: "Sources: the config keys whose live value differs from the stack's." },
      { name: "oldestTimestamp", type: "string", description: "Destinations: the time of the original config in the API's history." },
      { name: "latestTimestamp", type: "string", description: "Destinations: the time of the latest config in the API's history." },
      { name: "baselineTimestamp", type: "string", description: "Destinations: the time of the latest config after Pulumi's own last write; a later one is drift." },
      {
        name: "baselineOriginal",
        type: "boolean",
        description: "Destinations Pulumi created and has not written since: the baseline is the original config, so any later config is drift.",
      },
    ],
  },
  "cdc:index:Role": {
    token: "cdc:index:Role",
    description: "A role a client credential can be bound to.",
    properties: [
      { name: "id", type: "string", required: true, description: "The role's id: what a `ClientCredential`'s `roleIds` takes." },
      { name: "key", type: "string", description: "The role's key, e.g. `viewer`." },
      { name: "name", type: "string", description: "The role's name, as the platform shows it." },
      { name: "permissions", type: STRINGS, required: true, description: "The permissions the role grants." },
    ],
  },
};
