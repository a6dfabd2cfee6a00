import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, uniqueName, type Session } from "./helpers.js";

// The backend contract of API sources (README.md, "API sources") over real HTTP.
let s: Session;
beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

async function create(connector: string, config: Record<string, unknown>) {
  const reply = await s.api("POST", "/sources?secret_returned=true&wait=false", { body: { name: uniqueName(connector), connector, config } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const put = (id: string, body: Record<string, unknown>) => s.api("PUT", `/sources/${id}?secret_returned=true&wait=false`, { body });
const get = async (id: string) => (await s.api("GET", `/sources/${id}?secret_returned=true`)).body.result[0];

describe("API sources", () => {
  it("store the config stringified, only the keys sent, after the vendor's normalisations; answer Pending with a cluster and a topic per resource", async () => {
    const src = await create("google_ads", { resources: ["campaign", "customer"], auth_mode: "service_account", service_account_key: "{}", customer_id: "123-456-7890", include_client_accounts: true, conversion_window_days: 45 });
    expect(src.connector_status).toBe("Pending");
    expect(src.kc_cluster_id).toMatch(/^api-cluster-/);
    expect(src.config).toEqual({ resources: "campaign,customer", auth_mode: "service_account", service_account_key: "{}", customer_id: "1234567890", include_client_accounts: "true", conversion_window_days: "45" });
    expect(src.topic_ids).toEqual([`source_${src.id}.google_ads.campaign`, `source_${src.id}.google_ads.customer`]);
    const fb = await create("facebook_ads", { resources: ["ads"], account_id: "act_99", access_token: "t" });
    expect(fb.config.account_id).toBe("99");
    const ga = await create("google_analytics", { resources: ["devices"], property_id: "1", service_account_key: "{}", backfill_start: "2026-01-01" });
    expect(ga.config.backfill_start).toBe("2026-01-01T00:00:00+00:00");
  });

  it("an update replaces the config but keeps an omitted secret; null clears one; kc_cluster_id is refused", async () => {
    const src = await create("facebook_ads", { resources: ["ads"], account_id: "1", access_token: "tok", app_id: "42", app_secret: "shh", include_deleted: true });
    const kept = await put(src.id, { name: src.name, connector: "facebook_ads", config: { resources: ["ads", "campaigns"], account_id: "1", app_id: "42" } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.config).toEqual({ resources: "ads,campaigns", account_id: "1", app_id: "42", access_token: "tok", app_secret: "shh" });
    const cleared = await put(src.id, { name: src.name, connector: "facebook_ads", config: { resources: ["ads"], account_id: "1", app_secret: null } });
    expect(cleared.body.config).toEqual({ resources: "ads", account_id: "1", access_token: "tok" });
    const refused = await put(src.id, { name: src.name, connector: "facebook_ads", config: { resources: ["ads"], account_id: "1", kc_cluster_id: "mine" } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ["body", "config", "kc_cluster_id"], type: "extra_forbidden" });
  });

  it("consume oauth_grant_id: never stored or echoed, refused when spent; a mode switch drops the other mode's secrets", async () => {
    const src = await create("google_ads", { resources: ["campaign"], auth_mode: "service_account", service_account_key: "{}", customer_id: "1" });
    const base = { name: src.name, connector: "google_ads" };
    const oauth = { resources: ["campaign"], auth_mode: "oauth", customer_id: "1", client_id: "c", client_secret: "cs" };
    const connected = await put(src.id, { ...base, config: { ...oauth, oauth_grant_id: "grant-1" } });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.body.config).not.toHaveProperty("oauth_grant_id");
    expect(connected.body.config).not.toHaveProperty("service_account_key");
    expect((await get(src.id)).config).toEqual({ resources: "campaign", auth_mode: "oauth", customer_id: "1", client_id: "c", client_secret: "cs" });
    const again = await put(src.id, { ...base, config: { ...oauth, oauth_grant_id: "grant-1" } });
    expect(again.status).toBe(422);
    expect(again.body.detail[0].msg).toMatch(/oauth_grant_id has already been used/);
    expect(again.text).not.toContain("grant-1");
    const noGrant = await s.api("POST", "/sources", { body: { name: uniqueName("zd"), connector: "zendesk", config: { resources: ["tickets"], subdomain: "acme" } } });
    expect(noGrant.status).toBe(422);
    expect(noGrant.body.detail[0].loc).toEqual(["body", "config", "oauth_grant_id"]);
  });

  it("answer a save with a connection warning when a selected resource has no data yet, and not otherwise", async () => {
    const warned = await create("hubspot", { resources: ["contacts", "nodata_tickets"], token: "t" });
    expect(warned.connection_warning).toBe("nodata_tickets: the account has no data for this resource yet");
    const quiet = await create("hubspot", { resources: ["contacts"], token: "t" });
    expect(quiet).not.toHaveProperty("connection_warning");
    expect((await get(warned.id))).not.toHaveProperty("connection_warning");
  });
});
