import { Reader, Writer } from "protobufjs/minimal";
import { PathSet, readStructFrom, writeStructTo, type Decoded, type Secreted } from "./marshal.js";
import { provrpc } from "./proto.js";

/**
 * The ResourceProvider service as the plugin serves it. The RPCs the engine sends once per
 * resource per step (Check, Diff, Create, Read, Update, Delete) have their requests read straight
 * into plain values and their responses written straight from them (plugin/marshal.ts has why);
 * every other RPC keeps the generated classes of @pulumi/pulumi.
 *
 * The field numbers are provider.proto's, which protobuf's rules keep stable; only the fields the
 * plugin reads are listed, and the rest are skipped as any reader skips unknown fields.
 * test/unit/plugin/service.test.ts checks each against the generated classes both ways.
 */

type FieldKind = "string" | "struct" | "bool";
type Fields = Record<number, readonly [name: string, kind: FieldKind]>;

/** The request fields read, by field number. */
export const REQUEST_FIELDS = {
  check: { 1: ["urn", "string"], 2: ["olds", "struct"], 3: ["news", "struct"] },
  diff: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["olds", "struct"], 4: ["news", "struct"] },
  create: { 1: ["urn", "string"], 2: ["properties", "struct"], 4: ["preview", "bool"] },
  read: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["properties", "struct"], 4: ["inputs", "struct"] },
  update: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["olds", "struct"], 4: ["news", "struct"], 7: ["preview", "bool"] },
  delete: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["properties", "struct"] },
} as const satisfies Record<string, Fields>;

export type Method = keyof typeof REQUEST_FIELDS;

/** A request as the handlers get it: every listed field, absent ones at protobuf's defaults. */
export type Request<M extends Method> = {
  [N in keyof (typeof REQUEST_FIELDS)[M] as (typeof REQUEST_FIELDS)[M][N] extends readonly [infer Name extends string, FieldKind] ? Name : never]: (typeof REQUEST_FIELDS)[M][N] extends readonly [string, infer K]
    ? K extends "string"
      ? string
      : K extends "bool"
        ? boolean
        : Decoded
    : never;
};

export function decodeRequest<M extends Method>(method: M, bytes: Uint8Array): Request<M> {
  const fields: Fields = REQUEST_FIELDS[method];
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.values(fields)) out[name] = kind === "string" ? "" : kind === "bool" ? false : { value: {}, secrets: new PathSet() };
  const r = Reader.create(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const field = fields[tag >>> 3];
    const wire = tag & 7;
    if (!field || wire !== (field[1] === "bool" ? 0 : 2)) {
      r.skipType(wire);
      continue;
    }
    const [name, kind] = field;
    if (kind === "string") out[name] = r.string();
    else if (kind === "bool") out[name] = r.bool();
    else {
      const secrets = new PathSet();
      const end = r.uint32() + r.pos;
      out[name] = { value: readStructFrom(r, end, secrets), secrets };
      r.pos = end;
    }
  }
  return out as Request<M>;
}

export interface Failure {
  property: string;
  reason: string;
}

/** The responses the handlers return for these RPCs. */
export interface Responses {
  check: { inputs: Secreted; failures: Failure[] };
  diff: {
    /** provproto.DiffResponse.DiffChanges */
    changes: number;
    replaces: string[];
    deleteBeforeReplace?: boolean;
    diffs?: string[];
    /** Property path → provproto.PropertyDiff.Kind, each an input diff. */
    detailedDiff?: Map<string, number>;
  };
  create: { id?: string; properties: Secreted };
  read: { id: string; properties?: Secreted; inputs?: Secreted };
  update: { properties: Secreted };
  delete: Record<string, never>;
}

const LEN = 2;
const VARINT = 0;
const tag = (field: number, wire: number) => (field << 3) | wire;

function struct(w: Writer, field: number, s: Secreted | undefined): void {
  if (!s) return;
  w.uint32(tag(field, LEN)).fork();
  writeStructTo(w, s.value, s.secrets);
  w.ldelim();
}

function str(w: Writer, field: number, s: string | undefined): void {
  if (s) w.uint32(tag(field, LEN)).string(s);
}

function strings(w: Writer, field: number, list: readonly string[] | undefined): void {
  for (const s of list ?? []) w.uint32(tag(field, LEN)).string(s);
}

function flag(w: Writer, field: number, b: boolean | undefined): void {
  if (b) w.uint32(tag(field, VARINT)).bool(true);
}

/** provider.proto's field numbers for what each response holds. */
const ENCODERS: { [M in Method]: (w: Writer, resp: Responses[M]) => void } = {
  check(w, resp) {
    struct(w, 1, resp.inputs);
    for (const f of resp.failures) {
      w.uint32(tag(2, LEN)).fork();
      str(w, 1, f.property);
      str(w, 2, f.reason);
      w.ldelim();
    }
  },
  diff(w, resp) {
    strings(w, 1, resp.replaces);
    flag(w, 3, resp.deleteBeforeReplace);
    if (resp.changes) w.uint32(tag(4, VARINT)).int32(resp.changes);
    strings(w, 5, resp.diffs);
    if (resp.detailedDiff) {
      // map<string, PropertyDiff { kind = 1; inputDiff = 2 }> detailedDiff = 6, then hasDetailedDiff = 7.
      for (const [path, kind] of resp.detailedDiff) {
        w.uint32(tag(6, LEN)).fork();
        str(w, 1, path);
        w.uint32(tag(2, LEN)).fork();
        if (kind) w.uint32(tag(1, VARINT)).int32(kind);
        flag(w, 2, true);
        w.ldelim();
        w.ldelim();
      }
      flag(w, 7, true);
    }
  },
  create(w, resp) {
    str(w, 1, resp.id);
    struct(w, 2, resp.properties);
  },
  read(w, resp) {
    str(w, 1, resp.id);
    struct(w, 2, resp.properties);
    struct(w, 3, resp.inputs);
  },
  update(w, resp) {
    struct(w, 1, resp.properties);
  },
  delete() {
    // google.protobuf.Empty
  },
};

export function encodeResponse<M extends Method>(method: M, resp: Responses[M]): Buffer {
  const w = Writer.create();
  ENCODERS[method](w, resp);
  return w.finish() as Buffer;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** The service definition grpc-js serves: @pulumi/pulumi's, with these RPCs' codecs swapped in. */
export function resourceProviderService(): Record<string, any> {
  const base = provrpc.ResourceProviderService as Record<string, any>;
  const out: Record<string, any> = { ...base };
  for (const method of Object.keys(REQUEST_FIELDS) as Method[]) {
    out[method] = {
      ...base[method],
      requestDeserialize: (bytes: Buffer) => decodeRequest(method, bytes),
      responseSerialize: (resp: Responses[typeof method]) => encodeResponse(method, resp as never),
    };
  }
  return out;
}
