import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { call, tokenFor } from "./helpers.js";
import { emulatorPgSourceConfig, emulatorSnowflakeConfig } from "../../support/fixtures.js";

let dir: string;
const running: RunningEmulator[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cdc-emu-state-"));
});
afterAll(async () => {
  await Promise.all(running.map((e) => e.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(statePath: string, clientSecret?: string) {
  const emu = await startEmulator({ port: 0, statePath, ...(clientSecret ? { clientSecret } : {}) });
  running.push(emu);
  return emu;
}

describe("--state persistence", () => {
  it("keeps objects, credentials, tokens and history across a restart", async () => {
    const statePath = join(dir, "restart.json");
    const first = await start(statePath);
    const tokens = await tokenFor(first);
    const api = (method: string, path: string, body?: unknown) => call(first.url, method, path, { token: tokens.accessToken, body });

    const src = (await api("POST", "/sources", { name: "persisted-src", connector: "postgresql", config: emulatorPgSourceConfig() })).body;
    await api("PUT", `/sources/${src.id}/pause`);
    const dst = (await api("POST", "/destinations", { name: "persisted-dst", connector: "snowflake", config: emulatorSnowflakeConfig() })).body;
    await api("PUT", `/destinations/${dst.id}`, { name: "persisted-dst", connector: "snowflake", config: { ...emulatorSnowflakeConfig(), "snowflake.role.name": "LOADER_ROLE" } });
    const compareBefore = (await api("GET", `/destinations/${dst.id}/config-history/compare-to-original`)).body;
    const tag = (await api("POST", "/tags", { name: "persisted-tag", type: ["sources"] })).body;
    const cred = (await api("POST", "/auth/client-credentials", { role_ids: ["role_editor"] })).body;
    const http = (await api("POST", "/agents/connections/http", { name: "hook", url: "https://h.example", headers: { "X-Key": "k1" } })).body;
    const summary = (await api("POST", "/logs/summary", {
      connector_name: "c",
      namespace_name: "n",
      timestamp: "2026-01-02T03:04:05.123456Z",
      entity_id: src.id,
      log_section: "s",
      entity_type: "source",
    })).body;
    await first.stop();

    const second = await start(statePath);
    const api2 = (method: string, path: string, body?: unknown) => call(second.url, method, path, { token: tokens.accessToken, body });
    const gotSrc = (await api2("GET", `/sources/${src.id}?secret_returned=true`)).body.result[0];
    expect(gotSrc).toMatchObject({ name: "persisted-src", connector_status: "Paused", topics: src.topics, created_timestamp: src.created_timestamp });
    expect(gotSrc.config["database.password"]).toBe("pg-s3cret");
    expect((await api2("GET", `/destinations/${dst.id}/config-history/compare-to-original`)).body).toEqual(compareBefore);
    expect((await api2("GET", `/tags/${tag.id}`)).body).toEqual(tag);
    expect((await api2("GET", `/agents/connections/http/${http.connection_id}`)).body).toEqual(http);
    expect((await api2("POST", "/logs/summary", { log_uuid: summary.log_uuid })).body).toEqual(summary);
    expect((await tokenFor(second, cred.client_id, cred.secret)).accessToken).toBeTruthy();
    const refreshed = await call(second.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: tokens.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect((await api2("POST", "/sources", { name: "persisted-src", connector: "postgresql", config: emulatorPgSourceConfig() })).status).toBe(409);
    await second.stop();
  });

  it("writes before answering, atomically (rename over), with no temp files left and no plain secrets", async () => {
    const statePath = join(dir, "atomic.json");
    const emu = await start(statePath);
    const tokens = await tokenFor(emu);
    const inodeBefore = statSync(statePath).ino;
    const created = await call(emu.url, "POST", "/sources", {
      token: tokens.accessToken,
      body: { name: "atomic", connector: "postgresql", config: emulatorPgSourceConfig() },
    });
    const onDisk = readFileSync(statePath, "utf8");
    expect(JSON.parse(onDisk).sources[created.body.id].name).toBe("atomic");
    expect(statSync(statePath).ino).not.toBe(inodeBefore);
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.includes("atomic") && f !== "atomic.json")).toEqual([]);
    for (const plain of ["pg-s3cret", "cdc-local-secret", tokens.accessToken, tokens.refreshToken]) expect(onDisk).not.toContain(plain);
    await emu.stop();
  });

  it("re-keys the bootstrap credential to the secret given at start", async () => {
    const statePath = join(dir, "bootstrap.json");
    const first = await start(statePath, "first-secret");
    await tokenFor(first, "cdc-local", "first-secret");
    await first.stop();
    const second = await start(statePath, "second-secret");
    expect((await call(second.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "first-secret" } })).status).toBe(401);
    expect((await tokenFor(second, "cdc-local", "second-secret")).accessToken).toBeTruthy();
    await second.stop();
  });

  it("refuses to start on a corrupt or foreign state file, leaving it untouched", async () => {
    const corrupt = join(dir, "corrupt.json");
    writeFileSync(corrupt, "{ not json");
    await expect(startEmulator({ port: 0, statePath: corrupt })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(corrupt, "utf8")).toBe("{ not json");
    const foreign = join(dir, "foreign.json");
    writeFileSync(foreign, JSON.stringify({ version: 9 }));
    await expect(startEmulator({ port: 0, statePath: foreign })).rejects.toThrow(/unsupported format/);
  });

  it("moves the system tags of a state file written before they had the platform's ids, and what carries them", async () => {
    const statePath = join(dir, "earlier-tags.json");
    const first = await start(statePath);
    const t = (await tokenFor(first)).accessToken;
    const src = (await call(first.url, "POST", "/sources", { token: t, body: { name: "tagged-src", connector: "postgresql", config: emulatorPgSourceConfig(), tags: ["670e5bab0d119c0d1f8cda9d"] } })).body;
    await first.stop();
    // Written back as an earlier emulator kept it: the system tags under its made-up ids.
    const earlier = { "670e5bab0d119c0d1f8cda9d": "00000000-0000-4000-8000-000000000001", "670e5ca40afe1d3983ce0c22": "00000000-0000-4000-8000-000000000002" };
    let text = readFileSync(statePath, "utf8");
    for (const [id, old] of Object.entries(earlier)) text = text.split(id).join(old);
    writeFileSync(statePath, text);

    const second = await start(statePath);
    const t2 = (await tokenFor(second)).accessToken;
    const tags = (await call(second.url, "GET", "/tags?tag_type=environment", { token: t2 })).body.tags as Array<{ id: string; name: string }>;
    expect(tags.map((tag) => [tag.id, tag.name])).toEqual([
      ["670e5bab0d119c0d1f8cda9d", "Production"],
      ["670e5ca40afe1d3983ce0c22", "Development"],
    ]);
    expect((await call(second.url, "GET", `/sources/${src.id}`, { token: t2 })).body.result[0].tags).toEqual(["670e5bab0d119c0d1f8cda9d"]);
    await second.stop();
  });

  it("keeps state in memory only when no state file is given", async () => {
    const a = await startEmulator({ port: 0 });
    running.push(a);
    const t = (await tokenFor(a)).accessToken;
    await call(a.url, "POST", "/tags", { token: t, body: { name: "ephemeral", type: ["sources"] } });
    await a.stop();
    const b = await startEmulator({ port: 0 });
    running.push(b);
    const t2 = (await tokenFor(b)).accessToken;
    expect((await call(b.url, "GET", "/tags?tag_name=ephemeral", { token: t2 })).body.total).toBe(0);
    await b.stop();
  });
});
