import { connectorCodes } from "../../catalogue/index.js";
import {
  defaultFirstText,
  DESTINATION_STATES,
  KAFKA_GROUP_OPERATIONS,
  KAFKA_OPERATIONS,
  KAFKA_PATTERN_TYPES,
  KAFKA_RESOURCES,
  LLM_PROVIDERS,
  oneOfText,
  REPLAY_WINDOWS,
  SOURCE_STATES,
  TAG_TYPES,
} from "../../catalogue/kind-values.js";
import { DEFAULT_API_URL, DEFAULT_CREATED_FROM } from "../client/settings.js";
import { DEFAULT_TUNING, TUNING_SPECS } from "../client/tuning.js";
import { SMT_CHAIN_KIND, SMT_TRANSFORM_TYPE } from "./smt.js";
import type { PropertySpec, KindName, KindSpec, ObjectTypeToken, ObjectTypeSpec, FunctionToken, FunctionSpec, ConfigSpec } from "./spec.js";

/**
 * What the provider plugin `pulumi-resource-cdc` (package `cdc`) serves, as data: each kind's
 * token, its inputs (exactly what the kind's check() in provider/resources accepts, less the
 * internal properties below) and its outputs (what create and read return), the object types
 * they use, the lookup functions and the provider configuration. scripts/generate/schema.ts
 * renders it as the package schema (plugin/schema.json); the plugin reads it too. It imports
 * no third-party module, so the generator runs it from its own compiled copy.
 */

export type { TypeSpec, PropertySpec, KindName, KindSpec, ObjectTypeToken, ObjectTypeSpec, FunctionToken, FunctionSpec, ConfigSpec } from "./spec.js";

/**
 * Properties the core carries that are not part of the schema: what the dynamic SDK adds
 * (`logicalName` names the autoname, `__provider` loads the provider) and what the core keeps
 * for itself in outputs (`autonamed`; the salt and keyed digests that stand for secret values,
 * which no program reads).
 */
export const INTERNAL_PROPERTIES = ["logicalName", "autonamed", "__provider", "secretSalt", "headerDigests", "apiKeyDigest", "passwordDigest", "secretDigests"] as const;

const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");

const SOURCE_CODES = connectorCodes("source");
const DESTINATION_CODES = connectorCodes("destination");
const TRANSFORM_TYPES = connectorCodes("transform");

const STRINGS = { arrayOf: "string" } as const;

/** An input echoed in the outputs: the same property, present in the outputs when the core always sets it. */
function echo(inputs: readonly PropertySpec[], alwaysSet: readonly string[]): PropertySpec[] {
  return inputs.map(({ replaceOnChange: _replace, required: _required, ...p }) => ({ ...p, ...(alwaysSet.includes(p.name) ? { required: true } : {}) }));
}

const tagsInput = (what: string): PropertySpec => ({
  name: "tags",
  type: STRINGS,
  description: `Tag ids on the ${what} (a \`Tag\` resource's id, or the id of one of the platform's own tags). Unset: the ${what}'s tags are left as they are; \`[]\` removes them all. Tags changed outside Pulumi are drift.`,
});

/** `adoptId` of the kinds whose core adopts (the connectors and the tag say it their own way). */
const adoptInput = (what: string, more: string): PropertySpec => ({
  name: "adoptId",
  type: "string",
  description: `The id of an existing ${what} to take over instead of creating one: \`pulumi up\` reads it and writes nothing when it already equals the program; ${more}`,
});

const nameInput = (what: string, more = ""): PropertySpec => ({
  name: "name",
  type: "string",
  description: `The ${what}'s name${more}. Unset: \`<resource name>-<random suffix>\`. Letters, digits, spaces, \`_\`, \`.\` and \`-\`, starting with a letter or digit; at most 255 characters.`,
});

// ---------------------------------------------------------------------------------------------
// Sources and destinations: one core (provider/resources/connector.ts), two kinds.

function connectorKind(kind: "Source" | "Destination"): KindSpec {
  const what = kind === "Source" ? "source" : "destination";
  const codes = kind === "Source" ? SOURCE_CODES : DESTINATION_CODES;
  const states = defaultFirstText(kind === "Source" ? SOURCE_STATES : DESTINATION_STATES);
  const inputs: PropertySpec[] = [
    nameInput(what, ", unique per tenant"),
    {
      name: "connector",
      type: "string",
      required: true,
      replaceOnChange: true,
      description:
        `The connector kind: the platform's code of the ${what} connector, e.g. \`${kind === "Source" ? "postgresql" : "snowflake"}\`. ` +
        `The catalogued ones are ${list(codes)}; any other code is passed to the API as is. Changing it replaces the ${what}.`,
    },
    {
      name: "config",
      type: { mapOf: "any" },
      required: true,
      description:
        `The connector's settings, in the platform's own keys (e.g. \`${kind === "Source" ? "database.hostname.user.defined" : "snowflake.url.name"}\`). ` +
        "Values are strings, numbers, booleans, lists of strings, or objects for the few map-valued keys; `null` leaves a key unset. " +
        "For a catalogued connector the config is checked before any API call: required keys, types, allowed values and ranges. " +
        "Secret keys (passwords, private keys, secret access keys, connection strings) are kept as Pulumi secrets and never compared with the API's masked values. " +
        `Changing a key the platform fixes at creation (e.g. Snowflake \`ingestion.mode\`) replaces the ${what}.`,
    },
    {
      name: "desiredState",
      type: "string",
      description: `The state Pulumi keeps the ${what} in: ${states}. The ${what} is paused${kind === "Destination" ? ", stopped" : ""} or resumed to match; a status changed outside Pulumi is drift.`,
    },
    {
      name: "adoptId",
      type: "string",
      description: `The id of an existing ${what} to take over instead of creating one: \`pulumi up\` reads it (it must be of the same connector) and makes it match the program, writing nothing (no update, no pause or resume) when it already does. A secret it has is taken to hold the program's value (the API masks it).`,
    },
    tagsInput(what),
  ];
  const outputs: PropertySpec[] = [
    ...echo(inputs, ["name", "connector", "config", "desiredState"]),
    { name: "status", type: "string", required: true, description: `The API's \`connector_status\` of the ${what}: Active, Paused, Stopped, Broken, Starting, Unassigned, Unknown or Pending.` },
    { name: "displayName", type: "string", required: true, description: "The connector's display name, as the platform shows it." },
    { name: "createdTimestamp", type: "string", required: true, description: `When the ${what} was created, as the API reports it.` },
    { name: "tenantId", type: "string", required: true, description: `The id of the tenant the ${what} belongs to.` },
    {
      name: "topics",
      type: STRINGS,
      required: true,
      description: kind === "Source" ? "The topics the source writes, one per captured table or collection, by name." : "The topics the destination reads, by name.",
    },
    {
      name: "topicIds",
      type: STRINGS,
      required: true,
      description: kind === "Source" ? "The ids of the source's topics (`source_<id>.<schema>.<table>`): what a `Topic` resource's `topicId` takes." : "The ids of the topics the destination reads.",
    },
    { name: "topicMap", type: { mapOf: "any" }, required: true, description: `The API's topic map of the ${what}, as it returns it.` },
    {
      name: "drift",
      type: { object: "cdc:index:DriftReport" },
      required: true,
      description:
        kind === "Source"
          ? "Changes made outside Pulumi, as of the last refresh: the live config of the keys the program sets compared with the stack's, secrets excluded."
          : "Changes made outside Pulumi, as of the last refresh: configs the API's history recorded after Pulumi's own last write, with the API's masked diff.",
    },
  ];
  return {
    token: `cdc:index:${kind}`,
    description:
      kind === "Source"
        ? "A CDC source connector: captures the changes of a database or service into topics. Its config is checked against the platform's connector catalogue before any API call; changes made outside Pulumi (config, status, name, tags) show in a plain `pulumi preview`."
        : "A CDC destination connector: writes topics into a warehouse, lake, database or service. Its config is checked against the platform's connector catalogue before any API call; drift is detected through the API's config history, so changes made outside Pulumi show in a plain `pulumi preview`.",
    inputs,
    outputs,
  };
}

// ---------------------------------------------------------------------------------------------

const tagInputs: PropertySpec[] = [
  nameInput("tag", ", unique per tenant"),
  { name: "description", type: "string", description: "What the tag means, at most 1024 characters. Default: empty." },
  {
    name: "type",
    type: STRINGS,
    required: true,
    description: `What the tag is for, at least one, spelt as the platform spells it: ${list(TAG_TYPES)}.`,
  },
  {
    name: "adoptId",
    type: "string",
    description: "The id of an existing tag to take over instead of creating one: `pulumi up` makes it match the program, writing nothing when it already does.",
  },
];

const credentialInputs: PropertySpec[] = [
  {
    name: "roleIds",
    type: STRINGS,
    required: true,
    description: "The ids of the roles the credential is bound to, at least one (`getRoles` lists them). Changed in place: the client id and the secret stay.",
  },
  {
    name: "description",
    type: "string",
    description: "What the credential is for, at most 1024 characters. Changed in place. Once set it cannot be cleared (the API keeps it): removing it from the program leaves it as it is, with no diff.",
  },
  {
    name: "serviceId",
    type: "string",
    replaceOnChange: true,
    description: "The id of the service the credential belongs to. Unset: none. Changing it replaces the credential, with a new secret.",
  },
];

const httpInputs: PropertySpec[] = [
  nameInput("HTTP connection"),
  { name: "url", type: "string", required: true, description: "The absolute http(s) URL the agent calls, e.g. `https://tickets.example.com/api/v2`. Changed outside Pulumi, it is drift." },
  {
    name: "headers",
    type: { mapOf: "string" },
    secret: true,
    description:
      "Headers sent with each call, name to value. The values are secrets: encrypted in the stack, sent to the API once and never read back (the API masks them). " +
      "An update sends only the values that changed; a header removed from the program is removed. Header names must be HTTP tokens.",
  },
  adoptInput("HTTP connection", "otherwise one update sets its name, url and header names. A header it has is taken to hold the program's value (the API never shows one)."),
];

const llmInputs: PropertySpec[] = [
  { ...nameInput("LLM connection"), replaceOnChange: true },
  { name: "provider", type: "string", required: true, replaceOnChange: true, description: `The model's provider: ${list(LLM_PROVIDERS)}.` },
  { name: "model", type: "string", required: true, replaceOnChange: true, description: "The model's name, e.g. `gpt-4o`." },
  {
    name: "apiKey",
    type: "string",
    required: true,
    secret: true,
    replaceOnChange: true,
    description: "The provider's API key: a secret, stored encrypted by the API and never shown again (the stack keeps only a keyed digest of it).",
  },
  { name: "baseUrl", type: "string", replaceOnChange: true, description: "The absolute http(s) URL of the provider's API, for a self-hosted or regional endpoint. Unset: the provider's default." },
  adoptInput("LLM connection", "the API cannot update one, so it must already equal the program (its API key, never shown, is taken to be the program's)."),
];

const agentInputs: PropertySpec[] = [
  nameInput("agent"),
  { name: "instructions", type: "string", required: true, description: "What the agent does, in words. Changed outside Pulumi, it is drift." },
  { name: "description", type: "string", description: "A description of the agent, at most 2000 characters." },
  { name: "llmConnectionId", type: "string", required: true, description: "The id of the `LlmConnection` the agent thinks with." },
  { name: "httpConnectionIds", type: STRINGS, description: "The ids of the `HttpConnection`s the agent may call. Default: none." },
  {
    name: "deployed",
    type: "boolean",
    description: "The agent's desired state: `true` (the default) deploys it, so it runs; `false` keeps it a draft, or cancels it when it runs.",
  },
  adoptInput("agent", "otherwise it is updated to match."),
];

const pipelineInputs: PropertySpec[] = [
  nameInput("pipeline", ", unique per tenant"),
  {
    name: "source",
    type: { object: "cdc:index:ConnectorRef" },
    required: true,
    description: "The source the pipeline reads: its id, and optionally its name and connector (read from the API when left out).",
  },
  {
    name: "destination",
    type: { object: "cdc:index:ConnectorRef" },
    required: true,
    description: "The destination the pipeline writes to: its id, and optionally its name and connector (read from the API when left out).",
  },
  {
    name: "sourceTopics",
    type: STRINGS,
    description:
      "The source's topics that go to the destination, as the source names them (`public.orders`). A set: the API echoing them as topic ids or in another order is no change. Default: none.",
  },
  {
    name: "transforms",
    type: { arrayOf: { object: "cdc:index:PipelineTransform" } },
    description: "The transforms of the pipeline, each with the topics of it that go to the destination. Default: none.",
  },
  { name: "snapshotNewTables", type: "boolean", description: "Snapshot tables newly added to the pipeline. Default `false`." },
  tagsInput("pipeline"),
  adoptInput("pipeline", "otherwise one update makes it match."),
];

const transformInputs: PropertySpec[] = [
  nameInput("transform", ", unique per tenant; the same as config `transforms.name`, which it fills in"),
  {
    name: "transform",
    type: "string",
    required: true,
    replaceOnChange: true,
    description: `The transform's type: ${list(TRANSFORM_TYPES)}. Changing it replaces the transform.`,
  },
  {
    name: "config",
    type: { mapOf: "any" },
    description:
      "The transform's settings, in the platform's keys (e.g. `transforms.input.topic.pattern`), checked against the catalogue before any API call: required keys, types, allowed values and ranges. Settings changed outside Pulumi are drift.",
  },
  {
    name: "implementation",
    type: { mapOf: "any" },
    description:
      "The code or SQL, in the type's shape: for the code types (`map_filter`, `enrich_async`, `fan_out`) `{language, value_transform, key_transform, topic_transform, common_transform}`; SQL for `enrich`, `sql_join` and `rollup`. " +
      "Unset: managed elsewhere. A new implementation is a new version, and a deployed transform is redeployed.",
  },
  {
    name: "deploy",
    type: "boolean",
    description: "Deploy the transform and wait for its job to be `RUNNING`; a job that ends `FAILED` fails the update with the API's reason. Default `false`.",
  },
  { name: "deployTimeoutSec", type: "integer", description: "How long a deploy waits for `RUNNING`, in seconds, from 10 to 3600. Default 600." },
  { name: "replayWindow", type: "string", description: `How far back a deployment replays its input: ${list(REPLAY_WINDOWS)}. Unset: the platform's default.` },
  tagsInput("transform"),
  adoptInput("transform", "otherwise it is updated to match (of the same type)."),
];

const topicInputs: PropertySpec[] = [
  {
    name: "topicId",
    type: "string",
    required: true,
    replaceOnChange: true,
    description:
      "The id of a topic a source or transform made, e.g. a `Source`'s `topicIds[0]` (`source_<id>.public.orders`) or `transform_<id>_<version>.<name>`. Changing it replaces the resource; both topics stay.",
  },
  {
    name: "partitionCount",
    type: "integer",
    required: true,
    description: "The topic's partitions, from 1 to 1000. They can only be increased: a lower count fails `pulumi preview` before any API call.",
  },
  tagsInput("topic"),
];

const topicDestinationInputs: PropertySpec[] = [
  {
    name: "topicId",
    type: "string",
    required: true,
    replaceOnChange: true,
    description:
      "A topic of an API source (HubSpot, Salesforce, Stripe, ...), `source_<source id>.<connector>.<resource>`, e.g. a source's `topicIds[0]`. Only API sources deliver this way. Changing it replaces the resource.",
  },
  {
    name: "destinationId",
    type: "string",
    required: true,
    replaceOnChange: true,
    description: "The id of the destination the topic is sent to. Changing it replaces the resource.",
  },
];

/** The pattern types, by meaning: a rule names its topic exactly, or by prefix. */
const [PATTERN_EXACT, PATTERN_PREFIX] = KAFKA_PATTERN_TYPES;

const kafkaUserInputs: PropertySpec[] = [
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
    description: "The user's ACL rules, a set: order and duplicates do not matter. Default: none. Rules added or removed outside Pulumi are drift.",
  },
];

export const KINDS: Readonly<Record<KindName, KindSpec>> = {
  Source: connectorKind("Source"),
  Destination: connectorKind("Destination"),
  Tag: {
    token: "cdc:index:Tag",
    description: "A tag for organising sources, destinations, pipelines and the platform's other objects.",
    inputs: tagInputs,
    outputs: [
      ...echo(tagInputs, ["name", "description", "type"]),
      { name: "system", type: "boolean", required: true, description: "Whether the tag is one of the platform's own." },
      { name: "custom", type: "boolean", required: true, description: "Whether the tag was made by a user." },
    ],
  },
  ClientCredential: {
    token: "cdc:index:ClientCredential",
    description:
      "An API client credential for a downstream service. Its roles and description change in place (the client id and secret stay); a new service id replaces it, with a new secret. The API shows the secret only at creation: it is a Pulumi secret.",
    inputs: credentialInputs,
    outputs: [
      ...echo(credentialInputs, ["roleIds"]),
      { name: "clientId", type: "string", required: true, description: "The credential's client id, exchanged with the secret for an access token." },
      {
        name: "secret",
        type: "string",
        secret: true,
        description: "The credential's secret, returned by the API at creation only: a Pulumi secret, encrypted in the stack. Absent for a credential Pulumi imported or adopted: the API showed its secret once, to its creator.",
      },
      { name: "roleKeys", type: STRINGS, required: true, description: "The keys of the credential's roles." },
      { name: "createdAt", type: "string", required: true, description: "When the credential was created, as the API reports it." },
    ],
  },
  HttpConnection: {
    token: "cdc:index:HttpConnection",
    description:
      "An HTTP endpoint an agent may call. Header values are secrets: encrypted in the stack, sent to the API once and never read back; a header added or removed, or the URL changed, outside Pulumi is drift.",
    inputs: httpInputs,
    outputs: [
      ...echo(
        httpInputs.filter((p) => p.name !== "headers"),
        ["name", "url"],
      ),
      { name: "headerNames", type: STRINGS, required: true, description: "The names of the headers the API holds. Their values are never read back, nor kept in the outputs." },
      { name: "createdFrom", type: "string", required: true, description: "How the connection was created, as the API records it (`created_from`)." },
    ],
  },
  LlmConnection: {
    token: "cdc:index:LlmConnection",
    description:
      "A connection to a language model. The API cannot update one, so any change replaces it: the replacement is created first, the agents of the stack that use it are repointed, then the old one is deleted.",
    inputs: llmInputs,
    outputs: [
      ...echo(
        llmInputs.filter((p) => p.name !== "apiKey"),
        ["name", "provider", "model"],
      ),
      { name: "createdFrom", type: "string", required: true, description: "How the connection was created, as the API records it (`created_from`)." },
    ],
  },
  Agent: {
    token: "cdc:index:Agent",
    description:
      "A stream-processing AI agent. `deployed` is its desired state; destroying it is the API's soft delete (a running agent is cancelled first). Instructions, connections or status changed outside Pulumi are drift.",
    inputs: agentInputs,
    outputs: [
      ...echo(agentInputs, ["name", "instructions", "llmConnectionId", "httpConnectionIds", "deployed"]),
      { name: "status", type: "string", required: true, description: "The API's status of the agent: `draft`, `running` or `cancelled`." },
      { name: "flags", type: STRINGS, required: true, description: "The API's flags on the agent, e.g. `llm_connection_missing` after its LLM connection was deleted." },
      { name: "createdFrom", type: "string", required: true, description: "How the agent was created, as the API records it (`created_from`)." },
    ],
  },
  Pipeline: {
    token: "cdc:index:Pipeline",
    description:
      "Joins a source to a destination: the source's topics it sends as they are, and per transform the topics of it it sends. Every field updates in place; changes made outside Pulumi, and deletion, show in a plain `pulumi preview`.",
    inputs: pipelineInputs,
    outputs: [
      ...echo(pipelineInputs, ["name", "source", "destination", "sourceTopics", "transforms", "snapshotNewTables"]),
      { name: "status", type: "string", required: true, description: "The API's status of the pipeline." },
      { name: "topicIds", type: STRINGS, required: true, description: "The ids of every topic the pipeline sends, as the API names them." },
      { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the pipeline has, also when the program does not manage them." },
    ],
  },
  Transform: {
    token: "cdc:index:Transform",
    description: `A stream processor of one of the seven types (${list(TRANSFORM_TYPES)}), between a source's topics and a pipeline's destination. Settings, implementation, name and tags update in place; changing the type replaces it.`,
    inputs: transformInputs,
    outputs: [
      ...echo(transformInputs, ["name", "transform", "config", "deploy", "deployTimeoutSec"]),
      { name: "status", type: "string", required: true, description: "The status of the transform's job: `RUNNING`, `FAILED`, `DEPLOYING`, ... or `NOT_DEPLOYED`." },
      { name: "version", type: "integer", required: true, description: "The version of the transform's implementation." },
      { name: "topics", type: STRINGS, required: true, description: "The topics the transform writes, by name: what a `Pipeline`'s `transforms[].topics` takes." },
      { name: "topicIds", type: STRINGS, required: true, description: "The ids of the topics the transform writes (`transform_<id>_<version>.<name>`)." },
      { name: "startTime", type: "string", required: true, description: "When the transform's job started, as the API reports it; empty when it has not." },
      { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the transform has, also when the program does not manage them." },
    ],
  },
  Topic: {
    token: "cdc:index:Topic",
    description:
      "Tunes a topic that a source (one per table) or a transform made: its partition count, which only grows, and its tags. Pulumi never creates or deletes the topic: destroy leaves it, and it goes with its source's table or its transform.",
    inputs: topicInputs,
    outputs: [
      ...echo(topicInputs, ["topicId", "partitionCount"]),
      { name: "name", type: "string", required: true, description: "The topic's name, without its owner's prefix." },
      { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the topic has." },
    ],
  },
  TopicDestination: {
    token: "cdc:index:TopicDestination",
    description:
      "Sends one topic of an API source to a destination. The platform keeps one binding per source and destination, shared by the topics sent there: deleting this resource detaches this topic only. A detach made in the console shows in a plain `pulumi preview`, and `pulumi up` attaches it again. Import id: `<topicId>|<destinationId>`.",
    inputs: topicDestinationInputs,
    outputs: [
      ...echo(topicDestinationInputs, ["topicId", "destinationId"]),
      { name: "bindingId", type: "string", required: true, description: "The platform's binding of this source and destination, shared by the topics sent there." },
      { name: "sourceId", type: "string", required: true, description: "The id of the API source the topic belongs to." },
    ],
  },
  KafkaUser: {
    token: "cdc:index:KafkaUser",
    description:
      "A Kafka user of the platform's Kafka access: a broker user with ACL rules, for clients that read or write the platform's topics. The password is write-only (the API never returns it); ACLs, IPs or the schema-registry user changed outside Pulumi show in a plain `pulumi preview`.",
    inputs: kafkaUserInputs,
    outputs: [
      ...echo(
        kafkaUserInputs.filter((p) => p.name !== "password"),
        ["username", "whitelistIps", "isCreateSchemaRegistry", "kafkaAcls"],
      ),
      { name: "kafkaProxyEndpoint", type: "string", required: true, description: "Where the user's Kafka clients connect (`bootstrap.servers`), made by the API." },
      { name: "schemaProxyEndpoint", type: "string", required: true, description: "The schema registry's URL for this user, made by the API; empty without `isCreateSchemaRegistry`." },
      { name: "createdFrom", type: "string", required: true, description: "How the user was created, as the API records it (`created_from`)." },
    ],
  },
  DestinationSmtChain: SMT_CHAIN_KIND,
};

const TOPIC_LOOKUP: PropertySpec[] = [
  { name: "id", type: "string", required: true, description: "The topic's id, e.g. `source_<id>.public.orders`: what a `Topic` resource's `topicId` takes." },
  { name: "name", type: "string", required: true, description: "The topic's name, without its owner's prefix." },
  { name: "prefix", type: "string", required: true, description: "The prefix of the topic's id, e.g. `source_<id>`." },
  { name: "entityType", type: "string", required: true, description: "What made the topic: `sources`, `transforms` or `destinations`." },
  { name: "entityId", type: "string", required: true, description: "The id of the source, transform or destination the topic belongs to." },
  { name: "entityName", type: "string", required: true, description: "The name of the source, transform or destination the topic belongs to." },
  { name: "partitionCount", type: "integer", required: true, description: "The topic's Kafka partitions." },
  { name: "retentionMs", type: "integer", description: "Kafka's `retention.ms` of the topic, when the API reports it." },
  { name: "cleanupPolicy", type: "string", description: "Kafka's `cleanup.policy` of the topic (`delete`, `compact`), when the API reports it." },
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
    description: "The throughput and lag of one topic, as the API's topic metrics report them; a counter the API does not report is absent.",
    properties: [
      { name: "topicId", type: "string", required: true, description: "The topic's id." },
      { name: "entityId", type: "string", required: true, description: "The id of the source, transform or destination the topic belongs to." },
      { name: "messagesIn", type: "integer", description: "Messages written to the topic." },
      { name: "messagesOut", type: "integer", description: "Messages read from the topic." },
      { name: "bytesIn", type: "integer", description: "Bytes written to the topic." },
      { name: "bytesOut", type: "integer", description: "Bytes read from the topic." },
      { name: "lag", type: "integer", description: "Messages not yet read by the consumers." },
      { name: "avgLatencyMs", type: "number", description: "Average latency, in milliseconds." },
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
    description: "Throughput and lag of topics, by id (the API's topic metrics): one entry per topic, in the order asked. An id of no topic is an error.",
    inputs: [{ name: "ids", type: STRINGS, required: true, description: "The topics' ids, at least one." }],
    outputs: [{ name: "metrics", type: { arrayOf: { object: "cdc:index:TopicMetrics" } }, required: true, description: "One entry per topic." }],
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

// ---------------------------------------------------------------------------------------------
// Provider configuration: the `cdc:*` stack config keys (provider/client/settings.ts and tuning.ts).

function setting(name: string, env: string, text: string, opts: { secret?: boolean; default?: string } = {}): ConfigSpec {
  const fallback = opts.default !== undefined ? ` Default \`${opts.default}\`.` : "";
  return {
    name,
    key: `cdc:${name}`,
    env,
    type: "string",
    ...(opts.secret ? { secret: true } : {}),
    ...(opts.default !== undefined ? { default: opts.default } : {}),
    description: `${text}${fallback} Read from the environment variable \`${env}\` when the stack config does not set it.`,
  };
}

type TuningName = keyof typeof TUNING_SPECS;

const TUNING_DEFAULTS: Record<TuningName, number> = {
  retryAttempts: DEFAULT_TUNING.retry.maxAttempts,
  retryBaseDelayMs: DEFAULT_TUNING.retry.baseDelayMs,
  retryMaxDelayMs: DEFAULT_TUNING.retry.maxDelayMs,
  retryAfterMaxMs: DEFAULT_TUNING.retry.maxRetryAfterMs,
  resourceTimeoutSec: DEFAULT_TUNING.resourceTimeoutMs / TUNING_SPECS.resourceTimeoutSec.scale,
  maxConcurrency: DEFAULT_TUNING.maxConcurrency,
};

const TUNING_TEXT: Record<TuningName, string> = {
  retryAttempts: "HTTP attempts per API call, the first included.",
  retryBaseDelayMs: "Back-off before the first retry, in milliseconds, doubled after each retry, with jitter.",
  retryMaxDelayMs: "Longest back-off between two attempts, in milliseconds.",
  retryAfterMaxMs: "Longest `Retry-After` honoured on a 429, in milliseconds; a longer one is cut to this.",
  resourceTimeoutSec:
    "Retry budget of one resource operation, in seconds (a create with its lookups, lifecycle calls and baseline; an update; a delete): no retry starts once it is spent.",
  maxConcurrency:
    "Most API requests in flight at once for the whole run. The client starts at 16 and opens up while requests wait and the API keeps answering; each 429 halves it. Set 16 or less for a fixed limit.",
};

function tuning(name: TuningName): ConfigSpec {
  const spec = TUNING_SPECS[name];
  const dflt = TUNING_DEFAULTS[name];
  return {
    name,
    key: spec.config,
    env: spec.env,
    type: "integer",
    default: dflt,
    description: `${TUNING_TEXT[name]} A whole number from ${spec.min} to ${spec.max}. Default ${dflt}. Read from the environment variable \`${spec.env}\` when the stack config does not set it.`,
  };
}

/** The provider's configuration: credentials (never resource inputs), the `created_from` stamp, and the client's tuning. */
export const PROVIDER_CONFIG: readonly ConfigSpec[] = [
  setting("apiUrl", "CDC_API_URL", "Base URL of the API, http or https, without credentials, query or fragment.", { default: DEFAULT_API_URL }),
  setting("clientId", "CDC_CLIENT_ID", "API client id, exchanged with `clientSecret` for an access token. Needed unless `accessToken` is set."),
  setting("clientSecret", "CDC_CLIENT_SECRET", "API client secret, exchanged with `clientId` for an access token: set it with `pulumi config set --secret cdc:clientSecret ...`.", {
    secret: true,
  }),
  setting("accessToken", "CDC_ACCESS_TOKEN", "A ready access token, used as is instead of `clientId` and `clientSecret` (never refreshed).", { secret: true }),
  setting(
    "createdFrom",
    "CDC_CREATED_FROM",
    "The `created_from` value stamped on every create: `terraform` is the API's infrastructure-as-code value. Set another only when the API accepts it.",
    { default: DEFAULT_CREATED_FROM },
  ),
  ...(Object.keys(TUNING_SPECS) as TuningName[]).map(tuning),
];

export const PACKAGE = {
  name: "cdc",
  displayName: "CDC Pipelines",
  description:
    "Manage change-data-capture pipelines as code: CDC sources, destinations, pipelines, transforms, topics, tags, client credentials, Kafka users, and AI agents with their HTTP and LLM connections, with typed inputs, secrets kept secret and drift detection.",
  keywords: ["pulumi", "cdc", "change-data-capture", "data-pipelines", "kind/native", "category/infrastructure"],
  homepage: "https://github.com/pulumi-cdc/pulumi-cdc",
  repository: "https://github.com/pulumi-cdc/pulumi-cdc",
  license: "Apache-2.0",
  providerDescription:
    "The provider of the `cdc` package: how to reach the Data Pipeline Management REST API and with which credentials. Each setting falls back to its `CDC_*` environment variable.",
} as const;
