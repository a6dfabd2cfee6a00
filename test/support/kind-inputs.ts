import type { z } from "zod";
import { CATALOGUE } from "../../catalogue/index.js";
import type { KindName } from "../../provider/kinds/index.js";
import { requiredConfig } from "./catalogue-samples.js";

/** Valid inputs of every kind, for the suites that start from one (the schema's checks, the inputs' fuzzing). */

const { "transforms.name": _name, ...mapFilterConfig } = requiredConfig(CATALOGUE.transform.map_filter!);

/** A valid input per kind that sets every schema input. */
export const FULL_INPUTS: Record<KindName, Record<string, unknown>> = {
  Source: { name: "orders-cdc", connector: "postgresql", config: requiredConfig(CATALOGUE.source.postgresql!), desiredState: "paused", adoptId: "src-1", tags: ["tag-1"] },
  Destination: { name: "warehouse", connector: "snowflake", config: requiredConfig(CATALOGUE.destination.snowflake!), desiredState: "stopped", adoptId: "dst-1", tags: [] },
  Tag: { name: "pii", description: "personal data", type: ["sources", "destinations"], adoptId: "tag-1" },
  ClientCredential: { roleIds: ["role_viewer"], description: "dbt", serviceId: "svc-1", adoptId: "cred-1", secret: "cred-secret" },
  HttpConnection: { name: "tickets", url: "https://tickets.example.com/api/v2", headers: { Authorization: "Bearer t0ken" }, adoptId: "http-1" },
  LlmConnection: { name: "model", provider: "openai", model: "gpt-4o", apiKey: "sk-123", baseUrl: "https://llm.example.com", adoptId: "llm-1" },
  Agent: { name: "triage", instructions: "Summarise logs.", description: "triage agent", llmConnectionId: "llm-1", httpConnectionIds: ["http-1"], deployed: false, adoptId: "agent-1" },
  Pipeline: {
    name: "orders-to-warehouse",
    source: { id: "src-1", name: "orders-cdc", connector: "postgresql" },
    destination: { id: "dst-1" },
    sourceTopics: ["public.orders"],
    transforms: [{ id: "tr-1", topics: ["clean.orders"] }],
    snapshotNewTables: true,
    tags: ["tag-1"],
    adoptId: "pl-1",
  },
  Transform: {
    name: "orders-clean",
    transform: "map_filter",
    config: mapFilterConfig,
    implementation: { language: "JAVASCRIPT", value_transform: "function _stk(r) { return r; }" },
    deploy: true,
    deployTimeoutSec: 300,
    replayWindow: "24h",
    tags: ["tag-1"],
    adoptId: "tr-1",
  },
  Topic: { topicId: "source_src-1.public.orders", partitionCount: 6, tags: ["tag-1"] },
  TopicDestination: { topicId: "source_src-1.hubspot.contacts", destinationId: "dst-1" },
  KafkaUser: {
    username: "orders-reader",
    password: "correct-horse-battery",
    whitelistIps: ["10.0.0.0/8"],
    isCreateSchemaRegistry: true,
    kafkaAcls: [{ topicName: "orders", operation: "READ", resourcePatternType: "LITERAL", resource: "TOPIC" }],
    adoptId: "orders-reader",
  },
  DestinationSmtChain: {
    destination: "dst-1",
    transforms: [
      {
        type: "mask_field",
        name: "Mask email",
        enabled: false,
        fieldsInclude: ["orders.email"],
        fieldsExclude: ["orders.id"],
        maskFunction: "FIXED",
        maskSalt: "pepper",
        maskChar: "#",
        maskFixedValue: "xxx",
        replaceNullWithDefault: false,
      },
      { type: "regex_router", name: "Route", regex: "(.*)_orders", replacement: "$1" },
    ],
  },
};

/** The string values a zod field allows, when it is an enum (or a list of one); [] otherwise. */
export function enumValues(field: z.ZodType): string[] {
  const def = (field as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; options?: z.ZodType[]; element?: z.ZodType; entries?: Record<string, string> } } })._zod.def;
  switch (def.type) {
    case "enum":
      return Object.values(def.entries ?? {});
    case "optional":
      return enumValues(def.innerType!);
    case "union":
      return (def.options ?? []).flatMap(enumValues);
    case "array":
      return enumValues(def.element!);
    default:
      return [];
  }
}

