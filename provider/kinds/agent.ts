import { adoptInput, echo, nameInput, STRINGS } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  nameInput("agent"),
  { name: "instructions", type: "string", required: true, description: "What the agent does, in words. Changed outside Pulumi, it is drift." },
  { name: "description", type: "string", description: "A description of the agent, at most 2000 characters." },
  { name: "llmConnectionId", type: "string", ts: { arg: "llmConnection", input: "LlmConnection | pulumi.Input<string>", convert: "idOf" }, required: true, description: "The id of the `LlmConnection` the agent thinks with." },
  { name: "httpConnectionIds", type: STRINGS, ts: { arg: "httpConnections", input: "Array<HttpConnection | pulumi.Input<string>>", convert: "idsOf" }, description: "The ids of the `HttpConnection`s the agent may call. Default: none." },
  {
    name: "deployed",
    type: "boolean",
    description: "The agent's desired state: `true` (the default) deploys it, so it runs; `false` keeps it a draft, or cancels it when it runs.",
  },
  adoptInput("agent", "otherwise it is updated to match."),
];

export const AGENT = {
  name: "Agent",
  token: "cdc:index:Agent",
  noun: "agent",
  plural: "agents",
  report: "agent",
  internal: ["logicalName"],
  imported: {
    flag: "agents",
    suffix: "Agent",
    order: 3,
    section: "Agents",
  },
  description:
    "A stream-processing AI agent. `deployed` is its desired state; destroying it is the API's soft delete (a running agent is cancelled first). Instructions, connections or status changed outside Pulumi are drift.",
  inputs,
  outputs: [
    ...echo(inputs, ["name", "instructions", "llmConnectionId", "httpConnectionIds", "deployed"]),
    { name: "status", type: "string", required: true, description: "The API's status of the agent: `draft`, `running` or `cancelled`." },
    { name: "flags", type: STRINGS, required: true, description: "The API's flags on the agent, e.g. `llm_connection_missing` after its LLM connection was deleted." },
    { name: "createdFrom", type: "string", required: true, description: "How the agent was created, as the API records it (`created_from`)." },
  ],
  rules: async () => new (await import("../resources/agent.js")).AgentProvider(),
} satisfies KindSpec<"Agent">;
