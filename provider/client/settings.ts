import { isUnknown } from "../normalize.js";
import { registerSecret } from "./redact.js";

export const DEFAULT_API_URL = "http://127.0.0.1:8787";
export const DEFAULT_CREATED_FROM = "terraform";

/** Resolved connection settings. Either `accessToken`, or both `clientId` and `clientSecret`, is set. */
export interface CdcSettings {
  /** Normalised: no trailing slash, no query. */
  apiUrl: string;
  clientId?: string;
  clientSecret?: string;
  /** A ready token: used as-is, never refreshed. */
  accessToken?: string;
  /** Stamped as `created_from` on every create. */
  createdFrom: string;
  /** Admin scope: the tenant every request acts on (`X-Admin-Tenant-Id`), for a platform operator's credential. */
  adminTenantId?: string;
  /** Admin scope: that tenant's service (`X-Admin-Service-Id`); only with `adminTenantId`. */
  adminServiceId?: string;
  /** The user's explicit opt-in to plain `http://` for a host that is not loopback. */
  allowInsecureHttp?: boolean;
}

/**
 * Where stack config comes from: the dynamic provider's `configure(req)` hands over
 * `req.config` (an object with `get("cdc:apiUrl")`); tests and scripts may pass a plain record
 * keyed `cdc:apiUrl` or `apiUrl`.
 */
export type ConfigSource = { get(key: string): string | undefined } | Record<string, unknown> | undefined | null;

/** A setting is missing or invalid; thrown before any API call. */
export class SettingsError extends Error {
  /** The setting at fault (`cdc:adminServiceId`), when the message names several. */
  readonly setting?: string;
  constructor(message: string, setting?: string) {
    super(message);
    this.name = "SettingsError";
    if (setting) this.setting = setting;
  }
}

export interface SettingSpec {
  key: keyof CdcSettings;
  config: `cdc:${string}`;
  env: string;
  secret: boolean;
}

const SPECS: Record<keyof CdcSettings, SettingSpec> = {
  apiUrl: { key: "apiUrl", config: "cdc:apiUrl", env: "CDC_API_URL", secret: false },
  clientId: { key: "clientId", config: "cdc:clientId", env: "CDC_CLIENT_ID", secret: false },
  clientSecret: { key: "clientSecret", config: "cdc:clientSecret", env: "CDC_CLIENT_SECRET", secret: true },
  accessToken: { key: "accessToken", config: "cdc:accessToken", env: "CDC_ACCESS_TOKEN", secret: true },
  createdFrom: { key: "createdFrom", config: "cdc:createdFrom", env: "CDC_CREATED_FROM", secret: false },
  adminTenantId: { key: "adminTenantId", config: "cdc:adminTenantId", env: "CDC_ADMIN_TENANT_ID", secret: false },
  adminServiceId: { key: "adminServiceId", config: "cdc:adminServiceId", env: "CDC_ADMIN_SERVICE_ID", secret: false },
  allowInsecureHttp: { key: "allowInsecureHttp", config: "cdc:allowInsecureHttp", env: "CDC_ALLOW_INSECURE_HTTP", secret: false },
};

/** The platform's tenant and service ids: 24 lowercase hex characters (an ObjectId). */
const PLATFORM_ID = /^[0-9a-f]{24}$/;


/** Each connection setting's stack config key, environment variable and secrecy, by name: the provider's config schema reads them here. */
export const SETTING_SPECS: Readonly<Record<keyof CdcSettings, SettingSpec>> = SPECS;

/** The stack config keys of the connection settings (`cdc:apiUrl`, ...), and whether each is a secret. */
export const SETTING_KEYS: ReadonlyArray<{ config: string; env: string; secret: boolean }> = Object.values(SPECS).map(({ config, env, secret }) => ({ config, env, secret }));

function howToSet(spec: SettingSpec, placeholder: string): string {
  return `\`pulumi config set${spec.secret ? " --secret" : ""} ${spec.config} ${placeholder}\` or the environment variable ${spec.env}`;
}

function fromConfig(config: ConfigSource, spec: SettingSpec): string | undefined {
  if (!config) return undefined;
  let raw: unknown;
  if (typeof (config as { get?: unknown }).get === "function") {
    raw = (config as { get(key: string): string | undefined }).get(spec.config);
  } else {
    const rec = config as Record<string, unknown>;
    raw = rec[spec.config] ?? rec[spec.key];
  }
  return clean(raw);
}

function clean(raw: unknown): string | undefined {
  if (typeof raw === "boolean") return String(raw);
  if (typeof raw !== "string") return undefined;
  const v = raw.trim();
  return v === "" ? undefined : v;
}

/**
 * Resolve settings: stack config first, then environment, then defaults. Throws a
 * SettingsError naming the missing setting and how to set it when there are neither client
 * credentials nor an access token, or when the URL is not a usable http(s) URL.
 */
export function resolveSettings(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): CdcSettings {
  const get = (spec: SettingSpec) => fromConfig(config, spec) ?? clean(env[spec.env]);

  const clientSecret = get(SPECS.clientSecret);
  const accessToken = get(SPECS.accessToken);
  // Register before anything can fail, so even a settings error cannot echo them.
  registerSecret(clientSecret);
  registerSecret(accessToken);

  const allowInsecureHttp = flag(SPECS.allowInsecureHttp, get(SPECS.allowInsecureHttp));
  const apiUrl = refusePlainHttp(normaliseApiUrl(get(SPECS.apiUrl) ?? DEFAULT_API_URL), allowInsecureHttp);
  const clientId = get(SPECS.clientId);
  const createdFrom = get(SPECS.createdFrom) ?? DEFAULT_CREATED_FROM;
  const admin = adminScope(get(SPECS.adminTenantId), get(SPECS.adminServiceId));

  if (!accessToken && (!clientId || !clientSecret)) {
    const missing = [!clientId ? SPECS.clientId : undefined, !clientSecret ? SPECS.clientSecret : undefined].filter(
      (s): s is SettingSpec => s !== undefined,
    );
    const lines = missing.map((s) => `  - ${s.config} is not set: use ${howToSet(s, s.key === "clientId" ? "<client-id>" : "<secret>")}`);
    throw new SettingsError(
      [
        `CDC API credentials are missing (API ${apiUrl}):`,
        ...lines,
        `  or provide a ready access token: ${howToSet(SPECS.accessToken, "<token>")}.`,
      ].join("\n"),
    );
  }

  const settings: CdcSettings = { apiUrl, createdFrom };
  if (clientId) settings.clientId = clientId;
  if (clientSecret) settings.clientSecret = clientSecret;
  if (accessToken) settings.accessToken = accessToken;
  if (allowInsecureHttp) settings.allowInsecureHttp = true;
  return { ...settings, ...admin };
}

/**
 * The admin scope, checked before any call. The API only enters its admin path when the tenant
 * header is present: a service id on its own is dropped and every request would run against the
 * credential's own tenant, the wrong one. A tenant id alone is valid (the API resolves its service).
 */
function adminScope(tenantId: string | undefined, serviceId: string | undefined): Pick<CdcSettings, "adminTenantId" | "adminServiceId"> {
  for (const [spec, value] of [
    [SPECS.adminTenantId, tenantId],
    [SPECS.adminServiceId, serviceId],
  ] as const) {
    if (value === undefined) continue;
    if (isUnknown(value)) {
      throw new SettingsError(
        `${spec.config} is not known yet (it comes from a resource output that does not exist before \`pulumi up\`): the provider cannot act on an unknown tenant; set it with ${howToSet(spec, "<id>")}.`,
        spec.config,
      );
    }
    if (!PLATFORM_ID.test(value)) {
      throw new SettingsError(
        `${spec.config} must be a ${spec.key === "adminTenantId" ? "tenant" : "service"} id of 24 lowercase hex characters (e.g. 665e894ebb3753f38d983cee), got "${value}"; set it with ${howToSet(spec, "<id>")}.`,
        spec.config,
      );
    }
  }
  if (serviceId !== undefined && tenantId === undefined) {
    throw new SettingsError(
      `${SPECS.adminServiceId.config} is set without ${SPECS.adminTenantId.config}: the API ignores a service id on its own, so every request would run against the tenant of the credential instead of the one meant. Set the tenant too with ${howToSet(SPECS.adminTenantId, "<tenant-id>")}, or remove ${SPECS.adminServiceId.config} (and ${SPECS.adminServiceId.env}).`,
      SPECS.adminServiceId.config,
    );
  }
  return { ...(tenantId !== undefined ? { adminTenantId: tenantId } : {}), ...(serviceId !== undefined ? { adminServiceId: serviceId } : {}) };
}

function flag(spec: SettingSpec, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new SettingsError(`${spec.config} (or ${spec.env}) must be true or false, got "${value}"; set it with ${howToSet(spec, "true")}, or unset it.`, spec.config);
}

/** 127.0.0.0/8, ::1 and localhost: where plain http never leaves the machine (the emulator). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host) || /^::ffff:127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Plain http carries the client secret and every bearer token in clear, so it is refused for any
 * host but loopback, before a request is sent, unless the user says so in as many words.
 */
function refusePlainHttp(apiUrl: string, allowed: boolean): string {
  const url = new URL(apiUrl);
  if (url.protocol !== "http:" || allowed || isLoopbackHost(url.hostname)) return apiUrl;
  const secure = `https://${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  throw new SettingsError(
    `cdc:apiUrl "${apiUrl}" is plain http to a host that is not loopback: the client secret and every access token would travel in clear. ` +
      `Use ${secure} (set it with ${howToSet(SPECS.apiUrl, secure)}); plain http is accepted without asking only for 127.0.0.1, ::1 and localhost (the emulator). ` +
      `On a network you trust, opt in with ${howToSet(SPECS.allowInsecureHttp, "true")}.`,
    SPECS.apiUrl.config,
  );
}

export function normaliseApiUrl(value: string): string {
  const fix = howToSet(SPECS.apiUrl, "<url>");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`cdc:apiUrl "${value}" is not a valid URL (expected e.g. ${DEFAULT_API_URL} or https://api.example.com); set it with ${fix}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SettingsError(`cdc:apiUrl must use http or https, got "${url.protocol}"; set it with ${fix}.`);
  }
  if (url.username || url.password) {
    throw new SettingsError(
      `cdc:apiUrl must not contain credentials; use cdc:clientId and cdc:clientSecret instead (${url.protocol}//${url.host}${url.pathname}).`,
    );
  }
  if (url.search || url.hash) {
    throw new SettingsError(`cdc:apiUrl must not have a query or fragment, got "${value}"; set it with ${fix}.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
