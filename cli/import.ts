import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import { redact, resolveSettings, resolveTuning, type CdcClient } from "../provider/client/index.js";
import { EXIT_ERROR } from "./args.js";
import { describeError, DirectoryError, programDir } from "./common.js";
import type { ImportOptions } from "./import/args.js";
import { adminScopeCommands, countsText, importFile, programFiles, projectName, pythonSdkDir, secretCommands } from "./import/files.js";
import { buildProgram, type Kind, type ProgramModel } from "./import/model.js";
import { readTenant } from "./import/tenant.js";
import { readTerraformInput, TerraformInputError, terraformShow, type TerraformShow } from "./import/terraform/state.js";
import { driftLines } from "./import/terraform/drift.js";
import { handover, stateTenant, type StateTenant } from "./import/terraform/tenant.js";
import type { CommandIO } from "./io.js";
import { exportStack, stackSettingsConfig } from "./pulumi.js";
import { cdcKindOf } from "../provider/resource-types.js";

/** Everything the command touches outside itself, injectable for tests: the commands' IO. */
export type ImportDeps = CommandIO & { terraformShow?: TerraformShow };

/** Files whose presence says a directory already holds a Pulumi program. */
const PROGRAM_FILES = ["Pulumi.yaml", "Pulumi.yml", "index.ts", "package.json", "main.go", "__main__.py"];

/** --out holds a program and --force was not given. */
export class OutDirError extends Error {}

/** Refuses an --out that already holds a program (unless --force), or that is not a directory. */
async function checkOut(dir: string, force: boolean): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) throw new OutDirError(`--out ${dir} exists and is not a directory`);
  if (force) return;
  const present = (await readdir(dir)).filter((f) => PROGRAM_FILES.includes(f)).sort();
  if (present.length > 0) {
    throw new OutDirError(`--out ${dir} already holds a program (${present.join(", ")}): choose an empty directory, or pass --force to replace its files`);
  }
}

/** The ids a stack's state tracks, per kind (either host's type tokens). */
export function managedIds(checkpoint: unknown): Map<Kind, Set<string>> {
  const out = new Map<Kind, Set<string>>();
  const resources = (checkpoint as { deployment?: { resources?: Array<{ type?: unknown; id?: unknown; delete?: unknown }> } })?.deployment?.resources ?? [];
  for (const r of resources) {
    if (typeof r.type !== "string" || typeof r.id !== "string" || r.id === "" || r.delete === true) continue;
    const kind = cdcKindOf(r.type);
    if (!kind) continue;
    const set = out.get(kind as Kind) ?? new Set<string>();
    set.add(r.id);
    out.set(kind as Kind, set);
  }
  return out;
}

/** `pulumi-cdc import`: reads the tenant and writes the program. Does not throw. */
export async function runImport(options: ImportOptions, deps: ImportDeps): Promise<{ code: number; model?: ProgramModel; written?: string[] }> {
  let api: CdcClient | undefined;
  try {
    const out = isAbsolute(options.out) ? options.out : resolve(deps.cwd, options.out);
    // Before any API call: a refusal here costs the user nothing.
    await checkOut(out, options.force);
    if (options.fromTerraform !== undefined) return await importFromTerraform(options, out, deps);
    const importPath = options.importFile === undefined ? undefined : isAbsolute(options.importFile) ? options.importFile : resolve(deps.cwd, options.importFile);
    let config: Record<string, string> = {};
    let managed: Map<Kind, Set<string>> | undefined;
    if (options.stack !== undefined) {
      const cwd = await programDir(deps.cwd, options.cwd);
      config = await stackSettingsConfig(deps.runPulumi, options.stack, cwd);
      if (options.skipManaged) managed = managedIds(await exportStack(deps.runPulumi, options.stack, cwd));
    }
    const settings = resolveSettings(config, deps.env);
    api = deps.createClient(settings, resolveTuning(config, deps.env));
    const tenant = await readTenant(api, options.kinds ? { kinds: options.kinds } : {});
    const model = buildProgram(tenant, {
      ...(options.kinds ? { kinds: options.kinds } : {}),
      names: options.names,
      tags: options.tags,
      ...(managed ? { managed, managedBy: options.stack } : {}),
      rawConfig: options.rawConfig,
      ...(settings.clientId ? { clientId: settings.clientId } : {}),
      ...(settings.adminTenantId
        ? { adminScope: { tenantId: settings.adminTenantId, ...(settings.adminServiceId ? { serviceId: settings.adminServiceId } : {}) } }
        : {}),
    });
    for (const tag of options.tags) {
      if (!tenant.Tag.some((t) => t.name === tag)) deps.stderr(`pulumi-cdc import: warning: no tag is named "${tag}": --tag ${tag} matches nothing\n`);
    }
    const project = options.project ?? projectName(basename(out));
    const files = programFiles(model, {
      lang: options.lang,
      project,
      ...(options.lang === "python" ? pythonSdkOption(out) : {}),
      ...(importPath ? { importFile: relative(out, importPath) || basename(importPath) } : {}),
    });
    // Everything is known: now write.
    const written = await writeProgram(out, files);
    if (importPath) {
      await mkdir(dirname(importPath), { recursive: true });
      await writeFile(importPath, importFile(model));
      written.push(importPath);
    }
    deps.stdout(summary(model, out, written, tenant.notes, options));
    return { code: 0, model, written };
  } catch (error) {
    const message = error instanceof OutDirError || error instanceof DirectoryError || error instanceof TerraformInputError ? error.message : describeError(error);
    deps.stderr(`pulumi-cdc import: ${redact(message)}\nNothing was written.\n`);
    return { code: EXIT_ERROR };
  } finally {
    await api?.close().catch(() => undefined);
  }
}

const LANG_NAMES = { typescript: "TypeScript", yaml: "YAML", python: "Python" } as const;

/** requirements.txt's path to this checkout's generated/sdks/python, relative to the program's directory. */
/** Writes the program's files into `out` (made first); the paths written, in order. */
async function writeProgram(out: string, files: Iterable<[string, string]>): Promise<string[]> {
  await mkdir(out, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of files) {
    const path = resolve(out, name);
    await writeFile(path, text);
    written.push(path);
  }
  return written;
}

function pythonSdkOption(out: string): { pythonSdk?: string } {
  const sdk = pythonSdkDir();
  if (!sdk) return {};
  const rel = relative(resolve(out), sdk);
  return { pythonSdk: rel.startsWith("..") ? rel : `./${rel}` };
}

/** `secretsIn`: the stack whose config the import already set the secrets in (--secrets-stack): neither its init nor the secrets' commands are printed. */
function summary(model: ProgramModel, out: string, written: readonly string[], notes: readonly string[], options: ImportOptions, secretsIn?: string): string {
  const lines = [`Wrote a ${LANG_NAMES[options.lang]} program for ${countsText(model)} to ${out}:`];
  for (const path of written) lines.push(`  ${path.startsWith(`${out}/`) ? relative(out, path) : path}`);
  for (const note of notes) lines.push(`Note: ${note}.`);
  if (model.warnings.length > 0) {
    lines.push("", "To look at (also in the program's README):");
    for (const w of model.warnings) lines.push(`  - ${w}`);
  }
  if (model.credentials.length > 0) {
    lines.push("", `${model.credentials.length} client credential${model.credentials.length === 1 ? " is" : "s are"} listed in a comment, not adopted: the API never shows a secret again.`);
  }
  lines.push("", "Next, in that directory:");
  if (options.lang === "typescript") lines.push("  npm install");
  if (secretsIn === undefined) lines.push("  pulumi stack init <stack>");
  else lines.push(`  pulumi stack select ${secretsIn}`);
  lines.push("  pulumi config set cdc:apiUrl <url>; pulumi config set cdc:clientId <id>; pulumi config set --secret cdc:clientSecret");
  for (const c of adminScopeCommands(model)) lines.push(`  ${c}`);
  if (model.secrets.length > 0 && secretsIn === undefined) {
    lines.push("", "Set the secrets the API masks (each command asks for the value):");
    for (const c of secretCommands(model)) lines.push(`  ${c}`);
  }
  lines.push("", "Then `pulumi up`: objects that already match are adopted with no write.");
  return `${lines.join("\n")}\n`;
}


/**
 * `pulumi-cdc import --from-terraform`: the same program, read from a Terraform state instead of
 * the API (no API call), with the handover that makes Terraform let go, and the state's secrets
 * put into the stack's config (`--secrets-stack`) or left for commands the summary prints.
 */
async function importFromTerraform(options: ImportOptions, out: string, deps: ImportDeps): Promise<{ code: number; model?: ProgramModel; written?: string[] }> {
  const input = isAbsolute(options.fromTerraform!) ? options.fromTerraform! : resolve(deps.cwd, options.fromTerraform!);
  const { instances, from } = await readTerraformInput(input, deps.terraformShow ?? terraformShow);
  const state = stateTenant(instances);
  const model = buildProgram(state.tenant, { names: options.names, rawConfig: options.rawConfig, label: state.label, secretValue: state.secretValue });
  const adopted = model.resources.map((r) => state.addresses.get(`${r.kind}\0${r.id}`)).filter((i) => i !== undefined);
  const drift = await compareLive(deps, state, model, options);
  const handoverPath = options.handover === undefined ? resolve(out, "terraform-handover.tf") : isAbsolute(options.handover) ? options.handover : resolve(deps.cwd, options.handover);
  const { file: handoverText, stateRm } = handover(adopted);
  const project = options.project ?? projectName(basename(out));
  const files = programFiles(model, { lang: options.lang, project, ...(options.lang === "python" ? pythonSdkOption(out) : {}) });
  const written = await writeProgram(out, files);
  await mkdir(dirname(handoverPath), { recursive: true });
  await writeFile(handoverPath, handoverText);
  written.push(handoverPath);
  let secretsSet = false;
  if (options.secretsStack !== undefined && model.secrets.length > 0) {
    await setSecrets(deps, out, options.secretsStack, model);
    secretsSet = true;
  }
  const lines = [`Read from ${from}: ${instances.filter((i) => i.type.startsWith("streamkap_")).length} streamkap_* instance(s), ${adopted.length} adopted.`, summary(model, out, written, [], options, secretsSet ? options.secretsStack : undefined).trimEnd()];
  const notCarried = [...state.unmapped, ...state.warnings];
  if (notCarried.length > 0) lines.push("", "Not carried over (by Terraform address):", ...notCarried.map((w) => `  - ${w}`));
  if (drift.lines.length > 0) lines.push("", "Drift: the live objects differ from the state (by Terraform address):", ...drift.lines.map((w) => `  - ${w}`));
  else lines.push("", drift.compared);
  if (secretsSet) lines.push("", `The ${model.secrets.length} secret(s) of the state are set in stack ${options.secretsStack}'s config as secrets (pulumi config set --secret).`);
  else if (model.secrets.length > 0) lines.push("", "The state holds the secrets' values: pass --secrets-stack <stack> to have them set, or set each with the commands above.");
  lines.push(
    "",
    `Terraform's handover (${relative(deps.cwd, handoverPath) || handoverPath}): once \`pulumi up\` has adopted everything, delete the streamkap_* resource blocks,`,
    "add that file to the Terraform configuration and run `terraform apply` (Terraform >= 1.7): it forgets them, destroying nothing.",
    "On an older Terraform, run instead:",
    ...stateRm.map((c) => `  ${c}`),
  );
  deps.stdout(`${lines.join("\n")}\n`);
  return { code: 0, model, written };
}

/**
 * Drift in Terraform's world: with the API's settings in the environment (CDC_API_URL,
 * CDC_CLIENT_ID, CDC_CLIENT_SECRET, as for an import from the API), the tenant is read (read only)
 * and written as the same program, named from the same addresses, to compare with the state's.
 * Without them nothing is read, and the summary says so.
 */
async function compareLive(deps: ImportDeps, state: StateTenant, model: ProgramModel, options: ImportOptions): Promise<{ lines: string[]; compared: string }> {
  if (model.resources.length === 0) return { lines: [], compared: "" };
  let settings: ReturnType<typeof resolveSettings>;
  try {
    settings = resolveSettings({}, deps.env);
  } catch {
    return { lines: [], compared: "Not compared with the live objects: set CDC_API_URL, CDC_CLIENT_ID and CDC_CLIENT_SECRET to have the import read them (read only) and say where they differ from the state." };
  }
  const api = deps.createClient(settings, resolveTuning({}, deps.env));
  try {
    const kinds = new Set(model.resources.map((r) => r.kind));
    const tenant = await readTenant(api, { kinds });
    // A topic the state declares is written whatever its partitions: so is its live twin.
    for (const t of tenant.Topic) if (state.addresses.has(`Topic\0${t.id}`)) t.declared = true;
    // Named alike, and with the state's secrets alike: an adopted credential (written only where
    // its secret is held) has its live twin, and secrets are never compared.
    const live = buildProgram(tenant, { kinds, names: options.names, rawConfig: options.rawConfig, label: state.label, secretValue: state.secretValue });
    const lines = driftLines(model, live, (r) => state.addresses.get(`${r.kind}\0${r.id}`)?.address);
    return { lines, compared: `Compared with the live objects at ${settings.apiUrl} (read only): they match the state.` };
  } finally {
    await api.close().catch(() => undefined);
  }
}

/** Puts the state's secrets into the stack's config (created when missing), each value on stdin: never an argument, never printed. */
async function setSecrets(deps: ImportDeps, out: string, stack: string, model: ProgramModel): Promise<void> {
  const selected = await deps.runPulumi(["stack", "select", "--create", stack], out);
  if (selected.code !== 0) throw new Error(`pulumi stack select --create ${stack} failed in ${out}: ${selected.stderr.trim().split("\n").slice(-2).join(" ")}`);
  for (const secret of model.secrets) {
    const value = model.secretValues?.get(secret.name);
    if (value === undefined) continue;
    const set = await deps.runPulumi(["config", "set", "--secret", "--stack", stack, secret.name], out, { input: value });
    if (set.code !== 0) throw new Error(`pulumi config set --secret ${secret.name} failed: ${set.stderr.trim().split("\n").slice(-2).join(" ")}`);
  }
}
