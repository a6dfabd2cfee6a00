import { describe, expect, it } from "vitest";
import { DEFAULT_API_URL, SettingsError, resolveSettings } from "../../../provider/client/index.js";

/** Stands in for the dynamic provider's `req.config` (keys carry the namespace). */
function pulumiConfig(values: Record<string, string>) {
  return { get: (key: string) => values[key], require: (key: string) => values[key]! };
}

const creds = { CDC_CLIENT_ID: "env-id", CDC_CLIENT_SECRET: "env-secret" };

describe("resolveSettings", () => {
  it("prefers stack config over env, env over defaults", () => {
    const s = resolveSettings(
      pulumiConfig({ "cdc:apiUrl": "https://api.example.com/v2/", "cdc:clientId": "cfg-id", "cdc:clientSecret": "cfg-secret" }),
      { ...creds, CDC_API_URL: "http://env:1" },
    );
    expect(s).toEqual({ apiUrl: "https://api.example.com/v2", clientId: "cfg-id", clientSecret: "cfg-secret", createdFrom: "terraform" });
  });

  it("falls back to env per setting, then to the default URL", () => {
    expect(resolveSettings(pulumiConfig({ "cdc:clientId": "cfg-id" }), creds)).toEqual({
      apiUrl: DEFAULT_API_URL,
      clientId: "cfg-id",
      clientSecret: "env-secret",
      createdFrom: "terraform",
    });
    expect(DEFAULT_API_URL).toBe("http://127.0.0.1:8787");
  });

  it("accepts a plain record keyed with or without the namespace, and ignores blanks", () => {
    expect(resolveSettings({ apiUrl: "http://localhost:9000", "cdc:clientId": "a", clientSecret: "b", accessToken: "  " }, {})).toEqual({
      apiUrl: "http://localhost:9000",
      clientId: "a",
      clientSecret: "b",
      createdFrom: "terraform",
    });
    expect(resolveSettings(pulumiConfig({ "cdc:clientSecret": "" }), creds).clientSecret).toBe("env-secret");
  });

  it("a ready token is enough on its own", () => {
    expect(resolveSettings(undefined, { CDC_ACCESS_TOKEN: "tok" })).toEqual({ apiUrl: DEFAULT_API_URL, accessToken: "tok", createdFrom: "terraform" });
    expect(resolveSettings(pulumiConfig({ "cdc:accessToken": "t2" }), {}).accessToken).toBe("t2");
  });

  it("reads cdc:createdFrom", () => {
    expect(resolveSettings(pulumiConfig({ "cdc:createdFrom": "api" }), creds).createdFrom).toBe("api");
    expect(resolveSettings(undefined, { ...creds, CDC_CREATED_FROM: "web" }).createdFrom).toBe("web");
  });

  it("names the missing secret and how to set it", () => {
    let err: unknown;
    try {
      resolveSettings(pulumiConfig({ "cdc:clientId": "id" }), {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    const msg = (err as Error).message;
    expect(msg).toContain("cdc:clientSecret is not set");
    expect(msg).toContain("pulumi config set --secret cdc:clientSecret");
    expect(msg).toContain("CDC_CLIENT_SECRET");
    expect(msg).toContain("CDC_ACCESS_TOKEN");
    expect(msg).not.toContain("cdc:clientId is not set");
  });

  it("names both when neither credential is set", () => {
    expect(() => resolveSettings(undefined, {})).toThrow(/cdc:clientId is not set[\s\S]*CDC_CLIENT_ID[\s\S]*cdc:clientSecret is not set/);
  });

  it("validates the URL", () => {
    expect(() => resolveSettings({ apiUrl: "not a url" }, creds)).toThrow(SettingsError);
    expect(() => resolveSettings({ apiUrl: "not a url" }, creds)).toThrow(/cdc:apiUrl "not a url" is not a valid URL[\s\S]*CDC_API_URL/);
    expect(() => resolveSettings({ apiUrl: "ftp://host" }, creds)).toThrow(/http or https/);
    expect(() => resolveSettings({ apiUrl: "https://u:pw@host" }, creds)).toThrow(/must not contain credentials/);
    expect(() => resolveSettings({ apiUrl: "https://u:pw@host" }, creds)).not.toThrow(/pw/);
    expect(() => resolveSettings({ apiUrl: "https://host/?a=1" }, creds)).toThrow(/query/);
    expect(resolveSettings({ apiUrl: "HTTPS://Host.Example.com:443//" }, creds).apiUrl).toBe("https://host.example.com");
  });
});
