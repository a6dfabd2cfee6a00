import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSchema, httpConnectionSchema } from "../../../provider/client/index.js";
import { AgentProvider, agentTransitions, type AgentInputs } from "../../../provider/resources/agent.js";
import { headerPatch, HttpConnectionProvider, type HttpConnectionInputs } from "../../../provider/resources/httpConnection.js";
import { LlmConnectionProvider, type LlmConnectionInputs } from "../../../provider/resources/llmConnection.js";
import { MASK } from "../../../provider/normalize.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";

const http = new HttpConnectionProvider();
const llm = new LlmConnectionProvider();
const agents = new AgentProvider();

async function checked<T>(p: { check(o: object, n: Record<string, unknown>): Promise<{ inputs: unknown; failures: unknown[] }> }, news: Record<string, unknown>, olds = {}): Promise<T> {
  const { inputs, failures } = await p.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as T;
}

describe("HttpConnection, LlmConnection and Agent providers against the emulator", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
  });
  afterAll(async () => h?.close());

  it("check names the field and the fix before any API call", async () => {
    h.emulator.resetStats();
    const bad = await http.check({}, { logicalName: "x", url: "ftp://nope", headers: { "bad header": "v", Auth: MASK } });
    expect(bad.failures).toEqual(
      expect.arrayContaining([
        { property: "url", reason: "must be an absolute http or https URL, e.g. https://api.example.com" },
        expect.objectContaining({ property: "headers.bad header" }),
        { property: "headers.Auth", reason: `"${MASK}" is the API's mask, not a value: set the real header value` },
      ]),
    );
    const badLlm = await llm.check({}, { logicalName: "m", provider: "openia", model: "", apiKey: "k" });
    expect(badLlm.failures.map((f) => f.property).sort()).toEqual(["model", "provider"]);
    const badAgent = await agents.check({}, { logicalName: "a", instructions: "" });
    expect(badAgent.failures.map((f) => f.property).sort()).toEqual(["instructions", "llmConnectionId"]);
    expect(h.emulator.stats().total).toBe(0);
  });

  it("HTTP connection: an update keeps an unchanged header's stored value, replaces a changed one, removes a dropped one", async () => {
    const inputs = await checked<HttpConnectionInputs>(http, {
      logicalName: "crm",
      url: "https://crm.example.com/api",
      headers: { Authorization: "Bearer keep-me-1", "X-Api-Key": "old-key-2", "X-Trace": "drop-me-3" },
    });
    const { id, outs } = await http.create(inputs);
    expect(outs.headerNames).toEqual(["Authorization", "X-Api-Key", "X-Trace"]);
    // Outputs go back to the program (and into --debug logs): digests only, never a header value.
    for (const value of Object.values(inputs.headers)) expect(JSON.stringify(outs)).not.toContain(value);
    expect(h.emulator.storedHttpHeaders(id)).toEqual(inputs.headers);
    expect((await http.diff(id, outs, inputs)).changes).toBe(false);

    const news = { ...inputs, headers: { Authorization: "Bearer keep-me-1", "X-Api-Key": "new-key-4" } };
    expect((await http.diff(id, outs, news)).changes).toBe(true);
    const { outs: after } = await http.update(id, outs, news);
    expect(after.headerNames).toEqual(["Authorization", "X-Api-Key"]);
    // The unchanged header was sent as the mask, and the API kept its stored value.
    expect(h.emulator.storedHttpHeaders(id)).toEqual({ Authorization: "Bearer keep-me-1", "X-Api-Key": "new-key-4" });
    expect((await http.diff(id, after, news)).changes).toBe(false);

    // Drift: a header added and the URL changed outside Pulumi.
    await h.console.patch("/agents/connections/http/{id}", {
      params: { id },
      body: { url: "https://elsewhere.example.com", headers: { Authorization: MASK, "X-Api-Key": MASK, "X-Extra": "by-hand" } },
    });
    expect((await http.diff(id, after, news)).changes).toBe(true);
    const read = await http.read(id, after);
    expect(read.inputs).toMatchObject({ url: "https://elsewhere.example.com", headers: { Authorization: MASK, "X-Api-Key": MASK, "X-Extra": MASK } });
    expect(Object.keys((read.props as { headerDigests?: object }).headerDigests ?? {}).sort()).toEqual(["Authorization", "X-Api-Key"]);
    // `pulumi up` after the refresh puts the program's version back: the extra header goes, the others stay.
    expect((await http.diff(id, read.props as never, news)).changes).toBe(true);
    await http.update(id, read.props as never, news);
    expect(h.emulator.storedHttpHeaders(id)).toEqual({ Authorization: "Bearer keep-me-1", "X-Api-Key": "new-key-4" });
    const live = await h.console.get("/agents/connections/http/{id}", { params: { id }, schema: httpConnectionSchema });
    expect(live.url).toBe("https://crm.example.com/api");

    await http.delete(id);
    expect((await http.read(id, after)).id).toBe("");
    await http.delete(id);
  });

  it("headerPatch follows the merge rule exactly", () => {
    const recorded: Record<string, string> = { A: "1", B: "2", C: "3" };
    const same = (n: string, v: string) => recorded[n] === v;
    expect(headerPatch(same, { A: "1", B: "9", D: "4" }, ["A", "B", "C"])).toEqual({ A: MASK, B: "9", D: "4" });
    // A header the API no longer holds cannot be kept with the mask: its value is sent again.
    expect(headerPatch(same, { A: "1" }, [])).toEqual({ A: "1" });
  });

  it("LLM connection: every change replaces; the API key is sent once and never read back", async () => {
    const inputs = await checked<LlmConnectionInputs>(llm, { logicalName: "gpt", provider: "openai", model: "gpt-4o", apiKey: "sk-llm-secret-5" });
    const { id, outs } = await llm.create(inputs);
    expect(JSON.stringify(outs)).not.toContain("sk-llm-secret-5");
    expect((await llm.diff(id, outs, inputs)).changes).toBe(false);
    expect(await llm.diff(id, outs, { ...inputs, model: "gpt-4.1" })).toMatchObject({ changes: true, replaces: ["model"] });
    expect(await llm.diff(id, outs, { ...inputs, apiKey: "sk-rotated" })).toMatchObject({ changes: true, replaces: ["apiKey"] });
    const read = await llm.read(id, outs);
    expect(read.inputs).toMatchObject({ provider: "openai", model: "gpt-4o", apiKey: MASK });
    // After a refresh the recorded digest still recognises the program's key: no replacement.
    expect((await llm.diff(id, read.props as never, inputs)).changes).toBe(false);
    await llm.delete(id);
    expect((await llm.read(id, outs)).id).toBe("");
  });

  it("Agent: deploy and cancel through the desired state, drift shown, soft delete reads as gone", async () => {
    const model = await llm.create(await checked<LlmConnectionInputs>(llm, { logicalName: "m", provider: "anthropic", model: "claude", apiKey: "k-6" }));
    const hook = await http.create(await checked<HttpConnectionInputs>(http, { logicalName: "hook", url: "https://hook.example.com" }));
    const inputs = await checked<AgentInputs>(agents, {
      logicalName: "triage",
      instructions: "Summarise failing connectors",
      llmConnectionId: model.id,
      httpConnectionIds: [hook.id],
    });
    const { id, outs } = await agents.create(inputs);
    expect(outs.status).toBe("running");
    expect((await agents.diff(id, outs, inputs)).changes).toBe(false);

    const cancelled = await agents.update(id, outs, { ...inputs, deployed: false });
    expect(cancelled.outs.status).toBe("cancelled");
    const redeployed = await agents.update(id, cancelled.outs, { ...inputs, deployed: true });
    expect(redeployed.outs.status).toBe("running");

    // Outside Pulumi: new instructions, and cancelled.
    await h.console.patch("/agents/{id}", { params: { id }, body: { instructions: "Something else" } });
    await h.console.put("/agents/{id}/cancel", { params: { id } });
    expect((await agents.diff(id, redeployed.outs, inputs)).changes).toBe(true);
    const read = await agents.read(id, redeployed.outs);
    expect(read.inputs).toMatchObject({ instructions: "Something else", deployed: false });

    await agents.delete(id);
    const tomb = await h.console.get("/agents/{id}", { params: { id }, schema: agentSchema });
    expect(tomb.status).toBe("deleted");
    expect((await agents.read(id, redeployed.outs)).id).toBe("");
    await agents.delete(id);
    await http.delete(hook.id);
    await llm.delete(model.id);
  });

  it("a create whose answer is lost is found (new since the create, same name, made by IaC): no duplicate", async () => {
    const model = await llm.create(await checked<LlmConnectionInputs>(llm, { logicalName: "m2", provider: "openai", model: "gpt-4o", apiKey: "k-7" }));
    const inputs = await checked<AgentInputs>(agents, { logicalName: "lost", name: "lost-agent", instructions: "i", llmConnectionId: model.id });
    h.emulator.resetStats();
    h.emulator.setFaults({ loseNext: 1, routes: ["/agents"] });
    const { id } = await agents.create(inputs).finally(() => h.emulator.setFaults({ loseNext: 0, routes: ["/"] }));
    expect(h.emulator.stats().faults.lost).toBe(1);
    const named = (await h.console.get("/agents", { query: { name: "lost-agent" } })) as { result: Array<{ job_id: string }> };
    expect(named.result.map((a) => a.job_id)).toEqual([id]);
    await agents.delete(id);
    await llm.delete(model.id);
  });

  it("an HTTP connection's and an agent's update survive a 503: the PATCH sets values, so it is sent again", async () => {
    const hookInputs = await checked<HttpConnectionInputs>(http, { logicalName: "retried", url: "https://a.example.com", headers: { Authorization: "t-1" } });
    const hook = await http.create(hookInputs);
    const model = await llm.create(await checked<LlmConnectionInputs>(llm, { logicalName: "m3", provider: "openai", model: "gpt-4o", apiKey: "k-8" }));
    const agentInputs = await checked<AgentInputs>(agents, { logicalName: "retried", instructions: "one", llmConnectionId: model.id });
    const agent = await agents.create(agentInputs);
    const patches = () => Object.entries(h.emulator.stats().requests).filter(([route]) => route.startsWith("PATCH ")).reduce((n, [, c]) => n + c, 0);
    const failingOnce = async <T>(route: string, update: () => Promise<T>): Promise<T> => {
      const before = patches();
      h.emulator.setFaults({ failNext: 1, routes: [route], methods: ["PATCH"] });
      const result = await update().finally(() => h.emulator.setFaults({ failNext: 0, routes: ["/"], methods: [] }));
      expect(patches() - before).toBe(2);
      return result;
    };
    const moved = await failingOnce("/agents/connections/http", () => http.update(hook.id, hook.outs, { ...hookInputs, url: "https://b.example.com" }));
    expect(moved.outs.url).toBe("https://b.example.com");
    const renamed = await failingOnce("/agents", () => agents.update(agent.id, agent.outs, { ...agentInputs, instructions: "two" }));
    expect(renamed.outs.instructions).toBe("two");
    await agents.delete(agent.id);
    await llm.delete(model.id);
    await http.delete(hook.id);
  });

  it("transitions: deployed wants running, not deployed wants anything but running", () => {
    expect(agentTransitions("draft", true)).toEqual(["deploy"]);
    expect(agentTransitions("cancelled", true)).toEqual(["deploy"]);
    expect(agentTransitions("running", true)).toEqual([]);
    expect(agentTransitions("running", false)).toEqual(["cancel"]);
    expect(agentTransitions("draft", false)).toEqual([]);
  });
});
