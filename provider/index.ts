/**
 * The engine-side entry point, loaded by package name (`pulumi-cdc/provider`) inside the
 * dynamic-provider process. sdk/ serializes only calls into this module, so everything with
 * state (HTTP pool, token, limiter) lives here, once per run.
 */
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of undici's stack trace.
import "./node-version.js";
// Next, so that the modules imported after it are read from the code cache.
import "./compile-cache.js";
import { currentTuning, withBudget, type ConfigSource } from "./client/index.js";
import { configure } from "./context.js";
import { ClientCredentialProvider } from "./resources/clientCredential.js";
import { ConnectorProvider, DESTINATION, SOURCE } from "./resources/connector.js";
import { TagProvider } from "./resources/tag.js";
import { AgentProvider } from "./resources/agent.js";
import { HttpConnectionProvider } from "./resources/httpConnection.js";
import { KafkaUserProvider } from "./resources/kafkaUser.js";
import { LlmConnectionProvider } from "./resources/llmConnection.js";
import { PipelineProvider } from "./resources/pipeline.js";
import { TopicProvider } from "./resources/topic.js";
import { TopicDestinationProvider } from "./resources/topicDestination.js";
import { TransformProvider } from "./resources/transform.js";
import { DestinationSmtChainProvider } from "./resources/destinationSmtChain.js";
import { tolerateUnknowns } from "./unknowns.js";

export { configure };
export { providerInfo, type ProviderInfo } from "./info.js";

const OPERATIONS = new Set(["check", "diff", "create", "read", "update", "delete"]);

/**
 * Each operation of a resource runs under a retry budget of its own (cdc:resourceTimeoutSec):
 * every call it makes, retries included, must fit in it, so one bad resource cannot hold a
 * run for longer than that and its error says what was retried.
 */
function budgeted<P extends object>(kind: string, target: P): P {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver) as unknown;
      if (typeof prop !== "string" || !OPERATIONS.has(prop) || typeof value !== "function") return value;
      return (...args: unknown[]) =>
        withBudget(`${kind} ${prop}`, currentTuning().resourceTimeoutMs, () => (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args));
    },
  });
}

const providers = {
  Source: budgeted("source", tolerateUnknowns(new ConnectorProvider(SOURCE))),
  Destination: budgeted("destination", tolerateUnknowns(new ConnectorProvider(DESTINATION))),
  Tag: budgeted("tag", tolerateUnknowns(new TagProvider())),
  ClientCredential: budgeted("client credential", tolerateUnknowns(new ClientCredentialProvider())),
  HttpConnection: budgeted("HTTP connection", tolerateUnknowns(new HttpConnectionProvider())),
  LlmConnection: budgeted("LLM connection", tolerateUnknowns(new LlmConnectionProvider())),
  Agent: budgeted("agent", tolerateUnknowns(new AgentProvider())),
  Pipeline: budgeted("pipeline", tolerateUnknowns(new PipelineProvider())),
  Transform: budgeted("transform", tolerateUnknowns(new TransformProvider())),
  Topic: budgeted("topic", tolerateUnknowns(new TopicProvider())),
  TopicDestination: budgeted("topic destination", tolerateUnknowns(new TopicDestinationProvider())),
  KafkaUser: budgeted("Kafka user", tolerateUnknowns(new KafkaUserProvider())),
  DestinationSmtChain: budgeted("SMT chain", tolerateUnknowns(new DestinationSmtChainProvider())),
};

export type ResourceKind = keyof typeof providers;

export function provider<K extends ResourceKind>(kind: K): (typeof providers)[K] {
  const found = providers[kind];
  if (!found) throw new Error(`pulumi-cdc has no provider for "${String(kind)}": the installed package is older than the program's state`);
  return found;
}

type Operation = "check" | "diff" | "create" | "read" | "update" | "delete";
type Call = (...args: never[]) => Promise<unknown>;
/** The dynamic-provider host's view of a provider: `configure({ config })` and the operations. */
export type DynamicProvider = Record<Operation, Call> & { configure(req: { config: ConfigSource }): Promise<void> };
const dynamicProviders = new Map<string, DynamicProvider>();

/**
 * What the `__provider` text of each resource (sdk/dynamic.ts) hands the engine's dynamic-provider
 * host: the kind's operations and `configure`, one object per kind. Stacks written by earlier
 * versions hold a serialized closure that calls provider() and configure() instead; both stay.
 */
export function dynamicProvider(kind: ResourceKind): DynamicProvider {
  let found = dynamicProviders.get(kind);
  if (!found) {
    const target = provider(kind) as unknown as Record<Operation, Call>;
    const call = (op: Operation): Call => (...args) => target[op](...args);
    found = {
      configure: async (req) => configure(req.config),
      check: call("check"),
      diff: call("diff"),
      create: call("create"),
      read: call("read"),
      update: call("update"),
      delete: call("delete"),
    };
    dynamicProviders.set(kind, found);
  }
  return found;
}

export type { ConnectorInputs, ConnectorOutputs, DesiredState } from "./resources/connector.js";
export type { TagInputs, TagOutputs } from "./resources/tag.js";
export type { ClientCredentialInputs, ClientCredentialOutputs } from "./resources/clientCredential.js";
export type { HttpConnectionInputs, HttpConnectionOutputs } from "./resources/httpConnection.js";
export type { LlmConnectionInputs, LlmConnectionOutputs } from "./resources/llmConnection.js";
export type { AgentInputs, AgentOutputs } from "./resources/agent.js";
export type { PipelineInputs, PipelineOutputs } from "./resources/pipeline.js";
export type { TransformInputs, TransformOutputs } from "./resources/transform.js";
export type { TopicInputs, TopicOutputs } from "./resources/topic.js";
export type { TopicDestinationInputs, TopicDestinationOutputs } from "./resources/topicDestination.js";
export type { KafkaAcl, KafkaUserInputs, KafkaUserOutputs } from "./resources/kafkaUser.js";
export type { DestinationSmtChainInputs, DestinationSmtChainOutputs, SmtEntry } from "./resources/destinationSmtChain.js";
export type { DriftReport } from "./drift.js";
export * as api from "./client/index.js";
