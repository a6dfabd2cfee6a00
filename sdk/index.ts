/** pulumi-cdc: CDC sources, destinations, client credentials and tags as Pulumi resources. */
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of a stack trace.
import "../provider/node-version.js";
import type { Tag, Transform } from "../generated/typescript/kinds.js";
import type { TagsOf } from "./inputs.js";
import type { PipelineTransformOf } from "./pipeline.js";
// The dynamic classes and their arguments, generated from the kinds' declarations (npm run generate).
export * from "../generated/typescript/classes.js";
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
// What the classes take beyond their declarations (sdk/kind-types.ts lists what the declarations name).
export { codeImplementation, type CodeImplementationArgs, type TransformImplementation, type TransformType } from "./transform.js";
export type { KafkaAcl, KafkaAclArgs, KafkaOperation } from "./kafkaUser.js";
export type { SmtTransform, SmtTransformArgs, SmtType } from "./destinationSmtChain.js";
/** A transform of a pipeline and the topics of it (names as the transform writes them) that go to the destination. */
export type PipelineTransformArgs = PipelineTransformOf<Transform>;
/** Tags on an object: `Tag` resources or tag ids (the platform's own tags, say). */
export type TagsInput = TagsOf<Tag>;
// One typed helper per connector and transform type of the catalogue, generated (npm run generate).
export * from "../generated/typescript/index.js";
export * from "./connectors.js";
export type { ConnectorConfig, TransformConfig } from "./build-config.js";
export type { ConfigInput, ConfigValue } from "./inputs.js";
// The allowed values of the enumerated inputs (catalogue/kind-values.ts, the one list each).
export type { CodeLanguage, DesiredState, KafkaPatternType, KafkaResource, LlmProvider, ReplayWindow, SourceState, TagType } from "../catalogue/kind-values.js";
export type { DriftReport } from "../provider/drift.js";
// The catalogue itself (catalogue/connectors.json), for programs that build configs from it.
export { CATALOGUE, ORIGIN as CATALOGUE_ORIGIN, findConnector, type CatalogueOrigin, type KeySpec, type ConnectorSpec } from "../catalogue/index.js";
