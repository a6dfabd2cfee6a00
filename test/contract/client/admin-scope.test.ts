import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { anyJsonSchema, AuthError, CdcClient, getClient, resetClients, resolveSettings, type CdcSettings } from "../../../provider/client/index.js";
import { emulatorPgSourceConfig } from "../../support/fixtures.js";
import { CLIENT_ID, CLIENT_SECRET, sendJson, type SeenRequest } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

// Issue 40, point 4: the admin scope goes on every request of the one request core, the token
// requests included (the vendor's provider sends it on its token request too), spelled as the
// vendor spells it; without it nothing is sent; and the emulator acts on the named tenant.

const TENANT = "665e894ebb3753f38d983cee";
const SERVICE = "665e894ebb3753f38d983cef";
const ok = z.looseObject({ ok: z.boolean() });

let h: Harness | undefined;
let emu: RunningEmulator | undefined;
const clients: CdcClient[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await h?.close();
  h = undefined;
  await emu?.stop();
  emu = undefined;
  await resetClients();
});

const scope = (r: SeenRequest) => ({
  tenant: r.headers["x-admin-tenant-id"],
  service: r.headers["x-admin-service-id"],
  spelled: r.rawHeaderNames.filter((n) => /^x-admin-/i.test(n)).sort(),
});

describe("the admin scope on the wire", () => {
  it("is on every request: the token exchange, the refresh, each call and the replay after a 401", async () => {
    h = await startHarness({ expiresIn: 3600 });
    const client = h.makeClient({
      settings: { apiUrl: h.api.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, createdFrom: "terraform", adminTenantId: TENANT, adminServiceId: SERVICE },
    });
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    h.api.route("POST", "/things", ({ res }) => sendJson(res, 200, { ok: true }));
    await client.get("/ping", { schema: ok });
    await client.post("/things", { body: { name: "x" }, schema: ok });
    // Near expiry: the refresh.
    h.clock.now += 56 * 60_000;
    await client.get("/ping", { schema: ok });
    // The server forgets the token: a 401, a new token, the replay.
    h.api.validTokens.clear();
    await client.get("/ping", { schema: ok });

    expect(h.api.requestsTo("POST", "/auth/access-token").length).toBe(1);
    // The one before expiry, and the renewal after the 401.
    expect(h.api.requestsTo("POST", "/auth/access-token/refresh").length).toBe(2);
    // Three pings and the replay of the refused one.
    expect(h.api.requestsTo("GET", "/ping").length).toBe(4);
    expect(h.api.requests.length).toBe(8);
    for (const r of h.api.requests) {
      expect(scope(r), `${r.method} ${r.path}`).toEqual({ tenant: TENANT, service: SERVICE, spelled: ["X-Admin-Service-Id", "X-Admin-Tenant-Id"] });
    }
  });

  it("carries the tenant alone when only it is set, and nothing without a scope", async () => {
    h = await startHarness();
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    const tenantOnly = h.makeClient({ settings: { apiUrl: h.api.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, createdFrom: "terraform", adminTenantId: TENANT } });
    await tenantOnly.get("/ping", { schema: ok });
    for (const r of h.api.requests) expect(scope(r)).toEqual({ tenant: TENANT, service: undefined, spelled: ["X-Admin-Tenant-Id"] });
    h.api.requests.length = 0;
    await h.client.get("/ping", { schema: ok });
    for (const r of h.api.requests) expect(scope(r)).toEqual({ tenant: undefined, service: undefined, spelled: [] });
  });

  it("keeps one shared client per scope: a run on two tenants never mixes their headers", () => {
    const base = { CDC_CLIENT_ID: "id", CDC_CLIENT_SECRET: "secret" };
    const own = getClient(resolveSettings({}, base));
    const scoped = getClient(resolveSettings({}, { ...base, CDC_ADMIN_TENANT_ID: TENANT }));
    expect(scoped).not.toBe(own);
    expect(getClient(resolveSettings({}, { ...base, CDC_ADMIN_TENANT_ID: TENANT }))).toBe(scoped);
    expect(getClient(resolveSettings({}, { ...base, CDC_ADMIN_TENANT_ID: TENANT, CDC_ADMIN_SERVICE_ID: SERVICE }))).not.toBe(scoped);
  });
});

describe("the admin scope against the emulator", () => {
  const B = { clientId: "tenant-b", clientSecret: "tenant-b-secret" };
  const listed = z.looseObject({ result: z.array(z.looseObject({ id: z.string(), tenant_id: z.string() })) });
  const client = (settings: Omit<CdcSettings, "apiUrl" | "createdFrom">) => {
    const c = new CdcClient({ settings: { apiUrl: emu!.url, createdFrom: "terraform", ...settings } });
    clients.push(c);
    return c;
  };

  it("an operator's client acts on the named tenant; any other credential's is refused with the API's 403", async () => {
    emu = await startEmulator({ port: 0, tenants: [B], operators: ["cdc-local"] });
    const { tenantId, serviceId } = emu.tenantOf(B.clientId)!;
    const owner = client({ clientId: B.clientId, clientSecret: B.clientSecret });
    const made = z.looseObject({ id: z.string(), tenant_id: z.string() }).parse(
      await owner.post("/sources", { schema: anyJsonSchema, body: { name: "b-orders", connector: "postgresql", config: emulatorPgSourceConfig(), created_from: "terraform" } }),
    );
    expect(made.tenant_id).toBe(tenantId);

    const operator = client({ clientId: emu.clientId, clientSecret: emu.clientSecret, adminTenantId: tenantId, adminServiceId: serviceId });
    const seen = await operator.get("/sources", { schema: listed });
    expect(seen.result.map((s) => [s.id, s.tenant_id])).toEqual([[made.id, tenantId]]);
    const own = client({ clientId: emu.clientId, clientSecret: emu.clientSecret });
    expect((await own.get("/sources", { schema: listed })).result).toEqual([]);

    const intruder = client({ clientId: B.clientId, clientSecret: B.clientSecret, adminTenantId: emu.tenantId });
    const error = await intruder.get("/sources", { schema: anyJsonSchema }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).status).toBe(403);
    expect((error as AuthError).message).toContain("are for platform operators");
    expect((error as AuthError).requestId).toBeTruthy();
  });
});
