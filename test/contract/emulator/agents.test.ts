import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Vault } from "../../../emulator/crypto.js";
import { expect422, expectDetail, openSession, uniqueName, type Session } from "./helpers.js";

let s: Session;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cdc-emu-agents-"));
  // A state file lets the tests check that header values are not stored in plain.
  s = await openSession({ statePath: join(dir, "state.json") });
});
afterAll(async () => {
  await s?.emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads the stored header values back through the state file's own key: what the emulator would use. */
function storedHeaders(connectionId: string): Record<string, string> {
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  const vault = new Vault(state.vault_key, state.digest_key);
  const sealed = state.http_connections[connectionId].headers as Record<string, string>;
  return Object.fromEntries(Object.entries(sealed).map(([k, v]) => [k, vault.open(v)]));
}

async function createHttp(headers: Record<string, string> = { Authorization: "Bearer upstream-token", "X-Team": "data" }) {
  const reply = await s.api("POST", "/agents/connections/http", { body: { name: uniqueName("http"), url: "https://api.example.com/v1", headers } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function createLlm() {
  const reply = await s.api("POST", "/agents/connections/llm", {
    body: { name: uniqueName("llm"), provider: "anthropic", model: "claude-sonnet", api_key: "sk-ant-secret-key" },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function createAgent(body: Record<string, unknown> = {}) {
  const llm = await createLlm();
  const reply = await s.api("POST", "/agents", {
    body: { name: uniqueName("agent"), instructions: "Summarise failed pipeline runs", llm_connection_id: llm.connection_id, ...body },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("HTTP connections", () => {
  it("creates a connection; header values come back masked and are stored encrypted", async () => {
    const conn = await createHttp();
    expect(conn).toMatchObject({
      connection_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      url: "https://api.example.com/v1",
      headers: { Authorization: "********", "X-Team": "********" },
      created_from: "api",
    });
    const got = await s.api("GET", `/agents/connections/http/${conn.connection_id}`);
    expect(got.body).toEqual(conn);
    const state = readFileSync(join(dir, "state.json"), "utf8");
    expect(state).toContain(conn.connection_id);
    expect(state).not.toContain("upstream-token");
  });

  it("PATCH merges headers field by field: mask keeps, new value replaces, omitted key is removed", async () => {
    const conn = await createHttp({ Authorization: "Bearer one", "X-Team": "data", "X-Trace": "on" });
    const patched = await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, {
      body: { headers: { Authorization: "********", "X-Team": "platform", "X-New": "fresh" } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.headers).toEqual({ Authorization: "********", "X-Team": "********", "X-New": "********" });
    expect(patched.body.name).toBe(conn.name);

    expect(storedHeaders(conn.connection_id)).toEqual({ Authorization: "Bearer one", "X-Team": "platform", "X-New": "fresh" });
    // The removed header can no longer be kept with the mask.
    const keepRemoved = await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, {
      body: { headers: { Authorization: "********", "X-Trace": "********" } },
    });
    expect422(keepRemoved, { loc: ["body", "headers", "X-Trace"], type: "value_error" });
    const state = readFileSync(join(dir, "state.json"), "utf8");
    expect(state).not.toContain("platform");
    expect(state).not.toContain("Bearer one");
  });

  it("PATCH without headers leaves them alone and can change name and url", async () => {
    const conn = await createHttp();
    const name = uniqueName("renamed");
    const patched = await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, { body: { name, url: "http://localhost:9000/hook" } });
    expect(patched.body).toMatchObject({ name, url: "http://localhost:9000/hook", headers: conn.headers });
    const cleared = await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, { body: { headers: {} } });
    expect(cleared.body.headers).toEqual({});
  });

  it("validates create and patch bodies", async () => {
    expect422(await s.api("POST", "/agents/connections/http", { body: {} }), { loc: ["body", "name"], type: "missing" }, { loc: ["body", "url"], type: "missing" });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "not a url" } }), { loc: ["body", "url"], type: "url_parsing" });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "ftp://x.example" } }), { loc: ["body", "url"], type: "url_scheme" });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "https://x.example", headers: { A: 1 } } }), {
      loc: ["body", "headers", "A"],
      type: "string_type",
    });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "https://x.example", headers: ["A"] } }), { loc: ["body", "headers"], type: "dict_type" });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "https://x.example", headers: { "Bad Header": "v" } } }), {
      loc: ["body", "headers", "Bad Header"],
      type: "value_error",
    });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "https://x.example", headers: { A: "********" } } }), {
      loc: ["body", "headers", "A"],
      type: "value_error",
    });
    expect422(await s.api("POST", "/agents/connections/http", { body: { name: "h", url: "https://x.example", created_from: "helm" } }), { loc: ["body", "created_from"], type: "enum" });
    const conn = await createHttp();
    expect422(await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, { body: { headers: null } }), { loc: ["body", "headers"], type: "dict_type" });
    expect422(await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, { body: { url: 3 } }), { loc: ["body", "url"], type: "string_type" });
    expect422(await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, { body: [1] }), { loc: ["body"], type: "model_attributes_type" });
    expect422(await s.api("PATCH", `/agents/connections/http/${conn.connection_id}`, { rawBody: "{", headers: { "content-type": "application/json" } }), { type: "json_invalid" });
    expect422(await s.api("GET", `/agents/connections/http/${"c".repeat(129)}`), { loc: ["path", "connection_id"] });
  });

  it("answers 404 for unknown connections and deletes", async () => {
    expectDetail(await s.api("GET", "/agents/connections/http/unknown"), 404);
    expectDetail(await s.api("PATCH", "/agents/connections/http/unknown", { body: { name: "x" } }), 404);
    const conn = await createHttp();
    expect((await s.api("DELETE", `/agents/connections/http/${conn.connection_id}`)).body).toEqual({ connection_id: conn.connection_id, deleted: true });
    expectDetail(await s.api("GET", `/agents/connections/http/${conn.connection_id}`), 404);
  });
});

describe("LLM connections", () => {
  it("creates with a masked api key, then hard-deletes", async () => {
    const llm = await createLlm();
    expect(llm).toMatchObject({ provider: "anthropic", model: "claude-sonnet", api_key: "********", base_url: null, created_from: "api" });
    expect((await s.api("GET", `/agents/connections/llm/${llm.connection_id}`)).body).toEqual(llm);
    const del = await s.api("DELETE", `/agents/connections/llm/${llm.connection_id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ connection_id: llm.connection_id, deleted: true });
    expectDetail(await s.api("GET", `/agents/connections/llm/${llm.connection_id}`), 404);
    expectDetail(await s.api("DELETE", `/agents/connections/llm/${llm.connection_id}`), 404);
    expect(readFileSync(join(dir, "state.json"), "utf8")).not.toContain(llm.connection_id);
  });

  it("deletes without checking agents; the agent is flagged on its next edit", async () => {
    const agent = await createAgent();
    expect((await s.api("DELETE", `/agents/connections/llm/${agent.llm_connection_id}`)).status).toBe(200);
    expect((await s.api("GET", `/agents/${agent.job_id}`)).body.flags).toEqual([]);
    const edited = await s.api("PATCH", `/agents/${agent.job_id}`, { body: { description: "edited" } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.flags).toEqual(["llm_connection_missing"]);
    const replacement = await createLlm();
    const fixed = await s.api("PATCH", `/agents/${agent.job_id}`, { body: { llm_connection_id: replacement.connection_id } });
    expect(fixed.body.flags).toEqual([]);
  });

  it("validates the body", async () => {
    expect422(
      await s.api("POST", "/agents/connections/llm", { body: { name: "l", provider: "skynet", model: "m" } }),
      { loc: ["body", "provider"], type: "enum" },
      { loc: ["body", "api_key"], type: "missing" },
    );
    expect422(await s.api("POST", "/agents/connections/llm", { body: { name: "l", provider: "openai", model: "", api_key: "k" } }), {
      loc: ["body", "model"],
      type: "string_too_short",
    });
    expect422(await s.api("POST", "/agents/connections/llm", { body: { name: "l", provider: "openai", model: "m", api_key: "k", base_url: "nope" } }), {
      loc: ["body", "base_url"],
      type: "url_parsing",
    });
    expect422(await s.api("DELETE", `/agents/connections/llm/${"l".repeat(129)}`), { loc: ["path", "connection_id"] });
  });
});

describe("agents", () => {
  it("creates a running agent referencing its connections", async () => {
    const http = await createHttp();
    const agent = await createAgent({ http_connection_ids: [http.connection_id], created_from: "web" });
    expect(agent).toMatchObject({
      job_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      status: "running",
      http_connection_ids: [http.connection_id],
      created_from: "web",
      deleted_at: null,
    });
    expect(agent.status_history.map((h: { status: string }) => h.status)).toEqual(["running"]);
  });

  it("soft-deletes a running agent: running → cancelled → deleted, and the tombstone stays readable", async () => {
    const agent = await createAgent();
    const del = await s.api("DELETE", `/agents/${agent.job_id}`);
    expect(del.status).toBe(200);
    expect(del.body.status).toBe("deleted");
    expect(del.body.status_history.map((h: { status: string }) => h.status)).toEqual(["running", "cancelled", "deleted"]);
    expect(typeof del.body.deleted_at).toBe("string");
    const got = await s.api("GET", `/agents/${agent.job_id}`);
    expect(got.status).toBe(200);
    expect(got.body.status).toBe("deleted");
    expectDetail(await s.api("DELETE", `/agents/${agent.job_id}`), 404);
    expectDetail(await s.api("PATCH", `/agents/${agent.job_id}`, { body: { name: "x" } }), 404);
    const listed = await s.api("GET", "/agents?page_size=100");
    expect(listed.body.result.some((a: { job_id: string }) => a.job_id === agent.job_id)).toBe(false);
    const withDeleted = await s.api("GET", "/agents?page_size=100&include_deleted=true");
    expect(withDeleted.body.result.some((a: { job_id: string }) => a.job_id === agent.job_id)).toBe(true);
  });

  it("deletes an agent that is not running without a cancel step", async () => {
    const agent = await createAgent({ deploy: false });
    expect(agent.status).toBe("draft");
    const del = await s.api("DELETE", `/agents/${agent.job_id}`);
    expect(del.body.status_history.map((h: { status: string }) => h.status)).toEqual(["draft", "deleted"]);
  });

  it("deploys and cancels", async () => {
    const agent = await createAgent({ deploy: "false" });
    expect((await s.api("PUT", `/agents/${agent.job_id}/deploy`)).body.status).toBe("running");
    expect((await s.api("PUT", `/agents/${agent.job_id}/cancel`)).body.status).toBe("cancelled");
    const del = await s.api("DELETE", `/agents/${agent.job_id}`);
    expect(del.body.status_history.map((h: { status: string }) => h.status)).toEqual(["draft", "running", "cancelled", "deleted"]);
  });

  it("answers 404 for missing references and unknown agents", async () => {
    expectDetail(await s.api("POST", "/agents", { body: { name: "a", instructions: "i", llm_connection_id: "missing" } }), 404, /LLM connection/);
    const llm = await createLlm();
    expectDetail(
      await s.api("POST", "/agents", { body: { name: "a", instructions: "i", llm_connection_id: llm.connection_id, http_connection_ids: ["missing"] } }),
      404,
      /HTTP connection/,
    );
    expectDetail(await s.api("GET", "/agents/unknown"), 404);
    expectDetail(await s.api("DELETE", "/agents/unknown"), 404);
  });

  it("validates bodies, query and path", async () => {
    expect422(
      await s.api("POST", "/agents", { body: { name: "a" } }),
      { loc: ["body", "instructions"], type: "missing" },
      { loc: ["body", "llm_connection_id"], type: "missing" },
    );
    expect422(await s.api("POST", "/agents", { body: { name: "a", instructions: "i", llm_connection_id: "x", deploy: "later" } }), {
      loc: ["body", "deploy"],
      type: "bool_parsing",
    });
    expect422(await s.api("POST", "/agents", { body: { name: "a", instructions: "i", llm_connection_id: "x", http_connection_ids: "y" } }), {
      loc: ["body", "http_connection_ids"],
      type: "list_type",
    });
    expect422(await s.api("POST", "/agents", { body: { name: "a", instructions: "i", llm_connection_id: "x", created_from: "console" } }), {
      loc: ["body", "created_from"],
      type: "enum",
    });
    const agent = await createAgent();
    expect422(await s.api("PATCH", `/agents/${agent.job_id}`, { body: { instructions: "" } }), { loc: ["body", "instructions"], type: "string_too_short" });
    expect422(await s.api("GET", "/agents?include_deleted=perhaps"), { loc: ["query", "include_deleted"], type: "bool_parsing" });
    expect422(await s.api("DELETE", `/agents/${"j".repeat(129)}`), { loc: ["path", "job_id"], type: "string_too_long" });
  });
});
