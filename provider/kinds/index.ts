import { AGENT } from "./agent.js";
import { CLIENT_CREDENTIAL } from "./clientCredential.js";
import { DESTINATION } from "./destination.js";
import { DESTINATION_SMT_CHAIN } from "./destinationSmtChain.js";
import { HTTP_CONNECTION } from "./httpConnection.js";
import { KAFKA_USER } from "./kafkaUser.js";
import { LLM_CONNECTION } from "./llmConnection.js";
import { PIPELINE } from "./pipeline.js";
import { SOURCE } from "./source.js";
import { TAG } from "./tag.js";
import { TOPIC } from "./topic.js";
import { TOPIC_DESTINATION } from "./topicDestination.js";
import { TRANSFORM } from "./transform.js";
import { catalogueEntry, secretKeySet } from "../catalogue.js";
import type { KindSpec, Path, Recoverable } from "./spec.js";

/**
 * The kind registry: every kind pulumi-cdc manages, each declared once in a module of its own
 * (provider/kinds/<kind>.ts: token, labels, properties with their checks, outputs, how the CLI
 * finds it), with its API rules (provider/resources/<kind>.ts, which read the declaration), loaded
 * on first use. The plugin's schema and so every generated SDK, the dynamic classes, the core's
 * input checks, the engine entry point's providers and the CLI's tables are all derived from this
 * list. Adding a kind: its declaration and its rules here, its emulator route and its tests; no
 * other file names it.
 *
 * In the order the schema lists them.
 */
export const DECLARATIONS = [
  kind(SOURCE, async () => { const { ConnectorProvider, SOURCE: spec } = await import("../resources/connector.js"); return new ConnectorProvider(spec); }),
  kind(DESTINATION, async () => { const { ConnectorProvider, DESTINATION: spec } = await import("../resources/connector.js"); return new ConnectorProvider(spec); }),
  kind(TAG, async () => new (await import("../resources/tag.js")).TagProvider()),
  kind(CLIENT_CREDENTIAL, async () => new (await import("../resources/clientCredential.js")).ClientCredentialProvider()),
  kind(HTTP_CONNECTION, async () => new (await import("../resources/httpConnection.js")).HttpConnectionProvider()),
  kind(LLM_CONNECTION, async () => new (await import("../resources/llmConnection.js")).LlmConnectionProvider()),
  kind(AGENT, async () => new (await import("../resources/agent.js")).AgentProvider()),
  kind(PIPELINE, async () => new (await import("../resources/pipeline.js")).PipelineProvider()),
  kind(TRANSFORM, async () => new (await import("../resources/transform.js")).TransformProvider()),
  kind(TOPIC, async () => new (await import("../resources/topic.js")).TopicProvider()),
  kind(TOPIC_DESTINATION, async () => new (await import("../resources/topicDestination.js")).TopicDestinationProvider()),
  kind(KAFKA_USER, async () => new (await import("../resources/kafkaUser.js")).KafkaUserProvider()),
  kind(DESTINATION_SMT_CHAIN, async () => new (await import("../resources/destinationSmtChain.js")).DestinationSmtChainProvider()),
] as const;

/**
 * A declaration with its rules: the loader the registry pairs it with, which loads the rules and
 * makes the kind's provider once, however many callers ask (the engine entry point, drift's
 * check of each object, recover's look-up of each pending create).
 */
function kind<const D extends KindSpec, R extends Recoverable>(declaration: D, load: () => Promise<R>): D & { rules: () => Promise<R> } {
  let loaded: Promise<R> | undefined;
  return { ...declaration, rules: () => (loaded ??= load()) };
}

export type Declaration = (typeof DECLARATIONS)[number];
export type KindName = Declaration["name"];
/** The declaration of one kind, with its own rules' type. */
export type DeclarationOf<K extends KindName> = Extract<Declaration, { name: K }>;

/** Any kind of the registry, seen through the declarations' common shape, with its rules. */
export type Registered = KindSpec<KindName> & { rules(): Promise<Recoverable> };

/** The kinds whose objects are the catalogue's connectors (Source, Destination) or transform types (Transform as well). */
export type CatalogueKindName = Extract<Declaration, { catalogue: object }>["name"];
export type ConnectorKindName = Extract<Declaration, { catalogue: { codeProperty: "connector" } }>["name"];

export const KIND_NAMES: readonly KindName[] = DECLARATIONS.map((d) => d.name);

export const KINDS = Object.fromEntries(DECLARATIONS.map((d) => [d.name, d])) as unknown as { readonly [K in KindName]: DeclarationOf<K> };

export { DYNAMIC_TOKEN_PREFIX, dynamicToken } from "./dynamic-token.js";

export function isKindName(name: string): name is KindName {
  return Object.hasOwn(KINDS, name);
}

/**
 * The paths of a kind's properties that hold secrets, whether or not the program marked them:
 * its properties declared secret (each value of a secret map), and what the kind's own rule adds
 * (an SMT entry's secret fields), and a catalogued kind's secret config keys.
 */
export function secretPaths(kind: KindSpec, props: Record<string, unknown>): Path[] {
  const declared = [...kind.inputs, ...kind.outputs].filter((p, i, all) => p.secret && all.findIndex((q) => q.name === p.name) === i);
  const paths = declared.flatMap((p): Path[] => {
    const value = props[p.name];
    if (typeof p.type === "object" && "mapOf" in p.type) return value && typeof value === "object" ? Object.keys(value).map((k) => [p.name, k]) : [];
    return [[p.name]];
  });
  return [...paths, ...catalogueSecretPaths(kind, props), ...(kind.secretPaths?.(props) ?? [])];
}

/** The config keys of a catalogued kind's object that the catalogue says are secret. */
function catalogueSecretPaths(kind: KindSpec, props: Record<string, unknown>): Path[] {
  if (!kind.catalogue) return [];
  const config = props.config && typeof props.config === "object" ? (props.config as Record<string, unknown>) : {};
  return [...secretKeySet(catalogueEntry(kind.catalogue.kind, props[kind.catalogue.codeProperty] ?? ""), config)].filter((k) => k in config).map((k) => ["config", k]);
}

/** Properties the core carries that are not part of the schema (provider/kinds/spec.ts). */
export { INTERNAL_PROPERTIES } from "./spec.js";

export type { TypeSpec, PropertySpec, TsSpec, InternalProperty, KindSpec, ObjectTypeToken, ObjectTypeSpec, FunctionToken, FunctionSpec, ConfigSpec, Path } from "./spec.js";
export { OBJECT_TYPES } from "./object-types.js";
export { FUNCTIONS } from "./functions.js";
export { PACKAGE, PROVIDER_CONFIG } from "./config.js";
export { liveOutputs } from "./outputs.js";
