import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { emulatorPgSourceConfig } from "../../support/fixtures.js";
import { call, expectDetail, tokenFor, uniqueName, type CallOptions } from "./helpers.js";

// Issue 40, point 4: tenants and the admin scope. Two tenants (the bootstrap credential's and
// "tenant-b"'s), the bootstrap credential a platform operator: it acts on tenant B's objects with
// X-Admin-Tenant-Id; any other credential sending it gets a 403; neither tenant sees the other's.

const B = { clientId: "tenant-b", clientSecret: "tenant-b-secret" };
let emu: RunningEmulator;
let operator: string;
let ownerB: string;
let tenantB: { tenantId: string; serviceId: string };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tenants: [B], operators: ["cdc-local"] });
  operator = (await tokenFor(emu)).accessToken;
  ownerB = (await tokenFor(emu, B.clientId, B.clientSecret)).accessToken;
  tenantB = emu.tenantOf(B.clientId)!;
});
afterAll(async () => {
  await emu?.stop();
});

const as = (token: string, method: string, path: string, opts: CallOptions = {}) => call(emu.url, method, path, { token, ...opts });
const scopeB = (extra: Record<string, string> = {}) => ({ "X-Admin-Tenant-Id": tenantB.tenantId, ...extra });

async function createSource(token: string, name: string, headers: Record<string, string> = {}) {
  const reply = await as(token, "POST", "/sources", { headers, body: { name, connector: "postgresql", config: emulatorPgSourceConfig() } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { id: string; name: string; tenant_id: string; service_id: string };
}

const sourceIds = async (token: string, headers: Record<string, string> = {}) => {
  const reply = await as(token, "GET", "/sources?page_size=100", { headers });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.result as Array<{ id: string }>).map((s) => s.id);
};

describe("tenants", () => {
  it("each has ids of the platform's shape, its own, and its credentials sign in with no tenant named", () => {
    expect(emu.tenantId).toMatch(/^[0-9a-f]{24}$/);
    expect(tenantB.tenantId).toMatch(/^[0-9a-f]{24}$/);
    expect(tenantB.serviceId).toMatch(/^[0-9a-f]{24}$/);
    expect(tenantB.tenantId).not.toBe(emu.tenantId);
    expect(emu.tenantOf("cdc-local")!.tenantId).toBe(emu.tenantId);
    expect(emu.tenantOf("nobody")).toBeUndefined();
  });

  it("see only their own objects: a list, a read by id, a name taken in the other", async () => {
    const name = uniqueName("isolated");
    const inB = await createSource(ownerB, name);
    expect(inB.tenant_id).toBe(tenantB.tenantId);
    expect(inB.service_id).toBe(tenantB.serviceId);
    expect(await sourceIds(ownerB)).toContain(inB.id);
    expect(await sourceIds(operator)).not.toContain(inB.id);
    const read = await as(operator, "GET", `/sources/${inB.id}`);
    expect(read.status === 404 || (read.status === 200 && read.body.result.length === 0), read.text).toBe(true);
    expectDetail(await as(operator, "DELETE", `/sources/${inB.id}`), 404);
    // Names are unique per tenant: the same name in the first tenant is no conflict.
    const inA = await createSource(operator, name);
    expect(inA.tenant_id).toBe(emu.tenantId);
    expect(await sourceIds(ownerB)).not.toContain(inA.id);
  });

  it("keep their credentials apart: each lists its own", async () => {
    const listed = async (token: string, headers: Record<string, string> = {}) =>
      ((await as(token, "GET", "/auth/client-credentials", { headers })).body as Array<{ client_id: string }>).map((c) => c.client_id);
    expect(await listed(ownerB)).toEqual([B.clientId]);
    expect(await listed(operator)).toContain("cdc-local");
    expect(await listed(operator)).not.toContain(B.clientId);
    expect(await listed(operator, scopeB())).toEqual([B.clientId]);
  });
});

describe("the admin scope (X-Admin-Tenant-Id, X-Admin-Service-Id)", () => {
  it("lets an operator read, create, change and delete the named tenant's objects, and only those", async () => {
    const own = await createSource(ownerB, uniqueName("owned"));
    expect(await sourceIds(operator, scopeB())).toContain(own.id);
    const made = await createSource(operator, uniqueName("by-operator"), scopeB());
    expect(made.tenant_id).toBe(tenantB.tenantId);
    expect(await sourceIds(ownerB)).toContain(made.id);
    expect(await sourceIds(operator)).not.toContain(made.id);
    const renamed = await as(operator, "PUT", `/sources/${made.id}`, {
      headers: scopeB(),
      body: { name: `${made.name}-2`, connector: "postgresql", config: emulatorPgSourceConfig() },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await as(ownerB, "GET", `/sources/${made.id}`)).body.result[0].name).toBe(`${made.name}-2`);
    expect((await as(operator, "DELETE", `/sources/${made.id}`, { headers: scopeB() })).status).toBe(200);
    expect(await sourceIds(ownerB)).not.toContain(made.id);
  });

  it("takes the tenant's own service id, and refuses another with a 403 naming it", async () => {
    expect((await as(operator, "GET", "/sources", { headers: scopeB({ "X-Admin-Service-Id": tenantB.serviceId }) })).status).toBe(200);
    const other = "0123456789abcdef01234567";
    expectDetail(
      await as(operator, "GET", "/sources", { headers: scopeB({ "X-Admin-Service-Id": other }) }),
      403,
      new RegExp(`service '${other}' is not a service of tenant '${tenantB.tenantId}'`),
    );
  });

  it("refuses an unknown tenant with a 403, never a 404 a client could take for a deleted object", async () => {
    const ghost = "0123456789abcdef01234567";
    expectDetail(await as(operator, "GET", "/sources", { headers: { "X-Admin-Tenant-Id": ghost } }), 403, new RegExp(`tenant '${ghost}' does not exist`));
    expectDetail(await as(operator, "GET", `/sources/${ghost}`, { headers: { "X-Admin-Tenant-Id": ghost } }), 403);
  });

  it("refuses it with a 403 to any credential that is not an operator, a tenant's admin included", async () => {
    const detail = /X-Admin-Tenant-Id and X-Admin-Service-Id are for platform operators; client 'tenant-b' may act on its own tenant only/;
    expectDetail(await as(ownerB, "GET", "/sources", { headers: { "X-Admin-Tenant-Id": emu.tenantId } }), 403, detail);
    // Even naming its own tenant, and on a write: nothing is made.
    expectDetail(await as(ownerB, "GET", "/sources", { headers: scopeB() }), 403, detail);
    const before = await sourceIds(ownerB);
    const write = await as(ownerB, "POST", "/sources", {
      headers: { "X-Admin-Tenant-Id": emu.tenantId },
      body: { name: uniqueName("refused"), connector: "postgresql", config: emulatorPgSourceConfig() },
    });
    expectDetail(write, 403, detail);
    expect(await sourceIds(ownerB)).toEqual(before);
    // A credential the operator's tenant made itself is no operator either.
    const made = await as(operator, "POST", "/auth/client-credentials", { body: { role_ids: ["role_admin"], description: "not an operator" } });
    const token = (await tokenFor(emu, made.body.client_id, made.body.secret)).accessToken;
    expectDetail(await as(token, "GET", "/sources", { headers: scopeB() }), 403, /are for platform operators/);
  });

  it("ignores a service id sent without a tenant id, as the service does: the request runs on the caller's own tenant", async () => {
    const own = await sourceIds(ownerB);
    expect(await sourceIds(ownerB, { "X-Admin-Service-Id": emu.tenantOf("cdc-local")!.serviceId })).toEqual(own);
  });

  it("leaves the token routes alone: headers sent along with a token request are ignored", async () => {
    const reply = await call(emu.url, "POST", "/auth/access-token", { headers: scopeB(), body: { client_id: B.clientId, secret: B.clientSecret } });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe("tenants across a restart on a state file", () => {
  it("keep their ids, credentials and objects", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cdc-tenants-"));
    try {
      const statePath = join(dir, "state.json");
      const first = await startEmulator({ port: 0, statePath, tenants: [B] });
      const ids = first.tenantOf(B.clientId)!;
      const token = (await tokenFor(first, B.clientId, B.clientSecret)).accessToken;
      const made = await call(first.url, "POST", "/sources", { token, body: { name: uniqueName("kept"), connector: "postgresql", config: emulatorPgSourceConfig() } });
      expect(made.status, made.text).toBe(200);
      await first.stop();
      const second = await startEmulator({ port: 0, statePath, tenants: [B] });
      try {
        expect(second.tenantOf(B.clientId)).toEqual(ids);
        expect(second.tenantId).toBe(first.tenantId);
        const again = (await tokenFor(second, B.clientId, B.clientSecret)).accessToken;
        const listed = await call(second.url, "GET", "/sources", { token: again });
        expect((listed.body.result as Array<{ id: string }>).map((s) => s.id)).toEqual([made.body.id]);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
