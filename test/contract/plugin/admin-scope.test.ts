import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceConnectorSchema } from "../../../provider/client/index.js";
import { pgSourceConfig } from "../../support/fixtures.js";
import { ConsoleClient, webClient } from "../../support/web.js";
import { checkRequest, configureRequest, createRequest, deleteRequest, plain, rejection, startPluginHarness, type PluginHarness } from "./harness.js";

// Issue 40, point 4, on the plugin host: Configure takes cdc:adminTenantId, and every call of the
// resources it serves then acts on that tenant; a service id without a tenant id is refused by
// Configure before any call.

const B = { clientId: "tenant-b", clientSecret: "tenant-b-secret" };

describe("the plugin's Configure with an admin scope", () => {
  let h: PluginHarness;
  let ownerB: ConsoleClient;
  beforeAll(async () => {
    h = await startPluginHarness({ configure: false, emulator: { tenants: [B], operators: ["cdc-local"] } });
    ownerB = webClient({ url: h.emulator.url, ...B });
  });
  afterAll(async () => {
    await ownerB?.close();
    await h?.close();
  });

  it("refuses a service id without a tenant id before any call", async () => {
    const before = h.emulator.stats().total;
    const err = await rejection(h.call("configure", configureRequest(h.emulator, { adminServiceId: "665e894ebb3753f38d983cef" })));
    expect(err.details).toContain("cdc:adminServiceId is set without cdc:adminTenantId");
    expect(h.emulator.stats().total).toBe(before);
  });

  it("creates, reads and deletes in the named tenant, never in the credential's own", async () => {
    const tenantB = h.emulator.tenantOf(B.clientId)!;
    await h.call("configure", configureRequest(h.emulator, { adminTenantId: tenantB.tenantId, adminServiceId: tenantB.serviceId }));
    const news = { name: "b-orders", connector: "postgresql", config: pgSourceConfig };
    const inputs = plain((await h.call("check", checkRequest("cdc:index:Source", "b-orders", news))).getInputs());
    const created = await h.call("create", createRequest("cdc:index:Source", "b-orders", inputs));
    const id = created.getId() as string;
    const inB = await ownerB.listAll("/sources", {}, sourceConnectorSchema);
    expect(inB.map((s) => [s.id, s.tenant_id])).toEqual([[id, tenantB.tenantId]]);
    expect(await h.console.listAll("/sources", {}, sourceConnectorSchema)).toEqual([]);
    await h.call("delete", deleteRequest("cdc:index:Source", "b-orders", id, plain(created.getProperties())));
    expect(await ownerB.listAll("/sources", {}, sourceConnectorSchema)).toEqual([]);
  });
});
