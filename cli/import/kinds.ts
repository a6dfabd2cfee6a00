/**
 * The kinds `pulumi-cdc import` writes, as plain data with no imports: the command line's parser
 * (cli/import/args.ts, read by cli/args.ts for every command) needs them, and model.ts, which
 * re-exports them, loads the provider's core.
 */

export type Kind = "Tag" | "LlmConnection" | "HttpConnection" | "Agent" | "Source" | "Destination" | "DestinationSmtChain" | "Transform" | "Pipeline" | "Topic" | "TopicDestination";

/** The order of declaration: what a kind refers to is declared before it. */
export const KIND_ORDER: readonly Kind[] = ["Tag", "LlmConnection", "HttpConnection", "Agent", "Source", "Destination", "DestinationSmtChain", "Transform", "Pipeline", "Topic", "TopicDestination"];

/** The kinds `--kind` takes, by their command-line spelling. */
export const KIND_NAMES: Readonly<Record<string, Kind | "ClientCredential">> = {
  tags: "Tag",
  sources: "Source",
  destinations: "Destination",
  "smt-chains": "DestinationSmtChain",
  transforms: "Transform",
  pipelines: "Pipeline",
  topics: "Topic",
  "topic-destinations": "TopicDestination",
  agents: "Agent",
  "http-connections": "HttpConnection",
  "llm-connections": "LlmConnection",
  "client-credentials": "ClientCredential",
};

/**
 * The partitions the platform gives every topic it makes (the emulator's rule, the platform's
 * default): a topic is written into the program only when it has another count, or tags.
 */
export const PLATFORM_TOPIC_PARTITIONS = 3;
