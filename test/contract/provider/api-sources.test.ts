// API sources (catalogue family "api") through the provider against the emulator over real HTTP,
// every request seen through a recording proxy: what create and update send, the secrets they
// keep, clear and never resend, the plan-time checks, the warning and the drift of a normalised echo.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { configure, resetClients, sourceConnectorSchema } from "../../../provider/client/index.js";
import { setDriftSink } from "../../../provider/drift.js";
import { ConnectorProvider, SOURCE, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { startRecordingProxy, type RecordingProxy } from "../../support/recording-proxy.js";
import { ConsoleClient } from "../../support/web.js";

const sources = new ConnectorProvider(SOURCE);
let emulator: RunningEmulator;
let proxy: RecordingProxy;
let web: ConsoleClient;
const said: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  proxy = await startRecordingProxy(emulator.url);
  configure({ "cdc:apiUrl": proxy.url, "cdc:clientId": emulator.clientId, "cdc:clientSecret": emulator.clientSecret }, {});
  web = new ConsoleClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "web" } });
  setDriftSink((text) => said.push(text));
});
afterAll(async () => {
  setDriftSink((text) => process.stderr.write(text));
  await web?.close();
  await resetClients();
  await proxy?.stop();
  await emulator?.stop();
});

function sent(method: "POST" | "PUT") {
  const seen = proxy.requests.filter((r) => r.method === method && /^\/sources(\/[0-9a-f]+)?$/.test(r.path));
  expect(seen.length, `${method} was sent`).toBeGreaterThan(0);
  return (seen.at(-1)!.body as { config: Record<string, unknown> }).config;
}

async function checked(news: Record<string, unknown>, olds: Partial<ConnectorInputs> = {}) {
  const { inputs, failures } = await sources.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as ConnectorInputs;
}

async function failuresOf(news: Record<string, unknown>, olds: Partial<ConnectorInputs> = {}) {
  return (await sources.check(olds, news)).failures.map((f) => `${f.property} ${f.reason}`);
}

const live = async (id: string) => (await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!;

describe("an API source's writes", () => {
  it("HubSpot: create sends only what the program set (no defaults, no kc_cluster_id), the stringified echo shows no diff, and a console edit is drift", async () => {
    const inputs = await checked({ logicalName: "hs", connector: "hubspot", config: { resources: ["contacts", "deals"], token: "pat-secret-1", sync_all_properties: false, properties: ["email", "firstname"] } });
    const { id, outs } = await sources.create(inputs);
    expect(sent("POST")).toEqual({ resources: ["contacts", "deals"], token: "pat-secret-1", sync_all_properties: false, properties: ["email", "firstname"] });
    expect(outs.status).toBe("Pending");
    expect(JSON.stringify(outs)).not.toContain("pat-secret-1");
    expect((await live(id)).config).toEqual({ resources: "contacts,deals", token: "********", sync_all_properties: "false", properties: "email,firstname" });
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });
    expect((await sources.read(id, outs)).props).toMatchObject({ drift: { detected: false } });

    await web.put("/sources/{id}", { params: { id }, body: { name: inputs.name, connector: "hubspot", config: { resources: ["contacts"], sync_all_properties: "true" } }, schema: sourceConnectorSchema });
    const diff = await sources.diff(id, outs, inputs);
    expect(diff).toMatchObject({ changes: true });
    expect(diff.diffs).toEqual(expect.arrayContaining(['config["properties"]', 'config["resources"]', 'config["sync_all_properties"]']));
    await sources.delete(id);
  });

  it("Facebook Ads: the act_ prefix the service strips is no drift; an update leaves the unchanged token out, and a secret set to null is cleared", async () => {
    const config = { resources: ["campaigns"], account_id: "act_1234567890", account_ids: ["act_1", "2"], access_token: "EAAB-1", app_id: "42", app_secret: "shh" };
    const inputs = await checked({ logicalName: "fb", connector: "facebook_ads", config });
    const { id, outs } = await sources.create(inputs);
    expect((await live(id)).config).toMatchObject({ account_id: "1234567890", account_ids: "1,2" });
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });

    const news = await checked({ logicalName: "fb", connector: "facebook_ads", config: { ...config, resources: ["campaigns", "ads"] } }, inputs);
    const updated = await sources.update(id, outs, news);
    const body = sent("PUT");
    expect(body).not.toHaveProperty("access_token");
    expect(body).not.toHaveProperty("app_secret");
    expect(body).toMatchObject({ resources: ["campaigns", "ads"], account_id: "act_1234567890", app_id: "42" });
    expect(Object.keys((await live(id)).config!)).toContain("access_token");

    // Left out: kept (not sent, no change); null: cleared.
    const { access_token: _kept, ...withoutToken } = config;
    const leftOut = await checked({ logicalName: "fb", connector: "facebook_ads", config: withoutToken }, news);
    expect(await sources.diff(id, updated.outs, leftOut)).toMatchObject({ changes: true, diffs: ['config["resources"]'] });
    const clear = await checked({ logicalName: "fb", connector: "facebook_ads", config: { ...config, resources: ["campaigns", "ads"], app_id: null, app_secret: null } }, news);
    expect(await sources.diff(id, updated.outs, clear)).toMatchObject({ changes: true });
    const cleared = await sources.update(id, updated.outs, clear);
    expect(sent("PUT")).toMatchObject({ app_secret: null });
    expect(sent("PUT")).not.toHaveProperty("access_token");
    expect((await live(id)).config).not.toHaveProperty("app_secret");
    expect((await live(id)).config).toHaveProperty("access_token", "********");
    expect(await sources.diff(id, cleared.outs, clear)).toMatchObject({ changes: false });
    await sources.delete(id);
  });

  it("Google Ads: a new oauth_grant_id is an update, a spent one is never sent again nor drift; a mode switch resends the new mode's secrets", async () => {
    const base = { resources: ["campaign"], customer_id: "123-456-7890" };
    const sa = await checked({ logicalName: "ads", connector: "google_ads", config: { ...base, auth_mode: "service_account", service_account_key: '{"type":"service_account"}' } });
    const { id, outs } = await sources.create(sa);
    expect((await live(id)).config).toMatchObject({ customer_id: "1234567890" });
    expect(await sources.diff(id, outs, sa)).toMatchObject({ changes: false });

    const oauth = await checked({ logicalName: "ads", connector: "google_ads", config: { ...base, auth_mode: "oauth", client_id: "client", client_secret: "cs", oauth_grant_id: "grant-1" } }, sa);
    expect(await sources.diff(id, outs, oauth)).toMatchObject({ changes: true });
    const connected = await sources.update(id, outs, oauth);
    expect(sent("PUT")).toMatchObject({ auth_mode: "oauth", oauth_grant_id: "grant-1", client_secret: "cs" });
    expect(JSON.stringify(connected.outs)).not.toContain("grant-1");
    const stored = (await live(id)).config!;
    expect(stored).not.toHaveProperty("oauth_grant_id");
    expect(stored).not.toHaveProperty("service_account_key");
    // The spent grant, still in the program: no change, no drift.
    expect(await sources.diff(id, connected.outs, oauth)).toMatchObject({ changes: false });
    const more = await checked({ ...oauth, config: { ...oauth.config, login_customer_id: "111-222-3333" } }, oauth);
    const later = await sources.update(id, connected.outs, more);
    expect(sent("PUT")).not.toHaveProperty("oauth_grant_id");
    expect(sent("PUT")).not.toHaveProperty("client_secret");
    expect(await sources.diff(id, later.outs, more)).toMatchObject({ changes: false });
    // A new grant is a change, and is sent.
    const regrant = await checked({ ...more, config: { ...more.config, oauth_grant_id: "grant-2" } }, more);
    expect(await sources.diff(id, later.outs, regrant)).toMatchObject({ changes: true, diffs: ['config["oauth_grant_id"]'] });
    await sources.update(id, later.outs, regrant);
    expect(sent("PUT")).toMatchObject({ oauth_grant_id: "grant-2" });
    await sources.delete(id);
  });

  it("GA4: a date backfill_start the service stores as midnight UTC is no drift; a connection warning becomes a warning", async () => {
    said.length = 0;
    const inputs = await checked({ logicalName: "ga", connector: "google_analytics", config: { resources: ["website_overview", "nodata_devices"], property_id: "123456789", service_account_key: '{"type":"service_account"}', backfill_start: "2026-01-01" } });
    const { id, outs } = await sources.create(inputs);
    expect((await live(id)).config).toMatchObject({ backfill_start: "2026-01-01T00:00:00+00:00" });
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });
    expect(said.join("")).toMatch(/warning: source "[^"]+": nodata_devices: the account has no data/);
    expect(said.join("")).not.toContain("service_account");
    await sources.delete(id);
  });
});

describe("an API source's plan-time checks, before any API call", () => {
  it("name the field required when shown, the partner a field needs, a secret of another mode, a missing grant", async () => {
    const before = proxy.requests.length;
    expect(await failuresOf({ connector: "hubspot", config: { resources: ["contacts"], token: "t", sync_all_properties: false } })).toEqual([
      'config["properties"] is required by the HubSpot source when sync_all_properties is false: set it (helper property properties), or change sync_all_properties',
    ]);
    expect(await failuresOf({ connector: "google_ads", config: { resources: ["campaign"], customer_id: "1" } })).toEqual([
      'config["auth_mode"] is required by the google_ads source connector: add it to config (helper property authMode)',
    ]);
    expect(await failuresOf({ connector: "google_ads", config: { resources: ["c"], customer_id: "1", auth_mode: "service_account", service_account_key: "{}", refresh_token: "stale" } })).toEqual([
      'config["refresh_token"] is not used when auth_mode is service_account (it belongs to auth_mode refresh_token): remove it, or set auth_mode to the mode it belongs to',
    ]);
    expect(await failuresOf({ connector: "facebook_ads", config: { resources: ["ads"], account_id: "1", access_token: "t", app_id: "42" } })).toEqual([
      'config["app_secret"] must be set together with app_id: set app_secret (helper property appSecret) too, or remove app_id',
    ]);
    const [grant] = await failuresOf({ connector: "zendesk", config: { resources: ["tickets"], subdomain: "acme" } });
    expect(grant).toMatch(/^config\["oauth_grant_id"\] is required to create a Zendesk source that signs in through Connect: .*start-source-oauth-connect zendesk/);
    expect(await failuresOf({ connector: "hubspot", config: { resources: ["contacts"], token: "t", kc_cluster_id: "x" } })).toEqual([
      'config["kc_cluster_id"] is picked by the service for an API source and never sent: remove it from config',
    ]);
    // On an update in the same mode, a required secret left out is the one the service keeps.
    const olds = { connector: "hubspot", config: { resources: ["contacts"], token: "t" } } as Partial<ConnectorInputs>;
    expect(await failuresOf({ connector: "hubspot", config: { resources: ["deals"] } }, olds)).toEqual([]);
    expect(proxy.requests.length).toBe(before);
  });
});

// Kept for the type checker: the outputs type is what update and diff take.
export type _Outputs = ConnectorOutputs;
