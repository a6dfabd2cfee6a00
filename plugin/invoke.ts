import { client } from "../provider/context.js";
import { reportWarning } from "../provider/drift.js";
import {
  LookupArgError,
  lookupConnector,
  lookupKafkaUser,
  lookupRoles,
  lookupTag,
  lookupTags,
  lookupTopic,
  lookupTopicMetrics,
  lookupTopics,
  lookupTransform,
} from "../provider/lookup.js";

/** The lookups of the SDK, as functions of the schema (`cdc:index:getSource` ...): the same core calls. */
const FUNCTIONS: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
  "cdc:index:getRoles": async () => ({ roles: await lookupRoles(client()) }),
  "cdc:index:getSource": (args) => lookupConnector(client(), "source", name(args)),
  "cdc:index:getDestination": (args) => lookupConnector(client(), "destination", name(args)),
  "cdc:index:getTag": (args) => lookupTag(client(), name(args)),
  "cdc:index:getTags": async (args) => ({ tags: await lookupTags(client(), args) }),
  "cdc:index:getTopics": async (args) => ({ topics: await lookupTopics(client(), args) }),
  "cdc:index:getTopic": (args) => lookupTopic(client(), args),
  // Invoke has no warnings of its own: they go to the engine's log, as drift reports do.
  "cdc:index:getTopicMetrics": async (args) => ({ metrics: await lookupTopicMetrics(client(), args, (message) => reportWarning("getTopicMetrics", message)) }),
  "cdc:index:getTransform": (args) => lookupTransform(client(), args),
  "cdc:index:getKafkaUser": (args) => lookupKafkaUser(client(), args),
};

export const FUNCTION_TOKENS = Object.keys(FUNCTIONS);

function name(args: Record<string, unknown>): string {
  if (typeof args.name !== "string" || args.name === "") throw new InvokeArgError("name", "is required: the exact name to look up");
  return args.name;
}

class InvokeArgError extends Error {
  constructor(
    readonly property: string,
    readonly reason: string,
  ) {
    super(`${property} ${reason}`);
  }
}

export async function invoke(token: string, args: Record<string, unknown>): Promise<{ value: Record<string, unknown> } | { failures: Array<{ property: string; reason: string }> }> {
  const fn = FUNCTIONS[token];
  if (!fn) throw new Error(`unknown function "${token}": pulumi-cdc has ${FUNCTION_TOKENS.join(", ")}`);
  try {
    return { value: (await fn(args)) as Record<string, unknown> };
  } catch (err) {
    if (err instanceof InvokeArgError || err instanceof LookupArgError) return { failures: [{ property: err.property, reason: err.reason }] };
    throw err;
  }
}
