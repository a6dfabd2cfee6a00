import { DESTINATION_STATES, SOURCE_STATES, type DesiredState } from "../../catalogue/kind-values.js";
import { catalogueEntry, replacingKeys, secretKeySet, type ConnectorKind, type ConnectorSpec } from "../catalogue.js";
import { apiCreateConfig, apiUpdateConfig, checkApiSource, connectionWarning, liveAsProgram, recordedAsCompared, withClearedSecrets, withoutKeptSecrets } from "../api-sources.js";
import { checkConnectorConfig, configAsProgram, failuresFromZod, toWireConfig, wireConfigWithDefaults, withoutRemovedKeys, type CheckFailure } from "../check.js";
import {
  anyJsonSchema,
  destinationConnectorSchema,
  ConflictError,
  isNotFound,
  sourceConnectorSchema,
  type CdcClient,
  type DestinationConnector,
} from "../client/index.js";
import { client } from "../context.js";
import { DESTINATION as DESTINATION_KIND } from "../kinds/destination.js";
import { SOURCE as SOURCE_KIND } from "../kinds/source.js";
import { liveOutputs } from "../kinds/outputs.js";
import type { PropertySpec, RecoverContext, Recovered } from "../kinds/spec.js";
import type { ImportListing } from "../kinds/imported.js";
import { checkLive, compareToOriginal, NO_DRIFT, reportDrift, reportWarning, type DriftReport, type ManagedConnector } from "../drift.js";
import { liveCache } from "../live-cache.js";
import { alignLiveConfig, changedConfigKeys, containsUnknown, isMasked, isUnknown, sameMembers, toApiString, withoutUndefined, type ConfigMap } from "../normalize.js";
import { findConnectorByName, notOurs } from "../lookup.js";
import { createSurvivingFaults } from "./create.js";
import { recoverByName } from "./recovered.js";
import { nameTakenHint } from "./conflict.js";
import { PartialFailure, withProviderKey } from "./failure.js";
import { deleteOnceReleased } from "./gone.js";
import { resolveName } from "./naming.js";
import { digestSecrets, newSalt, recordedInPlain } from "../secret-digest.js";

export type { DesiredState };

/** Inputs after check(): what the program set, with the name resolved. */
export interface ConnectorInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  connector: string;
  config: ConfigMap;
  desiredState: DesiredState;
  adoptId?: string;
  /** Tag ids; undefined: the program leaves the connector's tags alone. */
  tags?: string[];
}

export interface ConnectorOutputs extends ConnectorInputs {
  status: string;
  displayName: string;
  createdTimestamp: string;
  tenantId: string;
  topics: string[];
  topicIds: string[];
  topicMap: Record<string, unknown>;
  drift: DriftReport;
  /**
   * Keys the digests of secret config values (see secret-digest.ts): outputs never carry a
   * secret value. Absent in state written before digests existed.
   */
  secretSalt?: string;
}

interface KindSpec {
  kind: ConnectorKind;
  /** Path segment and label: `sources`, `destinations`. */
  collection: "sources" | "destinations";
  label: string;
  states: readonly DesiredState[];
  schema: typeof sourceConnectorSchema | typeof destinationConnectorSchema;
  /** The kind's input check, from its declaration. */
  inputSchema: (typeof SOURCE_KIND)["inputSchema"] | (typeof DESTINATION_KIND)["inputSchema"];
  replaceOnChange: (typeof SOURCE_KIND)["replaceOnChange"];
  /** Its declaration's outputs, of which those echoing the API's object are read off it. */
  declaration: { outputs: readonly PropertySpec[]; noun: string; plural: string };
}

/**
 * The query of connector writes, as the platform's own provider sends it: answer without waiting
 * for the connector's deployment (`wait=false`). Secrets are not asked back (`secret_returned`
 * stays false): the stack keeps only digests of them, so they need not cross the wire twice.
 */
const WRITE_QUERY = { wait: false } as const;

export const SOURCE: KindSpec = {
  kind: "source",
  collection: "sources",
  label: "source",
  states: SOURCE_STATES,
  schema: sourceConnectorSchema,
  inputSchema: SOURCE_KIND.inputSchema,
  replaceOnChange: SOURCE_KIND.replaceOnChange,
  declaration: SOURCE_KIND,
};

export const DESTINATION: KindSpec = {
  kind: "destination",
  collection: "destinations",
  label: "destination",
  states: DESTINATION_STATES,
  schema: destinationConnectorSchema,
  inputSchema: DESTINATION_KIND.inputSchema,
  replaceOnChange: DESTINATION_KIND.replaceOnChange,
  declaration: DESTINATION_KIND,
};


/** The tag ids of a connector as the API echoes it: `tags` is left out when there are none. */
function tagIdsOf(live: Record<string, unknown>): string[] {
  const tags = Array.isArray(live.tags) ? live.tags : [];
  return tags.flatMap((t: unknown) => (typeof t === "string" ? [t] : t && typeof t === "object" && typeof (t as { id?: unknown }).id === "string" ? [(t as { id: string }).id] : []));
}

/**
 * What an adoption would change on an existing connector, as property paths (`name`,
 * `config["k"]`, `tags`); [] when the object already equals the program, so adoption writes
 * nothing. Config keys are compared as diff compares them (the API's string echo, lists and
 * maps in their wire form). A write sends the whole config (unset keys as their defaults), so a
 * setting the object has and the program leaves unset, away from its default, is a change too.
 * Secrets: the API masks them, so a secret the program sets is taken as the stored one whenever
 * the object has that secret at all (adoption never rewrites a secret it cannot see; the stack
 * keeps the digest of the program's value, and a later change of it in the program is an
 * update). A secret the program sets that the object lacks, or one the object has that the
 * program leaves out, is a change. The status (desiredState) is settled apart: pause or resume
 * only when it differs.
 */
export function adoptionChanges(spec: ConnectorSpec | undefined, live: DestinationConnector, inputs: ConnectorInputs): string[] {
  // A key the platform has since dropped is never written, so it cannot be a change either.
  const config = withoutRemovedKeys(spec, inputs.config);
  const liveConfig = (spec ? liveAsProgram(spec, config, live.config) : live.config ?? {}) as ConfigMap;
  const secrets = secretKeySet(spec, config);
  const keys = new Set(changedConfigKeys(config, alignLiveConfig(config, liveConfig, secrets)));
  for (const key of Object.keys(config)) if (secrets.has(key) && liveConfig[key] === undefined) keys.add(key);
  for (const key of Object.keys(configAsProgram(spec, liveConfig))) if (!(key in config)) keys.add(key);
  return [
    ...((live.name ?? "") !== inputs.name ? ["name"] : []),
    ...[...keys].sort().map((k) => `config["${k}"]`),
    ...(inputs.tags !== undefined && !sameMembers(tagIdsOf(live), inputs.tags) ? ["tags"] : []),
  ];
}

/**
 * The recorded config with each secret Pulumi never saw (recorded as the API's mask, by
 * `pulumi import` or a `get()`) taken to hold the program's value: the program supplies it
 * (from config), and comparing it with a mask would plan an update on every preview. The next
 * write sends the program's value and records its digest.
 */
function unseenSecretsAsProgram(recorded: ConfigMap, news: ConfigMap, secretKeys: ReadonlySet<string>): ConfigMap {
  if (!recorded) return recorded;
  const out = { ...recorded };
  for (const [key, value] of Object.entries(recorded)) {
    if (secretKeys.has(key) && isMasked(value) && key in news) out[key] = news[key]!;
  }
  return out;
}

/** Replace-on-change keys (the catalogue's) whose value the program changed: the connector is replaced. */
function replacedConfigKeys(spec: ConnectorSpec | undefined, olds: ConfigMap | undefined, news: ConfigMap, changedKeys?: readonly string[]): string[] {
  if (olds === undefined) return [];
  const changed = new Set(changedKeys ?? changedConfigKeys(olds, news));
  return replacingKeys(spec)
    .filter((k) => changed.has(k) && !isUnknown(news[k]))
    .map((k) => `config["${k}"]`);
}

/**
 * The updatable inputs whose values differ between what the stack recorded and `news` (config
 * compared as the API echoes it; `newsConfig` is `news.config` in the recorded form). Tags left
 * out of `news` are left alone, so they never differ.
 */
function changedInputs(olds: ConnectorOutputs, news: ConnectorInputs, newsConfig: ConfigMap = news.config, configKeys = changedConfigKeys(olds.config, newsConfig)): string[] {
  return [
    ...(olds.name !== news.name ? ["name"] : []),
    ...(configKeys.length > 0 ? ["config"] : []),
    ...((olds.desiredState ?? "active") !== news.desiredState ? ["desiredState"] : []),
    ...(news.tags !== undefined && !sameMembers(olds.tags, news.tags) ? ["tags"] : []),
  ];
}

/** The lifecycle state a live `connector_status` is in (`Paused` → `paused`); undefined for a health status (Broken, Starting, ...). */
function liveState(status: string | null | undefined): DesiredState | undefined {
  const lower = status?.toLowerCase();
  return DESTINATION_STATES.find((s) => s === lower);
}

/** The API calls that move a connector from its live status to the desired state. */
export function transitions(spec: KindSpec, status: string | null | undefined, desired: DesiredState): Array<"pause" | "resume" | "stop"> {
  const current = liveState(status);
  if (current === desired) return [];
  switch (desired) {
    case "active":
      return current === "paused" || current === "stopped" ? ["resume"] : [];
    case "paused":
      return current === "stopped" ? ["resume", "pause"] : ["pause"];
    case "stopped":
      return spec.kind === "destination" ? ["stop"] : [];
  }
}

/**
 * Source and destination providers: one implementation, parameterised by kind. Each method is
 * called by the dynamic-provider shim in sdk/, which serializes nothing but the kind.
 */
export class ConnectorProvider {
  /** `pulumi-cdc recover`: the object a killed run's create made, by the unique name it was given, of the program's connector. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    return recoverByName(api, context, {
      kind: this.spec.declaration,
      name: inputs.name,
      connector: inputs.connector,
      list: (partial) => api.listAll(this.path(), { partial_name: partial }, this.spec.schema),
    });
  }

  /** `pulumi-cdc import`: every source, or every destination, secrets masked as the API answers them. */
  listForImport(api: CdcClient, _listing: ImportListing): Promise<DestinationConnector[]> {
    return api.listAll(this.path(), {}, this.spec.schema);
  }

  /** Another connector is another object (replace-on-change config keys are the catalogue's). */
  get replaceOnChange() {
    return this.spec.replaceOnChange;
  }
  constructor(readonly spec: KindSpec) {
  }

  private path(id?: string) {
    return id === undefined ? `/${this.spec.collection}` : `/${this.spec.collection}/{id}`;
  }

  async check(olds: Partial<ConnectorInputs>, news: Record<string, unknown>) {
    // A config known only after another resource is made (preview) is checked when it is known.
    const configKnown = !isUnknown(news.config);
    const parsed = this.spec.inputSchema.safeParse(configKnown ? news : { ...news, config: {} });
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const entry = catalogueEntry(this.spec.kind, input.connector);
    const apiSpec = this.apiSource(entry);
    // The config the service holds now, for rules about what an update keeps (none on a create or a replacement).
    const oldConfig = olds.connector === input.connector ? olds.config : undefined;
    const failures: CheckFailure[] = configKnown
      ? apiSpec
        ? [...withoutKeptSecrets(apiSpec, checkConnectorConfig(entry, input.config), input.config, oldConfig), ...checkApiSource(apiSpec, input.config, oldConfig)]
        : checkConnectorConfig(entry, input.config)
      : [];
    // The platform's wire form, so state, diff and the request body all hold the same values.
    const wire = configKnown ? toWireConfig(entry, input.config) : (news.config as ConfigMap);
    const config = apiSpec && configKnown ? withClearedSecrets(apiSpec, input.config, wire) : wire;
    // A connector change, or a change of a replace-on-change key, replaces the object, so an
    // autoname is renewed with it (the replacement is created before the original is deleted).
    // A config unknown in a preview holds no key to compare: the check at `up` sees whether it replaces.
    const replacing =
      olds.connector !== undefined && (olds.connector !== input.connector || (configKnown && replacedConfigKeys(entry, olds.config, config).length > 0));
    const naming = isUnknown(input.name) ? { name: input.name as string, autonamed: false } : resolveName(olds, input, replacing);
    const inputs: ConnectorInputs = {
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...naming,
      connector: input.connector,
      config,
      desiredState: input.desiredState ?? "active",
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
      ...(input.tags !== undefined ? { tags: input.tags } : {}),
    };
    return { inputs, failures };
  }

  async diff(id: string, recorded: ConnectorOutputs, news: ConnectorInputs) {
    if (isUnknown(news.config)) {
      // The whole config is known only after another resource is made (preview): it may change.
      return { changes: true, replaces: recorded.connector !== news.connector && !isUnknown(news.connector) ? ["connector"] : [], diffs: ["config"] };
    }
    const entry = catalogueEntry(this.spec.kind, news.connector);
    const { olds, newsConfig } = this.compared(recorded, news, entry);
    // Compared once: diff runs for every connector of every preview.
    const configKeys = changedConfigKeys(olds.config, newsConfig);
    const replaces = olds.connector !== news.connector ? ["connector"] : replacedConfigKeys(entry, olds.config, newsConfig, configKeys);
    const changed = changedInputs(olds, news, newsConfig, configKeys);
    // Property paths for a host that can show them in the preview row (the plugin's detailedDiff).
    const diffs = new Set<string>([...changed.filter((p) => p !== "config"), ...configKeys.map((k) => `config["${k}"]`)]);
    let drifted = false;
    if (replaces.length === 0 && !containsUnknown(news)) {
      // A plain `pulumi preview` must show changes made outside Pulumi, so diff asks the API:
      // the config, and a connector paused, resumed, stopped, renamed or deleted by hand.
      const { findings, paths } = await this.outsideChanges("diff", id, olds);
      for (const path of paths) diffs.add(path);
      drifted = findings.length > 0;
      reportDrift(`${this.spec.label} "${olds.name}" (${id})`, findings);
    }
    return {
      changes: replaces.length > 0 || changed.length > 0 || drifted,
      replaces,
      ...(diffs.size > 0 ? { diffs: [...diffs].sort() } : {}),
      // Names are unique per tenant: a named replacement must delete the original first.
      deleteBeforeReplace: replaces.length > 0 && !news.autonamed,
    };
  }

  async create(inputs: ConnectorInputs & { __provider?: string }) {
    const api = client();
    const salt = newSalt();
    const entry = catalogueEntry(this.spec.kind, inputs.connector);
    let written = inputs.adoptId;
    try {
      let live: DestinationConnector;
      if (inputs.adoptId) {
        ({ live } = await this.adopt(api, inputs, entry));
      } else {
        live = await this.post(api, inputs, entry);
      }
      const id = live.id;
      if (!id) throw new Error(`the API created the ${this.spec.label} "${inputs.name}" but returned no id`);
      written = id;
      // A destination we created has one config in its history, the original: that is the
      // baseline, with no round trip to ask for its timestamp (and no window in which an edit
      // made right after the create would be taken as ours), even if what follows fails. An
      // adopted one has a history of its own: its baseline is the latest entry after our write.
      const created: DriftReport = !inputs.adoptId && this.spec.kind === "destination" ? { ...NO_DRIFT, baselineOriginal: true } : NO_DRIFT;
      try {
        live = await this.settleState(api, id, live, inputs.desiredState);
        const drift: DriftReport = inputs.adoptId ? { ...NO_DRIFT, baselineTimestamp: await this.baseline(api, id) } : created;
        return { id, outs: this.outputs(live, inputs, drift, salt, entry) };
      } catch (err) {
        throw new PartialFailure(`${this.spec.label} "${inputs.name}"`, id, withProviderKey(this.outputs(live, inputs, created, salt, entry), inputs), err);
      }
    } finally {
      if (written) this.wrote(api, written);
    }
  }

  async read(id: string, props: ConnectorOutputs) {
    const { live, config: found } = await checkLive(liveCache(client()).reader("read"), this.managed(id, props));
    if (!live) return { id: "", props: {} };
    // A key the platform has since dropped leaves the stack on refresh: the object no longer holds it.
    const entry = catalogueEntry(this.spec.kind, live.connector ?? props.connector);
    const planned = withoutRemovedKeys(entry, props.config ?? {});
    // No recorded config: a `get()`, or `pulumi import` on the plugin. The config is read as a
    // program would write it (configAsProgram: no defaults, no keys the platform sets or derives,
    // masked secrets as the mask), so imported code previews with no changes.
    const aligned =
      props.config === undefined
        ? configAsProgram(entry, live.config)
        : alignLiveConfig(planned, (entry ? liveAsProgram(entry, planned, live.config) : live.config) as ConfigMap, secretKeySet(entry, planned));
    // Refresh takes the live config into the stack, so the live config is the new baseline: from
    // now on the program is compared with it, and only later outside changes count as drift.
    // `detected` and the diff still say what this refresh found.
    const drift = found.latestTimestamp ? { ...found, baselineTimestamp: found.latestTimestamp } : found;
    const importing = props.config === undefined;
    const liveTags = tagIdsOf(live);
    const realigned: ConnectorInputs = {
      ...this.inputsOf(props),
      name: live.name ?? props.name,
      connector: live.connector ?? props.connector,
      config: aligned,
      desiredState: liveState(live.connector_status) ?? props.desiredState ?? "active",
      // An import takes the tags the object has, as a program that manages them would set them.
      ...(props.tags !== undefined || (importing && liveTags.length > 0) ? { tags: liveTags } : {}),
    };
    const outs = this.outputs(live, realigned, drift, props.secretSalt ?? newSalt(), entry);
    if (importing) {
      // The code an import generates leaves out the default state, as a program would.
      const { desiredState, ...asProgram } = realigned;
      return { id, props: outs, inputs: desiredState === "active" ? asProgram : realigned };
    }
    // Inputs only when the object moved away from them: otherwise the engine keeps the stack's
    // own (with the program's secret values), and a refresh of a clean stack sends the engine
    // one struct per resource instead of two.
    const moved = props.connector !== realigned.connector || changedInputs(props, realigned).length > 0;
    return moved ? { id, props: outs, inputs: realigned } : { id, props: outs };
  }

  async update(id: string, olds: ConnectorOutputs, news: ConnectorInputs) {
    const api = client();
    const entry = catalogueEntry(this.spec.kind, news.connector);
    try {
      // Only the stack's record changes (a value recorded in plain before its key became
      // secret) and nothing changed outside Pulumi: no write. A PUT would restart the connector
      // and send today's defaults for every key the program leaves unset.
      const unchanged = this.onlyRecordChanges(olds, news, entry) ? await this.unchangedLive(id, olds) : undefined;
      // One PUT of the whole desired config also reconciles drift the program did not change.
      let live = unchanged ?? (await this.put(api, id, news, entry, olds));
      try {
        live = await this.settleState(api, id, live, news.desiredState);
        const drift: DriftReport = unchanged ? (olds.drift ?? NO_DRIFT) : { ...NO_DRIFT, baselineTimestamp: await this.baseline(api, id) };
        return { outs: this.outputs(live, news, drift, olds.secretSalt ?? newSalt(), entry) };
      } catch (err) {
        throw new PartialFailure(`${this.spec.label} "${news.name}"`, id, withProviderKey(this.outputs(live, news, olds.drift ?? NO_DRIFT, olds.secretSalt ?? newSalt(), entry), news), err);
      }
    } finally {
      this.wrote(api, id);
    }
  }

  async delete(id: string) {
    const api = client();
    try {
      await deleteOnceReleased(() => api.delete(this.path(id), { params: { id }, query: WRITE_QUERY, schema: anyJsonSchema }));
    } catch (err) {
      // Already gone is what delete wants.
      if (!isNotFound(err)) throw err;
    } finally {
      this.wrote(api, id);
    }
  }

  /**
   * The recorded outputs and the program's config in the form diff compares: secrets as digests
   * (the stack keeps digests), secrets the stack never saw taken as the program's, and keys the
   * platform has since dropped left out of both (a stack deployed before the upgrade still
   * records them; the platform keeps none of them).
   */
  private compared(recorded: ConnectorOutputs, news: ConnectorInputs, entry: ConnectorSpec | undefined) {
    const secretKeys = secretKeySet(entry, news.config);
    const newsConfig = withoutRemovedKeys(entry, digestSecrets(news.config, secretKeys, recorded.secretSalt));
    const apiSpec = this.apiSource(entry);
    const recordedConfig = apiSpec && recorded.config ? recordedAsCompared(apiSpec, recorded.config, news.config) : recorded.config;
    // The recorded connector is the program's (a change of connector replaces the object).
    const kept = recordedConfig && withoutRemovedKeys(recorded.connector === news.connector ? entry : catalogueEntry(this.spec.kind, recorded.connector), recordedConfig);
    return { olds: { ...recorded, config: unseenSecretsAsProgram(kept, newsConfig, secretKeys) }, newsConfig, secretKeys };
  }

  /**
   * Whether the only difference between the stack and the program is how the stack records a
   * config value: secret keys recorded in plain, holding the program's value (recordedInPlain).
   */
  private onlyRecordChanges(recorded: ConnectorOutputs, news: ConnectorInputs, entry: ConnectorSpec | undefined): boolean {
    if (isUnknown(news.config) || containsUnknown(news)) return false;
    const { olds, newsConfig, secretKeys } = this.compared(recorded, news, entry);
    if (olds.connector !== news.connector) return false;
    const configKeys = changedConfigKeys(olds.config, newsConfig);
    if (configKeys.length === 0 || changedInputs(olds, news, newsConfig, configKeys).some((p) => p !== "config")) return false;
    const plain = new Set(recordedInPlain(olds.config ?? {}, news.config, secretKeys));
    return configKeys.every((k) => plain.has(k));
  }

  /** The live object when nothing about it changed outside Pulumi (what diff checks); undefined otherwise. */
  private async unchangedLive(id: string, olds: ConnectorOutputs): Promise<DestinationConnector | undefined> {
    const { live, findings } = await this.outsideChanges("update", id, olds);
    return findings.length === 0 ? live : undefined;
  }

  /**
   * What changed on the object outside Pulumi: its config, its lifecycle state, its name, its
   * tags, or the object deleted; as sentences for the drift report and as property paths.
   */
  private async outsideChanges(consumer: "diff" | "update", id: string, olds: ConnectorOutputs) {
    const { live, config, status } = await checkLive(liveCache(client()).reader(consumer), this.managed(id, olds));
    const findings: string[] = [];
    const paths: string[] = [];
    if (!live) findings.push("was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again");
    if (status?.drifted) {
      findings.push(`is ${status.live}; the program wants ${status.desired}`);
      paths.push("desiredState");
    }
    if (live && typeof live.name === "string" && live.name !== olds.name) {
      findings.push(`was renamed to "${live.name}"`);
      paths.push("name");
    }
    if (config.detected) {
      findings.push(`config was changed:\n${config.maskedDiff}`);
      for (const key of config.changedKeys) paths.push(`config["${key}"]`);
    }
    const liveTags = live ? tagIdsOf(live) : undefined;
    if (liveTags && olds.tags !== undefined && !sameMembers(liveTags, olds.tags)) {
      findings.push(`tags were changed to [${liveTags.join(", ")}]`);
      paths.push("tags");
    }
    return { live, findings, paths };
  }

  /** The entry when it is an API source (catalogue family "api"): another write contract. */
  private apiSource(entry: ConnectorSpec | undefined): ConnectorSpec | undefined {
    return this.spec.kind === "source" && entry?.family === "api" ? entry : undefined;
  }

  /** A save-time warning in the answer (an API source's connection test) is shown to the person running the update. */
  private warnOnSave<T extends Record<string, unknown>>(live: T, inputs: ConnectorInputs): T {
    const warning = connectionWarning(live);
    if (warning) reportWarning(`${this.spec.label} "${inputs.name}"`, warning);
    return live;
  }

  /** After a write (even a failed one, which may have half happened): what the run read about the object before is stale. */
  private wrote(api: CdcClient, id: string) {
    liveCache(api).wrote(this.spec.kind, id);
  }

  private async post(api: CdcClient, inputs: ConnectorInputs, entry: ConnectorSpec | undefined) {
    try {
      return await createSurvivingFaults({
        what: `${this.spec.label} "${inputs.name}"`,
        send: () =>
          api.post(this.path(), {
            query: WRITE_QUERY,
            body: { ...this.body(inputs, entry), created_from: api.createdFrom },
            schema: this.spec.schema,
          }).then((live) => this.warnOnSave(live, inputs)),
        find: () => findConnectorByName(api, this.spec.kind, inputs.name),
        mismatch: (found) => notOurs(found, inputs, api.createdFrom),
        policy: api.retryPolicy,
      });
    } catch (err) {
      if (err instanceof ConflictError) {
        const existing = await findConnectorByName(api, this.spec.kind, inputs.name).catch(() => undefined);
        const noun = `${this.spec.label[0]!.toUpperCase()}${this.spec.label.slice(1)}`;
        throw new Error(`${err.message}. ${nameTakenHint({ noun, name: inputs.name, createdFrom: api.createdFrom, existing })}`);
      }
      throw err;
    }
  }

  /** `recorded`: what the stack holds of the object (an update), whose unchanged secrets an API source need not resend. */
  private async put(api: CdcClient, id: string, inputs: ConnectorInputs, entry: ConnectorSpec | undefined, recorded?: ConnectorOutputs) {
    try {
      const live = await api.put(this.path(id), {
        params: { id },
        query: WRITE_QUERY,
        body: this.body(inputs, entry, recorded),
        schema: this.spec.schema,
      });
      return this.warnOnSave(live, inputs);
    } catch (err) {
      if (isNotFound(err)) {
        throw new Error(
          `${this.spec.label} "${inputs.name}" (${id}) no longer exists: it was deleted outside Pulumi. ` +
            "Run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again.",
        );
      }
      throw err;
    }
  }

  /**
   * The create and update body: the whole config, defaults included (wireConfigWithDefaults);
   * `tags` absent leaves the object's tags as they are, `[]` clears them. An API source sends
   * only what the program set, and on an update leaves out the secrets the service keeps
   * (api-sources.ts).
   */
  private body(inputs: ConnectorInputs, entry: ConnectorSpec | undefined, recorded?: ConnectorOutputs) {
    const apiSpec = this.apiSource(entry);
    // A key the platform has since dropped is never sent, even when the program still sets it.
    const given = withoutRemovedKeys(entry, inputs.config);
    const config =
      !apiSpec ? wireConfigWithDefaults(entry, given)
      : recorded ? apiUpdateConfig(apiSpec, given, recorded.config ?? {}, recorded.secretSalt)
      : apiCreateConfig(given);
    return { name: inputs.name, connector: inputs.connector, config, ...(inputs.tags !== undefined ? { tags: inputs.tags } : {}) };
  }

  /**
   * Takes over an existing object: it must exist and be of the same connector. When it already
   * equals the program (adoptionChanges), nothing is written: no PUT, which would restart the
   * connector on the platform (and no pause or resume unless its status differs). Otherwise one
   * PUT makes it match, as an update does.
   */
  private async adopt(api: CdcClient, inputs: ConnectorInputs, entry: ConnectorSpec | undefined): Promise<{ live: DestinationConnector; wrote: boolean }> {
    const id = inputs.adoptId!;
    const existing = await api.findOne(this.path(id), this.spec.schema, { params: { id } });
    if (!existing) {
      throw new Error(`adoptId: there is no ${this.spec.label} with id "${id}" to adopt; check the id, or remove adoptId to create a new one`);
    }
    if (existing.connector && existing.connector !== inputs.connector) {
      throw new Error(
        `adoptId: ${this.spec.label} "${id}" is a ${existing.connector} connector, not ${inputs.connector}; set connector to "${existing.connector}" to adopt it`,
      );
    }
    if (adoptionChanges(entry, existing, inputs).length === 0) return { live: existing, wrote: false };
    return { live: await this.put(api, id, inputs, entry), wrote: true };
  }

  private async settleState(api: CdcClient, id: string, live: DestinationConnector, desired: DesiredState) {
    const steps = transitions(this.spec, live.connector_status, desired);
    for (const step of steps) await api.put(`${this.path(id)}/${step}`, { params: { id }, schema: anyJsonSchema });
    return steps.length === 0 ? live : ((await api.findOne(this.path(id), this.spec.schema, { params: { id } })) ?? live);
  }

  /** Destinations: the comparison's latest timestamp right after Pulumi's own write. */
  private async baseline(api: CdcClient, id: string): Promise<string | undefined> {
    if (this.spec.kind !== "destination") return undefined;
    const latest = (await compareToOriginal(api, id)).latest_timestamp;
    return latest === null || latest === undefined ? undefined : String(latest);
  }

  /** What Pulumi recorded about the object, for the live check. */
  private managed(id: string, olds: ConnectorOutputs): ManagedConnector {
    return {
      kind: this.spec.kind,
      id,
      name: olds.name,
      connector: olds.connector,
      config: olds.config ?? {},
      desiredState: olds.desiredState ?? "active",
      ...(olds.drift?.baselineTimestamp ? { baselineTimestamp: olds.drift.baselineTimestamp } : {}),
      ...(olds.drift?.baselineOriginal === true ? { baselineOriginal: true } : {}),
    };
  }

  private inputsOf(props: Partial<ConnectorInputs>): Partial<ConnectorInputs> {
    const { logicalName, autonamed, adoptId } = props;
    return {
      ...(logicalName !== undefined ? { logicalName } : {}),
      ...(autonamed !== undefined ? { autonamed } : {}),
      ...(adoptId !== undefined ? { adoptId } : {}),
    };
  }

  private outputs(live: DestinationConnector, inputs: ConnectorInputs, drift: DriftReport, salt: string, entry: ConnectorSpec | undefined): ConnectorOutputs {
    return withoutUndefined({
      ...inputs,
      config: digestSecrets(inputs.config, secretKeySet(entry, inputs.config), salt),
      secretSalt: salt,
      status: live.connector_status ?? "Unknown",
      displayName: live.connector_display_name ?? inputs.connector,
      createdTimestamp: live.created_timestamp === null || live.created_timestamp === undefined ? "" : toApiString(live.created_timestamp),
      ...(liveOutputs(this.spec.declaration, live) as Pick<ConnectorOutputs, "tenantId" | "topics" | "topicIds" | "topicMap">),
      drift,
    });
  }
}
