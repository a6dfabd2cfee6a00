import { z } from "zod";
import { jsonObject } from "../client/json-object.js";

// Response shapes of pipelines, transforms, topics and transform jobs. Loose like the client's
// other schemas, and tolerant where the platform's answer is not known for sure (§5 of the
// reference): `topic_ids` as a list or a single string, `kafka.partitions` as `{count}` or a number.

const str = z.string().nullish();
const stringList = z
  .union([z.array(z.string()), z.string()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? [] : Array.isArray(v) ? v : v.split(",").map((s) => s.trim()).filter(Boolean)));
const looseBool = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean()).nullish();
const looseInt = z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v), z.number().int());

/** `tags` may be ids or tag objects; left out when empty. */
const tagList = z
  .array(z.union([z.string(), z.looseObject({ id: z.string() })]))
  .nullish()
  .transform((v) => (v ?? []).map((t) => (typeof t === "string" ? t : t.id)));

const ref = z.looseObject({ id: str, name: str, connector: str });

export const pipelineSchema = z.looseObject({
  id: z.string(),
  name: str,
  snapshot_new_tables: looseBool,
  source: ref.extend({ topics: stringList }).nullish(),
  destination: ref.nullish(),
  transforms: z
    .array(z.looseObject({ id: z.string(), name: str, start_time: str, topic_id: str, topic: str }))
    .nullish()
    .transform((v) => v ?? []),
  topic_auto_discovery_transforms: z.array(z.looseObject({ transform_id: z.string(), regex: z.string() })).nullish(),
  tags: tagList,
  status: str,
  created_from: str,
});
export type LivePipeline = z.output<typeof pipelineSchema>;

export const transformSchema = z.looseObject({
  id: z.string(),
  name: str,
  transform_type: str,
  status: str,
  config: jsonObject.nullish(),
  implementation: jsonObject.nullish(),
  version: looseInt.nullish(),
  topic_ids: stringList,
  topics: stringList,
  start_time: str,
  tags: tagList,
  created_from: str,
});
export type LiveTransform = z.output<typeof transformSchema>;

/** `version_id` is a string to the platform's Terraform client; a number is read as its digits. */
const versionId = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));

/** One saved implementation version: the answer of `PUT /transforms/{id}/implementation_details`. */
export const implementationVersionSchema = z.looseObject({
  transform_id: str,
  version_id: versionId,
  description: str,
  implementation: jsonObject.nullish(),
});
export type ImplementationVersion = z.output<typeof implementationVersionSchema>;

export const implementationDetailsSchema = z.looseObject({
  transform_id: str,
  impl_versions: z.record(z.string(), implementationVersionSchema).nullish(),
});

export const jobStatusSchema = z.looseObject({
  id: str,
  job_name: str,
  status: z.string(),
  start_time: str,
  failure_reason: str,
  error: str,
  message: str,
});
export type JobStatus = z.output<typeof jobStatusSchema>;

const partitions = z.union([looseInt, z.looseObject({ count: looseInt })]).transform((p) => (typeof p === "number" ? p : p.count));

export const topicSchema = z.looseObject({
  id: z.string(),
  name: str,
  tags: tagList,
  kafka: z.looseObject({ partitions: partitions.nullish() }).nullish(),
  // The older shape (the platform's main branch decoded these): accepted too.
  partition_count: looseInt.nullish(),
});
export type LiveTopic = z.output<typeof topicSchema>;

export function partitionCount(topic: LiveTopic): number | undefined {
  return topic.kafka?.partitions ?? topic.partition_count ?? undefined;
}
