import { parseArgs } from "node:util";
import { IMPORT_USAGE, parseImportArgs, type ImportOptions } from "./import/args.js";
import { UsageError } from "./usage-error.js";

/** Exit codes of `pulumi-cdc drift`: CI scripts branch on them, so they are part of the interface. */
export const EXIT_CLEAN = 0;
export const EXIT_ERROR = 1;
export const EXIT_DRIFT = 2;

export const USAGE = `Usage: pulumi-cdc <command> [options]

Commands:
  drift     check a stack's resources against the API for changes made outside Pulumi
  recover   settle the pending operations of an interrupted \`pulumi up\` (killed, crashed, lost)
  import    write a Pulumi program that adopts an existing tenant's objects (no write to those that match)

Run \`pulumi-cdc drift --help\` for the options of a command; \`pulumi-cdc --version\` prints the version.
`;

export const DRIFT_USAGE = `Usage: pulumi-cdc drift [--stack <name>] [--cwd <program dir>] [--format human|json|markdown] [--summary-file <file>]

Checks the resources of a Pulumi stack against the Data Pipeline Management API, without running
the program, and reports changes made outside Pulumi and objects deleted outside Pulumi:

  sources, destinations  config edits, a status (Active, Paused, Stopped) other than desiredState, name, tags
  pipelines              source, destination, topics, transforms, snapshotNewTables, tags
  transforms             settings, implementation, name, tags, a job no longer RUNNING
  topics                 partition count, tags
  topic destinations     a topic detached from its destination
  SMT chains             entries, their order and settings, a salt set or cleared
  tags                   name, description, type
  agents                 instructions, connections, name, a status other than deployed
  HTTP connections       url, name, header names added or removed
  LLM connections        provider, model
  Kafka users            ACLs, whitelist IPs, the schema-registry user
  client credentials     roles, description

Every kind of pulumi-cdc. Secrets are never shown: secret values are neither read nor compared.

Options:
  -s, --stack <name>   the stack to check (default: the currently selected stack)
  -C, --cwd <dir>      the Pulumi program directory (default: the current directory)
  -f, --format <fmt>   the report on stdout: human (default), json, or markdown (a table per drifted
                       resource: kind, name, what changed with secrets masked, the fix)
      --json           the same as --format json
      --summary-file <file>
                       also append the Markdown report to <file> (created if missing, never truncated;
                       relative to the current directory, not --cwd), whatever --format is: in GitHub
                       Actions, --summary-file "$GITHUB_STEP_SUMMARY" puts it in the job's summary
  -h, --help           show this help

API settings come from the stack's config (cdc:apiUrl, cdc:clientId, cdc:clientSecret or
cdc:accessToken; secrets are decrypted by the Pulumi CLI, so set PULUMI_CONFIG_PASSPHRASE as for
\`pulumi up\`), falling back to CDC_API_URL, CDC_CLIENT_ID, CDC_CLIENT_SECRET, CDC_ACCESS_TOKEN.
An operator's admin scope (cdc:adminTenantId, cdc:adminServiceId; CDC_ADMIN_TENANT_ID,
CDC_ADMIN_SERVICE_ID) applies as it does for \`pulumi up\`: the command reads that tenant.

Exit status: 0 no drift, 2 drift found, 1 error, in every format (1 also when the summary file
cannot be written).

In CI, use it beside \`pulumi preview --expect-no-changes\`: the preview also fails on drift and
says what changed under Diagnostics; this command adds a report per resource and a JSON result,
without running the program.
`;

export const RECOVER_USAGE = `Usage: pulumi-cdc recover [--stack <name>] [--cwd <program dir>] [--yes]

After a \`pulumi up\` was interrupted (killed, out of memory, a lost CI runner), the stack holds
pending operations: creates the engine started and never saw finish. This command finds each
pending create's object in the API by its unique name (checking its connector and that Pulumi
made it; an SMT chain by its destination, when the chain there is the create's) and takes it
into the stack; a pending create whose object never came to exist is cleared (right after the kill it first waits until 15 s have passed since the run stopped, for
creates still in flight); a client credential it made is deleted (its secret was lost with the run); every other
pending operation is resolved by a \`pulumi refresh\`. A lock left by the killed run is released
when its process is gone. Then one \`pulumi up\` finishes the work, with no 409 and no orphan.

It prints what it found and what it would do, and changes nothing without --yes.

Options:
  -s, --stack <name>   the stack to recover (default: the currently selected stack)
  -C, --cwd <dir>      the Pulumi program directory (default: the current directory)
  -y, --yes            do it: edit the stack, delete lost credentials, run \`pulumi refresh\`
  -h, --help           show this help

API settings come from the stack's config, as for \`pulumi-cdc drift\`.
Exit status: 0 done (or nothing to do), 1 error.
`;

export interface RecoverOptions {
  stack?: string;
  cwd?: string;
  yes: boolean;
}

export { UsageError };

/** The report formats of `pulumi-cdc drift` (`--format`). */
export const DRIFT_FORMATS = ["human", "json", "markdown"] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

export interface DriftOptions {
  /** Undefined: the stack the Pulumi CLI has selected in `cwd`. */
  stack?: string;
  /** As given (relative paths are resolved by the caller). */
  cwd?: string;
  /** The report printed on stdout. */
  format: DriftFormat;
  /** `--summary-file`: a file the Markdown report is appended to, as given (relative to the process's directory). */
  summaryFile?: string;
}

export type Command =
  | { command: "help"; usage: string }
  | { command: "version" }
  | { command: "drift"; options: DriftOptions }
  | { command: "recover"; options: RecoverOptions }
  | { command: "import"; options: ImportOptions };

/** Parses the whole command line (without `node` and the script). Throws UsageError. */
export function parseCommandLine(argv: readonly string[]): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    // `help drift` is the same as `drift --help`.
    return { command: "help", usage: rest[0] === "drift" ? DRIFT_USAGE : rest[0] === "recover" ? RECOVER_USAGE : rest[0] === "import" ? IMPORT_USAGE : USAGE };
  }
  if ((first === "--version" || first === "-V" || first === "version") && rest.length === 0) return { command: "version" };
  if (first === "drift") return parseDriftArgs(rest);
  if (first === "recover") return parseRecoverArgs(rest);
  if (first === "import") return parseImportArgs(rest);
  throw new UsageError(first.startsWith("-") ? `unknown option '${first}' before the command` : `unknown command '${first}'`, USAGE);
}

/**
 * The options every stack command shares (`--stack`, `--cwd`, `--help`) plus its own flag.
 * Throws UsageError with the command's usage.
 */
function parseStackCommand(argv: readonly string[], usage: string, flag: { name: string; short?: string }, strings: Record<string, { short?: string }> = {}) {
  let values: { stack?: string; cwd?: string; help?: boolean } & Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        stack: { type: "string", short: "s" },
        cwd: { type: "string", short: "C" },
        [flag.name]: { type: "boolean", ...(flag.short ? { short: flag.short } : {}) },
        help: { type: "boolean", short: "h" },
        ...Object.fromEntries(Object.entries(strings).map(([name, { short }]) => [name, { type: "string" as const, ...(short ? { short } : {}) }])),
      },
    }) as { values: { stack?: string; cwd?: string; help?: boolean } & Record<string, unknown> });
  } catch (error) {
    // node:util's messages are precise ("Unknown option '--jsn'"); later sentences give advice about its own syntax.
    throw new UsageError((error as Error).message.split(/\.(?:\s|$)/)[0]!, usage);
  }
  const common: { help: boolean; flag: boolean; stack?: string; cwd?: string; strings: Record<string, string | undefined> } = {
    help: values.help === true,
    flag: values[flag.name] === true,
    strings: Object.fromEntries(Object.keys(strings).map((name) => [name, values[name] as string | undefined])),
  };
  if (values.stack !== undefined) {
    const stack = values.stack.trim();
    // `--stack --json` would otherwise name a stack "--json".
    if (stack === "" || stack.startsWith("-")) throw new UsageError(`--stack needs a stack name, got '${values.stack}'`, usage);
    common.stack = stack;
  }
  if (values.cwd !== undefined) {
    if (values.cwd.trim() === "" || values.cwd.startsWith("-")) throw new UsageError(`--cwd needs a directory, got '${values.cwd}'`, usage);
    common.cwd = values.cwd;
  }
  return common;
}

export function parseDriftArgs(argv: readonly string[]): Command {
  const { help, flag, stack, cwd, strings } = parseStackCommand(argv, DRIFT_USAGE, { name: "json" }, { format: { short: "f" }, "summary-file": {} });
  if (help) return { command: "help", usage: DRIFT_USAGE };
  const given = strings.format;
  if (given !== undefined && !(DRIFT_FORMATS as readonly string[]).includes(given)) {
    throw new UsageError(`--format must be one of ${DRIFT_FORMATS.join(", ")}, got '${given}'`, DRIFT_USAGE);
  }
  if (flag && given !== undefined && given !== "json") throw new UsageError(`--json and --format ${given} ask for two formats: give one of them`, DRIFT_USAGE);
  const format: DriftFormat = flag ? "json" : ((given as DriftFormat | undefined) ?? "human");
  const summaryFile = strings["summary-file"];
  // `--summary-file --json` would otherwise write to a file named "--json"; an unset $GITHUB_STEP_SUMMARY gives "".
  if (summaryFile !== undefined && (summaryFile.trim() === "" || summaryFile.startsWith("-"))) {
    throw new UsageError(`--summary-file needs a file path, got '${summaryFile}' (outside GitHub Actions $GITHUB_STEP_SUMMARY is empty: leave the flag out there)`, DRIFT_USAGE);
  }
  return {
    command: "drift",
    options: { format, ...(stack !== undefined ? { stack } : {}), ...(cwd !== undefined ? { cwd } : {}), ...(summaryFile !== undefined ? { summaryFile } : {}) },
  };
}

export function parseRecoverArgs(argv: readonly string[]): Command {
  const { help, flag, stack, cwd } = parseStackCommand(argv, RECOVER_USAGE, { name: "yes", short: "y" });
  if (help) return { command: "help", usage: RECOVER_USAGE };
  return { command: "recover", options: { yes: flag, ...(stack !== undefined ? { stack } : {}), ...(cwd !== undefined ? { cwd } : {}) } };
}
