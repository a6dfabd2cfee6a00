/** pulumi-cdc: CDC sources, destinations, client credentials and tags as Pulumi resources. */
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of a stack trace.
import "../provider/node-version.js";
export { Source, type SourceArgs } from "./source.js";
export { Destination, type DestinationArgs } from "./destination.js";
export { Tag, type TagArgs } from "./tag.js";
export { ClientCredential, type ClientCredentialArgs } from "./clientCredential.js";
export {
  getDestination,
  getKafkaUser,
  getRoles,
  getSource,
  getTag,
  getTags,
  getTopic,
  getTopicMetrics,
  getTopics,
  getTransform,
  getDestinationOutput,
  getKafkaUserOutput,
  getSourceOutput,
  getTagOutput,
  getTagsOutput,
  getTopicMetricsOutput,
  getTopicOutput,
  getTopicsOutput,
  getTransformOutput,
  type ConnectorLookup,
  type KafkaUserLookup,
  type Role,
  type TagListLookup,
  type TagLookup,
  type TopicLookup,
  type TopicMetricsLookup,
  type TransformLookup,
} from "./lookups.js";
export { Agent, HttpConnection, LlmConnection, type AgentArgs, type HttpConnectionArgs, type LlmConnectionArgs } from "./agents.js";
export { Pipeline, type PipelineArgs, type PipelineTransformArgs } from "./pipeline.js";
export { Transform, codeImplementation, type CodeImplementationArgs, type TransformArgs, type TransformImplementation, type TransformType } from "./transform.js";
export { Topic, type TopicArgs } from "./topic.js";
export { TopicDestination, type TopicDestinationArgs } from "./topicDestination.js";
export { KafkaUser, type KafkaAcl, type KafkaAclArgs, type KafkaOperation, type KafkaUserArgs } from "./kafkaUser.js";
export { DestinationSmtChain, type DestinationSmtChainArgs, type SmtTransform, type SmtTransformArgs, type SmtType } from "./destinationSmtChain.js";
// One typed helper per connector and transform type of the catalogue, generated (npm run generate).
export * from "./generated/index.js";
export * from "./connectors.js";
export type { ConnectorConfig, TransformConfig } from "./build-config.js";
export type { ConfigInput, ConfigValue, TagsInput } from "./inputs.js";
// The allowed values of the enumerated inputs (catalogue/kind-values.ts, the one list each).
export type { CodeLanguage, DesiredState, KafkaPatternType, KafkaResource, LlmProvider, ReplayWindow, SourceState, TagType } from "../catalogue/kind-values.js";
export type { DriftReport } from "../provider/drift.js";
// The catalogue itself (catalogue/connectors.json), for programs that build configs from it.
export { CATALOGUE, ORIGIN as CATALOGUE_ORIGIN, findConnector, type CatalogueOrigin, type KeySpec, type ConnectorSpec } from "../catalogue/index.js";
