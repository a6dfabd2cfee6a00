import * as pulumi from "@pulumi/pulumi";
import { CODE_LANGUAGES, type CodeLanguage, type ReplayWindow } from "../catalogue/kind-values.js";
import type { ConfigValue } from "./inputs.js";
import { CdcResource } from "./dynamic.js";
import type { HELPERS } from "./generated/index.js";
import { tagIds, type TagsInput } from "./inputs.js";

/** A transform type: the catalogue's transform codes (catalogue/connectors.json), as the generated helpers know them. */
export type TransformType = keyof (typeof HELPERS)["transform"];

/** The code or SQL of a transform, in its type's shape (see `codeImplementation`). */
export type TransformImplementation = Record<string, unknown>;

export interface TransformArgs {
  /** The type; changing it replaces the transform. The typed helpers (`mapFilterTransform(...)`) set it with `config`. */
  transform: pulumi.Input<TransformType>;
  /** Settings in the platform's keys; the helpers build it, checked against the catalogue before any API call. */
  config?: pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;
  /** Unique per tenant; the same as config `transforms.name` (a helper's `name`). Unset: `<resource name>-<random suffix>`. */
  name?: pulumi.Input<string>;
  /** The code (map_filter, enrich_async, fan_out) or SQL (enrich, sql_join, rollup). Unset: managed elsewhere. */
  implementation?: pulumi.Input<TransformImplementation>;
  /** Deploy it and wait for its job to be RUNNING; a FAILED job fails the update with the API's reason. Default false. */
  deploy?: pulumi.Input<boolean>;
  /** How long a deploy waits for RUNNING, in seconds (10 to 3600). Default 600. */
  deployTimeoutSec?: pulumi.Input<number>;
  /** How far back a deployment replays its input, one of `ReplayWindow`. Unset: the platform's default. */
  replayWindow?: pulumi.Input<ReplayWindow>;
  /** `Tag` resources or tag ids. Unset: left as they are; `[]` removes them. */
  tags?: TagsInput;
  /** Take over an existing transform with this id instead of creating one (no write when it already matches). */
  adoptId?: pulumi.Input<string>;
}

export interface CodeImplementationArgs {
  /** One of `CodeLanguage`; the first (`JAVASCRIPT`) is the default. */
  language?: CodeLanguage;
  /** The record transform: `function _stk(record) { ... return record; }` (return null to drop it). */
  valueTransform: string;
  keyTransform?: string;
  topicTransform?: string;
  commonTransform?: string;
}

/** The implementation of a code transform (map_filter, enrich_async, fan_out) in the API's shape. */
export function codeImplementation(args: CodeImplementationArgs): TransformImplementation {
  return {
    language: args.language ?? CODE_LANGUAGES[0],
    value_transform: args.valueTransform,
    ...(args.keyTransform !== undefined ? { key_transform: args.keyTransform } : {}),
    ...(args.topicTransform !== undefined ? { topic_transform: args.topicTransform } : {}),
    ...(args.commonTransform !== undefined ? { common_transform: args.commonTransform } : {}),
  };
}

/** A stream processor between a source's topics and a pipeline's destination. */
export class Transform extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly transform: pulumi.Output<TransformType>;
  declare readonly config: pulumi.Output<Record<string, ConfigValue>>;
  declare readonly implementation: pulumi.Output<TransformImplementation | undefined>;
  declare readonly deploy: pulumi.Output<boolean>;
  /** The job's status: RUNNING, FAILED, DEPLOYING, ... or NOT_DEPLOYED. */
  declare readonly status: pulumi.Output<string>;
  declare readonly version: pulumi.Output<number>;
  /** The topics it writes, by name: what a Pipeline's `transforms[].topics` takes. */
  declare readonly topics: pulumi.Output<string[]>;
  declare readonly topicIds: pulumi.Output<string[]>;
  declare readonly startTime: pulumi.Output<string>;
  declare readonly tagIds: pulumi.Output<string[]>;

  constructor(name: string, args: TransformArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Transform",
      name,
      {
        logicalName: name,
        name: args?.name,
        transform: args?.transform,
        config: args?.config,
        implementation: args?.implementation,
        deploy: args?.deploy,
        deployTimeoutSec: args?.deployTimeoutSec,
        replayWindow: args?.replayWindow,
        tags: tagIds(args?.tags),
        adoptId: args?.adoptId,
        status: undefined,
        version: undefined,
        topics: undefined,
        topicIds: undefined,
        startTime: undefined,
        tagIds: undefined,
      },
      opts,
    );
  }

  /** Reads an existing transform without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Transform {
    return new Transform(name, undefined as unknown as TransformArgs, { ...opts, id });
  }
}
