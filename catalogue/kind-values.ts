/**
 * The allowed values of the kinds' enumerated inputs, each list written here and nowhere else in
 * the product: the provider's checks (zod, in provider/resources), the lookups (provider/lookup.ts),
 * the plugin's kinds and so its schema (provider/kinds/index.ts) and the TypeScript SDK's types (sdk/) all
 * read them from here. A test (test/unit/kind-values.test.ts) fails when another product file
 * spells a list out again. The emulator keeps its own copies: it plays the service.
 *
 * Plain data with no import, so the lookups, the plugin's generator and the SDK load it cheaply.
 * Transform types and connector codes are not here: they are the catalogue's (connectors.json).
 */

/** What a tag may be for, as the platform spells it (a tag's `type`, `getTags`' `type`). */
export const TAG_TYPES = ["environment", "general", "sources", "destinations", "pipelines", "transforms", "topics", "services", "users", "tenant"] as const;
export type TagType = (typeof TAG_TYPES)[number];

/** An `LlmConnection`'s `provider`. */
export const LLM_PROVIDERS = ["openai", "anthropic", "azure_openai", "bedrock", "google"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** A `Transform`'s `replayWindow`: how far back a deployment replays its input. */
export const REPLAY_WINDOWS = ["7d", "3d", "24h", "10m", "0"] as const;
export type ReplayWindow = (typeof REPLAY_WINDOWS)[number];

/** The `desiredState` of a source: the first is the default. */
export const SOURCE_STATES = ["active", "paused"] as const;
/** The `desiredState` of a destination, which can also be stopped: the first is the default. */
export const DESTINATION_STATES = ["active", "paused", "stopped"] as const;
export type SourceState = (typeof SOURCE_STATES)[number];
export type DesiredState = (typeof DESTINATION_STATES)[number];

/** What a Kafka ACL rule can allow (the platform's list). */
export const KAFKA_OPERATIONS = ["ALL", "ALTER", "ALTER_CONFIGS", "CREATE", "DELETE", "DESCRIBE", "DESCRIBE_CONFIGS", "READ", "WRITE"] as const;
export type KafkaOperation = (typeof KAFKA_OPERATIONS)[number];
/** The operations a rule on a consumer GROUP takes (Kafka allows nothing else on a group). */
export const KAFKA_GROUP_OPERATIONS = ["DELETE", "DESCRIBE", "READ"] as const satisfies readonly KafkaOperation[];
/** How an ACL rule's name matches: exactly, or as a prefix. */
export const KAFKA_PATTERN_TYPES = ["LITERAL", "PREFIXED"] as const;
export type KafkaPatternType = (typeof KAFKA_PATTERN_TYPES)[number];
/** What an ACL rule is on: a topic (the default, first) or a consumer group. */
export const KAFKA_RESOURCES = ["TOPIC", "GROUP"] as const;
export type KafkaResource = (typeof KAFKA_RESOURCES)[number];

/** The language of a code transform's implementation: the first is the default. */
export const CODE_LANGUAGES = ["JAVASCRIPT", "PYTHON"] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/** Every list, by name: what the test that no list is restated walks. */
export const KIND_VALUES = {
  TAG_TYPES,
  LLM_PROVIDERS,
  REPLAY_WINDOWS,
  SOURCE_STATES,
  DESTINATION_STATES,
  KAFKA_OPERATIONS,
  KAFKA_GROUP_OPERATIONS,
  KAFKA_PATTERN_TYPES,
  KAFKA_RESOURCES,
  CODE_LANGUAGES,
} as const satisfies Record<string, readonly string[]>;

/** `a`, `b` or `c`: values for a sentence, each in `quote` (backquotes unless told). */
export function oneOfText(values: readonly string[], quote = "`"): string {
  const q = values.map((v) => `${quote}${v}${quote}`);
  return q.length < 2 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

/** `a` (the default), `b` or `c`: a list whose first value is the default. */
export function defaultFirstText(values: readonly string[]): string {
  const [first, ...rest] = values.map((v) => `\`${v}\``);
  return oneOfText([`${first} (the default)`, ...rest], "");
}
