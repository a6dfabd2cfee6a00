import fc from "fast-check";
import { OBJECT_TYPES, type KindSpec, type PropertySpec, type TypeSpec } from "../../provider/kinds/index.js";
import { TYPED_TYPES, type TypedKind, type TypedToken } from "../../provider/typed/kinds.js";
import { UNKNOWN } from "../../provider/normalize.js";
import { SECRET_SIG, SIG_KEY } from "../../provider/secret-signature.js";
import { requiredArgs } from "./catalogue-samples.js";
import { enumValues, FULL_INPUTS } from "./kind-inputs.js";

/**
 * The arbitraries of the inputs' fuzzing (issue 49), one module for the three suites that use them
 * (the dynamic providers' check, the plugin's Check, the emulator's bodies), and their run's seed,
 * size and totals.
 */

/**
 * A fixed seed and a bounded number of cases per property in `npm test`, so a failure there replays
 * as it is; `FUZZ_SEED` and `FUZZ_RUNS` for another run (scripts/fuzz/run.sh picks a random seed).
 */
export const FUZZ = {
  seed: intFromEnv("FUZZ_SEED", 20260049),
  runs: intFromEnv("FUZZ_RUNS", 100),
};

function intFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be a whole number, got "${text}"`);
  return n;
}

/**
 * The parameters of one property's run: each property has a seed of its own, derived from the
 * run's and its name, so adding a property does not change the cases of the others.
 */
export function runParameters(name: string, runs = FUZZ.runs): fc.Parameters<unknown> {
  let hash = FUZZ.seed | 0;
  for (let i = 0; i < name.length; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
  return { seed: hash, numRuns: runs };
}

/** What a suite counts, and prints when it ends (the report quotes these lines). */
export class FuzzTotals {
  cases = 0;
  /** Cases refused, as designed: a check's failures each naming a property, or the emulator's 4xx. */
  refused = 0;
  /** Calls that threw, rejected, or answered 5xx (shrinking's retries of a failing case included). */
  crashes = 0;
  apiCalls = 0;
  /** `apiCalls`: whether the suite counts the calls its host made to the API (the emulator's is the API). */
  constructor(
    readonly host: string,
    readonly countsApiCalls = true,
  ) {}
  line(): string {
    const calls = this.countsApiCalls ? `, ${this.apiCalls} API calls` : "";
    return `[fuzz] ${this.host}: seed ${FUZZ.seed}, ${FUZZ.runs} runs a property: ${this.cases} cases, ${this.refused} refused as designed, ${this.crashes} crashes${calls}`;
  }
}

// Values ------------------------------------------------------------------------------------------

/** The longest string a case holds: big enough to find a quadratic rule or a size limit, small enough for two cores. */
export const HUGE = 64 * 1024;

/** Characters that break naive code: NUL, a lone surrogate, an emoji, a right-to-left override, quotes, a newline. */
const AWKWARD = ["\u0000", "\ud800", "😀", "é", "\u202e", '"', "'", "\\", "\n", "${x}", "%s", "<b>", "../", " "];

const hugeString = fc.tuple(fc.constantFrom("a", ...AWKWARD), fc.integer({ min: 1024, max: HUGE })).map(([c, n]) => c.repeat(Math.floor(n / c.length)));

/** Strings a program may hold: any text, unicode of every plane, texts that look like other types, and huge ones. */
export const text: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string(), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme" }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary" }), weight: 2 },
  { arbitrary: fc.constantFrom("", " ", "null", "undefined", "NaN", "true", "0", "-0", "1e309", "********", "__proto__", "constructor", ...AWKWARD), weight: 2 },
  { arbitrary: hugeString, weight: 1 },
);

/** Numbers JSON cannot write (NaN, the infinities) and those that are easy to get wrong (-0, beyond 2^53). */
export const number: fc.Arbitrary<number> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 2 ** 53 + 2, -(2 ** 53) - 2, Number.MIN_VALUE, 1e308, 0.5),
);

// No `undefined` inside a value: neither host can receive one (a Struct has no such value); a property left unset is its own case.
const leaf: fc.Arbitrary<unknown> = fc.oneof(text, number, fc.boolean(), fc.constant(null));

/** Keys that name what every object inherits: a check reading `obj[key]` finds a prototype's member there. */
const INHERITED_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "then", "toJSON"];

/**
 * An object with these entries, each its own property, as JSON.parse makes them: an own
 * `__proto__` key is a key, not the object's prototype (an assignment would set the prototype).
 */
export function ownEntries(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const key = fc.oneof(fc.string(), fc.constantFrom(...INHERITED_KEYS));

/** Objects whose keys include the inherited names, with the given values. */
const objectOf = (value: fc.Arbitrary<unknown>) => fc.array(fc.tuple(key, value), { maxLength: 4 }).map(ownEntries);

/** What JSON.parse makes of bodies written to pollute a prototype. */
const PROTO_SAMPLES = [
  '{"__proto__": {"polluted": true, "name": "inherited"}}',
  '{"__proto__": null}',
  '{"__proto__": []}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"toString": 1, "valueOf": null, "hasOwnProperty": "x"}',
].map((s) => JSON.parse(s) as unknown);

/** A list or a map nested `depth` deep, null at the bottom: recursion in a check or a codec. */
const deep = fc.tuple(fc.integer({ min: 16, max: 100 }), fc.boolean()).map(([depth, list]) => {
  let value: unknown = null;
  for (let i = 0; i < depth; i++) value = list ? [value] : { a: value };
  return value;
});

/** Any value a program, the engine or a hostile body may hold: wrong types, unicode, NaN, nested nulls, prototype keys, deep nesting. */
export const wild: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.letrec((tie) => ({ value: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("value"), { maxLength: 4 }), objectOf(tie("value"))) })).value, weight: 6 },
  { arbitrary: fc.constantFrom(...PROTO_SAMPLES), weight: 1 },
  { arbitrary: deep, weight: 1 },
);

/**
 * Values of a declared type that look valid: its allowed values where it has them, then any of
 * its type, in lists, maps and object types as their declarations have them.
 */
export function ofType(type: TypeSpec, allowed: readonly string[] = []): fc.Arbitrary<unknown> {
  if (type === "string") return allowed.length > 0 ? fc.oneof(fc.constantFrom(...allowed), text) : text;
  if (type === "integer") return fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 2));
  if (type === "number") return number;
  if (type === "boolean") return fc.boolean();
  if (type === "any") return wild;
  if ("arrayOf" in type) return fc.array(ofType(type.arrayOf, allowed), { maxLength: 4 });
  if ("mapOf" in type) return fc.array(fc.tuple(key, ofType(type.mapOf)), { maxLength: 4 }).map(ownEntries);
  if ("object" in type) {
    const props = OBJECT_TYPES[type.object].properties;
    return fc.record(Object.fromEntries(props.map((p) => [p.name, ofType(p.type)])), { requiredKeys: props.filter((p) => p.required).map((p) => p.name) });
  }
  const named = TYPED_TYPES[type.ref as TypedToken];
  if (!named) return wild;
  if ("enum" in named) return fc.oneof(fc.constantFrom(...named.enum.map((e) => e.value)), text);
  return fc.record(Object.fromEntries(named.properties.map((p) => [p.name, ofType(p.type)])), { requiredKeys: named.properties.filter((p) => p.required).map((p) => p.name) });
}

// Paths -------------------------------------------------------------------------------------------

type Step = string | number;

/** Every path inside a value (not the value itself), depth first. */
export function innerPaths(value: unknown, at: Step[] = []): Step[][] {
  if (value === null || typeof value !== "object") return [];
  const steps: Step[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return steps.flatMap((s) => [[...at, s], ...innerPaths((value as Record<Step, unknown>)[s], [...at, s])]);
}

/** A copy of `value` with `path` replaced by what `replace` makes of the value there; own keys stay own keys. */
export function replaceAt(value: unknown, path: readonly Step[], replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [step, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === step ? replaceAt(v, rest, replace) : v));
  const entries = Object.keys(value as object).map((k) => [k, (value as Record<string, unknown>)[k]] as const);
  return ownEntries(entries.map(([k, v]) => [k, k === step ? replaceAt(v, rest, replace) : v] as const));
}

/** A valid value with one place inside it replaced by a wild one (a config key, a list's item, an object type's field). */
function insideOf(base: unknown): fc.Arbitrary<unknown> | undefined {
  const paths = innerPaths(base);
  if (paths.length === 0) return undefined;
  return fc.tuple(fc.nat(), wild).map(([at, v]) => replaceAt(base, paths[at % paths.length]!, () => v));
}

// Inputs ------------------------------------------------------------------------------------------

/** What is fuzzed of a resource type: a kind of the registry, or one of the plugin's typed resources. */
export interface Fuzzed {
  /** The kind's name, or the typed resource's token. */
  name: string;
  token: string;
  inputs: readonly PropertySpec[];
  /** Its valid inputs: all of them set (where known), and only the required ones. */
  valid: Record<string, unknown>[];
  /** The values a string property (or a list's items) allows, where its check lists them. */
  allowed(property: PropertySpec): string[];
}

export function fuzzedKind(kind: KindSpec): Fuzzed {
  const full = FULL_INPUTS[kind.name as keyof typeof FULL_INPUTS];
  return {
    name: kind.name,
    token: kind.token,
    inputs: kind.inputs,
    valid: [full, Object.fromEntries(kind.inputs.filter((p) => p.required).map((p) => [p.name, full[p.name]]))],
    allowed: (p) => enumValues(kind.inputSchema.shape[p.name] as never),
  };
}

/** A typed resource (`cdc:sources:Postgresql`): its connector's required settings as its valid inputs; its enums are its types'. */
export function fuzzedTyped(typed: TypedKind): Fuzzed {
  return { name: typed.token, token: typed.token, inputs: typed.inputs, valid: [requiredArgs(typed.spec)], allowed: () => [] };
}

/** The values fuzzed for one property: of its type, anything, unset, and its valid value spoiled inside. */
function propertyValues(kind: Fuzzed, property: PropertySpec): fc.Arbitrary<unknown> {
  const inside = insideOf(kind.valid[0]![property.name]);
  return fc.oneof(ofType(property.type, kind.allowed(property)), wild, fc.constant(undefined), ...(inside ? [inside] : []));
}

/** Valid inputs of the kind with the given properties replaced by fuzzed values (`undefined`: left unset). */
export function inputsWith(kind: Fuzzed, properties: readonly PropertySpec[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.constantFrom(...kind.valid), fc.tuple(...properties.map((p) => propertyValues(kind, p)))).map(([base, values]) => {
    const out: Record<string, unknown> = { ...base };
    properties.forEach((p, i) => {
      if (values[i] === undefined) delete out[p.name];
      else out[p.name] = values[i];
    });
    return out;
  });
}

/** Valid inputs with two or three of the kind's properties replaced at once. */
export function inputsWithSeveral(kind: Fuzzed): fc.Arbitrary<Record<string, unknown>> {
  return fc.subarray([...kind.inputs], { minLength: Math.min(2, kind.inputs.length), maxLength: Math.min(3, kind.inputs.length) }).chain((props) => inputsWith(kind, props));
}

/**
 * A case: the olds the engine sends with the news (none, on a first check; else what the stack
 * holds: the kind's valid inputs, or inputs spoiled in one property, as a stack edited by hand or
 * written by an older version may hold) and the fuzzed news.
 */
export function withOlds(kind: Fuzzed, news: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<{ olds: Record<string, unknown>; news: Record<string, unknown> }> {
  return fc.record({ olds: fc.oneof(fc.constantFrom({}, ...kind.valid), fc.constantFrom(...kind.inputs).chain((p) => inputsWith(kind, [p]))), news });
}

/** Where a preview's unknowns and the engine's secrets go: a place in the inputs, and which. */
const engineMark = fc.record({ at: fc.nat(), as: fc.constantFrom("unknown", "secret") });

/**
 * The inputs with the engine's unknown sentinel and secret wrappers put in some places (a top-level
 * property, a config value, a list's item), as a preview and a program's secrets send them.
 */
export function withEngineValues(inputs: fc.Arbitrary<Record<string, unknown>>, marks = fc.array(engineMark, { maxLength: 3 })): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(inputs, marks).map(([value, picks]) => {
    let out: unknown = value;
    for (const { at, as } of picks) {
      // Never at or inside a wrapper already made: the engine wraps a value, not a wrapper or its keys.
      const paths = innerPaths(out).filter((path) => !path.some((_, i) => isSecretWrapper(valueAt(out, path.slice(0, i + 1)))));
      if (paths.length === 0) break;
      out = replaceAt(out, paths[at % paths.length]!, (old) => (as === "unknown" ? UNKNOWN : { [SIG_KEY]: SECRET_SIG, value: old }));
    }
    return out as Record<string, unknown>;
  });
}

/** The inputs with unknowns only: what a preview sends the dynamic providers (the engine sends them no secrets: they do not accept them). */
export function withUnknowns(inputs: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return withEngineValues(inputs, fc.array(engineMark.map((m) => ({ ...m, as: "unknown" as const })), { maxLength: 3 }));
}

// Verdicts ----------------------------------------------------------------------------------------

interface Failure {
  property: string;
  reason: string;
}

/** `config["a.b"]` → `config`, `transforms[0].type` → `transforms`. */
const topLevel = (property: string) => /^[^.[]*/.exec(property)![0];

/**
 * What is wrong with a check's answer to `news` (secrets unwrapped, as are the `checked` inputs it
 * answered with), in sentences ([] when nothing). Each failure names one of the kind's properties
 * (its `property`, or failing that its reason) and says why. A check that passes hands on every
 * property the program set, of the type its declaration gives it (normalised as the kind
 * normalises: a typed resource's `"true"` is `true`). When it refuses, it need not name every
 * wrong value at once: a kind's own rules (a connector's catalogue) run once its schema passes.
 */
export function verdictProblems(kind: Fuzzed, news: Record<string, unknown>, failures: readonly Failure[], checked: Record<string, unknown>): string[] {
  const names = kind.inputs.map((p) => p.name);
  const problems: string[] = [];
  for (const f of failures) {
    const named = names.includes(topLevel(f.property)) || names.some((n) => new RegExp(`\\b${n}\\b`).test(f.reason));
    if (!named) problems.push(`a failure names no property: ${JSON.stringify(f).slice(0, 300)}`);
    if (typeof f.reason !== "string" || f.reason === "") problems.push(`a failure gives no reason: ${JSON.stringify(f).slice(0, 300)}`);
  }
  if (failures.length > 0) return problems;
  for (const p of kind.inputs) {
    const given = Object.hasOwn(news, p.name) ? news[p.name] : undefined;
    // An empty map is a connector setting left unset (provider/check.ts, toWireConfig).
    if (given === undefined || given === null || (plainObject(given) && Object.keys(given).length === 0)) continue;
    if (!Object.hasOwn(checked, p.name)) problems.push(`check passed and dropped ${p.name}, which the program set: ${preview(given)}`);
    else if (!holdsUnknown(checked[p.name]) && !conforms(p.type, checked[p.name])) {
      problems.push(`check passed ${p.name} on as a value its type (${JSON.stringify(p.type)}) does not allow: ${preview(checked[p.name])}`);
    }
  }
  return problems;
}

const preview = (value: unknown) => {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value);
  }
};

const isSecretWrapper = (v: unknown) => v !== null && typeof v === "object" && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
const valueAt = (value: unknown, path: readonly Step[]) => path.reduce<unknown>((v, step) => (v as Record<Step, unknown>)[step], value);

/** Whether a value is or holds a preview's unknown: the check judges it at `up`, when it is known. */
function holdsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (value === null || typeof value !== "object") return false;
  return Object.keys(value).some((k) => holdsUnknown((value as Record<string, unknown>)[k]));
}

/** The value with each secret's wrapper replaced by what it wraps: what the plugin's check sees. */
export function unwrapSecrets(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  const obj = value as Record<string, unknown>;
  if (isSecretWrapper(obj)) return unwrapSecrets(obj.value);
  return ownEntries(Object.keys(obj).map((k) => [k, unwrapSecrets(obj[k])] as const));
}

const plainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a value has the type a declaration gives it (integers are whole, finite numbers). */
export function conforms(type: TypeSpec, v: unknown): boolean {
  if (type === "any") return true;
  if (type === "string") return typeof v === "string";
  if (type === "integer") return Number.isInteger(v);
  if (type === "number") return typeof v === "number" && Number.isFinite(v);
  if (type === "boolean") return typeof v === "boolean";
  if ("arrayOf" in type) return Array.isArray(v) && v.every((x) => conforms(type.arrayOf, x));
  if ("mapOf" in type) return plainObject(v) && Object.keys(v).every((k) => conforms(type.mapOf, v[k]));
  if ("ref" in type) return true;
  const props = OBJECT_TYPES[type.object].properties;
  return plainObject(v) && props.every((p) => !p.required || Object.hasOwn(v, p.name)) && Object.keys(v).every((k) => props.some((p) => p.name === k && (v[k] === null || conforms(p.type, v[k]))));
}

/** Whether something wrote onto the prototype every object shares (a check must never). */
export function prototypePolluted(): string | undefined {
  const own = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BUILTIN_PROTOTYPE_KEYS.has(k));
  return own.length > 0 ? `Object.prototype gained ${own.join(", ")}` : undefined;
}
const BUILTIN_PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
