import { z } from "zod";
import { knowable } from "../check.js";
import { declareInputs } from "./inputs.js";
import { adoptInput, echo, nameInput, STRINGS } from "./shared.js";
import type { Agent } from "../client/schemas.js";
import type { ImportContext } from "./imported.js";
import type { KindSpec } from "./spec.js";

/** The longest description the API keeps. */
const DESCRIPTION_MAX = 2000;

const id = z.string({ error: "must be an id string" }).min(1, { error: "must not be empty" });

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  name: nameInput("agent"),
  instructions: {
    type: "string",
    description: "What the agent does, in words. Changed outside Pulumi, it is drift.",
    check: knowable(z.string({ error: "is required: what the agent does, in words" }).min(1, { error: "must not be empty: say what the agent does" })),
  },
  description: {
    type: "string",
    description: `A description of the agent, at most ${DESCRIPTION_MAX} characters.`,
    check: knowable(z.string().max(DESCRIPTION_MAX, { error: `must be at most ${DESCRIPTION_MAX} characters` })).optional(),
  },
  llmConnectionId: {
    type: "string",
    ts: { arg: "llmConnection", input: "LlmConnection | pulumi.Input<string>", convert: "idOf" },
    description: "The id of the `LlmConnection` the agent thinks with.",
    check: knowable(z.string({ error: "is required: the LlmConnection the agent thinks with (the resource, or its id)" }).min(1, { error: "must not be empty" })),
  },
  httpConnectionIds: {
    type: STRINGS,
    ts: { arg: "httpConnections", input: "Array<HttpConnection | pulumi.Input<string>>", convert: "idsOf" },
    description: "The ids of the `HttpConnection`s the agent may call. Default: none.",
    check: z.array(knowable(id)).optional(),
  },
  deployed: {
    type: "boolean",
    description: "The agent's desired state: `true` (the default) deploys it, so it runs; `false` keeps it a draft, or cancels it when it runs.",
    check: z.boolean({ error: "must be true (deployed, running) or false (not running)" }).optional(),
  },
  adoptId: adoptInput("agent", "otherwise it is updated to match."),
});

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
    objects: (listed: readonly Agent[]) => listed.map((a) => ({ id: a.job_id, name: a.name ?? "", tagIds: [], live: a })),
    inputs: (a: Agent, ctx: ImportContext) => {
      const llmId = a.llm_connection_id ?? "";
      if (a.flags.includes("llm_connection_missing")) ctx.note(`Its LLM connection ${llmId} is gone (flag llm_connection_missing): point llmConnection at one that exists.`);
      const http = ctx.refs("HttpConnection", a.http_connection_ids);
      return {
        instructions: a.instructions ?? "",
        description: a.description || undefined,
        llmConnectionId: ctx.ref("LlmConnection", llmId),
        httpConnectionIds: http.length > 0 ? http : undefined,
        // Running is the default; a draft or a cancelled agent is kept so.
        deployed: a.status !== "running" ? false : undefined,
      };
    },
  },
  description:
    "A stream-processing AI agent. `deployed` is its desired state; destroying it is the API's soft delete (a running agent is cancelled first). Instructions, connections or status changed outside Pulumi are drift.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["name", "instructions", "llmConnectionId", "httpConnectionIds", "deployed"]),
    { name: "status", type: "string", required: true, description: "The API's status of the agent: `draft`, `running` or `cancelled`." },
    { name: "flags", type: STRINGS, required: true, description: "The API's flags on the agent, e.g. `llm_connection_missing` after its LLM connection was deleted." },
    { name: "createdFrom", type: "string", required: true, from: { field: "created_from", absent: "" }, description: "How the agent was created, as the API records it (`created_from`)." },
  ],
} satisfies KindSpec<"Agent">;
