/**
 * The engine-side entry point, loaded by package name (`pulumi-cdc/provider`) inside the
 * dynamic-provider process. sdk/ serializes only calls into this module, so everything with
 * state (HTTP pool, token, limiter) lives here, once per run.
 */
// First: on a Node.js too old for pulumi-cdc, one line saying so instead of undici's stack trace.
import "./node-version.js";
// Next, so that the modules imported after it are read from the code cache.
import "./compile-cache.js";
import { currentTuning, withBudget, type ConfigSource } from "./client/index.js";
import { configure } from "./context.js";
import { DECLARATIONS, KINDS, type DeclarationOf, type KindName } from "./kinds/index.js";
import { tolerateUnknowns } from "./unknowns.js";
import { refusingPrototypeKeys } from "./prototype-keys.js";
import { carryingPlainSecrets } from "./plain-secrets.js";

export { configure };
export { providerInfo, type ProviderInfo } from "./info.js";

const OPERATIONS = new Set(["check", "diff", "create", "read", "update", "delete"]);

/**
 * Each operation of a resource runs under a retry budget of its own (cdc:resourceTimeoutSec):
 * every call it makes, retries included, must fit in it, so one bad resource cannot hold a
 * run for longer than that and its error says what was retried.
 */
function budgeted<P extends object>(kind: string, target: P): P {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver) as unknown;
      if (typeof prop !== "string" || !OPERATIONS.has(prop) || typeof value !== "function") return value;
      return (...args: unknown[]) =>
        withBudget(`${kind} ${prop}`, currentTuning().resourceTimeoutMs, () => (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args));
    },
  });
}

/** A kind's rules, as its declaration loads them. */
type Rules<K extends KindName> = Awaited<ReturnType<DeclarationOf<K>["rules"]>>;

/**
 * A kind's provider before its rules are loaded: each operation loads them on first use, so a
 * run (or a command) loads only the rules of the kinds it meets.
 */
function lazyRules<K extends KindName>(kind: DeclarationOf<K>): Rules<K> {
  const ops = Object.fromEntries(
    [...OPERATIONS].map((op) => [op, async (...args: unknown[]) => ((await kind.rules()) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[op]!(...args)]),
  );
  return { ...ops, replaceOnChange: kind.replaceOnChange } as unknown as Rules<K>;
}

const providers = Object.fromEntries(DECLARATIONS.map((d) => [d.name, budgeted(d.noun, refusingPrototypeKeys(tolerateUnknowns(lazyRules(d))))])) as unknown as { [K in KindName]: Rules<K> };

export type ResourceKind = KindName;

export function provider<K extends ResourceKind>(kind: K): (typeof providers)[K] {
  const found = Object.hasOwn(KINDS, kind) ? providers[kind] : undefined;
  if (!found) throw new Error(`pulumi-cdc has no provider for "${String(kind)}": the installed package is older than the program's state`);
  return found;
}

type Operation = "check" | "diff" | "create" | "read" | "update" | "delete";
type Call = (...args: never[]) => Promise<unknown>;
/** The dynamic-provider host's view of a provider: `configure({ config })` and the operations. */
export type DynamicProvider = Record<Operation, Call> & { configure(req: { config: ConfigSource }): Promise<void> };
const dynamicProviders = new Map<string, DynamicProvider>();

/**
 * What the `__provider` text of each resource (sdk/dynamic.ts) hands the engine's dynamic-provider
 * host: the kind's operations and `configure`, one object per kind. Stacks written by earlier
 * versions hold a serialized closure that calls provider() and configure() instead; both stay.
 */
export function dynamicProvider(kind: ResourceKind): DynamicProvider {
  let found = dynamicProviders.get(kind);
  if (!found) {
    const target = carryingPlainSecrets(provider(kind) as unknown as Parameters<typeof carryingPlainSecrets>[0]) as unknown as Record<Operation, Call>;
    const call = (op: Operation): Call => (...args) => target[op](...args);
    found = {
      configure: async (req) => configure(req.config),
      check: call("check"),
      diff: call("diff"),
      create: call("create"),
      read: call("read"),
      update: call("update"),
      delete: call("delete"),
    };
    dynamicProviders.set(kind, found);
  }
  return found;
}

export type { DriftReport } from "./drift.js";
export * as api from "./client/index.js";
