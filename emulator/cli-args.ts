import { parseArgs } from "node:util";
import type { FaultSettings } from "./faults.js";
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_PORT,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  DEFAULT_TOKEN_TTL_SECONDS,
  type EmulatorOptions,
} from "./options.js";

export const USAGE = `Usage: pulumi-cdc-emulator [options]

Local emulator of the Data Pipeline Management REST API.

Options:
  --port <n>                 TCP port, 0 picks a free one (default ${DEFAULT_PORT})
  --host <addr>              listen address; only 127.0.0.1 is accepted (default 127.0.0.1)
  --client-id <id>           bootstrap client id (default ${DEFAULT_CLIENT_ID})
  --client-secret <secret>   bootstrap client secret (default ${DEFAULT_CLIENT_SECRET})
  --tenant <id>:<secret>     a further tenant with this bootstrap credential (repeatable)
  --operator <client-id>     a platform operator: this credential may act on another tenant with
                             X-Admin-Tenant-Id (repeatable; default none)
  --token-ttl <seconds>      access token lifetime, expiresIn (default ${DEFAULT_TOKEN_TTL_SECONDS})
  --refresh-token-ttl <s>    refresh token lifetime (default ${DEFAULT_REFRESH_TOKEN_TTL_SECONDS})
  --state <file>             persist state to this JSON file (default: in memory)
  --seed <int>               seed for fault decisions (default: random)
  --latency-ms <ms>          added latency per request (default 0)
  --rate-limit <rps>         requests per second before 429 + Retry-After (default 0 = off)
  --fail-rate <0..1>         share of requests answered 503 (default 0)
  --drop-rate <0..1>         share of connections dropped without a response (default 0)
  --lost-response-rate <0..1> share of writes handled, then answered by a dropped connection (default 0)
  --html-rate <0..1>         share of requests a load balancer answers: 200, an HTML page, unhandled (default 0)
  --truncated-rate <0..1>    share of 2xx answers cut off halfway, the request handled (default 0)
  --wrong-shape-rate <0..1>  share of 2xx answers replaced by JSON of another shape, the request handled (default 0)
  --oversized-rate <0..1>    share of 2xx answers to reads replaced by an oversized JSON body (default 0)
  --oversized-bytes <n>      length of an oversized body (default 67108865, 64 MiB + 1)
  --fault-routes <prefixes>  comma-separated path prefixes faults apply to (default /)
  --help                     show this help
`;

export class CliUsageError extends Error {}

function number(name: string, raw: string | undefined, check: (n: number) => boolean, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n)) throw new CliUsageError(`--${name} must be ${what}, got '${raw}'`);
  return n;
}

const isInt = (n: number) => Number.isInteger(n);

/** The flags of the fault shares, each with its setting and the words the start-up line uses. */
const SHARE_FLAGS = [
  ["fail-rate", "failRate", "fail rate"],
  ["drop-rate", "dropRate", "drop rate"],
  ["lost-response-rate", "lostResponseRate", "lost response rate"],
  ["html-rate", "htmlRate", "html rate"],
  ["truncated-rate", "truncatedRate", "truncated rate"],
  ["wrong-shape-rate", "wrongShapeRate", "wrong shape rate"],
  ["oversized-rate", "oversizedRate", "oversized rate"],
] as const;

export function parseCliArgs(argv: string[]): { help: true } | { help: false; options: Partial<EmulatorOptions> } {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        tenant: { type: "string", multiple: true },
        operator: { type: "string", multiple: true },
        "token-ttl": { type: "string" },
        "refresh-token-ttl": { type: "string" },
        state: { type: "string" },
        seed: { type: "string" },
        "latency-ms": { type: "string" },
        "rate-limit": { type: "string" },
        "fail-rate": { type: "string" },
        "drop-rate": { type: "string" },
        "lost-response-rate": { type: "string" },
        "html-rate": { type: "string" },
        "truncated-rate": { type: "string" },
        "wrong-shape-rate": { type: "string" },
        "oversized-rate": { type: "string" },
        "oversized-bytes": { type: "string" },
        "fault-routes": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  const str = (name: string) => values[name] as string | undefined;

  const host = str("host");
  if (host !== undefined && host !== "127.0.0.1") throw new CliUsageError(`--host must be 127.0.0.1 (the emulator only listens locally), got '${host}'`);

  const faults: Partial<FaultSettings> = {};
  const seed = number("seed", str("seed"), isInt, "an integer");
  if (seed !== undefined) faults.seed = seed;
  const latency = number("latency-ms", str("latency-ms"), (n) => n >= 0, "a non-negative number");
  if (latency !== undefined) faults.latencyMs = latency;
  const rate = number("rate-limit", str("rate-limit"), (n) => n >= 0, "a non-negative number");
  if (rate !== undefined) faults.rateLimit = rate;
  for (const [flag, setting] of SHARE_FLAGS) {
    const share = number(flag, str(flag), (n) => n >= 0 && n <= 1, "between 0 and 1");
    if (share !== undefined) faults[setting] = share;
  }
  const oversizedBytes = number("oversized-bytes", str("oversized-bytes"), (n) => isInt(n) && n >= 4, "an integer of at least 4");
  if (oversizedBytes !== undefined) faults.oversizedBytes = oversizedBytes;
  const routes = str("fault-routes");
  if (routes !== undefined) {
    faults.routes = routes.split(",").map((r) => r.trim()).filter(Boolean);
    const bad = faults.routes.find((r) => !r.startsWith("/"));
    if (bad) throw new CliUsageError(`--fault-routes entries must start with '/', got '${bad}'`);
  }

  const options: Partial<EmulatorOptions> = {
    port: number("port", str("port"), (n) => isInt(n) && n >= 0 && n <= 65535, "an integer between 0 and 65535") ?? DEFAULT_PORT,
    clientId: str("client-id") ?? DEFAULT_CLIENT_ID,
    clientSecret: str("client-secret") ?? DEFAULT_CLIENT_SECRET,
    tokenTtlSeconds: number("token-ttl", str("token-ttl"), (n) => isInt(n) && n >= 1, "a positive integer") ?? DEFAULT_TOKEN_TTL_SECONDS,
    faults,
  };
  const refreshTtl = number("refresh-token-ttl", str("refresh-token-ttl"), (n) => isInt(n) && n >= 1, "a positive integer");
  if (refreshTtl !== undefined) options.refreshTokenTtlSeconds = refreshTtl;
  const tenants = (values.tenant as string[] | undefined) ?? [];
  if (tenants.length > 0) {
    options.tenants = tenants.map((t) => {
      const at = t.indexOf(":");
      if (at <= 0 || at === t.length - 1) throw new CliUsageError(`--tenant must be <client-id>:<client-secret>, got '${t}'`);
      return { clientId: t.slice(0, at), clientSecret: t.slice(at + 1) };
    });
  }
  const operators = (values.operator as string[] | undefined) ?? [];
  if (operators.length > 0) options.operators = operators;
  const state = str("state");
  if (state !== undefined) options.statePath = state;
  if (options.clientId === "" || options.clientSecret === "") throw new CliUsageError("--client-id and --client-secret must not be empty");
  return { help: false, options };
}

export function describeFaults(faults: Partial<FaultSettings>): string {
  const parts: string[] = [];
  if (faults.latencyMs) parts.push(`latency ${faults.latencyMs} ms`);
  if (faults.rateLimit) parts.push(`rate limit ${faults.rateLimit}/s`);
  for (const [, setting, words] of SHARE_FLAGS) if (faults[setting]) parts.push(`${words} ${faults[setting]}`);
  if (faults.oversizedRate && faults.oversizedBytes) parts.push(`oversized bodies of ${faults.oversizedBytes} bytes`);
  if (parts.length === 0) return "off";
  if (faults.seed !== undefined) parts.push(`seed ${faults.seed}`);
  if (faults.routes) parts.push(`routes ${faults.routes.join(",") || "(none)"}`);
  return parts.join(", ");
}
