import { execFile } from "node:child_process";
import { ENGINE_FLAGS } from "./engine-flags.js";
// The client's leaf modules, not its index: reading a stack needs neither undici nor zod.
import { redact } from "../provider/client/redact.js";
import { SETTING_SPECS } from "../provider/client/settings.js";
import { TUNING_SPECS } from "../provider/client/tuning.js";

/** What one `pulumi` invocation produced. `code` is null when it did not exit by itself (timeout, signal). */
export interface PulumiResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pulumi <args>` in `cwd`. Injectable so the command logic is testable without the CLI.
 * `timeoutMs` overrides the runner's bound for a command that does real work (a refresh).
 */
export type PulumiRunner = (args: readonly string[], cwd: string, options?: { timeoutMs?: number; input?: string }) => Promise<PulumiResult>;

/** A `pulumi` command failed; the message carries Pulumi's own error lines, redacted. */
export class PulumiCommandError extends Error {
  constructor(message: string) {
    super(redact(message));
    this.name = "PulumiCommandError";
  }
}

// Reading a checkpoint or a config value takes well under a second; a minute means a hung
// backend (a locked file, an unreachable cloud backend) and must not stall CI forever.
export const DEFAULT_PULUMI_TIMEOUT_MS = 60_000;

export function pulumiRunner(options: { binary?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): PulumiRunner {
  const binary = options.binary ?? "pulumi";
  const defaultTimeout = options.timeoutMs ?? DEFAULT_PULUMI_TIMEOUT_MS;
  return (args, cwd, perCall) =>
    new Promise((resolve, reject) => {
      const timeout = perCall?.timeoutMs ?? defaultTimeout;
      const child = execFile(
        binary,
        [...args, ...ENGINE_FLAGS],
        { cwd, env: options.env ?? process.env, timeout, killSignal: "SIGKILL", maxBuffer: 256 * 1024 * 1024, windowsHide: true },
        (error, stdout, stderr) => {
          if (error && (error as NodeJS.ErrnoException).code === "ENOENT") {
            reject(new PulumiCommandError(`the Pulumi CLI ("${binary}") was not found on PATH: install it, or put it on PATH`));
            return;
          }
          if (error && (error as { killed?: boolean }).killed) {
            reject(new PulumiCommandError(`\`pulumi ${args.join(" ")}\` did not finish within ${Math.round(timeout / 1000)} s`));
            return;
          }
          const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
      // A value given on stdin (a secret for `config set --secret`) never shows in the process's
      // arguments. A command that exits without reading its stdin closes the pipe: the write's
      // EPIPE is no failure of the runner (the exit code says how the command went).
      child.stdin?.on("error", () => undefined);
      if (perCall?.input !== undefined) child.stdin?.end(perCall.input);
      else child.stdin?.end();
    });
}

/**
 * Pulumi's `error: ...` lines, at most a few: its stderr's (which also carries warnings and blank
 * lines), else those of its stdout (an update's diagnostics, where a resource's error is printed).
 */
export function pulumiErrorText(stderr: string, stdout = ""): string {
  const lines = (text: string) =>
    text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
  // An error line, with the bullets under it (`error: 2 errors occurred:` then `* ...` each).
  const errors = (text: string) => {
    const out: string[] = [];
    for (const l of lines(text)) {
      if (l.startsWith("error:")) out.push(l.slice("error:".length).trim());
      else if (l.startsWith("* ") && out.length > 0) out[out.length - 1] += ` ${l}`;
    }
    return [...new Set(out)];
  };
  const chosen = (errors(stderr).length > 0 ? errors(stderr) : errors(stdout).length > 0 ? errors(stdout) : lines(stderr)).slice(0, 5);
  return chosen.length > 0 ? chosen.join("; ") : "no error output";
}

export function failed(args: readonly string[], result: PulumiResult): PulumiCommandError {
  const how = result.code === null ? "was stopped" : `exited with ${result.code}`;
  return new PulumiCommandError(`\`pulumi ${args.join(" ")}\` ${how}: ${pulumiErrorText(result.stderr, result.stdout)}`);
}

/** `pulumi stack --show-name`: the stack selected in `cwd`, for when --stack is not given. */
export async function selectedStack(run: PulumiRunner, cwd: string): Promise<string> {
  const args = ["stack", "--show-name"];
  const result = await run(args, cwd);
  const name = result.stdout.trim();
  if (result.code !== 0 || name === "") {
    throw new PulumiCommandError(
      `no stack given and none selected (${pulumiErrorText(result.stderr)}): pass --stack <name> or run \`pulumi stack select\``,
    );
  }
  return name;
}

/** The stack's checkpoint as `pulumi stack export` prints it (secrets stay encrypted). */
export async function exportStack(run: PulumiRunner, stack: string, cwd: string): Promise<unknown> {
  const args = ["stack", "export", "--stack", stack];
  const result = await run(args, cwd);
  if (result.code !== 0) throw failed(args, result);
  try {
    return JSON.parse(result.stdout) as unknown;
  } catch {
    throw new PulumiCommandError(`\`pulumi ${args.join(" ")}\` printed something that is not a JSON checkpoint`);
  }
}

/**
 * The config keys that hold API settings and the admin scope, in the form resolveSettings() reads:
 * taken secret or not. Every connection setting but the created_from stamp, which is a plain key.
 */
export const SETTINGS_KEYS: readonly string[] = Object.values(SETTING_SPECS)
  .map((s) => s.config)
  .filter((key) => key !== SETTING_SPECS.createdFrom.config);

/** What `pulumi config --json --show-secrets` prints for one key: its value, and whether it is secret. */
type ConfigEntry = { value?: unknown; secret?: unknown } | undefined;

/**
 * `pulumi config --json --show-secrets`: every key of the stack's config, secret ones decrypted by
 * the CLI (which needs the stack's passphrase or secrets provider, exactly as `pulumi up` does).
 */
async function stackConfigListing(run: PulumiRunner, stack: string, cwd: string): Promise<Record<string, ConfigEntry>> {
  const args = ["config", "--json", "--show-secrets", "--stack", stack];
  const result = await run(args, cwd);
  if (result.code !== 0) throw failed(args, result);
  let parsed: unknown = {};
  try {
    if (result.stdout.trim() !== "") parsed = JSON.parse(result.stdout);
  } catch {
    // Never quote the output: it holds decrypted secrets.
    throw new PulumiCommandError(`\`pulumi ${args.join(" ")}\` printed something that is not JSON`);
  }
  return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, ConfigEntry>) : {};
}

/** A value as the listing prints it, secret or not. */
function settingValue(entry: ConfigEntry): string | undefined {
  return entry && (typeof entry.value === "string" || typeof entry.value === "number") ? String(entry.value) : undefined;
}

/** The plain `cdc:` values besides credentials (`cdc:createdFrom`, the tuning): never secret, so a secret one is ignored. */
function plainKeys(listing: Record<string, ConfigEntry>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of PLAIN_KEYS) {
    const value = listing[key]?.secret === true ? undefined : settingValue(listing[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const PLAIN_KEYS = [SETTING_SPECS.createdFrom.config, ...Object.values(TUNING_SPECS).map((spec) => spec.config)];

/**
 * The API settings and tuning the stack's config holds, keyed like stack config (`cdc:apiUrl`),
 * unset keys left out, from one `pulumi config --json --show-secrets`: a single Pulumi CLI
 * start-up (about 0.3 s of CPU each), where a listing plus a `config get` per secret key had been
 * most of what the drift command did. The output is parsed in memory and never quoted.
 */
export async function stackSettingsConfig(run: PulumiRunner, stack: string, cwd: string): Promise<Record<string, string>> {
  const listing = await stackConfigListing(run, stack, cwd);
  const out: Record<string, string> = plainKeys(listing);
  for (const key of SETTINGS_KEYS) {
    const value = settingValue(listing[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
