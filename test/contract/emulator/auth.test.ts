import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { call, expect422, expectDetail, manualClock, tokenFor, type Reply } from "./helpers.js";

const clock = manualClock();
let emu: RunningEmulator;
let admin: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock: clock.now, tokenTtlSeconds: 600, refreshTokenTtlSeconds: 7200 });
  admin = (await tokenFor(emu)).accessToken;
});
afterAll(async () => {
  await emu?.stop();
});

const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(emu.url, method, path, { token: admin, ...opts });

async function createCredential(roleIds: string[], description: string | null = "test credential") {
  const reply = await api("POST", "/auth/client-credentials", { body: { role_ids: roleIds, description } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { client_id: string; secret: string };
}

describe("POST /auth/access-token", () => {
  it("issues a token pair for the bootstrap credential, with expiresIn in seconds", async () => {
    const reply = await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(["accessToken", "expires", "expiresIn", "refreshToken"]);
    expect(reply.body.expiresIn).toBe(600);
    expect(reply.body.expires).toBe(new Date(clock.now() + 600_000).toISOString());
    expect(reply.body.accessToken).not.toBe(reply.body.refreshToken);
    const use = await call(emu.url, "GET", "/auth/roles", { token: reply.body.accessToken });
    expect(use.status).toBe(200);
  });

  it("answers 401 for a wrong secret or an unknown client id", async () => {
    expectDetail(await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "nope" } }), 401, /Invalid client credentials/);
    expectDetail(await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "ghost", secret: "cdc-local-secret" } }), 401);
  });

  it("needs no Authorization header and ignores a bad one", async () => {
    const reply = await call(emu.url, "POST", "/auth/access-token", {
      body: { client_id: "cdc-local", secret: "cdc-local-secret" },
      headers: { authorization: "Bearer garbage" },
    });
    expect(reply.status).toBe(200);
  });

  it("validates its body", async () => {
    expect422(
      await call(emu.url, "POST", "/auth/access-token", { body: {} }),
      { loc: ["body", "client_id"], type: "missing", msg: "Field required", input: {} },
      { loc: ["body", "secret"], type: "missing" },
    );
    expect422(await call(emu.url, "POST", "/auth/access-token", { body: { client_id: 7, secret: ["x"] } }),
      { loc: ["body", "client_id"], type: "string_type", input: 7 },
      { loc: ["body", "secret"], type: "string_type" },
    );
    expect422(await call(emu.url, "POST", "/auth/access-token", {}), { loc: ["body"], type: "missing" });
    expect422(await call(emu.url, "POST", "/auth/access-token", { rawBody: "null", headers: { "content-type": "application/json" } }), {
      loc: ["body"],
      type: "missing",
    });
    expect422(await call(emu.url, "POST", "/auth/access-token", { rawBody: '{"client_id": ', headers: { "content-type": "application/json" } }), {
      type: "json_invalid",
      msg: "JSON decode error",
    });
    expect422(await call(emu.url, "POST", "/auth/access-token", { body: ["cdc-local"] }), { loc: ["body"], type: "model_attributes_type" });
    expect422(
      await call(emu.url, "POST", "/auth/access-token", { rawBody: "client_id=cdc-local", headers: { "content-type": "text/plain" } }),
      { loc: ["body"], type: "model_attributes_type", input: "client_id=cdc-local" },
    );
  });

  it("reports the JSON error position in loc", async () => {
    const details = expect422(await call(emu.url, "POST", "/auth/access-token", { rawBody: '{"a":1,}', headers: { "content-type": "application/json" } }));
    expect(details[0]!.loc[0]).toBe("body");
    expect(typeof details[0]!.loc[1]).toBe("number");
    expect(details[0]!.ctx).toHaveProperty("error");
  });
});

describe("POST /auth/access-token/refresh", () => {
  it("rotates: the new pair works, the old refresh token is single use", async () => {
    const first = await tokenFor(emu);
    const refreshed = await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: first.refreshToken } });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(first.refreshToken);
    expect(refreshed.body.accessToken).not.toBe(first.accessToken);
    expect(refreshed.body.expiresIn).toBe(600);
    expect((await call(emu.url, "GET", "/auth/roles", { token: refreshed.body.accessToken })).status).toBe(200);

    expectDetail(await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: first.refreshToken } }), 401, /refresh token/);
    const again = await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: refreshed.body.refreshToken } });
    expect(again.status).toBe(200);
  });

  it("needs no Authorization header", async () => {
    const { refreshToken } = await tokenFor(emu);
    const reply = await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: refreshToken }, token: null });
    expect(reply.status).toBe(200);
  });

  it("rejects unknown and expired refresh tokens", async () => {
    expectDetail(await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: "cdc_rt_nope" } }), 401);
    const { refreshToken } = await tokenFor(emu);
    clock.advance(7200_000);
    try {
      expectDetail(await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: refreshToken } }), 401);
    } finally {
      admin = (await tokenFor(emu)).accessToken;
    }
  });

  it("validates its body", async () => {
    expect422(await call(emu.url, "POST", "/auth/access-token/refresh", { body: {} }), { loc: ["body", "refresh_token"], type: "missing" });
    expect422(await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: 1 } }), { loc: ["body", "refresh_token"], type: "string_type" });
    expect422(await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: "" } }), {
      loc: ["body", "refresh_token"],
      type: "string_too_short",
      ctx: { min_length: 1 },
    });
    expect422(await call(emu.url, "POST", "/auth/access-token/refresh", { rawBody: "{", headers: { "content-type": "application/json" } }), { type: "json_invalid" });
  });
});

describe("bearer authentication", () => {
  it("answers 401 with WWW-Authenticate for a missing, malformed or unknown token", async () => {
    const missing = await call(emu.url, "GET", "/sources");
    expectDetail(missing, 401, /Not authenticated/);
    expect(missing.headers.get("www-authenticate")).toBe("Bearer");
    for (const header of ["Token abc", "Bearer", "Basic Y2RjOnNlY3JldA==", "Bearer a b"]) {
      expectDetail(await call(emu.url, "GET", "/sources", { headers: { authorization: header } }), 401);
    }
    expectDetail(await call(emu.url, "GET", "/sources", { token: "cdc_at_not-a-real-token" }), 401, /Invalid or revoked/);
  });

  it("accepts the scheme case-insensitively", async () => {
    expect((await call(emu.url, "GET", "/sources", { headers: { authorization: `bearer ${admin}` } })).status).toBe(200);
  });

  it("expires access tokens when their TTL has elapsed", async () => {
    const { accessToken } = await tokenFor(emu);
    clock.advance(599_000);
    expect((await call(emu.url, "GET", "/sources", { token: accessToken })).status).toBe(200);
    clock.advance(1_000);
    try {
      expectDetail(await call(emu.url, "GET", "/sources", { token: accessToken }), 401, /expired/);
    } finally {
      admin = (await tokenFor(emu)).accessToken;
    }
  });

  it("revokes access and refresh tokens when their credential is deleted", async () => {
    const created = await createCredential(["role_editor"]);
    const tokens = await tokenFor(emu, created.client_id, created.secret);
    expect((await call(emu.url, "GET", "/sources", { token: tokens.accessToken })).status).toBe(200);
    expect((await api("DELETE", `/auth/client-credentials/${created.client_id}`)).status).toBe(200);
    expectDetail(await call(emu.url, "GET", "/sources", { token: tokens.accessToken }), 401);
    expectDetail(await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: tokens.refreshToken } }), 401);
    expectDetail(await call(emu.url, "POST", "/auth/access-token", { body: { client_id: created.client_id, secret: created.secret } }), 401);
  });

  it("guards every route except the two token routes", async () => {
    const routes: [string, string][] = [
      ["GET", "/auth/roles"],
      ["GET", "/auth/client-credentials"],
      ["POST", "/auth/client-credentials"],
      ["PATCH", "/auth/client-credentials/x"],
      ["DELETE", "/auth/client-credentials/x"],
      ["GET", "/sources"],
      ["POST", "/sources"],
      ["GET", "/sources/x"],
      ["PUT", "/sources/x"],
      ["DELETE", "/sources/x"],
      ["PUT", "/sources/x/pause"],
      ["PUT", "/sources/x/resume"],
      ["GET", "/destinations"],
      ["POST", "/destinations"],
      ["GET", "/destinations/x"],
      ["PUT", "/destinations/x"],
      ["DELETE", "/destinations/x"],
      ["PUT", "/destinations/x/stop"],
      ["PUT", "/destinations/x/pause"],
      ["PUT", "/destinations/x/resume"],
      ["GET", "/destinations/x/config-history/compare-to-original"],
      ["GET", "/tags"],
      ["POST", "/tags"],
      ["GET", "/tags/x"],
      ["PUT", "/tags/x"],
      ["DELETE", "/tags/x"],
      ["POST", "/logs/summary"],
      ["POST", "/agents/connections/http"],
      ["GET", "/agents/connections/http/x"],
      ["PATCH", "/agents/connections/http/x"],
      ["DELETE", "/agents/connections/http/x"],
      ["POST", "/agents/connections/llm"],
      ["GET", "/agents/connections/llm/x"],
      ["DELETE", "/agents/connections/llm/x"],
      ["POST", "/agents"],
      ["GET", "/agents"],
      ["GET", "/agents/x"],
      ["PATCH", "/agents/x"],
      ["DELETE", "/agents/x"],
      ["PUT", "/agents/x/deploy"],
      ["PUT", "/agents/x/cancel"],
    ];
    for (const [method, path] of routes) {
      const reply = await call(emu.url, method, path, method === "GET" || method === "DELETE" ? {} : { body: {} });
      expect(reply.status, `${method} ${path}`).toBe(401);
      expect(typeof reply.body.detail).toBe("string");
    }
  });
});

describe("client credentials", () => {
  it("returns the secret only at creation and masks it in the list", async () => {
    const reply = await api("POST", "/auth/client-credentials", {
      body: { role_ids: ["role_editor"], description: "ci deployer", service_id: "svc-1", created_from: "terraform" },
    });
    expect(reply.status).toBe(200);
    const created = reply.body;
    expect(created.secret).toMatch(/^cdcs_/);
    expect(created.client_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.description).toBe("ci deployer");
    expect(created.service_id).toBe("svc-1");
    expect(created.created_from).toBe("terraform");
    expect(typeof created.created_at).toBe("string");
    expect(created.roles).toEqual([
      expect.objectContaining({ id: "role_editor", key: "editor", permissions: expect.arrayContaining(["sources:write"]) }),
    ]);
    expect(Object.keys(created.created_by_user).sort()).toEqual(
      ["created_at", "email", "id", "last_login", "name", "phone_number", "profile_picture_url", "tenant_id"],
    );

    const list = await api("GET", "/auth/client-credentials");
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.text).not.toContain(created.secret);
    const listed = list.body.find((c: { client_id: string }) => c.client_id === created.client_id);
    // Masked as the platform masks it: the first and last three characters, never the rest.
    expect(listed.secret).toBe(`${created.secret.slice(0, 3)}******${created.secret.slice(-3)}`);
    expect(listed.roles[0].id).toBe("role_editor");

    const tokens = await tokenFor(emu, created.client_id, created.secret);
    expect(tokens.accessToken).toBeTruthy();
  });

  it("lists the bootstrap credential, which is usable and an admin", async () => {
    const list = await api("GET", "/auth/client-credentials");
    const bootstrap = list.body.find((c: { client_id: string }) => c.client_id === "cdc-local");
    expect(bootstrap).toBeDefined();
    expect(bootstrap.secret).toBe("cdc******ret");
    expect(bootstrap.roles.map((r: { key: string }) => r.key)).toEqual(["admin"]);
  });

  it("PATCH changes roles and description in place: same id, same secret, answered masked; never clears a description", async () => {
    const created = await createCredential(["role_viewer"], "first");
    const path = `/auth/client-credentials/${created.client_id}`;
    const reply = await api("PATCH", path, { body: { role_ids: ["role_editor"], description: "second" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ client_id: created.client_id, description: "second", roles: [expect.objectContaining({ id: "role_editor" })] });
    expect(reply.body.secret).toBe(`${created.secret.slice(0, 3)}******${created.secret.slice(-3)}`);
    const tokens = await tokenFor(emu, created.client_id, created.secret);
    expect((await call(emu.url, "POST", "/sources", { token: tokens.accessToken, body: {} })).status).toBe(422);

    // Roles alone keep the description; an empty description is nothing to change.
    expect((await api("PATCH", path, { body: { role_ids: ["role_viewer"], description: "" } })).body.description).toBe("second");
    expect((await api("PATCH", path, { body: { description: "third" } })).body).toMatchObject({ description: "third", roles: [expect.objectContaining({ id: "role_viewer" })] });
  });

  it("PATCH refuses an empty body, role_ids with permission_ids, unknown roles, and an unknown client id", async () => {
    const created = await createCredential(["role_viewer"]);
    const path = `/auth/client-credentials/${created.client_id}`;
    expect422(await api("PATCH", path, { body: {} }), { loc: ["body"], type: "value_error" });
    expect422(await api("PATCH", path, { body: { description: "" } }), { loc: ["body"], type: "value_error" });
    expect422(await api("PATCH", path, { body: { role_ids: ["role_viewer"], permission_ids: ["sources:read"] } }), { loc: ["body"], type: "value_error" });
    expect422(await api("PATCH", path, { body: { role_ids: [] } }), { loc: ["body", "role_ids"], type: "too_short" });
    expect422(await api("PATCH", path, { body: { role_ids: ["role_nope"] } }), { loc: ["body", "role_ids", 0], type: "value_error" });
    expectDetail(await api("PATCH", "/auth/client-credentials/cdc-nope", { body: { role_ids: ["role_viewer"] } }), 404, /not found/);
  });

  it("defaults created_from to api and keeps an explicit null", async () => {
    const a = await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_viewer"] } });
    expect(a.body.created_from).toBe("api");
    expect(a.body.description).toBeNull();
    const b = await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_viewer"], created_from: null } });
    expect(b.body.created_from).toBeNull();
  });

  it("validates role_ids, description, permission_ids and created_from", async () => {
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: [] } }), {
      loc: ["body", "role_ids"],
      type: "too_short",
      msg: "List should have at least 1 item after validation, not 0",
      input: [],
      ctx: { field_type: "List", min_length: 1, actual_length: 0 },
    });
    expect422(await api("POST", "/auth/client-credentials", { body: {} }), { loc: ["body", "role_ids"], type: "missing" });
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: "role_admin" } }), { loc: ["body", "role_ids"], type: "list_type" });
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: [3] } }), { loc: ["body", "role_ids", 0], type: "string_type" });
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_admin", "role_root"] } }), {
      loc: ["body", "role_ids", 1],
      type: "value_error",
      input: "role_root",
    });
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_admin"], description: 5 } }), {
      loc: ["body", "description"],
      type: "string_type",
    });
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_admin"], permission_ids: ["sources:fly"] } }), {
      loc: ["body", "permission_ids", 0],
      type: "value_error",
    });
    expect422(await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_admin"], created_from: "pulumi" } }), {
      loc: ["body", "created_from"],
      type: "enum",
      msg: "Input should be 'web', 'api' or 'terraform'",
      input: "pulumi",
      ctx: { expected: "'web', 'api' or 'terraform'" },
    });
    expect422(await api("POST", "/auth/client-credentials", { rawBody: "[", headers: { "content-type": "application/json" } }), { type: "json_invalid" });
  });

  it("deletes a credential once; a second delete is 404", async () => {
    const created = await createCredential(["role_viewer"]);
    const del = await api("DELETE", `/auth/client-credentials/${created.client_id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ client_id: created.client_id, deleted: true });
    expectDetail(await api("DELETE", `/auth/client-credentials/${created.client_id}`), 404);
    const list = await api("GET", "/auth/client-credentials");
    expect(list.body.some((c: { client_id: string }) => c.client_id === created.client_id)).toBe(false);
    expect422(await api("DELETE", `/auth/client-credentials/${"x".repeat(200)}`), { loc: ["path", "client_id"], type: "string_too_long" });
  });
});

describe("roles and permissions", () => {
  it("lists the fixed role catalogue", async () => {
    const reply = await api("GET", "/auth/roles");
    expect(reply.status).toBe(200);
    expect(reply.body.map((r: { key: string }) => r.key)).toEqual(["admin", "editor", "viewer"]);
    for (const role of reply.body) {
      expect(Object.keys(role).sort()).toEqual(["created_at", "description", "id", "key", "name", "permissions", "updated_at"]);
      expect(role.permissions.length).toBeGreaterThan(0);
    }
  });

  it("answers 403 when the caller's roles lack the permission", async () => {
    const viewer = await createCredential(["role_viewer"]);
    const editor = await createCredential(["role_editor"]);
    const viewerToken = (await tokenFor(emu, viewer.client_id, viewer.secret)).accessToken;
    const editorToken = (await tokenFor(emu, editor.client_id, editor.secret)).accessToken;
    expect((await call(emu.url, "GET", "/sources", { token: viewerToken })).status).toBe(200);
    expectDetail(await call(emu.url, "POST", "/tags", { token: viewerToken, body: { name: "t", type: ["sources"] } }), 403, /tags:write/);
    expectDetail(await call(emu.url, "GET", "/auth/client-credentials", { token: viewerToken }), 403);
    expectDetail(await call(emu.url, "POST", "/auth/client-credentials", { token: editorToken, body: { role_ids: ["role_admin"] } }), 403);
    expect((await call(emu.url, "GET", "/auth/roles", { token: viewerToken })).status).toBe(200);
  });

  it("adds permission_ids to what the roles grant", async () => {
    const reply = await api("POST", "/auth/client-credentials", { body: { role_ids: ["role_viewer"], permission_ids: ["tags:write"] } });
    const token = (await tokenFor(emu, reply.body.client_id, reply.body.secret)).accessToken;
    const tag = await call(emu.url, "POST", "/tags", { token, body: { name: `perm-${Date.now()}`, type: ["sources"] } });
    expect(tag.status, tag.text).toBe(200);
  });
});

describe("request ids, unknown routes and methods", () => {
  const isUuid = (s: string | null) => /^[0-9a-f-]{36}$/.test(s ?? "");

  it("echoes x-request-id, or generates one, on every kind of answer", async () => {
    const echoed = await call(emu.url, "GET", "/auth/roles", { token: admin, headers: { "x-request-id": "req-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("req-123");
    const replies: Reply[] = [
      await call(emu.url, "GET", "/auth/roles", { token: admin }),
      await call(emu.url, "GET", "/sources"),
      await call(emu.url, "GET", "/no/such/route"),
      await api("POST", "/tags", { body: {} }),
    ];
    const ids = replies.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(isUuid(id)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const err401 = await call(emu.url, "GET", "/sources", { headers: { "x-request-id": "abc-401" } });
    expect(err401.headers.get("x-request-id")).toBe("abc-401");
  });

  it("answers unknown routes with 404 Not Found, without asking for a token", async () => {
    const reply = await call(emu.url, "GET", "/nothing-here");
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: "Not Found" });
    expect((await api("POST", "/sources/a/b/c", { body: {} })).body).toEqual({ detail: "Not Found" });
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const reply = await api("PATCH", "/sources", { body: {} });
    expect(reply.status).toBe(405);
    expect(reply.body).toEqual({ detail: "Method Not Allowed" });
    expect(reply.headers.get("allow")).toContain("GET");
    expect(reply.headers.get("allow")).toContain("POST");
  });

  it("answers oversized bodies with 413, forbidden keys with 400 and bad content types with 415", async () => {
    expectDetail(await api("POST", "/tags", { rawBody: JSON.stringify({ name: "x".repeat(1_100_000) }), headers: { "content-type": "application/json" } }), 413);
    expectDetail(await api("POST", "/tags", { rawBody: '{"name":"t","type":["source"],"__proto__":{"admin":true}}', headers: { "content-type": "application/json" } }), 400, /__proto__/);
    expectDetail(await api("POST", "/tags", { rawBody: "{}", headers: { "content-type": "/" } }), 415);
  });

  it("counts token requests separately from refreshes", async () => {
    emu.resetStats();
    const t = await tokenFor(emu);
    await call(emu.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "wrong" } });
    await call(emu.url, "POST", "/auth/access-token/refresh", { body: { refresh_token: t.refreshToken } });
    await call(emu.url, "GET", "/auth/roles", { token: t.accessToken });
    const stats = emu.stats();
    expect(stats.tokenRequests).toEqual({ accessToken: 2, refresh: 1 });
    expect(stats.tokensIssued).toEqual({ accessToken: 1, refresh: 1 });
    expect(stats.requests["GET /auth/roles"]).toBe(1);
    expect(stats.requests["POST /auth/access-token"]).toBe(2);
    expect(stats.total).toBe(4);
  });
});
