import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { agentSchema, httpConnectionSchema, llmConnectionSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

const PROGRAM = join(__dirname, "..", "..", "examples", "agents");
const TOKEN = "Bearer AGENT-TOKEN-SENTINEL-71c3";
const API_KEY = "sk-AGENT-LLM-SENTINEL-e90a";

describe("the agents example under the real Pulumi engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let stack: TestStack;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    stack = await TestStack.create(PROGRAM, { stackName: "agents" });
    await stack.useApi(emulator, { "cdc-agents:traceHeader": "trace-on" }, { "cdc-agents:openaiApiKey": API_KEY, "cdc-agents:ticketsToken": TOKEN });
  });
  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  it("deploys, previews clean, rotates one header and removes another, cancels the agent, destroys to nothing", async () => {
    const up = await stack.up();
    expect(up.stdout).toMatch(/\+ 4 created/);
    const outs = await stack.outputs();
    const agentId = outs["agentId"] as string;
    const connectionId = outs["ticketsConnectionId"] as string;
    const modelId = outs["modelConnectionId"] as string;
    expect(outs["agentStatus"]).toBe("running");
    expect(outs["ticketHeaderNames"]).toEqual(["Authorization", "X-Trace"]);
    // The lookup ran in the program with the stack's credentials.
    expect(outs["roles"]).toEqual(expect.arrayContaining(["role_viewer"]));
    expect(emulator.storedHttpHeaders(connectionId)).toEqual({ Authorization: TOKEN, "X-Trace": "trace-on" });
    const created = await web.get("/agents/{id}", { params: { id: agentId }, schema: agentSchema });
    expect(created).toMatchObject({ llm_connection_id: modelId, http_connection_ids: [connectionId], created_from: "terraform" });

    await stack.preview(["--expect-no-changes"]);
    // No secret in plain text in the state, its history or backups.
    const state = await stack.exportState();
    expect(state).not.toContain(TOKEN);
    expect(state).not.toContain(API_KEY);

    // Change one header (X-Trace) and keep the other, then remove X-Trace.
    await stack.setConfig("cdc-agents:traceHeader", "trace-v2");
    await stack.up();
    expect(emulator.storedHttpHeaders(connectionId)).toEqual({ Authorization: TOKEN, "X-Trace": "trace-v2" });
    await stack.run(["config", "rm", "--stack", stack.stackName, "cdc-agents:traceHeader"]);
    await stack.up();
    // The unchanged header was sent as the mask: its stored value survived both updates.
    expect(emulator.storedHttpHeaders(connectionId)).toEqual({ Authorization: TOKEN });
    await stack.preview(["--expect-no-changes"]);

    // Cancel through the desired state.
    await stack.setConfig("cdc-agents:deployed", "false");
    await stack.up();
    expect((await web.get("/agents/{id}", { params: { id: agentId }, schema: agentSchema })).status).toBe("cancelled");
    await stack.preview(["--expect-no-changes"]);

    // A change made outside Pulumi shows in a plain preview.
    await web.patch("/agents/{id}", { params: { id: agentId }, body: { instructions: "edited by hand" } });
    const drifted = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(drifted.code).not.toBe(0);
    expect(drifted.output).toMatch(/agent ".*" .* changed outside Pulumi[\s\S]*instructions were changed/);
    await stack.up();
    expect((await web.get("/agents/{id}", { params: { id: agentId }, schema: agentSchema })).instructions).toMatch(/Watch the CDC pipelines/);

    // A new model replaces the LLM connection: the agent is repointed before the old one goes.
    await stack.setConfig("cdc-agents:model", "gpt-4.1");
    await stack.up();
    const newModelId = (await stack.outputs())["modelConnectionId"] as string;
    expect(newModelId).not.toBe(modelId);
    const repointed = await web.get("/agents/{id}", { params: { id: agentId }, schema: agentSchema });
    expect(repointed.llm_connection_id).toBe(newModelId);
    expect(repointed.flags).toEqual([]);
    await expect(web.get("/agents/connections/llm/{id}", { params: { id: modelId }, schema: llmConnectionSchema })).rejects.toMatchObject({ status: 404 });

    await stack.destroy();
    const tomb = await web.get("/agents/{id}", { params: { id: agentId }, schema: agentSchema });
    expect(tomb.status).toBe("deleted");
    await expect(web.get("/agents/connections/http/{id}", { params: { id: connectionId }, schema: httpConnectionSchema })).rejects.toMatchObject({ status: 404 });
    await expect(web.get("/agents/connections/llm/{id}", { params: { id: newModelId }, schema: llmConnectionSchema })).rejects.toMatchObject({ status: 404 });
  });
});
