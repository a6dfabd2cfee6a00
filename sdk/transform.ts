import { CODE_LANGUAGES, type CodeLanguage } from "../catalogue/kind-values.js";
import type { HELPERS } from "../generated/typescript/index.js";

/** What the `Transform` class (generated/typescript/kinds.ts) takes beyond its declaration: its type's name, and its code in the API's shape. */

/** A transform type: the catalogue's transform codes (catalogue/connectors.json), as the generated helpers know them. */
export type TransformType = keyof (typeof HELPERS)["transform"];

/** The code or SQL of a transform, in its type's shape (see `codeImplementation`). */
export type TransformImplementation = Record<string, unknown>;

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
