import { parseArgs } from "node:util";
import { UsageError } from "../usage-error.js";
import { KIND_NAMES, PLATFORM_TOPIC_PARTITIONS, type Kind } from "./kinds.js";

export const IMPORT_USAGE = `Usage: pulumi-cdc import --out <dir> [options]

Reads a tenant of the Data Pipeline Management API and writes a ready Pulumi program that takes
its objects over: tags, sources, destinations, transforms (with their implementation),
pipelines, agents, HTTP and LLM connections, Kafka users, each destination's chain of single
message transforms (SMT chain), the topics whose partitions or tags differ from what the platform made
(${PLATFORM_TOPIC_PARTITIONS} partitions, no tags), and the topics of API sources sent to destinations (found by asking
each topic and destination pair). Each resource carries the object's
adoptId, so the first \`pulumi up\` takes it over, writing nothing to an object that already
matches. Client credentials are listed in a comment: their secret cannot be read, so they are
not adopted (a Terraform state holds it: --from-terraform adopts them).

The program uses the typed helpers (postgresqlTables(...), snowflakeDestination(...)) where the
connector is catalogued, and a raw config map with a comment saying why otherwise; it writes
only values that differ from the catalogue's defaults; references between objects are
variables; each secret the API masks is read with config.requireSecret("<name>"), and the
\`pulumi config set --secret\` commands to run are printed and listed in the program's README
(an SMT chain's salt is written "********" instead: that keeps the one the platform holds).
The same tenant gives the same bytes.

Options:
  -o, --out <dir>                the directory to write the program into (created if missing);
                                 one that already holds a program is refused unless --force
      --force                    write into --out even if it holds a program (its files are replaced)
  -k, --kind <kinds>             only these kinds, comma-separated or repeated:
                                 ${Object.keys(KIND_NAMES).slice(0, 6).join(", ")},
                                 ${Object.keys(KIND_NAMES).slice(6).join(", ")}
  -n, --name <glob>              only objects whose name matches (* and ?; repeat for several)
  -t, --tag <tag name>           only objects carrying this tag, and the tag itself (repeat for several)
  -s, --stack <name>             read the API settings from this stack's config (then the CDC_* variables)
      --skip-managed             leave out the objects --stack already manages (references to them
                                 become their ids, with a comment)
      --lang <typescript|yaml|python>
                                 the program's language (default typescript); yaml writes a
                                 Pulumi.yaml on the provider plugin (cdc:index:<Kind>); python a
                                 __main__.py on its Python SDK (cdc.Source(...), requirements.txt)
      --project <name>           the Pulumi project name (default: the --out directory's name)
      --pulumi-import-file <f>   also write a file for \`pulumi import -f <f>\` (provider plugin)
      --raw-config <glob>        write the config of the connectors whose name matches as a raw
                                 map of the platform's keys instead of the typed helper (repeat for several)
  -C, --cwd <dir>                where --stack's Pulumi project is (default: the current directory)
      --from-terraform <state>   read the objects from a Terraform state instead of the API: a
                                 terraform.tfstate (format 4), the output of \`terraform show -json\`,
                                 or a Terraform working directory (terraform show -json is run there).
                                 Every streamkap_* resource becomes a resource named from its address;
                                 the state's secrets (a Kafka user's password and a client
                                 credential's secret too) go into the stack's config, never into a file.
                                 Writes the handover for Terraform (removed blocks) and prints the
                                 \`terraform state rm\` commands. With CDC_API_URL, CDC_CLIENT_ID and
                                 CDC_CLIENT_SECRET set it reads the live objects (read only) and says
                                 where they differ from the state; without them it makes no API call
      --secrets-stack <name>     with --from-terraform: the stack of the written program to set the
                                 secrets in (\`pulumi config set --secret\`; created if missing)
      --handover <file>          with --from-terraform: where to write the removed blocks
                                 (default <out>/terraform-handover.tf)
  -h, --help                     show this help

API settings: with --stack, the stack's config (cdc:apiUrl, cdc:clientId, cdc:clientSecret or
cdc:accessToken; set PULUMI_CONFIG_PASSPHRASE as for \`pulumi up\`), falling back to
CDC_API_URL, CDC_CLIENT_ID, CDC_CLIENT_SECRET, CDC_ACCESS_TOKEN; without it, those variables.
An operator's admin scope (cdc:adminTenantId and cdc:adminServiceId, or CDC_ADMIN_TENANT_ID and
CDC_ADMIN_SERVICE_ID) reads that tenant, and the program's next steps set it on the new stack.

Nothing is written when anything fails: an unknown --kind, an unreachable API or bad
credentials, an --out directory that holds a program. An object the generator cannot express
with a typed helper is written as raw config with a comment, never left out in silence.
Exit status: 0 written, 1 error.
`;

export interface ImportOptions {
  out: string;
  force: boolean;
  kinds?: Set<Kind>;
  names: string[];
  tags: string[];
  stack?: string;
  skipManaged: boolean;
  lang: "typescript" | "yaml" | "python";
  project?: string;
  importFile?: string;
  rawConfig: string[];
  cwd?: string;
  fromTerraform?: string;
  secretsStack?: string;
  handover?: string;
}

export type ImportCommand = { command: "help"; usage: string } | { command: "import"; options: ImportOptions };

/** `sources`, `Source`, `source`, `http-connection`, `HttpConnection` → the kind. */
export function kindOf(text: string): Kind | undefined {
  const t = text.trim().toLowerCase().replace(/_/g, "-");
  if (KIND_NAMES[t]) return KIND_NAMES[t];
  if (KIND_NAMES[`${t}s`]) return KIND_NAMES[`${t}s`];
  const compact = t.replace(/-/g, "");
  for (const [name, kind] of Object.entries(KIND_NAMES)) {
    const n = name.replace(/-/g, "");
    if (compact === n || `${compact}s` === n || compact === kind.toLowerCase()) return kind;
  }
  return undefined;
}

function nonEmpty(flag: string, value: string): string {
  if (value.trim() === "" || value.startsWith("-")) throw new UsageError(`${flag} needs a value, got '${value}'`, IMPORT_USAGE);
  return value;
}

/** Parses `pulumi-cdc import`'s arguments (after `import`). Throws UsageError. */
export function parseImportArgs(argv: readonly string[]): ImportCommand {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: "string", short: "o" },
        force: { type: "boolean" },
        kind: { type: "string", short: "k", multiple: true },
        name: { type: "string", short: "n", multiple: true },
        tag: { type: "string", short: "t", multiple: true },
        stack: { type: "string", short: "s" },
        "skip-managed": { type: "boolean" },
        lang: { type: "string" },
        project: { type: "string" },
        "pulumi-import-file": { type: "string" },
        "raw-config": { type: "string", multiple: true },
        cwd: { type: "string", short: "C" },
        "from-terraform": { type: "string" },
        "secrets-stack": { type: "string" },
        handover: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split(/\.(?:\s|$)/)[0]!, IMPORT_USAGE);
  }
  if (values.help === true) return { command: "help", usage: IMPORT_USAGE };
  if (typeof values.out !== "string") throw new UsageError("--out <dir> is required: the directory to write the program into", IMPORT_USAGE);
  const out = nonEmpty("--out", values.out);
  let kinds: Set<Kind> | undefined;
  for (const given of (values.kind as string[] | undefined) ?? []) {
    for (const part of given.split(",")) {
      if (part.trim() === "") continue;
      const kind = kindOf(part);
      if (!kind) throw new UsageError(`unknown --kind '${part.trim()}': the kinds are ${Object.keys(KIND_NAMES).join(", ")}`, IMPORT_USAGE);
      (kinds ??= new Set()).add(kind);
    }
  }
  const lang = (values.lang as string | undefined) ?? "typescript";
  const lower = lang.toLowerCase();
  const normalized = lower === "ts" ? "typescript" : lower === "py" ? "python" : lower;
  if (normalized !== "typescript" && normalized !== "yaml" && normalized !== "python") throw new UsageError(`unknown --lang '${lang}': typescript, yaml or python`, IMPORT_USAGE);
  const stack = values.stack === undefined ? undefined : nonEmpty("--stack", values.stack as string).trim();
  const skipManaged = values["skip-managed"] === true;
  if (skipManaged && stack === undefined) throw new UsageError("--skip-managed needs --stack <name>: the stack whose objects to leave out", IMPORT_USAGE);
  const fromTerraform = values["from-terraform"] === undefined ? undefined : nonEmpty("--from-terraform", values["from-terraform"] as string);
  for (const flag of ["secrets-stack", "handover"]) {
    if (values[flag] !== undefined && fromTerraform === undefined) throw new UsageError(`--${flag} goes with --from-terraform <state>`, IMPORT_USAGE);
  }
  if (fromTerraform !== undefined) {
    const apiOnly = (["stack", "skip-managed", "kind", "tag"] as const).find((f) => values[f] !== undefined);
    if (apiOnly) throw new UsageError(`--${apiOnly} reads the API, and --from-terraform reads the state instead: leave one of them out`, IMPORT_USAGE);
  }
  const options: ImportOptions = {
    out,
    force: values.force === true,
    ...(kinds ? { kinds } : {}),
    names: ((values.name as string[] | undefined) ?? []).map((n) => nonEmpty("--name", n)),
    tags: ((values.tag as string[] | undefined) ?? []).map((t) => nonEmpty("--tag", t)),
    ...(stack !== undefined ? { stack } : {}),
    skipManaged,
    lang: normalized,
    rawConfig: ((values["raw-config"] as string[] | undefined) ?? []).map((g) => nonEmpty("--raw-config", g)),
    ...(values.project !== undefined ? { project: nonEmpty("--project", values.project as string) } : {}),
    ...(values["pulumi-import-file"] !== undefined ? { importFile: nonEmpty("--pulumi-import-file", values["pulumi-import-file"] as string) } : {}),
    ...(values.cwd !== undefined ? { cwd: nonEmpty("--cwd", values.cwd as string) } : {}),
    ...(fromTerraform !== undefined ? { fromTerraform } : {}),
    ...(values["secrets-stack"] !== undefined ? { secretsStack: nonEmpty("--secrets-stack", values["secrets-stack"] as string) } : {}),
    ...(values.handover !== undefined ? { handover: nonEmpty("--handover", values.handover as string) } : {}),
  };
  return { command: "import", options };
}
