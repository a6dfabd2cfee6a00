import * as pulumi from "@pulumi/pulumi";
import { Agent, getRoles, HttpConnection, LlmConnection } from "pulumi-cdc";

// Every knob is stack config, so the same program serves a first deploy, a header rotation
// and pausing the agent (see README.md).
const config = new pulumi.Config();

const model = new LlmConnection("model", {
  provider: "openai",
  model: config.get("model") ?? "gpt-4o",
  apiKey: config.requireSecret("openaiApiKey"),
});

// The ticketing system the agent files incidents in. Header values are secrets; an update
// sends only the ones that changed, so the others keep their stored (encrypted) values.
const headers: Record<string, pulumi.Input<string>> = { Authorization: config.requireSecret("ticketsToken") };
const traceHeader = config.get("traceHeader");
if (traceHeader) headers["X-Trace"] = traceHeader;
const tickets = new HttpConnection("tickets", {
  url: "https://tickets.example.com/api/v2",
  headers,
});

const triage = new Agent("triage", {
  instructions: "Watch the CDC pipelines; when a connector breaks, summarise its logs and open a ticket.",
  description: "pipeline triage",
  llmConnection: model,
  httpConnections: [tickets],
  // `pulumi config set deployed false` cancels it; true (the default) deploys it again.
  deployed: config.getBoolean("deployed") ?? true,
});

export const agentId = triage.id;
export const agentStatus = triage.status;
export const ticketsConnectionId = tickets.id;
export const ticketHeaderNames = tickets.headerNames;
export const modelConnectionId = model.id;
// A lookup: the roles a client credential for this agent's callers could use.
export const roles = getRoles().then((rs) => rs.map((r) => r.id));
