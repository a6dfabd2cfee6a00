import { z } from "zod";
import { jsonObject } from "./json-object.js";

// Response schemas. Every object is loose: the API adds fields over time and an unknown
// field must never fail a deployment. Fields the reference marks "or null" are nullish, and
// scalars the API is known to send as strings ("true", "10") are accepted in both forms.

const looseBoolean = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());

const looseInt = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
  z.number().int(),
);

const nullishString = z.string().nullish();
// Timestamp format is "not shown" in the reference: accept ISO strings and epoch numbers.
const timestamp = z.union([z.string(), z.number()]).nullish();

export const accessTokenSchema = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: nullishString,
  expires: nullishString,
  /** Seconds. */
  expiresIn: looseInt.nullish(),
});
export type AccessTokenResult = z.output<typeof accessTokenSchema>;

const connectorFields = {
  // "string or null" in the seed's table, but an object without its id is no answer the product
  // can act on: a listing item without one would make the object look gone.
  id: z.string().min(1),
  name: nullishString,
  connector: nullishString,
  connector_display_name: nullishString,
  created_timestamp: timestamp,
  sub_id: nullishString,
  tenant_id: nullishString,
  config: jsonObject.nullish(),
  topic_ids: z.array(z.string()).nullish(),
  topic_map: jsonObject.nullish(),
  topics: z.array(z.string()).nullish(),
  tasks: z.array(z.number()).nullish(),
  connector_status: nullishString,
  // Not in the seed's response shape; the platform echoes it. Absent is tolerated everywhere.
  created_from: nullishString,
  task_statuses: jsonObject.nullish(),
};

export const sourceConnectorSchema = z.looseObject({ ...connectorFields, service_id: nullishString });
export type SourceConnector = z.output<typeof sourceConnectorSchema>;

export const destinationConnectorSchema = z.looseObject(connectorFields);
export type DestinationConnector = z.output<typeof destinationConnectorSchema>;

/** A source's or a destination's schema, by kind. */
export function connectorSchema(kind: "source" | "destination"): typeof sourceConnectorSchema | typeof destinationConnectorSchema {
  return kind === "source" ? sourceConnectorSchema : destinationConnectorSchema;
}

// One envelope per item schema: zod compiles an object schema on its first parse, so a schema
// built per request would be compiled again for every request.
const envelopes = new WeakMap<z.ZodType, z.ZodType>();

/** The paginated envelope `{result, page, page_size, total, has_next}` around any item schema. */
export function paginatedSchema<S extends z.ZodType>(item: S): ReturnType<typeof envelopeOf<S>> {
  let envelope = envelopes.get(item);
  if (!envelope) envelopes.set(item, (envelope = envelopeOf(item)));
  return envelope as ReturnType<typeof envelopeOf<S>>;
}

function envelopeOf<S extends z.ZodType>(item: S) {
  return z.looseObject({
    // A null result is an empty page (e.g. GET /sources/{id} of a deleted source). A missing one
    // is another answer than the API's (a proxy's `{}`), never "no objects": `result` is required.
    result: z
      .array(item)
      .nullable()
      .transform((r) => r ?? []),
    page: looseInt.nullish(),
    page_size: looseInt.nullish(),
    total: looseInt.nullish(),
    has_next: looseBoolean.nullish(),
  });
}
export type Paginated<T> = {
  result: T[];
  page?: number | null;
  page_size?: number | null;
  total?: number | null;
  has_next?: boolean | null;
  [key: string]: unknown;
};

export const sourceEnvelopeSchema = paginatedSchema(sourceConnectorSchema);
export const destinationEnvelopeSchema = paginatedSchema(destinationConnectorSchema);

export const userSchema = z.looseObject({
  id: nullishString,
  email: nullishString,
  name: nullishString,
  tenant_id: nullishString,
  profile_picture_url: nullishString,
  phone_number: nullishString,
  created_at: timestamp,
  last_login: timestamp,
});
export type User = z.output<typeof userSchema>;

export const roleSchema = z.looseObject({
  id: z.string(),
  key: nullishString,
  name: nullishString,
  description: nullishString,
  created_at: timestamp,
  updated_at: timestamp,
  permissions: z.array(z.string()).nullish(),
});
export type Role = z.output<typeof roleSchema>;

export const clientCredentialSchema = z.looseObject({
  client_id: z.string(),
  created_by_user: userSchema.nullish(),
  roles: z
    .array(roleSchema)
    .nullish()
    .transform((r) => r ?? []),
  service_id: nullishString,
  // Only the create response carries the real secret; lists may omit or mask it.
  secret: nullishString,
  description: nullishString,
  created_at: timestamp,
  created_from: nullishString,
});
export type ClientCredential = z.output<typeof clientCredentialSchema>;

export const tagSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: nullishString,
  type: z
    .array(z.string())
    .nullish()
    .transform((t) => t ?? []),
  system: looseBoolean.nullish(),
  custom: looseBoolean.nullish(),
  created_from: nullishString,
});
export type Tag = z.output<typeof tagSchema>;

/**
 * A page of `GET /tags`: the platform answers `{tags: [...], has_next}` (its Terraform client
 * decodes that key); the seed's list envelope (`result`) and a bare list are accepted too. Every
 * item must be a tag: a page with one that is not fails whole, so a listing never shrinks.
 */
export const tagPageSchema = z
  .union([
    z.array(tagSchema).transform((tags) => ({ tags, has_next: false as boolean | null | undefined })),
    z.looseObject({ tags: z.array(tagSchema), has_next: looseBoolean.nullish() }),
    z.looseObject({ result: z.array(tagSchema), has_next: looseBoolean.nullish() }).transform((p) => ({ tags: p.result, has_next: p.has_next })),
  ])
  // In the list envelope's form, for paginatePages; a page that does not say there is more is the last.
  .transform((p) => ({ result: p.tags, has_next: p.has_next === true }));

export const configComparisonSchema = z.looseObject({
  has_changes: looseBoolean,
  oldest_timestamp: timestamp,
  latest_timestamp: timestamp,
  masked_diff: nullishString,
});
export type ConfigComparison = z.output<typeof configComparisonSchema>;

/** For endpoints documented as "200 with any JSON" (pause, resume, stop, delete). */
export const anyJsonSchema = z.unknown();

/** Agents area. Fields beyond the ids are "not shown" in the reference: loose, as the emulator renders them. */
export const httpConnectionSchema = z.looseObject({
  connection_id: z.string(),
  name: nullishString,
  url: nullishString,
  // Values come back masked; only the names are information.
  headers: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((h) => h ?? {}),
  created_from: nullishString,
});
export type HttpConnection = z.output<typeof httpConnectionSchema>;

export const llmConnectionSchema = z.looseObject({
  connection_id: z.string(),
  name: nullishString,
  provider: nullishString,
  model: nullishString,
  base_url: nullishString,
  created_from: nullishString,
});
export type LlmConnection = z.output<typeof llmConnectionSchema>;

export const agentSchema = z.looseObject({
  job_id: z.string(),
  name: nullishString,
  description: nullishString,
  instructions: nullishString,
  llm_connection_id: nullishString,
  http_connection_ids: z
    .array(z.string())
    .nullish()
    .transform((h) => h ?? []),
  status: nullishString,
  flags: z
    .array(z.string())
    .nullish()
    .transform((f) => f ?? []),
  created_from: nullishString,
  deleted_at: timestamp,
});
export type Agent = z.output<typeof agentSchema>;
