import { Reader, Writer } from "protobufjs/minimal";
import { structproto } from "./proto.js";
import { SECRET_SIG, SIG_KEY } from "../provider/secret-signature.js";
import type { Path } from "../provider/kinds/spec.js";

export { SECRET_SIG, SIG_KEY };
export { UNKNOWN } from "../provider/normalize.js";

/**
 * Property values across the engine's protocol: google.protobuf.Struct read from and written to
 * the wire directly as plain JavaScript, with no message objects between (the generated classes
 * made most of the plugin's garbage and a seventh of its CPU, docs/benchmarks.md). Secrets arrive
 * wrapped as objects carrying the special signature key; the core sees plain values, and the
 * paths that were secret are remembered so the same paths are wrapped again on the way out.
 * Unknowns (preview) pass as the engine's sentinel string, which the core already recognises.
 *
 * The wire form is google/protobuf/struct.proto's, stable by protobuf's rules:
 * Struct { map<string, Value> fields = 1 } (a map entry: key = 1, value = 2);
 * Value { oneof: null_value = 1, number_value = 2, string_value = 3, bool_value = 4,
 * struct_value = 5, list_value = 6 }; ListValue { repeated Value values = 1 }.
 * test/unit/plugin/marshal.test.ts checks both directions against the generated classes.
 */
export type { Path };

/** Paths as text, so sets of them compare by value. */
export class PathSet {
  readonly #paths = new Map<string, Path>();
  add(path: Path): void {
    this.#paths.set(JSON.stringify(path), path);
  }
  get size(): number {
    return this.#paths.size;
  }
  [Symbol.iterator](): IterableIterator<Path> {
    return this.#paths.values();
  }
}

/** A Struct read: the plain value with secrets unwrapped, and every path at which one was. */
export interface Decoded {
  value: Record<string, unknown>;
  secrets: PathSet;
}

/** A Struct to write: the plain value and the paths to wrap as secrets (absent ones skipped). */
export interface Secreted {
  value: Record<string, unknown>;
  secrets?: Iterable<Path>;
}

function isSecretWrapper(value: unknown): value is { value?: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

export function secret(value: unknown): Record<string, unknown> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

// Tags: (field number << 3) | wire type; 2 is length-delimited, 1 a 64-bit double, 0 a varint.
// Struct's map entries and ListValue's values are both field 1, length-delimited.
const ITEM = (1 << 3) | 2;
const ENTRY_KEY = (1 << 3) | 2;
const ENTRY_VALUE = (2 << 3) | 2;
const NULL_VALUE = (1 << 3) | 0;
const NUMBER_VALUE = (2 << 3) | 1;
const STRING_VALUE = (3 << 3) | 2;
const BOOL_VALUE = (4 << 3) | 0;
const STRUCT_VALUE = (5 << 3) | 2;
const LIST_VALUE = (6 << 3) | 2;

/** The end of the next field-1 message in `r` before `end` (other fields skipped), or -1 if none is left. */
function nextItem(r: Reader, end: number): number {
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ITEM) return r.uint32() + r.pos;
    r.skipType(tag & 7);
  }
  return -1;
}

/**
 * The Struct in `r` up to `end`, read in one pass with secrets unwrapped into `secrets`. Keys
 * come in the order the generated classes gave them (sorted), whatever order the engine sent.
 */
export function readStructFrom(r: Reader, end: number, secrets: PathSet): Record<string, unknown> {
  const at: (string | number)[] = [];

  const struct = (end: number): unknown => {
    // The entries' values are located first and read after: whether this Struct is a secret's
    // wrapper decides the path its values are read at.
    const keys: string[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    for (let entryEnd = nextItem(r, end); entryEnd >= 0; entryEnd = nextItem(r, end)) {
      let key = "";
      let start = -1;
      let stop = -1;
      while (r.pos < entryEnd) {
        const t = r.uint32();
        if (t === ENTRY_KEY) key = r.string();
        else if (t === ENTRY_VALUE) {
          const length = r.uint32();
          start = r.pos;
          stop = start + length;
          r.pos = stop;
        } else r.skipType(t & 7);
      }
      keys.push(key);
      starts.push(start);
      ends.push(stop);
    }
    // A key sent twice: the last entry wins, as in any protobuf map (the sort below is stable).
    const sig = keys.lastIndexOf(SIG_KEY);
    if (sig >= 0 && stringAt(starts[sig], ends[sig]) === SECRET_SIG) {
      secrets.add([...at]);
      const inner = keys.lastIndexOf("value");
      return inner < 0 ? undefined : valueAt(starts[inner], ends[inner]);
    }
    const order = keys.map((_, i) => i);
    if (keys.length > 1) order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
    const out: Record<string, unknown> = {};
    for (let n = 0; n < order.length; n++) {
      const i = order[n];
      if (n + 1 < order.length && keys[order[n + 1]] === keys[i]) continue;
      at.push(keys[i]);
      const v = valueAt(starts[i], ends[i]);
      // A key `__proto__` is the engine's key like any other: assigned, it would set the object's prototype instead.
      if (keys[i] === "__proto__") Object.defineProperty(out, keys[i], { value: v, enumerable: true, writable: true, configurable: true });
      else out[keys[i]] = v;
      at.pop();
    }
    r.pos = end;
    return out;
  };

  /** A Value's string, if that is what it holds (for the signature check). */
  const stringAt = (start: number, stop: number): string | undefined => {
    if (start < 0) return undefined;
    const saved = r.pos;
    r.pos = start;
    let found: string | undefined;
    while (r.pos < stop) {
      const t = r.uint32();
      if (t === STRING_VALUE) found = r.string();
      else {
        found = undefined;
        r.skipType(t & 7);
      }
    }
    r.pos = saved;
    return found;
  };

  const valueAt = (start: number, stop: number): unknown => {
    if (start < 0) throw new Error("Unexpected struct type");
    const saved = r.pos;
    r.pos = start;
    const v = value(stop);
    r.pos = saved;
    return v;
  };

  /** A Value up to `end`: its last kind wins, as a oneof's does. */
  const value = (end: number): unknown => {
    let out: unknown;
    let set = false;
    while (r.pos < end) {
      const t = r.uint32();
      switch (t) {
        case NULL_VALUE:
          r.int32();
          out = null;
          break;
        case NUMBER_VALUE:
          out = r.double();
          break;
        case STRING_VALUE:
          out = r.string();
          break;
        case BOOL_VALUE:
          out = r.bool();
          break;
        case STRUCT_VALUE:
          out = struct(r.uint32() + r.pos);
          break;
        case LIST_VALUE:
          out = list(r.uint32() + r.pos);
          break;
        default:
          r.skipType(t & 7);
          continue;
      }
      set = true;
    }
    if (!set) throw new Error("Unexpected struct type");
    return out;
  };

  const list = (end: number): unknown[] => {
    const out: unknown[] = [];
    for (let itemEnd = nextItem(r, end); itemEnd >= 0; itemEnd = nextItem(r, end)) {
      at.push(out.length);
      out.push(value(itemEnd));
      at.pop();
      r.pos = itemEnd;
    }
    return out;
  };

  return struct(end) as Record<string, unknown>;
}

/** A Struct's bytes as a plain value with secrets unwrapped, and the paths at which they were. */
export function decodeStruct(bytes: Uint8Array | undefined): Decoded {
  const secrets = new PathSet();
  if (!bytes || bytes.length === 0) return { value: {}, secrets };
  const r = Reader.create(bytes);
  return { value: readStructFrom(r, bytes.length, secrets), secrets };
}

/** Secret paths as a tree: a node is marked where its path is secret. */
interface PathTree {
  secret?: true;
  next?: Map<string | number, PathTree>;
}

function pathTree(paths: Iterable<Path> | undefined): PathTree | undefined {
  let root: PathTree | undefined;
  for (const path of paths ?? []) {
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
 * Writes `value` as a Struct's fields into `w`, the values at `paths` wrapped as secrets: what
 * JSON makes of the value (undefined properties, functions and symbols left out; NaN and the
 * infinities null; a Date as its JSON), absent paths skipped, a value already wrapped kept.
 */
export function writeStructTo(w: Writer, value: Record<string, unknown>, paths?: Iterable<Path>): Writer {
  fields(w, value ?? {}, pathTree(paths));
  return w;
}

function fields(w: Writer, obj: Record<string, unknown>, tree: PathTree | undefined): void {
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    w.uint32(ITEM).fork();
    w.uint32(ENTRY_KEY).string(key);
    w.uint32(ENTRY_VALUE).fork();
    valueTo(w, v, tree?.next?.get(key));
    w.ldelim();
    w.ldelim();
  }
}

function valueTo(w: Writer, v: unknown, tree: PathTree | undefined): void {
  if (tree?.secret && !isSecretWrapper(v)) return valueTo(w, secret(v), undefined);
  switch (typeof v) {
    case "string":
      w.uint32(STRING_VALUE).string(v);
      return;
    case "number":
      if (Number.isFinite(v)) w.uint32(NUMBER_VALUE).double(v);
      else w.uint32(NULL_VALUE).int32(0);
      return;
    case "boolean":
      w.uint32(BOOL_VALUE).bool(v);
      return;
    case "object":
      break;
    default:
      // undefined, functions and symbols in an array, as JSON writes them.
      w.uint32(NULL_VALUE).int32(0);
      return;
  }
  if (v === null) {
    w.uint32(NULL_VALUE).int32(0);
  } else if (Array.isArray(v)) {
    w.uint32(LIST_VALUE).fork();
    for (let i = 0; i < v.length; i++) {
      w.uint32(ITEM).fork();
      valueTo(w, v[i], tree?.next?.get(i));
      w.ldelim();
    }
    w.ldelim();
  } else if (typeof (v as { toJSON?: unknown }).toJSON === "function") {
    // A Date and the like: what JSON makes of it.
    valueTo(w, JSON.parse(JSON.stringify(v)), tree);
  } else {
    w.uint32(STRUCT_VALUE).fork();
    fields(w, v as Record<string, unknown>, tree);
    w.ldelim();
  }
}

/** A Struct's bytes for `value`, with the values at `paths` wrapped as secrets. */
export function encodeStruct(value: Record<string, unknown>, paths?: Iterable<Path>): Uint8Array {
  return writeStructTo(Writer.create(), value, paths).finish();
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type PbStruct = any;

/**
 * For the RPCs still served with the generated classes (Configure, CheckConfig, DiffConfig,
 * Invoke, a partial failure's details): the same reading and writing, through the message's bytes.
 */
export function readStruct(struct: PbStruct | undefined | null): Decoded {
  return decodeStruct(struct ? struct.serializeBinary() : undefined);
}

export function toSecretStruct(value: Record<string, unknown>, paths: Iterable<Path> = []): PbStruct {
  return structproto.Struct.deserializeBinary(encodeStruct(value, paths));
}
