import { structproto } from "./proto.js";
import { SECRET_SIG, SIG_KEY } from "./secret-signature.js";

export { SECRET_SIG, SIG_KEY };
export { UNKNOWN } from "../provider/normalize.js";

/**
 * Property values across the engine's protocol. Secrets arrive wrapped as objects carrying the
 * special signature key; the core sees plain values, and the paths that were secret are
 * remembered so the same paths are wrapped again on the way out. Unknowns (preview) pass as the
 * engine's sentinel string, which the core already recognises.
 */
export type Path = readonly (string | number)[];

/** Paths as text, so sets of them compare by value. */
export class PathSet {
  readonly #paths = new Map<string, Path>();
  add(path: Path): void {
    this.#paths.set(JSON.stringify(path), path);
  }
  has(path: Path): boolean {
    return this.#paths.has(JSON.stringify(path));
  }
  get size(): number {
    return this.#paths.size;
  }
  [Symbol.iterator](): IterableIterator<Path> {
    return this.#paths.values();
  }
}

function isSecretWrapper(value: unknown): value is { value?: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** The plain value and every path at which a secret was unwrapped. */
export function unwrapSecrets(value: unknown, secrets = new PathSet(), path: Path = []): { value: unknown; secrets: PathSet } {
  const walk = (v: unknown, at: Path): unknown => {
    if (isSecretWrapper(v)) {
      secrets.add(at);
      return walk(v.value, at);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, i]));
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, [...at, k]);
      return out;
    }
    return v;
  };
  return { value: walk(value, path), secrets };
}

export function secret(value: unknown): Record<string, unknown> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** `value` with the values at `paths` wrapped as secrets (paths that are absent are skipped). */
export function wrapSecrets<T>(value: T, paths: Iterable<Path>): T {
  let out: unknown = value;
  for (const path of paths) out = wrapAt(out, path);
  return out as T;
}

function wrapAt(value: unknown, path: Path): unknown {
  if (path.length === 0) return value === undefined || isSecretWrapper(value) ? value : secret(value);
  if (isSecretWrapper(value)) return value;
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === "number" && head < value.length) {
    const copy = [...value];
    copy[head] = wrapAt(copy[head], rest);
    return copy;
  }
  if (value && typeof value === "object" && !Array.isArray(value) && typeof head === "string" && head in value) {
    return { ...(value as Record<string, unknown>), [head]: wrapAt((value as Record<string, unknown>)[head], rest) };
  }
  return value;
}

/** A protobuf Struct as plain JavaScript (secrets still wrapped). */
export function fromStruct(struct: { toJavaScript(): Record<string, unknown> } | undefined | null): Record<string, unknown> {
  return struct ? struct.toJavaScript() : {};
}

/** Plain JavaScript as a protobuf Struct: undefined properties are left out, as JSON leaves them. */
export function toStruct(value: Record<string, unknown>): unknown {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value ?? {})));
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type PbValue = any;
type PbStruct = any;

/**
 * A request's Struct read in one pass: the plain value with secrets unwrapped, and the paths at
 * which they were (as unwrapSecrets(fromStruct(struct)) gives, without the intermediate copy or
 * a path array per node: the path is one stack, copied only where a secret is found).
 */
export function readStruct(struct: PbStruct | undefined | null): { value: Record<string, unknown>; secrets: PathSet } {
  const secrets = new PathSet();
  if (!struct) return { value: {}, secrets };
  const Kind = structproto.Value.KindCase;
  const at: (string | number)[] = [];
  const fields = (s: PbStruct): unknown => {
    const map = s.getFieldsMap();
    const sig = map.get(SIG_KEY);
    if (sig !== undefined && sig.getKindCase() === Kind.STRING_VALUE && sig.getStringValue() === SECRET_SIG) {
      secrets.add([...at]);
      const inner = map.get("value");
      return inner === undefined ? undefined : value(inner);
    }
    const out: Record<string, unknown> = {};
    map.forEach((v: PbValue, key: string) => {
      at.push(key);
      out[key] = value(v);
      at.pop();
    });
    return out;
  };
  const value = (v: PbValue): unknown => {
    switch (v.getKindCase()) {
      case Kind.NULL_VALUE:
        return null;
      case Kind.NUMBER_VALUE:
        return v.getNumberValue();
      case Kind.STRING_VALUE:
        return v.getStringValue();
      case Kind.BOOL_VALUE:
        return v.getBoolValue();
      case Kind.STRUCT_VALUE:
        return fields(v.getStructValue());
      case Kind.LIST_VALUE: {
        const items = v.getListValue().getValuesList();
        const out = new Array<unknown>(items.length);
        for (let i = 0; i < items.length; i++) {
          at.push(i);
          out[i] = value(items[i]);
          at.pop();
        }
        return out;
      }
      default:
        throw new Error("Unexpected struct type");
    }
  };
  return { value: fields(struct) as Record<string, unknown>, secrets };
}

/** Secret paths as a tree: a node is marked where its path is secret. */
interface PathTree {
  secret?: true;
  next?: Map<string | number, PathTree>;
}

function pathTree(paths: Iterable<Path>): PathTree | undefined {
  let root: PathTree | undefined;
  for (const path of paths) {
    root ??= {};
    let node = root;
    for (const part of path) {
      node.next ??= new Map();
      let child = node.next.get(part);
      if (!child) node.next.set(part, (child = {}));
      node = child;
    }
    node.secret = true;
  }
  return root;
}

/**
 * Plain JavaScript as a protobuf Struct in one pass, with the values at `paths` wrapped as
 * secrets: what toStruct(wrapSecrets(value, paths)) gives (undefined properties left out, as
 * JSON leaves them; absent paths skipped; a value already wrapped kept as it is), without the
 * copies wrapSecrets makes per path nor the JSON round trip.
 */
export function toSecretStruct(value: Record<string, unknown>, paths: Iterable<Path> = []): PbStruct {
  return structOf(value ?? {}, pathTree(paths));
}

function structOf(obj: Record<string, unknown>, tree: PathTree | undefined): PbStruct {
  const out = new structproto.Struct();
  const map = out.getFieldsMap();
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    map.set(key, valueOf(v, tree?.next?.get(key)));
  }
  return out;
}

function valueOf(v: unknown, tree: PathTree | undefined): PbValue {
  if (tree?.secret && !isSecretWrapper(v)) return valueOf(secret(v), undefined);
  const out = new structproto.Value();
  switch (typeof v) {
    case "string":
      out.setStringValue(v);
      return out;
    case "number":
      // As JSON writes them: NaN and the infinities become null.
      if (Number.isFinite(v)) out.setNumberValue(v);
      else out.setNullValue(structproto.NullValue.NULL_VALUE);
      return out;
    case "boolean":
      out.setBoolValue(v);
      return out;
    case "object":
      break;
    default:
      // undefined, functions and symbols in an array, as JSON writes them.
      out.setNullValue(structproto.NullValue.NULL_VALUE);
      return out;
  }
  if (v === null) {
    out.setNullValue(structproto.NullValue.NULL_VALUE);
  } else if (Array.isArray(v)) {
    const list = new structproto.ListValue();
    for (let i = 0; i < v.length; i++) list.addValues(valueOf(v[i], tree?.next?.get(i)));
    out.setListValue(list);
  } else if (typeof (v as { toJSON?: unknown }).toJSON === "function") {
    // A Date and the like: what JSON makes of it.
    return valueOf(JSON.parse(JSON.stringify(v)), tree);
  } else {
    out.setStructValue(structOf(v as Record<string, unknown>, tree));
  }
  return out;
}
