import { provider, type ResourceKind } from "./index.js";
import { isKindName, KIND_NAMES, KINDS, secretPaths as registrySecretPaths } from "./kinds/index.js";
import { UNKNOWN } from "./normalize.js";
import type { Path } from "./kinds/spec.js";
import { SECRET_DIGESTS, typedKindFor, typedKindOf, type TypedKind } from "./typed/kinds.js";
import { carryingPlainSecrets, withoutPlainSecrets } from "./plain-secrets.js";
import { fromCoreProps, toCoreProps, typedFailure, typedPath, unknownProperties } from "./typed/props.js";

/**
 * Type tokens to the core's kinds, for the plugin host: it serves the same providers the dynamic
 * classes use, and what is here is what the protocol needs to know about a kind's properties.
 */

/** Every kind the plugin serves by its own token (`cdc:index:<Kind>`): the registry's. */
export const RESOURCE_KINDS: readonly ResourceKind[] = KIND_NAMES;

export const TOKEN_PREFIX = "cdc:index:";

export function tokenOf(kind: ResourceKind): string {
  return KINDS[kind].token;
}

/**
 * What a type token is served as: a kind of the core, and for a typed resource
 * (`cdc:sources:Postgresql`) the typed kind whose properties the plugin maps to the core's.
 */
export interface Served {
  kind: ResourceKind;
  typed?: TypedKind;
}

/** The kind of a type token (`cdc:index:Source`, `cdc:sources:Postgresql`), or an error that lists the kinds there are. */
export function kindOfToken(token: string): Served {
  const kind = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
  if (isKindName(kind)) return { kind };
  const typed = typedKindOf(token);
  if (typed) return { kind: typed.kind, typed };
  throw new Error(
    `unknown resource type "${token}": pulumi-cdc has ${RESOURCE_KINDS.map(tokenOf).join(", ")}, ` +
      "and a typed resource per catalogued connector and transform type (cdc:sources:<Connector>, cdc:destinations:<Connector>, cdc:transforms:<Type>, e.g. cdc:sources:Postgresql)",
  );
}

/** urn:pulumi:stack::project::type::name → name (the resource's name, the base of an autoname). */
export function resourceName(urn: string): string {
  const i = urn.lastIndexOf("::");
  return i < 0 ? urn : urn.slice(i + 2);
}

/** urn:pulumi:stack::project::... → kind, from the type segment. */
export function kindOfUrn(urn: string): Served {
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

/** The core's provider of what a token is served as: a typed resource's through typedCore(). */
export function core(served: Served): CoreProvider {
  const generic = provider(served.kind) as unknown as CoreProvider;
  return carryingPlainSecrets(served.typed ? typedCore(served.typed, generic) : generic);
}

/** No recorded properties: nothing, or only what the host adds (the resource's name). */
const empty = (props: Record<string, unknown>) => Object.keys(props).every((k) => (HOST_ONLY_INPUTS as readonly string[]).includes(k));

/**
 * A typed resource's provider: the generic kind's core, its properties mapped to the core's
 * (toCoreProps) on the way in and back (fromCoreProps) on the way out, and the property paths
 * of check failures and diffs named as the typed resource names them (`databasePort`, not
 * `config["database.port.user.defined"]`). Empty properties stay empty: the core reads them as
 * "no recorded state" (a first check's olds, an import's read).
 */
function typedCore(typed: TypedKind, generic: CoreProvider): CoreProvider {
  const toCore = (props: Record<string, unknown>) => (empty(props) ? { ...props } : toCoreProps(typed, props));
  // A program's inputs are the typed resource's even when it sets none (a webhook source has no
  // required setting): they always name the connector, never "no recorded state".
  const inputsToCore = (props: Record<string, unknown>) => toCoreProps(typed, props);
  /** A partial failure's recorded properties, typed as the engine keeps them. */
  const typedError = (err: unknown) => {
    const e = err as { properties?: Record<string, unknown> } | undefined;
    if (e && typeof e === "object" && e.properties && typeof e.properties === "object") e.properties = fromCoreProps(typed, e.properties, "outputs");
    return err;
  };
  return {
    async check(olds, news) {
      const unknown = unknownProperties(typed, news, [...HOST_ONLY_INPUTS, "autonamed"]);
      const checked = await generic.check(toCore(olds), inputsToCore(news));
      return { inputs: fromCoreProps(typed, checked.inputs, "inputs"), failures: [...unknown, ...checked.failures.map((f) => typedFailure(typed, f))] };
    },
    async diff(id, olds, news) {
      const result = await generic.diff(id, toCore(olds), inputsToCore(news));
      const paths = (list: string[] | undefined) => (list === undefined ? undefined : [...new Set(list.map((p) => typedPath(typed, p)))]);
      return { ...result, replaces: paths(result.replaces), diffs: paths(result.diffs) };
    },
    async create(inputs) {
      try {
        const { id, outs } = await generic.create(inputsToCore(inputs));
        return { id, outs: fromCoreProps(typed, outs, "outputs") };
      } catch (err) {
        throw typedError(err);
      }
    },
    async read(id, props) {
      const result = await generic.read(id, toCore(props));
      const code = result.props[typed.codeProperty];
      if (result.id && typeof code === "string" && code !== typed.code) {
        // An import (or a refresh) of another connector's object under this token.
        const right = typedKindFor(typed.catalogueKind, code);
        throw new Error(
          `${typed.catalogueKind} ${id} is a ${code} ${typed.catalogueKind}, not ${typed.code}: ` +
            (right ? `import it as ${right.token}` : `import it as cdc:index:${typed.kind}`),
        );
      }
      return {
        id: result.id,
        props: fromCoreProps(typed, result.props, "outputs"),
        ...(result.inputs ? { inputs: fromCoreProps(typed, result.inputs, "inputs") } : {}),
      };
    },
    async update(id, olds, news) {
      try {
        const { outs } = await generic.update(id, toCore(olds), inputsToCore(news));
        return { outs: fromCoreProps(typed, outs, "outputs") };
      } catch (err) {
        throw typedError(err);
      }
    },
    delete(id, props) {
      return generic.delete(id, toCore(props));
    },
  };
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
export function secretPaths(served: Served, props: Record<string, unknown>): Path[] {
  if (served.typed) {
    // A typed resource's secret properties, and the digests that stand for them in its outputs.
    const digests = props[SECRET_DIGESTS] && typeof props[SECRET_DIGESTS] === "object" ? Object.keys(props[SECRET_DIGESTS]) : [];
    return [...served.typed.properties.filter((p) => p.spec.secret && p.name in props).map((p) => [p.name]), ...digests.map((name) => [SECRET_DIGESTS, name])];
  }
  return registrySecretPaths(KINDS[served.kind], props);
}

/**
 * A preview's outputs: the inputs as planned, and every output the API makes (ids, status,
 * topics) unknown, shown as "output" until `pulumi up` runs. Nothing is sent to the API.
 */
export function previewOutputs(served: Served, inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = withoutPlainSecrets({ ...inputs });
  // A typed resource's secret properties have no output (its outputs keep digests of them).
  for (const p of served.typed?.properties ?? []) if (p.spec.secret) delete out[p.name];
  for (const p of (served.typed ?? KINDS[served.kind]).outputs) if (!(p.name in inputs)) out[p.name] = UNKNOWN;
  return out;
}
