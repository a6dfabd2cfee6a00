import { nameSchema } from "../../provider/check.js";
import type { ClientCredential } from "../../provider/client/index.js";
import { Reference, refKey, Secret, type ImportContext, type ImportedInputs, type ImportedObject, type Ref, type TenantObjects, type Value } from "../../provider/kinds/imported.js";
import { assignIdentifiers, globToRegExp, secretConfigName, type Nameable } from "./names.js";
import { connectorSettings, helperNames, type Settings } from "./settings.js";
import type { Tenant } from "./tenant.js";

/**
 * The program `pulumi-cdc import` writes, as data: one resource per object taken over, in the
 * order a program declares them (what a resource refers to comes first), with its inputs on the
 * provider plugin in the schema's names: settings, secrets (read from config) and references
 * (variables of the program, or ids of objects the program leaves out, each with why). What a
 * program sets on an object of a kind is that kind's to say (its declaration's `imported`); the
 * renderers (typescript.ts, yaml.ts, python.ts) turn the model into text. Everything decided
 * about the tenant is decided here, once, for every language.
 */

// The kinds and their command-line names live in kinds.ts, which loads nothing: `pulumi-cdc`'s
// argument parsing reads them for every command, and this module loads the provider's core.
import { IMPORTED_KINDS, KIND_ORDER, type Kind } from "./kinds.js";
export { KIND_NAMES, KIND_ORDER, PLATFORM_TOPIC_PARTITIONS, type Kind } from "./kinds.js";
export { Reference, Secret, type Ref, type Value } from "../../provider/kinds/imported.js";
export { connectorSettings, type Setting, type Settings } from "./settings.js";

export interface Resource {
  kind: Kind;
  ident: string;
  /** The object's id: adoptId (a topic's topicId). */
  id: string;
  name: string;
  /** Comment lines the renderers put above the resource. */
  notes: string[];
  /** Objects to create first that no property refers to (a topic's source or transform). */
  dependsOn: Ref[];
  /** Its inputs on the provider plugin (`cdc:index:<Kind>`) by the schema's names, in the order a program writes them. */
  inputs: { [input: string]: Value };
  /** A catalogued kind's config as TypeScript writes it: through the typed helper, or raw, with why. */
  settings?: Settings;
}

export interface CredentialNote {
  clientId: string;
  roles: string[];
  description: string;
  serviceId: string;
  createdFrom: string;
  /** The credential this import used. */
  used: boolean;
}

export interface ProgramModel {
  resources: Resource[];
  secrets: Secret[];
  credentials: CredentialNote[];
  /** Things the user should know (an object written as raw config, a value pulumi-cdc's check refuses, ...). */
  warnings: string[];
  /** The operator's admin scope the tenant was read through: the program's stack must set it too. */
  adminScope?: AdminScope;
  /**
   * The values of secrets the source of the model holds in plain text (a Terraform state), by
   * their config name: put into the stack's config as secrets, never into a file the import writes.
   */
  secretValues?: ReadonlyMap<string, string>;
}

/** `cdc:adminTenantId` and `cdc:adminServiceId`, as the import was run with them. */
export interface AdminScope {
  tenantId: string;
  serviceId?: string;
}

export interface Selection {
  /** Unset: every kind. */
  kinds?: ReadonlySet<Kind>;
  /** Globs on the objects' names (any may match). */
  names?: readonly string[];
  /** Names of tags: only objects carrying one of them (and those tags). */
  tags?: readonly string[];
  /** Ids a stack already manages, by kind: left out (`--skip-managed`). */
  managed?: ReadonlyMap<Kind, ReadonlySet<string>>;
  /** The stack those ids are from, for the notes. */
  managedBy?: string;
  /** Globs on connector names whose settings are written as raw config, not with the helper (`--raw-config`). */
  rawConfig?: readonly string[];
  /** The client id the import read the tenant with, marked in the credentials' comment. */
  clientId?: string;
  adminScope?: AdminScope;
  /** What an object's identifier is made from, when not its name (a Terraform address). */
  label?: (kind: Kind, id: string) => string | undefined;
  /** A secret's value the source holds (a Terraform state), by the object and the setting's key; undefined when it has none. */
  secretValue?: (kind: Kind, id: string, key: string) => string | undefined;
}

/** The suffix of identifiers per kind (`ordersSource`), and how messages name one object of it: its declaration's. */
const SUFFIX = (kind: Kind) => IMPORTED_KINDS[kind].imported.suffix;
const LABEL = (kind: Kind) => IMPORTED_KINDS[kind].noun;

/** An object of the tenant as the selection sees it: its kind's `objects` of what the tenant read. */
type Candidate = ImportedObject<unknown> & { kind: Kind };

const byNameThenId = <T extends { name: string; id: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The candidates of every kind, in the order a program declares them, sorted by name then id within the kind. */
function candidates(tenant: Tenant): Candidate[] {
  return KIND_ORDER.flatMap((kind) => {
    const objects = IMPORTED_KINDS[kind].imported.objects as (listed: readonly unknown[], tenant: TenantObjects) => ImportedObject<unknown>[];
    return objects(tenant[kind], tenant)
      .map((o) => ({ ...o, kind }))
      .sort(byNameThenId);
  });
}

/** Why a candidate is left out, or undefined when it is in the program. */
function exclusion(c: Candidate, selection: Selection, tagName: (id: string) => string | undefined): string | undefined {
  if (selection.managed?.get(c.kind)?.has(c.id)) return `managed by stack ${selection.managedBy ?? "(the given stack)"}`;
  if (selection.kinds && !selection.kinds.has(c.kind)) return "not imported: --kind leaves it out";
  if (selection.names && selection.names.length > 0 && !selection.names.some((g) => globToRegExp(g).test(c.name))) return "not imported: --name leaves it out";
  if (selection.tags && selection.tags.length > 0 && !c.tagIds.some((id) => selection.tags!.includes(tagName(id) ?? ""))) return "not imported: --tag leaves it out";
  return undefined;
}

/** Builds the program from the tenant and the selection. Pure. */
export function buildProgram(tenant: Tenant, selection: Selection = {}): ProgramModel {
  const all = candidates(tenant);
  const labels = new Map(all.map((c) => [`${c.kind}\0${c.id}`, c.name]));
  const referOnly = new Map(all.flatMap((c) => (c.referOnly ? [[`${c.kind}\0${c.id}`, c.referOnly] as const] : [])));
  const tagName = (id: string) => labels.get(`Tag\0${id}`);
  const excluded = new Map<string, string>();
  const chosen: Candidate[] = [];
  for (const c of all) {
    if (c.referOnly) continue;
    const why = exclusion(c, selection, tagName);
    if (why === undefined) chosen.push(c);
    else excluded.set(`${c.kind}\0${c.id}`, why);
  }
  const nameables: Nameable[] = chosen.map((c) => ({ id: c.id, name: selection.label?.(c.kind, c.id) ?? c.name, suffix: SUFFIX(c.kind) }));
  const catalogued = KIND_ORDER.flatMap((k) => catalogueOf(k)?.kind ?? []);
  const usedHelpers = new Set<string>([...KIND_ORDER.map(SUFFIX), "codeImplementation", ...catalogued.flatMap(helperNames)]);
  const idents = assignIdentifiers(nameables, usedHelpers);
  const identOf = (kind: Kind, id: string) => idents.get(`${SUFFIX(kind)}\0${id}`);

  const ref = (kind: Kind, id: string): Ref => {
    const ident = identOf(kind, id);
    if (ident) return { ident };
    const fixed = referOnly.get(`${kind}\0${id}`);
    if (fixed) return { id, note: fixed };
    const why = excluded.get(`${kind}\0${id}`);
    const label = labels.get(`${kind}\0${id}`);
    const what = `${LABEL(kind)}${label ? ` "${label}"` : ""}`;
    return { id, note: why ? `${what}: ${why}` : `${what}: not in the tenant's listings` };
  };
  const references = (kind: Kind, ids: readonly string[]) => sortRefs(ids.map((id) => ref(kind, id))).map((r) => new Reference(r));

  const secrets: Secret[] = [];
  const secretValues = new Map<string, string>();
  const warnings: string[] = [];
  const resources: Resource[] = [];

  for (const c of chosen) {
    const ident = identOf(c.kind, c.id)!;
    const used = new Set<string>();
    const notes: string[] = [];
    const dependsOn: Ref[] = [];
    let settings: Settings | undefined;
    const ctx: ImportContext = {
      id: c.id,
      name: c.name,
      rawConfig: (selection.rawConfig ?? []).some((g) => globToRegExp(g).test(c.name)),
      ref: (kind, id) => new Reference(ref(kind as Kind, id)),
      refs: (kind, ids) => references(kind as Kind, ids),
      tags: (ids) => (ids.length === 0 ? undefined : references("Tag", [...new Set(ids)])),
      secret: (setting, what) => {
        const s = new Secret(secretConfigName(ident, setting, used), `${LABEL(c.kind)} "${c.name}": ${what}`);
        secrets.push(s);
        const value = selection.secretValue?.(c.kind, c.id, what);
        if (value !== undefined) secretValues.set(s.name, value);
        return s;
      },
      heldSecret: (setting, what) => (selection.secretValue?.(c.kind, c.id, what) === undefined ? undefined : ctx.secret(setting, what)),
      config: (code, live, { raw }) => {
        const catalogue = catalogueOf(c.kind);
        if (!catalogue) throw new Error(`${c.kind} has no catalogue: its import cannot write a config through it`);
        settings = connectorSettings(catalogue.kind, code, live, raw, (key, property) => ctx.secret(property ?? key, key), notes);
        return Object.fromEntries(settings.config.map((s) => [s.key, s.value]));
      },
      dependsOn: (kind, id) => void dependsOn.push(ref(kind as Kind, id)),
      note: (text) => void notes.push(text),
      warn: (text) => void warnings.push(text),
    };
    // The console may allow names pulumi-cdc's check does not: said, not hidden (topics have no name input).
    const badName = hasInput(c.kind, "name") ? nameSchema.safeParse(c.name).error?.issues[0]?.message : undefined;
    if (badName) notes.push(`pulumi-cdc's check refuses its name ${JSON.stringify(c.name)}: it ${badName}. \`pulumi preview\` fails until it is renamed, here and in the console.`);
    const own = (IMPORTED_KINDS[c.kind].imported.inputs as (live: unknown, ctx: ImportContext) => ImportedInputs | undefined)(c.live, ctx);
    if (own === undefined) continue;
    resources.push({ kind: c.kind, ident, id: c.id, name: c.name, notes, dependsOn, inputs: programInputs(c, own), ...(settings ? { settings } : {}) });
  }
  for (const r of resources) {
    for (const note of r.notes) warnings.push(`${LABEL(r.kind)} "${r.name}" (${r.ident}): ${note}`);
  }
  // The credentials the program does not adopt (the API never shows their secrets), in a comment.
  const adopted = new Set(resources.flatMap((r) => (r.kind === "ClientCredential" ? [r.id] : [])));
  const credentials: CredentialNote[] = [];
  if (!selection.kinds || selection.kinds.has("ClientCredential")) {
    const noTagFilter = !selection.tags || selection.tags.length === 0;
    for (const cred of [...tenant.ClientCredential].sort((a, b) => (a.client_id < b.client_id ? -1 : a.client_id > b.client_id ? 1 : 0))) {
      if (!noTagFilter) break;
      if (adopted.has(cred.client_id) || selection.managed?.get("ClientCredential")?.has(cred.client_id)) continue;
      if (selection.names && selection.names.length > 0 && !selection.names.some((g) => globToRegExp(g).test(cred.description ?? ""))) continue;
      credentials.push(credentialNote(cred, selection.clientId));
    }
  }
  return {
    resources,
    secrets,
    credentials,
    warnings,
    ...(selection.adminScope ? { adminScope: selection.adminScope } : {}),
    ...(secretValues.size > 0 ? { secretValues } : {}),
  };
}

function catalogueOf(kind: Kind) {
  const declaration = IMPORTED_KINDS[kind];
  return "catalogue" in declaration ? declaration.catalogue : undefined;
}
const hasInput = (kind: Kind, input: string) => IMPORTED_KINDS[kind].inputs.some((p) => p.name === input);

/**
 * The inputs of a candidate, in its kind's declared order: the name (the object's), what its
 * kind's import set, and adoptId (its id) last, under what the program sets. Unset ones left out.
 */
function programInputs(c: Candidate, own: ImportedInputs): { [input: string]: Value } {
  const declared = IMPORTED_KINDS[c.kind].inputs.map((p) => p.name);
  for (const key of Object.keys(own)) {
    if (!declared.includes(key) || key === "name" || key === "adoptId") throw new Error(`the import of ${c.kind} sets ${key}: not one of its inputs, or one the import sets itself`);
  }
  const set: ImportedInputs = { ...own, ...(declared.includes("name") ? { name: c.name } : {}) };
  const inputs = declared.filter((n) => n !== "adoptId" && set[n] !== undefined).map((n) => [n, set[n]!] as const);
  return Object.fromEntries(declared.includes("adoptId") ? [...inputs, ["adoptId", c.id]] : inputs);
}

function credentialNote(c: ClientCredential, usedId: string | undefined): CredentialNote {
  return {
    clientId: c.client_id,
    roles: c.roles.map((r) => r.key ?? r.id).sort(),
    description: c.description ?? "",
    serviceId: c.service_id ?? "",
    createdFrom: c.created_from ?? "",
    used: c.client_id === usedId,
  };
}

/** References in a stable order: the program's variables by name, then ids. */
function sortRefs(refs: Ref[]): Ref[] {
  const rank = (r: Ref) => ("ident" in r ? 0 : 1);
  return refs.sort((a, b) => rank(a) - rank(b) || (refKey(a) < refKey(b) ? -1 : refKey(a) > refKey(b) ? 1 : 0));
}

/** Every helper the TypeScript program imports, sorted. */
export function helpersUsed(model: ProgramModel): string[] {
  const fns = new Set<string>();
  for (const r of model.resources) if (r.settings && r.settings.form !== "raw") fns.add(r.settings.fn);
  return [...fns].sort();
}
