import { DEFAULT_API_URL, DEFAULT_CREATED_FROM, SETTING_SPECS, type CdcSettings } from "../client/settings.js";
import { DEFAULT_TUNING, TUNING_SPECS } from "../client/tuning.js";
import type { ConfigSpec } from "./spec.js";

// ---------------------------------------------------------------------------------------------
// Provider configuration: the `cdc:*` stack config keys (provider/client/settings.ts and tuning.ts).

/** A connection setting: its key, environment variable and secrecy as provider/client/settings.ts declares them, with its description. */
function setting(name: keyof CdcSettings, text: string, opts: { default?: string } = {}): ConfigSpec {
  const { config, env, secret } = SETTING_SPECS[name];
  const fallback = opts.default !== undefined ? ` Default \`${opts.default}\`.` : "";
  return {
    name,
    key: config,
    env,
    type: "string",
    ...(secret ? { secret: true } : {}),
    ...(opts.default !== undefined ? { default: opts.default } : {}),
    description: `${text}${fallback} Read from the environment variable \`${env}\` when the stack config does not set it.`,
  };
}

type TuningName = keyof typeof TUNING_SPECS;

const TUNING_DEFAULTS: Record<TuningName, number> = {
  retryAttempts: DEFAULT_TUNING.retry.maxAttempts,
  retryBaseDelayMs: DEFAULT_TUNING.retry.baseDelayMs,
  retryMaxDelayMs: DEFAULT_TUNING.retry.maxDelayMs,
  retryAfterMaxMs: DEFAULT_TUNING.retry.maxRetryAfterMs,
  resourceTimeoutSec: DEFAULT_TUNING.resourceTimeoutMs / TUNING_SPECS.resourceTimeoutSec.scale,
  maxConcurrency: DEFAULT_TUNING.maxConcurrency,
  maxResponseMiB: DEFAULT_TUNING.maxResponseBytes / TUNING_SPECS.maxResponseMiB.scale,
};

const TUNING_TEXT: Record<TuningName, string> = {
  retryAttempts: "HTTP attempts per API call, the first included.",
  retryBaseDelayMs: "Back-off before the first retry, in milliseconds, doubled after each retry, with jitter.",
  retryMaxDelayMs: "Longest back-off between two attempts, in milliseconds.",
  retryAfterMaxMs: "Longest `Retry-After` honoured on a 429, in milliseconds; a longer one is cut to this.",
  resourceTimeoutSec:
    "Retry budget of one resource operation, in seconds (a create with its lookups, lifecycle calls and baseline; an update; a delete): no retry starts once it is spent.",
  maxConcurrency:
    "Most API requests in flight at once for the whole run. The client starts at 16 and opens up while requests wait and the API keeps answering; each 429 halves it. Set 16 or less for a fixed limit.",
  maxResponseMiB:
    "Longest API answer read, in MiB: a longer one fails its call (retried where the call is safe to repeat) without being read whole, so a broken answer cannot take the run's memory. Far above any real answer (a page of 100 connectors with every key set is about 0.5 MiB).",
};

function tuning(name: TuningName): ConfigSpec {
  const spec = TUNING_SPECS[name];
  const dflt = TUNING_DEFAULTS[name];
  return {
    name,
    key: spec.config,
    env: spec.env,
    type: "integer",
    default: dflt,
    description: `${TUNING_TEXT[name]} A whole number from ${spec.min} to ${spec.max}. Default ${dflt}. Read from the environment variable \`${spec.env}\` when the stack config does not set it.`,
  };
}

/** The provider's configuration: credentials (never resource inputs), the `created_from` stamp, and the client's tuning. */
export const PROVIDER_CONFIG: readonly ConfigSpec[] = [
  setting("apiUrl", "Base URL of the API, http or https, without credentials, query or fragment.", { default: DEFAULT_API_URL }),
  setting("clientId", "API client id, exchanged with `clientSecret` for an access token. Needed unless `accessToken` is set."),
  setting("clientSecret", "API client secret, exchanged with `clientId` for an access token: set it with `pulumi config set --secret cdc:clientSecret ...`."),
  setting("accessToken", "A ready access token, used as is instead of `clientId` and `clientSecret` (never refreshed)."),
  setting(
    "createdFrom",
    "The `created_from` value stamped on every create: `terraform` is the API's infrastructure-as-code value. Set another only when the API accepts it.",
    { default: DEFAULT_CREATED_FROM },
  ),
  setting(
    "adminTenantId",
    "Admin scope, for a platform operator's credential: the tenant (24 lowercase hex characters) whose objects every request acts on, sent as the `X-Admin-Tenant-Id` header. Unset, the credential acts on its own tenant; any other credential is refused with a 403.",
  ),
  setting(
    "adminServiceId",
    "Admin scope: the service of `adminTenantId` (24 lowercase hex characters), sent as the `X-Admin-Service-Id` header. Only with `adminTenantId`: the API ignores it on its own, so it is refused without one. Needed only for a tenant with several services.",
  ),
  {
    ...setting(
      "allowInsecureHttp",
      "Send the credentials and every request over plain `http://` to a host that is not loopback. Off by default: plain http is refused for any host but 127.0.0.1, ::1 and localhost (the emulator), since the client secret and access tokens would travel in clear.",
      { default: "false" },
    ),
    type: "boolean",
    default: false,
  },
  ...(Object.keys(TUNING_SPECS) as TuningName[]).map(tuning),
];

export const PACKAGE = {
  name: "cdc",
  displayName: "CDC Pipelines",
  description:
    "Manage change-data-capture pipelines as code: CDC sources, destinations, pipelines, transforms, topics, tags, client credentials, Kafka users, and AI agents with their HTTP and LLM connections, with typed inputs, secrets kept secret and drift detection.",
  keywords: ["pulumi", "cdc", "change-data-capture", "data-pipelines", "kind/native", "category/infrastructure"],
  homepage: "https://github.com/pulumi-cdc/pulumi-cdc",
  repository: "https://github.com/pulumi-cdc/pulumi-cdc",
  license: "Apache-2.0",
  /** Who publishes the package, as the Pulumi Registry shows it ("published by ..."). */
  publisher: "pulumi-cdc",
  /**
   * The package's logo: the 64x64 icon the code generator draws (tools/pulumi-cdc-codegen, offlineLogo)
   * and writes as the .NET package's icon, served from the repository.
   */
  logoUrl: "https://raw.githubusercontent.com/pulumi-cdc/pulumi-cdc/main/generated/sdks/dotnet/logo.png",
  providerDescription:
    "The provider of the `cdc` package: how to reach the Data Pipeline Management REST API and with which credentials. Each setting falls back to its `CDC_*` environment variable.",
} as const;

