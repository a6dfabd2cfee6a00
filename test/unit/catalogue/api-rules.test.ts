import { describe, expect, it } from "vitest";
import { authMode, hiddenSecrets, isShown, normalizeValue, requiredWhenShown, usesConnect } from "../../../catalogue/api-rules.js";
import { connectorCodes, findConnector, findKey, isApiSource, type ConnectorSpec } from "../../../catalogue/index.js";

const spec = (code: string): ConnectorSpec => findConnector("source", code)!;

describe("API sources in the catalogue", () => {
  it("are the vendor's eight, by the codes the API takes, marked family api", () => {
    const api = connectorCodes("source").filter(isApiSource);
    expect(api).toEqual(["facebook_ads", "google_ads", "google_analytics", "hubspot", "netsuite", "salesforce", "stripe", "zendesk"]);
    expect(isApiSource("postgresql")).toBe(false);
    expect(isApiSource("stripe_webhook")).toBe(false);
    expect(isApiSource("nope")).toBe(false);
  });
  it("name every key as the wire key, require resources, and mark the grant write-only", () => {
    for (const code of connectorCodes("source").filter(isApiSource)) {
      const s = spec(code);
      expect(findKey(s, "resources"), code).toMatchObject({ type: "list", required: true });
      for (const k of s.keys) expect(k.name, `${code} ${k.key}`).toBe(k.key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
      const grant = findKey(s, "oauth_grant_id");
      if (s.oauth) expect(grant, code).toMatchObject({ secret: true, writeOnly: true });
      else expect(grant, code).toBeUndefined();
      for (const c of s.conditions ?? []) expect(findKey(s, c.field) && findKey(s, c.when.key), `${code} ${c.field}`).toBeTruthy();
    }
  });
});

describe("required when shown", () => {
  it("HubSpot properties: only when sync_all_properties is false (unset is the default true)", () => {
    const fields = (config: Record<string, unknown>) => requiredWhenShown(spec("hubspot"), config).map((c) => c.field);
    expect(fields({})).toEqual(["token"]);
    expect(fields({ sync_all_properties: false })).toEqual(["token", "properties"]);
    expect(fields({ sync_all_properties: "False" })).toEqual(["token", "properties"]);
    expect(fields({ auth_mode: "oauth", sync_all_properties: true })).toEqual([]);
  });
  it("Google Ads: each mode's own fields, none without a mode", () => {
    const fields = (mode?: string) => requiredWhenShown(spec("google_ads"), mode ? { auth_mode: mode } : {}).map((c) => c.field);
    expect(fields("refresh_token")).toEqual(["client_id", "client_secret", "refresh_token"]);
    expect(fields("service_account")).toEqual(["service_account_key"]);
    expect(fields("oauth")).toEqual(["client_id", "client_secret"]);
    expect(fields()).toEqual([]);
  });
  it("a list or a map where a mode goes holds no condition, and never throws (a map with its own toString key)", () => {
    const fields = (mode: unknown) => requiredWhenShown(spec("google_ads"), { auth_mode: mode }).map((c) => c.field);
    expect(fields(JSON.parse('{"toString": false}'))).toEqual([]);
    expect(fields(["oauth"])).toEqual([]);
    expect(authMode(spec("google_ads"), { auth_mode: { oauth: true } })).toBe('{"oauth":true}');
  });
  it("NetSuite: the passphrase is shown with the certificate but never required", () => {
    expect(isShown(spec("netsuite"), "private_key_passphrase", {})).toBe(true);
    expect(requiredWhenShown(spec("netsuite"), {}).map((c) => c.field)).not.toContain("private_key_passphrase");
  });
});

describe("auth modes and their secrets", () => {
  it("a mode's default applies when unset; a connector without modes has none", () => {
    expect(authMode(spec("salesforce"), {})).toBe("service");
    expect(authMode(spec("google_ads"), {})).toBeUndefined();
    expect(authMode(spec("google_analytics"), {})).toBeUndefined();
  });
  it("the secrets another mode shows are hidden, the grant outside Connect too", () => {
    expect(hiddenSecrets(spec("google_ads"), { auth_mode: "service_account" }).sort()).toEqual(["client_secret", "oauth_grant_id", "refresh_token"]);
    expect(hiddenSecrets(spec("google_ads"), { auth_mode: "oauth" }).sort()).toEqual(["refresh_token", "service_account_key"]);
    expect(hiddenSecrets(spec("hubspot"), {})).toEqual(["oauth_grant_id"]);
    expect(hiddenSecrets(spec("netsuite"), { auth_mode: "tba" }).sort()).toEqual(["private_key", "private_key_passphrase"]);
    expect(hiddenSecrets(spec("facebook_ads"), {})).toEqual([]);
  });
  it("Zendesk signs in only through Connect", () => {
    expect(usesConnect(spec("zendesk"), {})).toBe(true);
    expect(usesConnect(spec("stripe"), {})).toBe(false);
    expect(usesConnect(spec("stripe"), { auth_mode: "oauth" })).toBe(true);
  });
});

describe("the service's normalisations", () => {
  const key = (code: string, k: string) => findKey(spec(code), k);
  it("Facebook strips act_ from account ids, one by one in a list or its CSV", () => {
    expect(normalizeValue(key("facebook_ads", "account_id"), "act_123")).toBe("123");
    expect(normalizeValue(key("facebook_ads", "account_ids"), ["act_1", "2"])).toEqual(["1", "2"]);
    expect(normalizeValue(key("facebook_ads", "account_ids"), "act_1, act_2")).toBe("1,2");
  });
  it("Google Ads strips dashes from customer ids", () => {
    expect(normalizeValue(key("google_ads", "customer_id"), "123-456-7890")).toBe("1234567890");
  });
  it("GA4 turns a date into midnight UTC and leaves a datetime with an offset alone", () => {
    const backfill = key("google_analytics", "backfill_start");
    expect(normalizeValue(backfill, "2026-01-01")).toBe("2026-01-01T00:00:00+00:00");
    expect(normalizeValue(backfill, "2026-01-01T05:00:00Z")).toBe("2026-01-01T05:00:00+00:00");
    expect(normalizeValue(backfill, "2026-01-01T05:00:00+02:00")).toBe("2026-01-01T05:00:00+02:00");
    expect(normalizeValue(key("hubspot", "backfill_start"), "2026-01-01")).toBe("2026-01-01");
  });
});
