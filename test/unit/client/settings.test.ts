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

  it("refuses plain http to a host that is not loopback, with the https URL to use and the opt-in", () => {
    const refused = () => resolveSettings({ apiUrl: "http://api.example.com" }, creds);
    expect(refused).toThrow(SettingsError);
    expect(refused).toThrow(/cdc:apiUrl "http:\/\/api.example.com" is plain http to a host that is not loopback: the client secret and every access token would travel in clear/);
    expect(refused).toThrow(/Use https:\/\/api.example.com/);
    expect(refused).toThrow(/cdc:allowInsecureHttp true/);
    expect(() => resolveSettings(undefined, { ...creds, CDC_API_URL: "http://10.0.0.5:8080/api" })).toThrow(/Use https:\/\/10.0.0.5:8080\/api/);
    for (const loopback of ["http://127.0.0.1:8787", "http://127.1.2.3", "http://localhost:9000", "http://[::1]:8787"]) {
      expect(resolveSettings({ apiUrl: loopback }, creds).apiUrl).toBe(loopback);
    }
    // Not loopback, only named like it.
    expect(() => resolveSettings({ apiUrl: "http://127.0.0.1.example.com" }, creds)).toThrow(/plain http/);
    expect(() => resolveSettings({ apiUrl: "http://localhost.example.com" }, creds)).toThrow(/plain http/);
  });

  it("takes plain http to another host only when the user opts in, in config or the environment", () => {
    expect(resolveSettings({ apiUrl: "http://api.example.com", "cdc:allowInsecureHttp": "true" }, creds)).toMatchObject({ apiUrl: "http://api.example.com", allowInsecureHttp: true });
    expect(resolveSettings({ apiUrl: "http://api.example.com" }, { ...creds, CDC_ALLOW_INSECURE_HTTP: "true" }).apiUrl).toBe("http://api.example.com");
    expect(() => resolveSettings({ apiUrl: "http://api.example.com", "cdc:allowInsecureHttp": "false" }, creds)).toThrow(/plain http/);
    expect(() => resolveSettings({ "cdc:allowInsecureHttp": "maybe" }, creds)).toThrow(/cdc:allowInsecureHttp \(or CDC_ALLOW_INSECURE_HTTP\) must be true or false, got "maybe"/);
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

describe("resolveSettings: the admin scope", () => {
  const tenant = "665e894ebb3753f38d983cee";
  const service = "665e894ebb3753f38d983cef";
  const failure = (config: Record<string, string>, env: NodeJS.ProcessEnv = creds): SettingsError => {
    try {
      resolveSettings(pulumiConfig(config), env);
    } catch (e) {
      expect(e).toBeInstanceOf(SettingsError);
      return e as SettingsError;
    }
    throw new Error("resolveSettings accepted it");
  };

  it("is unset unless asked for", () => {
    const s = resolveSettings(undefined, creds);
    expect(s).not.toHaveProperty("adminTenantId");
    expect(s).not.toHaveProperty("adminServiceId");
  });

  it("reads both ids from stack config, else from CDC_ADMIN_TENANT_ID and CDC_ADMIN_SERVICE_ID, each on its own", () => {
    expect(resolveSettings(pulumiConfig({ "cdc:adminTenantId": tenant, "cdc:adminServiceId": service }), creds)).toMatchObject({
      adminTenantId: tenant,
      adminServiceId: service,
    });
    expect(resolveSettings(undefined, { ...creds, CDC_ADMIN_TENANT_ID: tenant, CDC_ADMIN_SERVICE_ID: service })).toMatchObject({
      adminTenantId: tenant,
      adminServiceId: service,
    });
    // The service from config, the tenant from the environment: together a valid scope.
    expect(resolveSettings(pulumiConfig({ "cdc:adminServiceId": service }), { ...creds, CDC_ADMIN_TENANT_ID: tenant })).toMatchObject({
      adminTenantId: tenant,
      adminServiceId: service,
    });
  });

  it("takes a tenant id alone: the API resolves its service", () => {
    const s = resolveSettings(pulumiConfig({ "cdc:adminTenantId": tenant }), creds);
    expect(s.adminTenantId).toBe(tenant);
    expect(s).not.toHaveProperty("adminServiceId");
  });

  it("refuses a service id without a tenant id, naming both settings and the fix", () => {
    const err = failure({ "cdc:adminServiceId": service });
    expect(err.setting).toBe("cdc:adminServiceId");
    expect(err.message).toContain("cdc:adminServiceId is set without cdc:adminTenantId");
    expect(err.message).toContain("the tenant of the credential");
    expect(err.message).toContain("pulumi config set cdc:adminTenantId <tenant-id>");
    expect(err.message).toContain("CDC_ADMIN_TENANT_ID");
    expect(err.message).toContain("or remove cdc:adminServiceId");
    // The same from the environment.
    expect(failure({}, { ...creds, CDC_ADMIN_SERVICE_ID: service }).setting).toBe("cdc:adminServiceId");
  });

  it("refuses an id of the wrong shape, naming the setting", () => {
    for (const bad of ["tenant-b", "665E894EBB3753F38D983CEE", "665e894ebb3753f38d983ce", "665e894ebb3753f38d983ceez", "tnt_3f2a9c1d"]) {
      const err = failure({ "cdc:adminTenantId": bad });
      expect(err.setting).toBe("cdc:adminTenantId");
      expect(err.message).toContain(`cdc:adminTenantId must be a tenant id of 24 lowercase hex characters`);
      expect(err.message).toContain(`got "${bad}"`);
      expect(err.message).toContain("CDC_ADMIN_TENANT_ID");
    }
    const err = failure({ "cdc:adminTenantId": tenant, "cdc:adminServiceId": "service-1" });
    expect(err.setting).toBe("cdc:adminServiceId");
    expect(err.message).toMatch(/^cdc:adminServiceId must be a service id of 24 lowercase hex characters/);
    expect(failure({}, { ...creds, CDC_ADMIN_TENANT_ID: "nope" }).setting).toBe("cdc:adminTenantId");
  });

  it("refuses an id not known yet (the engine's placeholder) rather than sending it", () => {
    const err = failure({ "cdc:adminTenantId": "04da6b54-80e4-46f7-96ec-b56ff0331ba9" });
    expect(err.setting).toBe("cdc:adminTenantId");
    expect(err.message).toContain("cdc:adminTenantId is not known yet");
    expect(err.message).toContain("pulumi config set cdc:adminTenantId <id>");
  });

  it("trims and ignores blanks, as for the other settings", () => {
    expect(resolveSettings(pulumiConfig({ "cdc:adminTenantId": `  ${tenant} ` }), creds).adminTenantId).toBe(tenant);
    expect(resolveSettings(pulumiConfig({ "cdc:adminTenantId": "", "cdc:adminServiceId": " " }), creds)).not.toHaveProperty("adminTenantId");
  });
});
