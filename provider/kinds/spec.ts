/**
 * The shapes of provider/kinds/index.ts's data (a kind, its properties, object types, functions, config),
 * in a module of their own so that provider/kinds/smt.ts, which kinds.ts imports, can use them
 * without importing kinds.ts back.
 */

/** A property's type, as a Pulumi package schema types it. */
export type TypeSpec =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  /** Any JSON value (`pulumi.json#/Any`). */
  | "any"
  | { arrayOf: TypeSpec }
  /** An object with string keys and values of one type. */
  | { mapOf: TypeSpec }
  /** One of OBJECT_TYPES, by token. */
  | { object: ObjectTypeToken }
  /** An enum or object type of the typed resources (provider/typed/kinds.ts's TYPED_TYPES), by token. */
  | { ref: `cdc:${string}:${string}` };

export interface PropertySpec {
  name: string;
  type: TypeSpec;
  /** Inputs: the program must set it. Outputs: always present. */
  required?: boolean;
  /** A Pulumi secret: encrypted in state, hidden in output. */
  secret?: boolean;
  /** A change replaces the object (the API cannot update it in place). Inputs only. */
  replaceOnChange?: boolean;
  description: string;
}

export type KindName = "Source" | "Destination" | "Tag" | "ClientCredential" | "HttpConnection" | "LlmConnection" | "Agent" | "Pipeline" | "Transform" | "Topic" | "TopicDestination" | "KafkaUser" | "DestinationSmtChain";

export interface KindSpec {
  token: `cdc:index:${KindName}`;
  description: string;
  inputs: PropertySpec[];
  outputs: PropertySpec[];
}

export type ObjectTypeToken = "cdc:index:ConnectorRef" | "cdc:index:PipelineTransform" | "cdc:index:DriftReport" | "cdc:index:Role" | "cdc:index:KafkaAcl" | "cdc:index:TagInfo" | "cdc:index:TopicInfo" | "cdc:index:TopicMetrics" | "cdc:index:TopicRef" | "cdc:index:SmtTransform";

export interface ObjectTypeSpec {
  token: ObjectTypeToken;
  description: string;
  properties: PropertySpec[];
}

export type FunctionToken =
  | "cdc:index:getRoles"
  | "cdc:index:getSource"
  | "cdc:index:getDestination"
  | "cdc:index:getTag"
  | "cdc:index:getTags"
  | "cdc:index:getTopics"
  | "cdc:index:getTopic"
  | "cdc:index:getTopicMetrics"
  | "cdc:index:getTransform"
  | "cdc:index:getKafkaUser";

export interface FunctionSpec {
  token: FunctionToken;
  description: string;
  inputs: PropertySpec[];
  outputs: PropertySpec[];
}

export interface ConfigSpec extends PropertySpec {
  /** The stack config key, `cdc:<name>`. */
  key: `cdc:${string}`;
  /** The environment variable read when the stack config does not set it. */
  env: string;
  /** The value used when neither sets it. */
  default?: string | number;
}

/** A path to a value inside a resource's properties (`["config", "database.password"]`). */
export type Path = readonly (string | number)[];
