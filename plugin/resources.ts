import { secretKeySet } from "../provider/catalogue.js";
import { provider, type ResourceKind } from "../provider/index.js";
import { KINDS } from "./kinds.js";
import { UNKNOWN, type Path } from "./marshal.js";

/**
 * Type tokens to the core's kinds. The plugin serves the same providers the dynamic classes use;
 * what is here is only what the protocol needs to know about a kind's properties.
 */
export const RESOURCE_KINDS: readonly ResourceKind[] = [
  "Source",
  "Destination",
  "Tag",
  "ClientCredential",
  "HttpConnection",
  "LlmConnection",
  "Agent",
  "Pipeline",
  "Transform",
  "Topic",
  "KafkaUser",
];

export const TOKEN_PREFIX = "cdc:index:";

export function tokenOf(kind: ResourceKind): string {
  return `${TOKEN_PREFIX}${kind}`;
}

/** The kind of a type token (`cdc:index:Source`), or an error that lists the kinds there are. */
export function kindOfToken(token: string): ResourceKind {
  const kind = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
  if ((RESOURCE_KINDS as readonly string[]).includes(kind)) return kind as ResourceKind;
  throw new Error(`unknown resource type "${token}": pulumi-cdc has ${RESOURCE_KINDS.map(tokenOf).join(", ")}`);
}

/** urn:pulumi:stack::project::type::name → name (the resource's name, the base of an autoname). */
export function resourceName(urn: string): string {
  const i = urn.lastIndexOf("::");
  return i < 0 ? urn : urn.slice(i + 2);
}

/** urn:pulumi:stack::project::... → kind, from the type segment. */
export function kindOfUrn(urn: string): ResourceKind {
  const parts = urn.split("::");
  const type = parts[2] ?? "";
  return kindOfToken(type.split("$").pop() ?? type);
}

/** The core's provider of a kind, with its operations typed loosely: the host passes property bags. */
export interface CoreProvider {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: Array<{ property: string; reason: string }> }>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ changes: boolean; replaces?: string[]; deleteBeforeReplace?: boolean; diffs?: string[] }>;
  create(inputs: Record<string, unknown>): Promise<{ id: string; outs: Record<string, unknown> }>;
  read(id: string, props: Record<string, unknown>): Promise<{ id: string; props: Record<string, unknown>; inputs?: Record<string, unknown> }>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ outs: Record<string, unknown> }>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
}

export function core(kind: ResourceKind): CoreProvider {
  return provider(kind) as unknown as CoreProvider;
}

/**
 * Inputs the core keeps for itself and that are not properties of the schema. `logicalName` is
 * the resource's name, which the plugin gives the core from the URN at every call.
 */
export const HOST_ONLY_INPUTS = ["logicalName", "__provider"] as const;

/**
 * The paths of a kind's properties that hold secrets, whether or not the program marked them:
 * the catalogue's secret config keys, HTTP header values, the LLM key, the credential's secret.
 * Wrapped on the way out (inputs and outputs alike), so state holds them encrypted.
 */
export function secretPaths(kind: ResourceKind, props: Record<string, unknown>): Path[] {
  switch (kind) {
    case "Source":
    case "Destination":
    case "Transform": {
      const config = props.config && typeof props.config === "object" ? (props.config as Record<string, unknown>) : {};
      const catalogueKind = kind === "Transform" ? "transform" : kind === "Source" ? "source" : "destination";
      const code = String((kind === "Transform" ? props.transform : props.connector) ?? "");
      return [...secretKeySet(catalogueKind, code, config)].filter((k) => k in config).map((k) => ["config", k]);
    }
    case "HttpConnection": {
      const headers = props.headers && typeof props.headers === "object" ? Object.keys(props.headers) : [];
      return headers.map((h) => ["headers", h]);
    }
    case "LlmConnection":
      return [["apiKey"]];
    case "KafkaUser":
      return [["password"]];
    case "ClientCredential":
      return [["secret"]];
    default:
      return [];
  }
}

/**
 * A preview's outputs: the inputs as planned, and every output the API makes (ids, status,
 * topics) unknown, shown as "output" until `pulumi up` runs. Nothing is sent to the API.
 */
export function previewOutputs(kind: ResourceKind, inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...inputs };
  for (const p of KINDS[kind].outputs) if (!(p.name in inputs)) out[p.name] = UNKNOWN;
  return out;
}
