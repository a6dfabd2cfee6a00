import type { CheckFailure } from "./check.js";
import { containsUnknown, isUnknown } from "./normalize.js";

/**
 * Values not known until `up`. In a preview, an input that comes from a resource not created yet
 * is unknown: a leaf (an id) or a whole object or list (a reference built from several outputs,
 * a Transform's `topics`). A kind's schema cannot check what it cannot see, so a failure about a
 * value that is, or lies under, an unknown is not a failure: the engine checks the inputs again
 * at `up`, when they are known. Both hosts serve every kind through this one rule.
 */

type Bag = Record<string, unknown>;
interface CheckResult {
  inputs: Bag;
  failures: CheckFailure[];
}
interface DiffResult {
  changes: boolean;
  replaces?: string[];
  diffs?: string[];
  deleteBeforeReplace?: boolean;
}
interface Checks {
  check(olds: Bag, news: Bag): Promise<CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<DiffResult>;
  /** The top-level properties whose change replaces the object (a pending one may). */
  readonly replaceOnChange?: readonly string[];
}

/** A step of a property path: an index, a quoted key, or a plain name (dotted keys span several). */
type Segment = number | { key: string; plain: boolean };

/** `a.b[0]["x.y"]` → a, b, 0, "x.y"; plain names stay apart, so dotted keys are matched greedily. */
function segments(property: string): Segment[] {
  const out: Segment[] = [];
  for (const m of property.matchAll(/\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]|\.?([^.[\]]+)/g)) {
    if (m[1] !== undefined) out.push({ key: m[1], plain: false });
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push({ key: m[3], plain: true });
  }
  return out;
}

/** Whether the value a failure's property path names is unknown, or lies under one. */
export function underUnknown(bag: unknown, property: string): boolean {
  const segs = segments(property);
  const walk = (node: unknown, i: number): boolean => {
    if (isUnknown(node)) return true;
    if (i >= segs.length || node === null || typeof node !== "object") return false;
    const seg = segs[i]!;
    if (typeof seg === "number") return Array.isArray(node) ? walk(node[seg], i + 1) : false;
    const obj = node as Bag;
    if (!seg.plain) return seg.key in obj ? walk(obj[seg.key], i + 1) : false;
    // `config.snowflake.schema.name`: the longest run of plain names that is a key.
    for (let j = segs.length; j > i; j--) {
      const run = segs.slice(i, j);
      if (!run.every((s) => typeof s === "object" && s.plain)) continue;
      const key = run.map((s) => (s as { key: string }).key).join(".");
      if (key in obj) return walk(obj[key], j);
    }
    return false;
  };
  return walk(bag, 0);
}

/** The top-level property a failure's path starts at. */
function topLevel(property: string): string {
  const first = segments(property)[0];
  return first !== undefined && typeof first === "object" ? first.key : "";
}

/**
 * The top-level properties held back only by unknowns: undefined when some failure is about a
 * known value (a real failure), [] when there are none.
 */
function pendingFields(failures: readonly CheckFailure[], news: Bag): string[] | undefined {
  if (failures.some((f) => !underUnknown(news, f.property))) return undefined;
  return [...new Set(failures.map((f) => topLevel(f.property)))].filter((k) => k in news);
}

/**
 * `news` with each pending property as it was (from olds), or left out when it is new: what is
 * known of the inputs, to check and diff as the kind does.
 */
function withoutPending(olds: Bag, news: Bag, pending: readonly string[]): Bag {
  const probe = { ...news };
  for (const k of pending) {
    if (olds[k] !== undefined) probe[k] = olds[k];
    else delete probe[k];
  }
  return probe;
}

/** Wraps a kind's provider so that check and diff accept an unknown anywhere. */
export function tolerateUnknowns<P extends object>(target: P): P {
  const kind = target as unknown as Checks;
  const check = async (olds: Bag, news: Bag): Promise<CheckResult> => {
    const result = await kind.check(olds, news);
    if (result.failures.length === 0 || !containsUnknown(news)) return result;
    const pending = pendingFields(result.failures, news);
    if (pending === undefined) return { inputs: result.inputs, failures: result.failures.filter((f) => !underUnknown(news, f.property)) };
    // The rest checked as the kind checks it (a kind's own rules run only once its schema
    // passes): a failure there is real; otherwise the pending properties are planned as given.
    const known = await kind.check(olds, withoutPending(olds ?? {}, news, pending));
    const real = known.failures.filter((f) => !pending.includes(topLevel(f.property)));
    if (real.length > 0) return { inputs: news, failures: real };
    if (known.failures.length > 0) return { inputs: news, failures: [] };
    return { inputs: { ...known.inputs, ...Object.fromEntries(pending.map((k) => [k, news[k]])) }, failures: [] };
  };
  const diff = async (id: string, olds: Bag, news: Bag): Promise<DiffResult> => {
    if (!containsUnknown(news)) return kind.diff(id, olds, news);
    const pending = pendingFields((await kind.check(olds, news)).failures, news);
    if (pending === undefined || pending.length === 0) return kind.diff(id, olds, news);
    // What is known is diffed as the kind diffs it; each pending property may change, and
    // replaces the object when a change of it would.
    const known = await kind.check(olds, withoutPending(olds, news, pending));
    const base: DiffResult = known.failures.length === 0 ? await kind.diff(id, olds, known.inputs) : { changes: true };
    const replacing = pending.filter((k) => kind.replaceOnChange?.includes(k));
    return {
      ...base,
      changes: true,
      replaces: [...new Set([...(base.replaces ?? []), ...replacing])],
      diffs: [...new Set([...(base.diffs ?? []), ...pending])],
    };
  };
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (prop === "check") return check;
      if (prop === "diff") return diff;
      return Reflect.get(obj, prop, receiver) as unknown;
    },
  });
}
