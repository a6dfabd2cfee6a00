import { z } from "zod";
import { REPLAY_WINDOWS } from "../../catalogue/kind-values.js";
import { configValue } from "../check.js";
import { declareInputs } from "./inputs.js";
import { adoptInput, echo, list, nameInput, STRINGS, tagsInput, TRANSFORM_TYPES } from "./shared.js";
import type { LiveTransform } from "../pipelines/schemas.js";
import type { ImportContext, Value } from "./imported.js";
import type { KindSpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform } from "./terraform.js";

/** How long a deploy waits for the transform's job to reach `RUNNING` unless the resource sets `deployTimeoutSec`, and the range it may set, in seconds. */
export const DEFAULT_DEPLOY_TIMEOUT_SEC = 600;
const DEPLOY_TIMEOUT_MIN = 10;
const DEPLOY_TIMEOUT_MAX = 3600;

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  name: nameInput("transform", ", unique per tenant; the same as config `transforms.name`, which it fills in"),
  transform: {
    type: "string",
    ts: { type: "TransformType" },
    replaceOnChange: true,
    description: `The transform's type: ${list(TRANSFORM_TYPES)}. Changing it replaces the transform.`,
    check: z.enum(TRANSFORM_TYPES as [string, ...string[]], { error: `must be one of ${TRANSFORM_TYPES.join(", ")}` }),
  },
  config: {
    type: { mapOf: "any" },
    ts: { type: "ConfigValue" },
    description:
      "The transform's settings, in the platform's keys (e.g. `transforms.input.topic.pattern`), checked against the catalogue before any API call: required keys, types, allowed values and ranges. Settings changed outside Pulumi are drift.",
    check: z.record(z.string(), configValue, { error: "must be an object of transform settings (a helper such as mapFilterTransform builds it)" }).optional(),
  },
  implementation: {
    type: { mapOf: "any" },
    description:
      "The code or SQL, in the type's shape: for the code types (`map_filter`, `enrich_async`, `fan_out`) `{language, value_transform, key_transform, topic_transform, common_transform}`; SQL for `enrich`, `sql_join` and `rollup`. " +
      "Unset: managed elsewhere. A new implementation is a new version, and a deployed transform is redeployed.",
    check: z.record(z.string(), z.unknown(), { error: "must be an object: the code or SQL in the type's shape (e.g. codeImplementation({...}))" }).optional(),
  },
  deploy: {
    type: "boolean",
    description: "Deploy the transform and wait for its job to be `RUNNING`; a job that ends `FAILED` fails the update with the API's reason. Default `false`.",
    check: z.boolean({ error: "must be true (deploy and wait for RUNNING) or false" }).optional(),
  },
  deployTimeoutSec: {
    type: "integer",
    description: `How long a deploy waits for \`RUNNING\`, in seconds, from ${DEPLOY_TIMEOUT_MIN} to ${DEPLOY_TIMEOUT_MAX}. Default ${DEFAULT_DEPLOY_TIMEOUT_SEC}.`,
    check: z
      .number({ error: "must be a number of seconds" })
      .int({ error: "must be a whole number of seconds" })
      .min(DEPLOY_TIMEOUT_MIN, { error: `must be at least ${DEPLOY_TIMEOUT_MIN} seconds` })
      .max(DEPLOY_TIMEOUT_MAX, { error: `must be at most ${DEPLOY_TIMEOUT_MAX} seconds (one hour)` })
      .optional(),
  },
  replayWindow: {
    type: "string",
    ts: { type: "ReplayWindow" },
    description: `How far back a deployment replays its input: ${list(REPLAY_WINDOWS)}. Unset: the platform's default.`,
    check: z.enum(REPLAY_WINDOWS, { error: `must be one of ${REPLAY_WINDOWS.join(", ")}` }).optional(),
  },
  tags: tagsInput("transform"),
  adoptId: adoptInput("transform", "otherwise it is updated to match (of the same type)."),
});

/** A transform as an import reads it: the item itself (with its implementation), and whether its job runs. */
export interface ImportedTransform extends LiveTransform {
  running: boolean;
}

/** The type that runs without an implementation of its own. */
const NO_IMPLEMENTATION = "topic_router";

/** An implementation without the null keys the platform adds: what a program would have set. */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, v && typeof v === "object" && !Array.isArray(v) ? withoutNulls(v as Record<string, unknown>) : v]),
  );
}

/** A transform as a program sets it; `deploy` only where pulumi-cdc can deploy what it holds. */
function transformInputs(t: ImportedTransform, ctx: ImportContext) {
  const type = t.transform_type ?? "";
  const config = ctx.config(type, t.config ?? {}, { raw: false });
  const implementation = withoutNulls(t.implementation ?? {});
  const held = Object.keys(implementation).length > 0;
  if (t.running && !held && type !== NO_IMPLEMENTATION) {
    ctx.note("Its job runs but the API shows no implementation: `deploy` is left unset (pulumi-cdc deploys only an implementation it holds).");
  }
  return {
    transform: type,
    config,
    implementation: held ? (implementation as Record<string, Value>) : undefined,
    deploy: t.running && (held || type === NO_IMPLEMENTATION) ? true : undefined,
    tags: ctx.tags(t.tags),
  };
}

export const TRANSFORM = {
  name: "Transform",
  token: "cdc:index:Transform",
  noun: "transform",
  plural: "transforms",
  report: "transform",
  internal: ["logicalName"],
  catalogue: { kind: "transform", codeProperty: "transform", module: "transforms", nameKey: "transforms.name" },
  imported: {
    flag: "transforms",
    suffix: "Transform",
    order: 7,
    section: "Transforms",
    objects: (listed: readonly ImportedTransform[]) => listed.map((t) => ({ id: t.id, name: t.name ?? "", tagIds: t.tags, live: t })),
    inputs: transformInputs,
  },
  terraform: {
    attributes: {
      id: "adoptId",
      name: "name",
      transform_type: "transform (also given by the resource type)",
      implementation_json: "implementation",
      deploy: "deploy",
      tags: "tags",
      connector_status: "(read back: the status of the transform's job)",
    },
    dropped: {
      replay_window: "how far back a deployment replays its input: used only when a deployment starts, and the adopted transform is not redeployed; set replayWindow for the next one",
      timeouts: "Terraform's own operation timeouts: pulumi-cdc's are customTimeouts on the resource",
    },
    live: (a, config) => {
      const id = tfString(a, "id");
      if (!id) return undefined;
      let implementation: Record<string, unknown> | null = null;
      const json = tfString(a, "implementation_json");
      if (json) {
        try {
          const parsed: unknown = JSON.parse(json);
          if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) implementation = parsed as Record<string, unknown>;
        } catch {
          // Left out: the import's note says the API shows no implementation.
        }
      }
      const transform = { id, name: tfString(a, "name") ?? "", transform_type: tfString(a, "transform_type") ?? null, config, implementation, tags: tfStrings(a, "tags"), topic_ids: [], topics: [], running: a.deploy === true } as unknown as ImportedTransform;
      return { id, live: transform };
    },
  } satisfies KindTerraform,
  description: `A stream processor of one of the seven types (${list(TRANSFORM_TYPES)}), between a source's topics and a pipeline's destination. Settings, implementation, name and tags update in place; changing the type replaces it.`,
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["name", "transform", "config", "deploy", "deployTimeoutSec"]),
    { name: "status", type: "string", required: true, description: "The status of the transform's job: `RUNNING`, `FAILED`, `DEPLOYING`, ... or `NOT_DEPLOYED`." },
    { name: "version", type: "integer", required: true, description: "The version of the transform's implementation." },
    { name: "topics", type: STRINGS, required: true, description: "The topics the transform writes, by name: what a `Pipeline`'s `transforms[].topics` takes." },
    { name: "topicIds", type: STRINGS, required: true, description: "The ids of the topics the transform writes (`transform_<id>_<version>.<name>`)." },
    { name: "startTime", type: "string", required: true, description: "When the transform's job started, as the API reports it; empty when it has not." },
    { name: "tagIds", type: STRINGS, required: true, description: "The ids of the tags the transform has, also when the program does not manage them." },
  ],
} satisfies KindSpec<"Transform">;
