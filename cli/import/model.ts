import { helperName } from "../../catalogue/helpers.js";
import { connectorCodes, findConnector, type CatalogueKind, type KeySpec } from "../../catalogue/index.js";
import { checkConnectorConfig, configAsProgram, nameSchema } from "../../provider/check.js";
import type { ClientCredential, DestinationConnector } from "../../provider/client/index.js";
import { isMasked, MASK, toApiString, type ConfigMap } from "../../provider/normalize.js";
import { livePipelineView } from "../../provider/resources/pipeline.js";
import type { TypedInstance } from "../../provider/smt/api.js";
import { entryAsProgram, liveEntries } from "../../provider/smt/entries.js";
import { assignIdentifiers, globToRegExp, secretConfigName, type Nameable } from "./names.js";
import type { Tenant, TenantBinding, TenantTopic } from "./tenant.js";

/**
 * The program `pulumi-cdc import` writes, as data: one resource per object taken over, in the
 * order a program declares them (what a resource refers to comes first), with its settings, its
 * secrets (read from config) and its references (variables of the program, or ids of objects
 * the program leaves out, each with why). The renderers (typescript.ts, yaml.ts) turn it into
 * text; everything decided about the tenant is decided here, once, for both languages.
 */

// The kinds and their command-line names live in kinds.ts, which loads nothing: `pulumi-cdc`'s
// argument parsing reads them for every command, and this module loads the provider's core.
import type { ConnectorKindName } from "../../provider/kinds/index.js";
import { IMPORTED_KINDS, KIND_ORDER, PLATFORM_TOPIC_PARTITIONS, type Kind } from "./kinds.js";
export { KIND_NAMES, KIND_ORDER, PLATFORM_TOPIC_PARTITIONS, type Kind } from "./kinds.js";

/** A secret the program reads from config: `config.requireSecret(name)`. */
export class Secret {
  constructor(
    readonly name: string,
    /** What it is, for the README and the printed commands: `source "orders": database.password`. */
    readonly what: string,
  ) {}
}

/** Another object: a variable of the program, or (when the program leaves it out) its id and why. */
export type Ref = { ident: string } | { id: string; note: string };

/** A reference as a value (a tag of a source, an agent's LLM connection). */
export class Reference {
  constructor(readonly ref: Ref) {}
}

/** A value of the program: JSON (objects are maps), a secret, or a reference. */
export type Value = string | number | boolean | null | Secret | Reference | Value[] | { [key: string]: Value };

/** A setting of a connector or transform: its API key, its helper property, its value. */
export interface Setting {
  key: string;
  /** The generated helper's property; undefined in raw config. */
  property?: string;
  value: Value;
}

/** How a connector's or transform's settings are written in TypeScript. */
export type Settings = (
  | { form: "helper"; fn: string; settings: Setting[] }
  /** postgresqlTables, mysqlTables, mongodbCollections: the include lists from one list of names. */
  | { form: "tables"; fn: string; listProperty: "tables" | "collections"; list: string[]; settings: Setting[] }
  | { form: "raw"; settings: Setting[]; why: string }
) & {
  /** Every setting in the platform's keys, as a raw config map holds it (what YAML writes). */
  config: Setting[];
};

interface Base {
  ident: string;
  /** The object's id: adoptId (a topic's topicId). */
  id: string;
  name: string;
  /** Comment lines the renderers put above the resource. */
  notes: string[];
  /** Objects to create first that no property refers to (a topic's source or transform). */
  dependsOn: Ref[];
}

export type Resource = Base &
  (
    | { kind: "Tag"; description?: string; type: string[] }
    | { kind: ConnectorKindName; connector: string; settings: Settings; desiredState?: string; tags?: Ref[] }
    | { kind: "Transform"; transform: string; settings: Settings; implementation?: Record<string, Value>; deploy?: true; tags?: Ref[] }
    | { kind: "Pipeline"; source: Ref; destination: Ref; sourceTopics: string[]; transforms: Array<{ ref: Ref; topics: string[] }>; snapshotNewTables?: true; tags?: Ref[] }
    | { kind: "HttpConnection"; url: string; headers: Array<[string, Secret]> }
    | { kind: "LlmConnection"; provider: string; model: string; apiKey: Secret; baseUrl?: string }
    | { kind: "Agent"; instructions: string; description?: string; llmConnection: Ref; httpConnections: Ref[]; deployed?: false }
    | { kind: "Topic"; topicId: string; partitionCount: number; tags?: Ref[] }
    | { kind: "TopicDestination"; topicId: string; destination: Ref }
    /** Each entry as the SDK types it (SmtTransformArgs): the kind's own import form. */
    | { kind: "DestinationSmtChain"; destination: Ref; transforms: Array<{ [key: string]: Value }> }
  );

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
}

export interface Selection {
  /** Unset: every kind. */
  kinds?: ReadonlySet<Kind | "ClientCredential">;
  /** Globs on the objects' names (any may match). */
  names?: readonly string[];
  /** Names of tags: only objects carrying one of them (and those tags). */
  tags?: readonly string[];
  /** Ids a stack already manages, by kind: left out (`--skip-managed`). */
  managed?: ReadonlyMap<Kind | "ClientCredential", ReadonlySet<string>>;
  /** The stack those ids are from, for the notes. */
  managedBy?: string;
  /** Globs on connector names whose settings are written as raw config, not with the helper (`--raw-config`). */
  rawConfig?: readonly string[];
  /** The client id the import read the tenant with, marked in the credentials' comment. */
  clientId?: string;
}

/** The suffix of identifiers per kind (`ordersSource`), and how messages name one object of it: its declaration's. */
const SUFFIX = (kind: Kind) => IMPORTED_KINDS[kind].imported.suffix;
const LABEL = (kind: Kind) => IMPORTED_KINDS[kind].noun;

/** An object of the tenant as the selection sees it. */
interface Candidate {
  kind: Kind;
  id: string;
  name: string;
  tagIds: string[];
  /** The object as the tenant read it. */
  live: unknown;
}

const byNameThenId = <T extends { name: string; id: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function str(value: string | null | undefined): string {
  return value ?? "";
}

/** The candidates of every kind, sorted by name then id within the kind. */
function candidates(tenant: Tenant): Candidate[] {
  const out: Candidate[] = [
    ...tenant.tags.filter((t) => !t.system).map((t) => ({ kind: "Tag" as const, id: t.id, name: t.name, tagIds: [], live: t })),
    ...tenant.llmConnections.map((c) => ({ kind: "LlmConnection" as const, id: c.connection_id, name: str(c.name), tagIds: [], live: c })),
    ...tenant.httpConnections.map((c) => ({ kind: "HttpConnection" as const, id: c.connection_id, name: str(c.name), tagIds: [], live: c })),
    ...tenant.agents.map((a) => ({ kind: "Agent" as const, id: a.job_id, name: str(a.name), tagIds: [], live: a })),
    ...tenant.sources.map((s) => ({ kind: "Source" as const, id: str(s.id), name: str(s.name), tagIds: connectorTags(s), live: s })),
    ...tenant.destinations.map((d) => ({ kind: "Destination" as const, id: str(d.id), name: str(d.name), tagIds: connectorTags(d), live: d })),
    // A chain goes where its destination goes: named and tagged as it is.
    ...tenant.smtChains.flatMap((c) => {
      const d = tenant.destinations.find((x) => x.id === c.destinationId);
      return d ? [{ kind: "DestinationSmtChain" as const, id: c.destinationId, name: str(d.name), tagIds: connectorTags(d), live: c.chain }] : [];
    }),
    ...tenant.transforms.map((t) => ({ kind: "Transform" as const, id: t.id, name: str(t.name), tagIds: t.tags, live: t })),
    ...tenant.pipelines.map((p) => ({ kind: "Pipeline" as const, id: p.id, name: str(p.name), tagIds: p.tags, live: p })),
    ...tenant.topics.filter(tunedTopic).map((t) => ({ kind: "Topic" as const, id: t.id, name: t.name, tagIds: t.tags, live: t })),
    ...tenant.topicDestinations.map((b) => ({ kind: "TopicDestination" as const, id: `${b.topicId}|${b.destinationId}`, name: bindingName(tenant, b), tagIds: [], live: b })),
  ];
  return KIND_ORDER.flatMap((kind) => out.filter((c) => c.kind === kind).sort(byNameThenId));
}

/** `contacts to warehouse`: the topic's resource and the destination's name, what the identifier is made of. */
function bindingName(tenant: Tenant, b: TenantBinding): string {
  const destination = tenant.destinations.find((d) => d.id === b.destinationId)?.name ?? b.destinationId;
  return `${b.topicId.slice(b.topicId.lastIndexOf(".") + 1)} to ${destination}`;
}

/** A topic the program needs: its partitions or tags are not what the platform made. */
export function tunedTopic(t: TenantTopic): boolean {
  return (t.partitions !== undefined && t.partitions !== PLATFORM_TOPIC_PARTITIONS) || t.tags.length > 0;
}

function connectorTags(c: DestinationConnector): string[] {
  const tags = Array.isArray((c as { tags?: unknown }).tags) ? ((c as { tags: unknown[] }).tags as unknown[]) : [];
  return tags.flatMap((t) => (typeof t === "string" ? [t] : t && typeof t === "object" && typeof (t as { id?: unknown }).id === "string" ? [(t as { id: string }).id] : []));
}

/** Why a candidate is left out, or undefined when it is in the program. */
function exclusion(c: Candidate, selection: Selection, tagNames: ReadonlyMap<string, string>): string | undefined {
  if (selection.managed?.get(c.kind)?.has(c.id)) return `managed by stack ${selection.managedBy ?? "(the given stack)"}`;
  if (selection.kinds && !selection.kinds.has(c.kind)) return "not imported: --kind leaves it out";
  if (selection.names && selection.names.length > 0 && !selection.names.some((g) => globToRegExp(g).test(c.name))) return "not imported: --name leaves it out";
  if (selection.tags && selection.tags.length > 0) {
    const carries = c.kind === "Tag" ? selection.tags.includes(c.name) : c.tagIds.some((id) => selection.tags!.includes(tagNames.get(id) ?? ""));
    if (!carries) return "not imported: --tag leaves it out";
  }
  return undefined;
}

/** Builds the program from the tenant and the selection. Pure. */
export function buildProgram(tenant: Tenant, selection: Selection = {}): ProgramModel {
  const tagNames = new Map(tenant.tags.map((t) => [t.id, t.name]));
  const all = candidates(tenant);
  const excluded = new Map<string, string>();
  const chosen: Candidate[] = [];
  for (const c of all) {
    const why = exclusion(c, selection, tagNames);
    if (why === undefined) chosen.push(c);
    else excluded.set(`${c.kind}\0${c.id}`, why);
  }
  const nameables: Nameable[] = chosen.map((c) => ({ id: c.id, name: c.name, suffix: SUFFIX(c.kind) }));
  const usedHelpers = new Set<string>([
    ...KIND_ORDER.map(SUFFIX),
    "Topic",
    "codeImplementation",
    "postgresqlTables",
    "mysqlTables",
    "mongodbCollections",
    ...(["source", "destination", "transform"] as const).flatMap((k) => allHelperNames(k)),
  ]);
  const idents = assignIdentifiers(nameables, usedHelpers);
  const identOf = (kind: Kind, id: string) => idents.get(`${SUFFIX(kind)}\0${id}`);

  const systemTags = new Map(tenant.tags.filter((t) => t.system).map((t) => [t.id, t] as const));
  const ref = (kind: Kind, id: string, label?: string): Ref => {
    const ident = identOf(kind, id);
    if (ident) return { ident };
    const system = kind === "Tag" ? systemTags.get(id) : undefined;
    if (system) return { id, note: `the platform's own tag "${system.name}"` };
    const why = excluded.get(`${kind}\0${id}`);
    const what = `${LABEL(kind)}${label ? ` "${label}"` : ""}`;
    return { id, note: why ? `${what}: ${why}` : `${what}: not in the tenant's listings` };
  };
  const names = {
    source: new Map(tenant.sources.map((s) => [str(s.id), str(s.name)])),
    destination: new Map(tenant.destinations.map((d) => [str(d.id), str(d.name)])),
    transform: new Map(tenant.transforms.map((t) => [t.id, str(t.name)])),
    llm: new Map(tenant.llmConnections.map((c) => [c.connection_id, str(c.name)])),
    http: new Map(tenant.httpConnections.map((c) => [c.connection_id, str(c.name)])),
  };
  const tagRefs = (ids: readonly string[]): Ref[] | undefined => (ids.length === 0 ? undefined : sortRefs([...new Set(ids)].map((id) => ref("Tag", id, tagNames.get(id)))));

  const secrets: Secret[] = [];
  const warnings: string[] = [];
  const resources: Resource[] = [];

  for (const c of chosen) {
    const ident = identOf(c.kind, c.id)!;
    const used = new Set<string>();
    const secret = (setting: string, what: string) => {
      const s = new Secret(secretConfigName(ident, setting, used), what);
      secrets.push(s);
      return s;
    };
    const base = { ident, id: c.id, name: c.name, notes: [] as string[], dependsOn: [] as Ref[] };
    // The console may allow names pulumi-cdc's check does not: said, not hidden (topics have no name input).
    const badName = IMPORTED_KINDS[c.kind].inputs.some((p) => p.name === "name") ? nameSchema.safeParse(c.name).error?.issues[0]?.message : undefined;
    if (badName) base.notes.push(`pulumi-cdc's check refuses its name ${JSON.stringify(c.name)}: it ${badName}. \`pulumi preview\` fails until it is renamed, here and in the console.`);
    switch (c.kind) {
      case "Tag": {
        const t = c.live as Tenant["tags"][number];
        resources.push({ ...base, kind: "Tag", ...(t.description ? { description: t.description } : {}), type: [...t.type] });
        break;
      }
      case "Source":
      case "Destination": {
        const live = c.live as Tenant["sources"][number] | Tenant["destinations"][number];
        const kind = c.kind === "Source" ? "source" : "destination";
        const connector = str(live.connector);
        const raw = (selection.rawConfig ?? []).some((g) => globToRegExp(g).test(c.name));
        const settings = connectorSettings(kind, connector, live.config ?? {}, raw, (key, property) => secret(property ?? key, `${kind} "${c.name}": ${key}`), base.notes);
        const state = desiredStateOf(kind, live.connector_status);
        if (state.note) base.notes.push(state.note);
        resources.push({ ...base, kind: c.kind, connector, settings, ...(state.value ? { desiredState: state.value } : {}), ...optional("tags", tagRefs(connectorTags(live))) });
        break;
      }
      case "Transform": {
        const t = c.live as Tenant["transforms"][number];
        const type = str(t.transform_type);
        const settings = connectorSettings("transform", type, t.config ?? {}, false, (key, property) => secret(property ?? key, `transform "${c.name}": ${key}`), base.notes);
        const implementation = withoutNulls(t.implementation ?? {});
        if (t.running && Object.keys(implementation).length === 0 && type !== "topic_router") {
          base.notes.push("Its job runs but the API shows no implementation: `deploy` is left unset (pulumi-cdc deploys only an implementation it holds).");
        }
        const deploy = t.running && (Object.keys(implementation).length > 0 || type === "topic_router");
        resources.push({
          ...base,
          kind: "Transform",
          transform: type,
          settings,
          ...(Object.keys(implementation).length > 0 ? { implementation: implementation as Record<string, Value> } : {}),
          ...(deploy ? { deploy: true as const } : {}),
          ...optional("tags", tagRefs(t.tags)),
        });
        break;
      }
      case "Pipeline": {
        const p = c.live as Tenant["pipelines"][number];
        const view = livePipelineView(p);
        resources.push({
          ...base,
          kind: "Pipeline",
          source: ref("Source", view.sourceId, names.source.get(view.sourceId)),
          destination: ref("Destination", view.destinationId, names.destination.get(view.destinationId)),
          sourceTopics: [...view.sourceTopics].sort(),
          transforms: view.transforms
            .map((g) => ({ ref: ref("Transform", g.id, names.transform.get(g.id)), topics: [...g.topics].sort() }))
            .sort((a, b) => (refKey(a.ref) < refKey(b.ref) ? -1 : refKey(a.ref) > refKey(b.ref) ? 1 : 0)),
          ...(view.snapshotNewTables ? { snapshotNewTables: true as const } : {}),
          ...optional("tags", tagRefs(view.tags)),
        });
        break;
      }
      case "HttpConnection": {
        const h = c.live as Tenant["httpConnections"][number];
        const headers = Object.keys(h.headers)
          .sort()
          .map((n): [string, Secret] => [n, secret(`header ${n}`, `HTTP connection "${c.name}": header ${n}`)]);
        resources.push({ ...base, kind: "HttpConnection", url: str(h.url), headers });
        break;
      }
      case "LlmConnection": {
        const l = c.live as Tenant["llmConnections"][number];
        resources.push({
          ...base,
          kind: "LlmConnection",
          provider: str(l.provider),
          model: str(l.model),
          apiKey: secret("apiKey", `LLM connection "${c.name}": API key`),
          ...(l.base_url ? { baseUrl: l.base_url } : {}),
        });
        break;
      }
      case "Agent": {
        const a = c.live as Tenant["agents"][number];
        const llmId = str(a.llm_connection_id);
        if (a.flags.includes("llm_connection_missing")) base.notes.push(`Its LLM connection ${llmId} is gone (flag llm_connection_missing): point llmConnection at one that exists.`);
        resources.push({
          ...base,
          kind: "Agent",
          instructions: str(a.instructions),
          ...(a.description ? { description: a.description } : {}),
          llmConnection: ref("LlmConnection", llmId, names.llm.get(llmId)),
          httpConnections: sortRefs(a.http_connection_ids.map((id) => ref("HttpConnection", id, names.http.get(id)))),
          ...(a.status !== "running" ? { deployed: false as const } : {}),
        });
        break;
      }
      case "Topic": {
        const t = c.live as Tenant["topics"][number];
        const ownerName = t.owner.kind === "source" ? names.source.get(t.owner.id) : names.transform.get(t.owner.id);
        base.dependsOn.push(ref(t.owner.kind === "source" ? "Source" : "Transform", t.owner.id, ownerName));
        resources.push({ ...base, kind: "Topic", topicId: t.id, partitionCount: t.partitions ?? PLATFORM_TOPIC_PARTITIONS, ...optional("tags", tagRefs(t.tags)) });
        break;
      }
      case "DestinationSmtChain": {
        const chain = c.live as Tenant["smtChains"][number]["chain"];
        const { unmanaged } = liveEntries(chain);
        if (unmanaged.length > 0) {
          // The kind refuses to read such a chain, so a resource for it could never be adopted.
          warnings.push(`${LABEL(c.kind)} of destination "${c.name}" (${c.id}): not imported, it ${unmanaged.length === 1 ? "holds an instance" : "holds instances"} pulumi-cdc cannot manage: ${unmanaged.join("; ")}. Remove ${unmanaged.length === 1 ? "it" : "them"} in the console and import again, or leave this chain out of Pulumi.`);
          break;
        }
        // A secret the platform holds is written as the mask, as the kind's own import writes it
        // (entryAsProgram), not read from config: the API never shows it, and the mask means "keep
        // the one the platform holds", so the adopting create finds the chain as the program says
        // and writes nothing, the digest it records is the mask's, and a preview after compares the
        // mask with itself. A salt from config could not be told from the one held (adoption would
        // take any value as that one, and send none), and would ask the user for a secret they may
        // never have had. Setting a real value later is an update that sends it.
        const transforms = (chain.transforms as TypedInstance[]).map((t) => entryAsProgram(t) as { [key: string]: Value });
        transforms.forEach((entry, i) => {
          for (const [field, value] of Object.entries(entry)) {
            if (value === MASK) base.notes.push(`transforms[${i}].${field} of ${JSON.stringify(entry.name)} is "${MASK}": it keeps the secret the platform holds, which the API never shows; a value of your own (config.requireSecret) replaces it at the next \`pulumi up\`.`);
          }
        });
        resources.push({ ...base, kind: "DestinationSmtChain", destination: ref("Destination", c.id, c.name), transforms });
        break;
      }
      case "TopicDestination": {
        const b = c.live as Tenant["topicDestinations"][number];
        base.dependsOn.push(ref("Source", b.sourceId, names.source.get(b.sourceId)));
        resources.push({ ...base, kind: "TopicDestination", topicId: b.topicId, destination: ref("Destination", b.destinationId, names.destination.get(b.destinationId)) });
        break;
      }
    }
  }
  for (const r of resources) {
    for (const note of r.notes) warnings.push(`${LABEL(r.kind)} "${r.name}" (${r.ident}): ${note}`);
  }
  const credentials: CredentialNote[] = [];
  if (!selection.kinds || selection.kinds.has("ClientCredential")) {
    const noTagFilter = !selection.tags || selection.tags.length === 0;
    for (const cred of [...tenant.credentials].sort((a, b) => (a.client_id < b.client_id ? -1 : a.client_id > b.client_id ? 1 : 0))) {
      if (!noTagFilter) break;
      if (selection.managed?.get("ClientCredential")?.has(cred.client_id)) continue;
      if (selection.names && selection.names.length > 0 && !selection.names.some((g) => globToRegExp(g).test(cred.description ?? ""))) continue;
      credentials.push(credentialNote(cred, selection.clientId));
    }
  }
  return { resources, secrets, credentials, warnings };
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

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function refKey(r: Ref): string {
  return "ident" in r ? r.ident : r.id;
}

/** References in a stable order: the program's variables by name, then ids. */
function sortRefs(refs: Ref[]): Ref[] {
  const rank = (r: Ref) => ("ident" in r ? 0 : 1);
  return refs.sort((a, b) => rank(a) - rank(b) || (refKey(a) < refKey(b) ? -1 : refKey(a) > refKey(b) ? 1 : 0));
}

function allHelperNames(kind: CatalogueKind): string[] {
  return connectorCodes(kind).map((code) => helperName(findConnector(kind, code)!));
}

/** The program's desiredState for a connector's live status: unset for active (the default). */
function desiredStateOf(kind: "source" | "destination", status: string | null | undefined): { value?: string; note?: string } {
  const s = (status ?? "").toLowerCase();
  if (s === "paused") return { value: "paused" };
  if (s === "stopped" && kind === "destination") return { value: "stopped" };
  if (s === "" || s === "active") return {};
  return { note: `Its status is ${status}: desiredState is left at active (pulumi-cdc pauses, resumes or stops only from Active, Paused or Stopped).` };
}

/** An implementation without the null keys the platform adds: what a program would have set. */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, v && typeof v === "object" && !Array.isArray(v) ? withoutNulls(v as Record<string, unknown>) : v]),
  );
}

/** Whether a value can be given to the helper property of `spec` as its TypeScript type says. */
function fitsHelper(spec: KeySpec, value: unknown): boolean {
  switch (spec.type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "list":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "map":
      return helperMap(spec, value) !== undefined;
    case "string":
      return typeof value === "string" && (!spec.enum || spec.enum.includes(value));
  }
}

/** A map value in the helper's type (an object; a `json-string` map's JSON text decoded, values too). */
function helperMap(spec: KeySpec, value: unknown): Record<string, Value> | undefined {
  let map: unknown = value;
  if (typeof value === "string") {
    try {
      map = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!map || typeof map !== "object" || Array.isArray(map)) return undefined;
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
    let inner: unknown = v;
    if (spec.valueType === "object" && typeof v === "string") {
      try {
        inner = JSON.parse(v);
      } catch {
        return undefined;
      }
    }
    out[k] = inner as Value;
  }
  return out;
}

const TABLES_HELPERS: Readonly<Record<string, { fn: string; list: "tables" | "collections"; listProperty: string; prefixProperty: string; listKey: string; prefixKey: string }>> = {
  postgresql: { fn: "postgresqlTables", list: "tables", listProperty: "tableIncludeList", prefixProperty: "schemaIncludeList", listKey: "table.include.list.user.defined", prefixKey: "schema.include.list" },
  mysql: { fn: "mysqlTables", list: "tables", listProperty: "tableIncludeList", prefixProperty: "databaseIncludeList", listKey: "table.include.list.user.defined", prefixKey: "database.include.list.user.defined" },
  mongodb: { fn: "mongodbCollections", list: "collections", listProperty: "collectionIncludeList", prefixProperty: "databaseIncludeList", listKey: "collection.include.list.user.defined", prefixKey: "database.include.list" },
};

/** `a,b` → [a, b] when the helper's comma-joined list of it gives back exactly `text`; otherwise undefined. */
function exactList(text: string): string[] | undefined {
  const entries = text.split(",").map((e) => e.trim());
  if (entries.some((e) => e === "")) return undefined;
  const distinct = [...new Set(entries)];
  return distinct.join(",") === text ? distinct : undefined;
}

/**
 * A connector's or transform's live config as the program's settings: only what differs from
 * the catalogue's defaults (configAsProgram), each masked secret read from config, in the typed
 * helper's properties when the connector is catalogued and every value fits them; otherwise in
 * the platform's keys (raw), with why. Values pulumi-cdc's own check would refuse are noted.
 */
export function connectorSettings(
  kind: CatalogueKind,
  code: string,
  live: Record<string, unknown>,
  forceRaw: boolean,
  secret: (key: string, property: string | undefined) => Secret,
  notes: string[],
): Settings {
  const spec = findConnector(kind, code);
  const config: ConfigMap = configAsProgram(spec, live);
  const keyOrder = spec ? spec.keys.map((k) => k.key) : [];
  const keys = Object.keys(config).sort((a, b) => {
    const ia = keyOrder.indexOf(a);
    const ib = keyOrder.indexOf(b);
    if (ia !== ib) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const isSecret = (key: string, value: unknown) => (spec ? spec.keys.some((k) => k.key === key && k.secret) && (value === MASK || isMasked(value)) : isMasked(value));
  const settings: Setting[] = keys.map((key) => {
    const value = config[key]!;
    const keySpec = spec?.keys.find((k) => k.key === key);
    return { key, ...(keySpec ? { property: keySpec.name } : {}), value: isSecret(key, value) ? secret(key, keySpec?.name) : (value as Value) };
  });

  // What pulumi-cdc's check() will say of this config, before any API call (a secret stands in as a string).
  const checkable = Object.fromEntries(settings.map((s) => [s.key, s.value instanceof Secret ? "x" : s.value]));
  for (const f of checkConnectorConfig(spec, checkable)) {
    notes.push(`pulumi-cdc's check refuses ${f.property}: it ${f.reason}. \`pulumi preview\` fails until it is fixed, here or in the console.`);
  }

  const what = kind === "transform" ? "transform type" : `${kind} connector`;
  const rawConfig = settings.map(({ key, value }) => ({ key, value }));
  if (!spec) {
    return { form: "raw", config: rawConfig, settings: rawConfig, why: `the ${what} "${code}" is not in pulumi-cdc's catalogue, so it has no typed helper: its config is written in the platform's keys, as the API shows it.` };
  }
  if (forceRaw) return { form: "raw", config: rawConfig, settings: rawConfig, why: "--raw-config: its config is written in the platform's keys, not with the typed helper." };
  const misfit = settings.find((s) => {
    const keySpec = spec.keys.find((k) => k.key === s.key);
    return !keySpec || (!(s.value instanceof Secret) && !fitsHelper(keySpec, s.value));
  });
  if (misfit) {
    const keySpec = spec.keys.find((k) => k.key === misfit.key);
    const why = keySpec
      ? `config["${misfit.key}"] is ${JSON.stringify(toApiString(misfit.value))}, which the typed helper's ${keySpec.name} (${keySpec.type}${keySpec.enum ? `: ${keySpec.enum.join(", ")}` : ""}) cannot take`
      : `config["${misfit.key}"] is not a setting the typed helper knows`;
    return { form: "raw", config: rawConfig, settings: rawConfig, why: `${why}: its config is written in the platform's keys.` };
  }
  const typed = settings.map((s) => {
    const keySpec = spec.keys.find((k) => k.key === s.key)!;
    return keySpec.type === "map" && !(s.value instanceof Secret) ? { ...s, value: helperMap(keySpec, s.value) as Value } : s;
  });
  const fn = helperName(spec);
  const tables = kind === "source" ? TABLES_HELPERS[code] : undefined;
  if (tables) {
    const list = typed.find((s) => s.key === tables.listKey);
    const prefixes = typed.find((s) => s.key === tables.prefixKey);
    const entries = list && typeof list.value === "string" ? exactList(list.value) : undefined;
    if (entries && prefixes && typeof prefixes.value === "string") {
      const derived = [...new Set(entries.map((e) => e.split(".")[0] ?? "").filter((p) => p !== ""))].join(",");
      if (derived === prefixes.value && entries.every((e) => e.includes("."))) {
        return { form: "tables", fn: tables.fn, listProperty: tables.list, list: entries, settings: typed.filter((s) => s !== list && s !== prefixes), config: rawConfig };
      }
    }
  }
  return { form: "helper", fn, settings: typed, config: rawConfig };
}

/** Every helper the TypeScript program imports, sorted. */
export function helpersUsed(model: ProgramModel): string[] {
  const fns = new Set<string>();
  for (const r of model.resources) {
    if ((r.kind === "Source" || r.kind === "Destination" || r.kind === "Transform") && r.settings.form !== "raw") fns.add(r.settings.fn);
  }
  return [...fns].sort();
}

