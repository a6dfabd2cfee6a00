/**
 * The names the kinds' declarations (provider/kinds/, their properties' `ts` fields) give the
 * generated dynamic classes (generated/typescript/kinds.ts): the types more precise than the schema's,
 * and the converters that make a property of what a program passes (`(value, args)`). Nothing
 * here imports the generated classes: an argument type that names one is generic in it
 * (`TagsOf<Tag>`), and sdk/index.ts gives it its public name (`TagsInput`).
 */
export type { DesiredState, LlmProvider, ReplayWindow, SourceState, TagType } from "../catalogue/kind-values.js";
export type { DriftReport } from "../provider/drift.js";
export { destinationConfig, idOf, idsOf, sourceConfig, tagIds, type ConfigValue, type TagsOf } from "./inputs.js";
export { connectorRef, pipelineTransforms, type ConnectorRef, type PipelineTransform, type PipelineTransformOf } from "./pipeline.js";
export type { TransformType } from "./transform.js";
export type { KafkaAcl, KafkaAclArgs } from "./kafkaUser.js";
export { smtSecrets, type SmtTransform, type SmtTransformArgs } from "./destinationSmtChain.js";
