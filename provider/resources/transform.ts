import { connectorCodes } from "../../catalogue/index.js";
import { catalogueEntry } from "../catalogue.js";
import { checkConnectorConfig, configAsProgram, failuresFromZod, toWireConfig, type CheckFailure } from "../check.js";
import { anyJsonSchema, ConflictError, isNotFound, type CdcClient } from "../client/index.js";
import { client } from "../context.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { DEFAULT_DEPLOY_TIMEOUT_SEC, TRANSFORM, type ImportedTransform } from "../kinds/transform.js";
import { liveOutputs } from "../kinds/outputs.js";
import type { ImportListing } from "../kinds/imported.js";
import { reportDrift } from "../drift.js";
import { alignLiveConfig, canonicalJson, changedConfigKeys, containsUnknown, isUnknown, sameMembers, withoutUndefined, type ConfigMap } from "../normalize.js";
import { findByName, getTransform, waitUntilGone } from "../pipelines/api.js";
import { deployAndWait, jobStatus } from "../pipelines/deploy.js";
import { implementationVersionSchema, transformSchema, type LiveTransform } from "../pipelines/schemas.js";
import { createSurvivingFaults } from "./create.js";
import { plainString, recoverByName } from "./recovered.js";
import { PartialFailure, withProviderKey } from "./failure.js";
import { deleteOnceReleased } from "./gone.js";
import { resolveName } from "./naming.js";

export const TRANSFORM_TYPES = connectorCodes("transform");
const NAME_KEY = TRANSFORM.catalogue.nameKey;

export interface TransformInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  /** The type: one of TRANSFORM_TYPES, the catalogue's transform codes. */
  transform: string;
  /** Settings in the platform's keys; `transforms.name` always carries the name. */
  config: ConfigMap;
  /** The code or SQL, in the type's shape; unset: managed elsewhere. */
  implementation?: Record<string, unknown>;
  /** Run it: deploy and wait for RUNNING. */
  deploy: boolean;
  deployTimeoutSec: number;
  replayWindow?: string;
  tags?: string[];
  /** The id of an existing transform to take over instead of creating one. */
  adoptId?: string;
}

export interface TransformOutputs extends TransformInputs {
  /** The job's status: RUNNING, FAILED, DEPLOYING, ... or NOT_DEPLOYED. */
  status: string;
  version: number;
  topics: string[];
  topicIds: string[];
  startTime: string;
  tagIds: string[];
}


/** Whether the API's implementation holds what the program set: the platform adds defaults and null keys. */
export function implementationMatches(planned: unknown, live: unknown): boolean {
  if (planned === null || planned === undefined) return true;
  if (Array.isArray(planned)) return Array.isArray(live) && live.length === planned.length && planned.every((p, i) => implementationMatches(p, live[i]));
  if (typeof planned === "object") {
    if (!live || typeof live !== "object" || Array.isArray(live)) return false;
    return Object.entries(planned as Record<string, unknown>).every(([k, v]) => implementationMatches(v, (live as Record<string, unknown>)[k]));
  }
  return canonicalJson(planned) === canonicalJson(live);
}

/** An implementation without the null keys the platform adds: what a program would have set. */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, v && typeof v === "object" && !Array.isArray(v) ? withoutNulls(v as Record<string, unknown>) : v]),
  );
}

/**
 * What adopting `live` would change, as property paths; [] when it already equals the program.
 * Settings compare as diff compares them, and a setting the transform has away from its default
 * that the program leaves unset is a change (a write sends the program's settings only). The
 * implementation is compared as drift compares it (the platform's added keys ignored); `deploy:
 * true` wants a running job, `false` leaves the job as it is.
 */
export function transformAdoptionChanges(live: LiveTransform, inputs: TransformInputs, running: boolean): string[] {
  const keys = new Set(changedConfigKeys(inputs.config, alignLiveConfig(inputs.config, live.config, new Set())));
  for (const key of Object.keys(configAsProgram(catalogueEntry("transform", inputs.transform), live.config))) if (!(key in inputs.config)) keys.add(key);
  return [
    ...((live.name ?? "") !== inputs.name ? ["name"] : []),
    ...[...keys].sort().map((k) => `config["${k}"]`),
    ...(inputs.implementation !== undefined && !implementationMatches(inputs.implementation, live.implementation ?? {}) ? ["implementation"] : []),
    ...(inputs.tags !== undefined && !sameMembers(live.tags, inputs.tags) ? ["tags"] : []),
    ...(inputs.deploy && !running ? ["deploy"] : []),
  ];
}

/** What changed on a transform outside Pulumi; [] when nothing. */
export function transformFindings(live: LiveTransform | undefined, recorded: TransformOutputs, job: string | undefined): string[] {
  if (!live) return ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again"];
  const findings: string[] = [];
  if (live.name && live.name !== recorded.name) findings.push(`was renamed to "${live.name}"`);
  const aligned = alignLiveConfig(recorded.config ?? {}, live.config, new Set());
  const keys = changedConfigKeys(recorded.config ?? {}, aligned);
  if (keys.length > 0) findings.push(`config was changed: ${keys.map((k) => `${k} = ${JSON.stringify(aligned[k])}`).join(", ")}`);
  if (recorded.implementation !== undefined && !implementationMatches(recorded.implementation, live.implementation ?? {})) findings.push("implementation was changed");
  if (recorded.tags !== undefined && !sameMembers(live.tags, recorded.tags)) findings.push(`tags were changed to [${live.tags.join(", ")}]`);
  if (recorded.deploy && job !== undefined && job !== "RUNNING") findings.push(`its job is ${job}; the program wants it RUNNING`);
  return findings;
}

/** Transforms of the seven types: settings and implementation update in place, deploy is a desired state, a type change replaces. */
export class TransformProvider {
  /** `pulumi-cdc import`: every transform as its item (the listing need not carry the implementation), and whether its job runs. */
  async listForImport(api: CdcClient, _listing: ImportListing): Promise<ImportedTransform[]> {
    const listed = await api.listAll("/transforms", {}, transformSchema);
    return Promise.all(
      listed.map(async (item) => {
        const live = (await getTransform(api, item.id)) ?? item;
        const running = (await jobStatus(api, item.id))?.status === "RUNNING";
        return { ...live, running };
      }),
    );
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await getTransform(api, id);
    const job = live && recorded.deploy === true ? ((await jobStatus(api, id))?.status ?? "NOT_DEPLOYED") : undefined;
    return { gone: live === undefined, findings: transformFindings(live, recorded as unknown as TransformOutputs, job) };
  }

  readonly replaceOnChange = TRANSFORM.replaceOnChange;

  async check(olds: Partial<TransformInputs>, news: Record<string, unknown>) {
    const parsed = TRANSFORM.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const config = { ...(input.config ?? {}) } as Record<string, unknown>;
    const failures: CheckFailure[] = [];
    // The name lives in the config (`transforms.name`); `name` and the helper's name must agree.
    const fromConfig = typeof config[NAME_KEY] === "string" ? (config[NAME_KEY] as string) : undefined;
    if (input.name !== undefined && fromConfig !== undefined && !isUnknown(input.name) && !isUnknown(fromConfig) && input.name !== fromConfig) {
      failures.push({ property: "name", reason: `is "${input.name}" but config["${NAME_KEY}"] is "${fromConfig}": set one of them` });
    }
    const replacing = olds.transform !== undefined && olds.transform !== input.transform;
    const naming = resolveName(olds, { ...input, name: input.name ?? fromConfig }, replacing);
    config[NAME_KEY] = naming.name;
    const entry = catalogueEntry("transform", input.transform);
    failures.push(...checkConnectorConfig(entry, config));
    if (input.deploy && input.implementation === undefined && input.transform !== "topic_router") {
      failures.push({ property: "implementation", reason: "is required to deploy a transform: set the code or SQL (e.g. codeImplementation({valueTransform: ...})), or set deploy: false" });
    }
    const inputs: TransformInputs = withoutUndefined({
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...naming,
      transform: input.transform,
      config: toWireConfig(entry, config),
      ...(input.implementation !== undefined ? { implementation: input.implementation } : {}),
      deploy: input.deploy ?? false,
      deployTimeoutSec: input.deployTimeoutSec ?? DEFAULT_DEPLOY_TIMEOUT_SEC,
      ...(input.replayWindow !== undefined ? { replayWindow: input.replayWindow } : {}),
      ...(input.tags !== undefined ? { tags: [...new Set(input.tags)] } : {}),
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    });
    return { inputs, failures };
  }

  async diff(transformId: string, olds: TransformOutputs, news: TransformInputs) {
    const replaces: string[] = this.replaceOnChange.filter((k) => olds[k] !== news[k]);
    const changed =
      olds.name !== news.name ||
      changedConfigKeys(olds.config, news.config).length > 0 ||
      (news.implementation !== undefined && canonicalJson(olds.implementation ?? null) !== canonicalJson(news.implementation)) ||
      olds.deploy !== news.deploy ||
      (news.tags !== undefined && !sameMembers(olds.tags ?? olds.tagIds, news.tags));
    let drifted = false;
    if (replaces.length === 0 && !containsUnknown(news)) {
      const api = client();
      const live = await getTransform(api, transformId);
      const job = live && olds.deploy ? ((await jobStatus(api, transformId))?.status ?? "NOT_DEPLOYED") : undefined;
      const findings = transformFindings(live, olds, job);
      drifted = findings.length > 0;
      reportDrift(`transform "${olds.name}" (${transformId})`, findings);
    }
    return {
      changes: replaces.length > 0 || changed || drifted,
      replaces,
      // Names are unique: a named replacement deletes the original first.
      deleteBeforeReplace: replaces.length > 0 && !news.autonamed,
    };
  }

  /** `pulumi-cdc recover`: the transform a killed run's create made, by its unique name, of the program's type. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const type = plainString(inputs.transform);
    return recoverByName(api, context, {
      kind: TRANSFORM,
      name: inputs.name,
      list: (partial) => api.listAll("/transforms", { partial_name: partial }, transformSchema),
      differs: (found) => (type !== undefined && found.transform_type && found.transform_type !== type ? `a ${found.transform_type} transform, not ${type}` : undefined),
    });
  }

  async create(inputs: TransformInputs & { __provider?: string }) {
    const api = client();
    if (inputs.adoptId) return this.adopt(api, inputs);
    let live = await createSurvivingFaults({
      what: `transform "${inputs.name}"`,
      // A duplicate name is a 422 "already exists" here (§5.8): the request core makes it a ConflictError.
      send: () =>
        api.post("/transforms", {
          query: { secret_returned: true },
          body: { transform: inputs.transform, config: inputs.config, created_from: api.createdFrom, tags: inputs.tags ?? null },
          schema: transformSchema,
        }),
      find: () => findByName(api, "/transforms", transformSchema, inputs.name),
      mismatch: (found) => {
        if (found.transform_type && found.transform_type !== inputs.transform) return `a ${found.transform_type} transform, not ${inputs.transform}`;
        if (found.created_from && found.created_from !== api.createdFrom) return `created from ${found.created_from}, not by Pulumi`;
        return undefined;
      },
      policy: api.retryPolicy,
    }).catch((err: unknown) => {
      if (err instanceof ConflictError) throw new Error(`${err.message}. Transform names are unique: choose another name.`);
      throw err;
    });
    try {
      live = await this.settle(api, live, inputs, { implementationChanged: inputs.implementation !== undefined, redeploy: inputs.deploy });
      return { id: live.id, outs: await this.outputs(api, live, inputs) };
    } catch (err) {
      throw new PartialFailure(`transform "${inputs.name}"`, live.id, withProviderKey(await this.outputs(api, live, inputs, "NOT_DEPLOYED"), inputs), err);
    }
  }

  async read(transformId: string, props: Partial<TransformOutputs>) {
    const api = client();
    const live = await getTransform(api, transformId);
    if (!live) return { id: "", props: {} };
    // No recorded type: `pulumi import` on the plugin.
    if (props.transform === undefined) {
      const imported = await this.imported(api, live);
      return { id: transformId, props: imported.props, inputs: imported.inputs };
    }
    const realigned: TransformInputs = withoutUndefined({
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      ...(props.autonamed !== undefined ? { autonamed: props.autonamed } : {}),
      name: live.name ?? props.name ?? "",
      transform: live.transform_type ?? props.transform ?? "",
      config: alignLiveConfig(props.config ?? {}, live.config, new Set()),
      ...(props.implementation !== undefined
        ? { implementation: implementationMatches(props.implementation, live.implementation ?? {}) ? props.implementation : (live.implementation ?? {}) }
        : {}),
      deploy: props.deploy ?? false,
      deployTimeoutSec: props.deployTimeoutSec ?? DEFAULT_DEPLOY_TIMEOUT_SEC,
      ...(props.replayWindow !== undefined ? { replayWindow: props.replayWindow } : {}),
      ...(props.tags !== undefined ? { tags: live.tags } : {}),
    });
    return { id: transformId, props: await this.outputs(api, live, realigned), inputs: realigned };
  }

  async update(transformId: string, olds: TransformOutputs, news: TransformInputs) {
    const api = client();
    // The platform's PUT replaces the implementation too: carry the live one over, then set ours.
    const current = await getTransform(api, transformId);
    if (!current) {
      throw new Error(`transform "${news.name}" (${transformId}) no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again.`);
    }
    let live = await api.put("/transforms", {
      query: { secret_returned: true },
      body: { id: transformId, transform: news.transform, config: news.config, implementation: current.implementation ?? {}, tags: news.tags ?? null },
      schema: transformSchema,
    });
    try {
      const implementationChanged = news.implementation !== undefined && !implementationMatches(news.implementation, live.implementation ?? {});
      const configChanged = changedConfigKeys(olds.config, news.config).length > 0;
      const running = news.deploy ? (await jobStatus(api, transformId))?.status === "RUNNING" : true;
      live = await this.settle(api, live, news, { implementationChanged, redeploy: news.deploy && (implementationChanged || configChanged || !running || !olds.deploy) });
      return { outs: await this.outputs(api, live, news) };
    } catch (err) {
      throw new PartialFailure(`transform "${news.name}"`, transformId, withProviderKey(await this.outputs(api, live, { ...news, deploy: olds.deploy }), news), err);
    }
  }

  async delete(transformId: string, props?: Partial<TransformOutputs>) {
    const api = client();
    try {
      await deleteOnceReleased(() => api.delete("/transforms", { query: { id: transformId }, schema: anyJsonSchema }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    await waitUntilGone(`transform "${props?.name ?? transformId}"`, async () => (await getTransform(api, transformId)) !== undefined);
  }

  /**
   * The transform as a program would write it, for the code `pulumi import` generates: the
   * settings without defaults (configAsProgram), the name as `name` (not `transforms.name`), the
   * implementation it has, `deploy: true` when its job runs, its tags; the defaults left out.
   * The outputs are what create() would have recorded for that program.
   */
  private async imported(api: CdcClient, live: LiveTransform) {
    const type = live.transform_type ?? "";
    const name = live.name ?? "";
    const { [NAME_KEY]: _name, ...settings } = configAsProgram(catalogueEntry("transform", type), live.config);
    const implementation = withoutNulls(live.implementation ?? {});
    const running = (await jobStatus(api, live.id))?.status === "RUNNING";
    const inputs = {
      name,
      transform: type,
      config: settings,
      ...(Object.keys(implementation).length > 0 ? { implementation } : {}),
      ...(running ? { deploy: true } : {}),
      ...(live.tags.length > 0 ? { tags: live.tags } : {}),
    };
    const recorded: TransformInputs = { ...inputs, config: { ...settings, [NAME_KEY]: name }, deploy: running, deployTimeoutSec: DEFAULT_DEPLOY_TIMEOUT_SEC };
    return { props: await this.outputs(api, live, recorded), inputs };
  }

  /**
   * Takes over an existing transform of the same type. When it already equals the program
   * (transformAdoptionChanges) nothing is written: no PUT, no new implementation version, no
   * deployment. Otherwise it is updated as update() does (a redeploy only where that would).
   */
  private async adopt(api: CdcClient, inputs: TransformInputs) {
    const id = inputs.adoptId!;
    const live = await getTransform(api, id);
    if (!live) throw new Error(`adoptId: there is no transform with id "${id}" to adopt; check the id, or remove adoptId to create a new one`);
    if (live.transform_type && live.transform_type !== inputs.transform) {
      throw new Error(`adoptId: transform "${id}" is a ${live.transform_type} transform, not ${inputs.transform}; set transform to "${live.transform_type}" to adopt it`);
    }
    const running = (await jobStatus(api, id))?.status === "RUNNING";
    if (transformAdoptionChanges(live, inputs, running).length === 0) return { id, outs: await this.outputs(api, live, inputs) };
    const olds = { ...inputs, config: alignLiveConfig(inputs.config, live.config, new Set()), deploy: running } as TransformOutputs;
    return { id, outs: (await this.update(id, olds, inputs)).outs };
  }

  /** Implementation, then deployment: the steps after the transform itself is written. */
  private async settle(api: CdcClient, live: LiveTransform, inputs: TransformInputs, what: { implementationChanged: boolean; redeploy: boolean }): Promise<LiveTransform> {
    if (what.implementationChanged && inputs.implementation !== undefined) {
      await api.put("/transforms/{id}/implementation_details", {
        params: { id: live.id },
        body: { transform_id: live.id, implementation: inputs.implementation },
        schema: implementationVersionSchema,
      });
    }
    if (what.redeploy) {
      await deployAndWait(api, { id: live.id, name: inputs.name, type: inputs.transform, timeoutSec: inputs.deployTimeoutSec, ...(inputs.replayWindow ? { replayWindow: inputs.replayWindow } : {}) });
    }
    return what.implementationChanged || what.redeploy ? ((await getTransform(api, live.id)) ?? live) : live;
  }

  private async outputs(api: CdcClient, live: LiveTransform, inputs: TransformInputs, status?: string): Promise<TransformOutputs> {
    const job = status ?? (await jobStatus(api, live.id).catch(() => undefined))?.status ?? "NOT_DEPLOYED";
    return withoutUndefined({
      ...(liveOutputs(TRANSFORM, live) as object),
      ...inputs,
      status: job,
      version: live.version ?? 0,
      topics: live.topics,
      topicIds: live.topic_ids,
      startTime: live.start_time ?? "",
      tagIds: live.tags,
    });
  }
}
