import type { CheckFailure } from "./check.js";
import type { Path } from "./kinds/spec.js";
import { pathText } from "./plain-secrets.js";

/**
 * A key `__proto__` inside an input (a config key, a header's name, a field of an object input),
 * which JSON, YAML and the engine's wire all carry as a key like any other. The core's checks
 * cannot: zod drops it from a map and an object without a word, so the program's value would
 * vanish, and the API refuses a body that holds one. Check refuses it by its path, on both hosts,
 * before any API call. A top-level `__proto__` is no input of any kind and goes as any other
 * unknown top-level key does.
 */

const KEY = "__proto__";

/** The paths, inside the inputs' values, of every own key `__proto__`. */
function prototypeKeyPaths(value: unknown, at: Path, out: Path[]): Path[] {
  if (value === null || typeof value !== "object") return out;
  if (Array.isArray(value)) {
    value.forEach((item, i) => prototypeKeyPaths(item, [...at, i], out));
    return out;
  }
  for (const key of Object.keys(value)) {
    if (key === KEY) out.push([...at, key]);
    prototypeKeyPaths((value as Record<string, unknown>)[key], [...at, key], out);
  }
  return out;
}

export function prototypeKeyFailures(news: Record<string, unknown>): CheckFailure[] {
  return Object.keys(news)
    .filter((name) => name !== KEY)
    .flatMap((name) => prototypeKeyPaths(news[name], [name], []))
    .map((path) => ({ property: pathText(path), reason: `is a key named ${KEY}, which neither pulumi-cdc nor the API can hold: rename or remove it` }));
}

interface Checks {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }>;
}

/** Wraps a kind's provider so that its check refuses a `__proto__` key anywhere in the inputs. */
export function refusingPrototypeKeys<P extends object>(target: P): P {
  const kind = target as unknown as Checks;
  const check: Checks["check"] = async (olds, news) => {
    const refused = news && typeof news === "object" ? prototypeKeyFailures(news) : [];
    const result = await kind.check(olds, news);
    return refused.length === 0 ? result : { inputs: result.inputs, failures: [...refused, ...result.failures] };
  };
  return new Proxy(target, { get: (obj, prop, receiver) => (prop === "check" ? check : (Reflect.get(obj, prop, receiver) as unknown)) });
}
