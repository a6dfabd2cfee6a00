import type { ZodObject } from "zod";
import type { KindTerraform } from "./terraform.js";
import type { CdcClient } from "../client/index.js";
import type { KindImport } from "./imported.js";

/**
 * The shapes of the kinds' declarations (a kind, its properties, object types, functions, config),
 * in a module of their own that every declaration imports.
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
  /** The TypeScript SDK's types, where the schema's are looser (TsSpec). */
  ts?: TsSpec;
  /** Inputs: the program must set it. Outputs: always present. */
  required?: boolean;
  /** A Pulumi secret: encrypted in state, hidden in output. */
  secret?: boolean;
  /** A change replaces the object (the API cannot update it in place). Inputs only. */
  replaceOnChange?: boolean;
  /**
   * Outputs only: a field of the API's object that the output echoes as it is (`tenant_id`), and
   * its value when the API leaves the field out. The kind's rules fill such outputs in from the
   * declaration (liveOutputs), so adding one is an edit of the declaration alone.
   */
  from?: { field: string; absent: unknown };
  description: string;
}

/**
 * One kind, declared once (provider/kinds/<kind>.ts): everything the rest of pulumi-cdc derives
 * from it. The plugin's schema and so every generated SDK, the dynamic classes' types, the
 * core's input check, the engine entry point's providers and every table of the CLI come from
 * these declarations (provider/kinds/index.ts lists them); nothing else names a kind.
 */
export interface KindSpec<N extends string = string> {
  /** The kind's name: its type token's last part, the dynamic classes' class name. */
  name: N;
  token: `cdc:index:${N}`;
  /** How messages, budgets and the CLI name one object of the kind, and several. */
  noun: string;
  plural: string;
  description: string;
  inputs: PropertySpec[];
  /** The core's check of the inputs, from the same declaration (provider/kinds/inputs.ts). */
  inputSchema: ZodObject;
  /** The inputs whose change replaces the object (those declared `replaceOnChange`). */
  replaceOnChange: readonly string[];
  outputs: PropertySpec[];
  /** `pulumi-cdc drift`: the kind as its report names it. Sources, destinations and pipelines have checks of their own. */
  report: string;
  /**
   * `pulumi-cdc import`: the `--kind` spelling, the suffix of the identifiers it writes
   * (`ordersSource`), and its place in a written program: a kind comes after those it refers to.
   * `section`: the comment over the kind's objects in a written program; and what a program sets
   * on each object (KindImport).
   */
  imported?: { flag: string; suffix: string; order: number; section?: string } & KindImport;
  /**
   * A kind whose objects are the catalogue's connectors or transform types: which part of the
   * catalogue, the input that names the code (the rest of its settings are `config`), and the
   * module of the plugin's typed resources (`cdc:sources:Postgresql`). Its config's secret keys
   * are secrets, as the catalogue says.
   */
  /** How `pulumi-cdc import --from-terraform` reads the kind's objects out of a Terraform state. */
  terraform?: KindTerraform;
  catalogue?: {
    kind: "source" | "destination" | "transform";
    codeProperty: "connector" | "transform";
    module: "sources" | "destinations" | "transforms";
    /**
     * The config key that holds the object's name, when one does (a transform's `transforms.name`):
     * the core fills it in from `name`, and the typed helper has it as its `name`.
     */
    nameKey?: string;
  };
  /** The paths of its properties that hold secrets whether or not the program marked them (besides those marked `secret`). */
  secretPaths?: (props: Record<string, unknown>) => Path[];
  /**
   * The internal properties (INTERNAL_PROPERTIES) its TypeScript dynamic class registers besides
   * the declared ones: `logicalName`, the resource's name, which names the autoname; the others
   * as outputs the core fills in (the salt and digests that stand for secret values).
   */
  internal?: readonly InternalProperty[];
}

/**
 * How the TypeScript dynamic classes (generated/typescript/kinds.ts, written by `npm run generate`) type
 * a property where the schema's type is looser, and what a class does with its argument. Each
 * text is TypeScript naming the generated classes, `pulumi`, and what sdk/kind-types.ts exports.
 */
export interface TsSpec {
  /** The values' type in place of the schema's scalar, or of a list's or map's entries (an enum of catalogue/kind-values.ts, an object type). Arguments and outputs alike. */
  type?: string;
  /** The output's whole type, when it is not the schema's with `type` (an object type's output form). */
  output?: string;
  /** The argument's whole type, when it is not `pulumi.Input` of the property's (a resource for its id); `convert` makes the property of it. */
  input?: string;
  /** The argument's name, when it is not the property's (`llmConnection` for `llmConnectionId`). */
  arg?: string;
  /** The function of sdk/kind-types.ts that makes the property's value of the argument, `(value, args)`, when it is set. */
  convert?: string;
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
  default?: string | number | boolean;
}

/** A path to a value inside a resource's properties (`["config", "database.password"]`). */
export type Path = readonly (string | number)[];

/** What `pulumi-cdc drift` learns of one object from its kind's rules (`findDrift`). */
export interface DriftFindings {
  /** The object no longer exists in the API. */
  gone: boolean;
  /** What changed outside Pulumi, in the sentences a plain preview prints; [] when nothing. */
  findings: string[];
}

/**
 * What a kind's rules make of a create that a killed run may have made (left pending in the
 * stack, or not recorded at all with skipped checkpoints), for `pulumi-cdc recover`.
 */
export type Recovered =
  /** The object the create made: taken into the stack. */
  | { found: string; what: string }
  /** The create never happened: the next `pulumi up` makes it. */
  | { absent: string }
  /** An object in the create's place is not this create's: left alone, and the next `pulumi up` says the name is taken. */
  | { foreign: string }
  /** Made, but unusable (a credential's secret died with the run): deleted, and the next `pulumi up` makes another. */
  | { lost: string[]; what: string }
  /** Cannot be told without a person (several candidates, inputs unreadable): named with what to check; recover fails. */
  | { unsettled: string };

/** What recover knows beside the pending create's inputs. */
export interface RecoverContext {
  /** The Pulumi resource name: an autoname starts with it. */
  readonly logicalName: string;
  /**
   * A create `pulumi preview` plans that the stack does not hold (the run had skipped
   * checkpoints): its inputs are the preview's, so an autoname in them is a fresh one, not the run's.
   */
  readonly planned: boolean;
  /** Whether the stack already tracks an object of this kind with this id: never taken twice. */
  tracked(id: string): boolean;
  /** Ids other creates of this recover took (kinds whose names need not be unique): never taken twice. */
  readonly claimed: Set<string>;
}

/** Every kind's rules can tell what a killed run's create made. */
export interface Recoverable {
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered>;
}

/** An object `pulumi-cdc recover` found by name (`findByName` of a kind's rules): what it reads to tell whether the create was Pulumi's. */
export interface FoundByName {
  id?: string | null;
  connector?: string | null;
  created_from?: string | null;
}

/**
 * Properties the core carries that are not part of the schema: what the dynamic SDK adds
 * (`logicalName` names the autoname, `__provider` loads the provider) and what the core keeps
 * for itself in outputs (`autonamed`; the salt and keyed digests that stand for secret values,
 * which no program reads).
 */
export const INTERNAL_PROPERTIES = ["logicalName", "autonamed", "__provider", "secretSalt", "headerDigests", "apiKeyDigest", "passwordDigest", "secretDigests"] as const;
export type InternalProperty = (typeof INTERNAL_PROPERTIES)[number];
