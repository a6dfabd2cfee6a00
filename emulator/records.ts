import type { ConnectorKind } from "./catalogue.js";
import type { CreatedFrom } from "./validation.js";

/**
 * The records the emulator keeps, all plain JSON so the whole state persists as one file.
 * Secret values never appear in clear: connector secrets, header values and API keys are
 * sealed (see crypto.ts), client secrets and tokens are hashed.
 */

export type ConnectorStatus = "Active" | "Paused" | "Stopped" | "Broken" | "Starting" | "Unassigned" | "Unknown" | "Pending";

export const CONNECTOR_STATUSES: readonly ConnectorStatus[] = [
  "Active",
  "Paused",
  "Stopped",
  "Broken",
  "Starting",
  "Unassigned",
  "Unknown",
  "Pending",
];

export type ConfigScalar = string | number | boolean;
/** A stored config value: a scalar, or a map the platform keeps (and echoes) as a JSON object. */
export type ConfigValue = ConfigScalar | { readonly [key: string]: unknown };

export interface ConnectorRecord {
  id: string;
  kind: ConnectorKind;
  name: string;
  connector: string;
  /** Non-secret config in its stored (string, or map object) form, plus filled defaults and computed values. */
  config: Record<string, ConfigValue>;
  /** Secret config values, sealed. */
  secrets: Record<string, string>;
  created_timestamp: string;
  updated_timestamp: string;
  created_from: CreatedFrom | null;
  connector_status: ConnectorStatus;
  /** Ids of the tags on the connector; absent in state files written before tags existed. */
  tags?: string[];
  /** Destinations: the chain of single message transforms, once one was saved (it goes with the destination). */
  smt_chain?: SmtChainRecord;
}

/** One user instance of an SMT chain. */
export interface SmtInstanceRecord {
  id: string;
  alias: string;
  type: string;
  schema_version: number;
  codec_version: number;
  name: string;
  enabled: boolean;
  /** Declared defaults materialized; secret leaves never here. */
  config: Record<string, unknown>;
  /** Secret values by JSON pointer (`/mask_salt`), sealed. */
  secrets: Record<string, string>;
}

export interface SmtSnapshotRecord {
  revision: string;
  generation: number;
  transforms: SmtInstanceRecord[];
}

export interface SmtChainRecord {
  desired: SmtSnapshotRecord;
  last_applied: SmtSnapshotRecord | null;
  application_status: "pending" | "applying" | "applied" | "failed";
  managed_overrides: Record<string, boolean>;
}

export interface HistoryEntry {
  timestamp: string;
  /** Config echoed as strings, secret values replaced by the mask. */
  config: Record<string, string>;
  /** Keyed digests of the secret values, to detect a changed secret without keeping it. */
  secret_digests: Record<string, string>;
}

export interface CredentialRecord {
  client_id: string;
  secret_hash: string;
  /** First and last three characters of the secret, for the masked `abc******xyz` answers; absent in older state files. */
  secret_hint?: string;
  role_ids: string[];
  permission_ids: string[];
  description: string | null;
  service_id: string | null;
  created_at: string;
  created_from: CreatedFrom | null;
  bootstrap: boolean;
}

export interface TokenRecord {
  client_id: string;
  expires_at_ms: number;
}

export interface TagRecord {
  id: string;
  name: string;
  description: string | null;
  type: string[];
  system: boolean;
  custom: boolean;
  created_from: CreatedFrom | null;
  created_at: string;
  updated_at: string;
}

export interface HttpConnectionRecord {
  connection_id: string;
  name: string;
  url: string;
  /** Header name → sealed value. */
  headers: Record<string, string>;
  created_from: CreatedFrom | null;
  created_at: string;
  updated_at: string;
}

export interface LlmConnectionRecord {
  connection_id: string;
  name: string;
  provider: string;
  model: string;
  base_url: string | null;
  api_key: string;
  created_from: CreatedFrom | null;
  created_at: string;
}

export type AgentStatus = "draft" | "running" | "cancelled" | "deleted";

export interface AgentRecord {
  job_id: string;
  name: string;
  description: string | null;
  instructions: string;
  llm_connection_id: string;
  http_connection_ids: string[];
  status: AgentStatus;
  flags: string[];
  status_history: { status: AgentStatus; at: string }[];
  created_from: CreatedFrom | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface LogSummaryRecord {
  summary_id: string;
  log_uuid: string;
  connector_name: string;
  namespace_name: string;
  timestamp: string;
  entity_id: string;
  entity_type: "source" | "destination";
  log_section: string;
  severity: "info" | "warning" | "error";
  summary: string;
  key_points: string[];
  suggested_actions: string[];
  created_at: string;
}

export interface PipelineTransformEntry {
  id: string;
  name: string;
  start_time: string | null;
  topic_id: string;
  topic: string;
}

export interface PipelineRecord {
  id: string;
  name: string;
  snapshot_new_tables: boolean;
  source_id: string;
  /** Selected source topics, as pretty names. */
  source_topics: string[];
  destination_id: string;
  transforms: PipelineTransformEntry[];
  topic_auto_discovery_transforms: { transform_id: string; regex: string }[];
  tags: string[];
  /** The platform's periodic audit settings, opaque here; absent when none. */
  periodic_audit?: Record<string, unknown>;
  created_from: CreatedFrom | null;
  created_at: string;
  updated_at: string;
  /** Delayed delete (fault option): GETs left before the record really goes. */
  deleting_reads_left?: number;
}

export type JobStatus = "DEPLOYING" | "RUNNING" | "FAILED" | "CANCELED" | "STOPPED";

export interface TransformVersion {
  version_id: number;
  description: string | null;
  implementation: Record<string, unknown>;
  config: Record<string, unknown> | null;
}

export interface TransformRecord {
  id: string;
  name: string;
  transform_type: string;
  config: Record<string, ConfigValue>;
  implementation: Record<string, unknown>;
  version: number;
  impl_versions: Record<string, TransformVersion>;
  tags: string[];
  created_from: CreatedFrom | null;
  created_at: string;
  updated_at: string;
  start_time: string | null;
  /** Job of the live deployment; null until deployed. */
  job: { status: JobStatus; polls_until_settled: number; settles_to: JobStatus; failure_reason: string | null; deployed_version: number } | null;
  deleting_reads_left?: number;
}

/** Tuning of a Kafka topic the platform created for a source or transform. */
export interface TopicRecord {
  id: string;
  partition_count: number;
  tags: string[];
}

export type KafkaAclResource = "TOPIC" | "GROUP";

/** One ACL rule of a Kafka user, as the API echoes it. */
export interface KafkaAclRecord {
  topic_name: string;
  operation: string;
  resource_pattern_type: "LITERAL" | "PREFIXED";
  resource: KafkaAclResource;
}

/** A broker user of the Kafka access area; its password is kept only as a hash. */
export interface KafkaUserRecord {
  username: string;
  password_hash: string;
  /** Comma-separated IPs or CIDR ranges, trimmed; "" for none. */
  whitelist_ips: string;
  kafka_acls: KafkaAclRecord[];
  is_create_schema_registry: boolean;
  created_from: CreatedFrom | null;
  created_at: string;
  updated_at: string;
}

/** What one tenant holds: its ids, its credentials and its objects. Nothing in it is seen from another tenant. */
export interface TenantData {
  /** 24 lowercase hex characters, as the platform's ids (`tnt_…` in state files written before tenants). */
  tenant_id: string;
  sub_id: string;
  service_id: string;
  credentials: Record<string, CredentialRecord>;
  sources: Record<string, ConnectorRecord>;
  destinations: Record<string, ConnectorRecord>;
  history: Record<string, HistoryEntry[]>;
  tags: Record<string, TagRecord>;
  http_connections: Record<string, HttpConnectionRecord>;
  llm_connections: Record<string, LlmConnectionRecord>;
  agents: Record<string, AgentRecord>;
  log_summaries: Record<string, LogSummaryRecord>;
  pipelines: Record<string, PipelineRecord>;
  transforms: Record<string, TransformRecord>;
  /** Topics whose partitions or tags were tuned; other topics have the defaults. */
  topics: Record<string, TopicRecord>;
  /** Kafka users by username; absent in state files written before Kafka access existed. */
  kafka_users: Record<string, KafkaUserRecord>;
  /** Topic-to-destination bindings of API sources, by binding id; absent in older state files. */
  topic_bindings: Record<string, TopicBindingRecord>;
}

/**
 * The whole state. The first tenant (the bootstrap credential's) sits at the top level, where a
 * state file written before tenants has it; the others are under `tenants`.
 */
export interface StateData extends TenantData {
  version: 1;
  vault_key: string;
  digest_key: string;
  /** Last config-history timestamp handed out, to keep history timestamps strictly increasing. */
  last_history_ms: number;
  /** Tokens of every tenant's credentials: a token names its credential, which names its tenant. */
  access_tokens: Record<string, TokenRecord>;
  refresh_tokens: Record<string, TokenRecord>;
  /** The other tenants, by tenant id; absent in state files written before tenants. */
  tenants: Record<string, TenantData>;
}

/**
 * What an API source sends to a destination: one binding per (source, destination), shared by
 * every topic of the source attached there.
 */
export interface TopicBindingRecord {
  id: string;
  source_id: string;
  destination_id: string;
  topic_ids: string[];
}
