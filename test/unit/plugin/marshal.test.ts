import { describe, expect, it } from "vitest";
import { SECRET_SIG, SIG_KEY, decodeStruct, encodeStruct, readStruct, secret, toSecretStruct, type Path } from "../../../plugin/marshal.js";
import { structproto } from "../../../plugin/proto.js";

// The oracle: the generated classes of @pulumi/pulumi (Struct.fromJavaScript, toJavaScript) and
// the two-pass secret handling the plugin used with them. The direct wire codec must give what
// they give, byte for byte where the order is fixed and value for value otherwise.
type PbStruct = { toJavaScript(): Record<string, unknown>; serializeBinary(): Uint8Array };
const isWrapper = (v: unknown): v is { value?: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;

function unwrapSecrets(value: unknown): { value: unknown; secrets: string[] } {
  const secrets: string[] = [];
  const walk = (v: unknown, at: Path): unknown => {
    if (isWrapper(v)) {
      secrets.push(JSON.stringify(at));
      return walk(v.value, at);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, i]));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, [...at, k])]));
    return v;
  };
  return { value: walk(value, []), secrets: secrets.sort() };
}

function wrapAt(value: unknown, path: Path): unknown {
  if (path.length === 0) return value === undefined || isWrapper(value) ? value : secret(value);
  if (isWrapper(value)) return value;
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
const wrapSecrets = (value: Record<string, unknown>, paths: Path[]) => paths.reduce<unknown>((v, p) => wrapAt(v, p), value);
const pbStruct = (v: unknown): PbStruct => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));
const sortedPaths = (s: Iterable<Path>) => [...s].map((p) => JSON.stringify(p)).sort();

const value = {
  name: "orders",
  config: { "database.password": "pw", "database.port": 5432, flag: true, none: null, nested: { a: [1, "two", { b: "deep" }] } },
  tags: ["t1", "t2"],
  empty: {},
  list: [],
  gone: undefined,
  nan: Number.NaN,
  holes: [undefined, () => 1, 3],
  when: new Date(Date.UTC(2026, 0, 2)),
  unicode: "Zürich ☃ \u{1F600}",
  negative: -1.5e300,
};
const paths: Path[] = [["config", "database.password"], ["config", "nested", "a", 2, "b"], ["tags", 1], ["absent"], ["config", "missing", "x"], ["list", 0], ["gone"]];

describe("encodeStruct", () => {
  it("writes what the generated classes read as the value with its secrets wrapped", () => {
    const written = structproto.Struct.deserializeBinary(encodeStruct(value, paths)) as PbStruct;
    expect(written.toJavaScript()).toEqual(pbStruct(wrapSecrets(value, paths)).toJavaScript());
    expect((written.toJavaScript().config as Record<string, unknown>)["database.password"]).toEqual(secret("pw"));
  });

  it("writes the same bytes as the generated classes for keys in sorted order", () => {
    const sorted = { a: 1, b: { c: [true, null, "x"], d: -0.25 }, e: "é" };
    expect(Buffer.from(encodeStruct(sorted)).toString("hex")).toBe(Buffer.from(pbStruct(sorted).serializeBinary()).toString("hex"));
  });

  it("keeps a value already wrapped, and wraps a whole subtree", () => {
    const wrapped = { a: secret("x"), b: { c: 1, d: [2] } };
    const p: Path[] = [["a"], ["b"], ["b", "c"]];
    expect((toSecretStruct(wrapped, p) as PbStruct).toJavaScript()).toEqual({ a: secret("x"), b: secret({ c: 1, d: [2] }) });
  });
});

describe("decodeStruct", () => {
  const sent = {
    name: "orders",
    config: { "database.password": secret("pw"), port: 5432, list: [secret(1), { k: secret({ deep: secret("x") }) }], none: null },
    tags: ["a"],
    bare: { [SIG_KEY]: SECRET_SIG },
    z: "last",
    "10": "integer-like",
  };

  it("reads what the generated classes wrote as the value with secrets unwrapped, and their paths", () => {
    const decoded = decodeStruct(pbStruct(sent).serializeBinary());
    const oracle = unwrapSecrets(pbStruct(sent).toJavaScript());
    expect(decoded.value).toEqual(oracle.value);
    expect(sortedPaths(decoded.secrets)).toEqual(oracle.secrets);
    expect(decoded.secrets.size).toBe(5);
    expect(readStruct(pbStruct(sent)).value).toEqual(oracle.value);
  });

  it("orders keys as the generated classes did, whatever order the engine sent them in", () => {
    const reversed = Object.fromEntries(Object.entries({ c: 1, b: { y: 1, x: 2 }, a: 3 }));
    const decoded = decodeStruct(encodeStruct(reversed)).value;
    expect(Object.keys(decoded)).toEqual(["a", "b", "c"]);
    expect(Object.keys(decoded.b as object)).toEqual(["x", "y"]);
  });

  it("takes the last of a key sent twice, and skips fields it does not know", () => {
    // Struct { fields: { "k": "one" }, { "k": "two" } } with an unknown field 9 (varint 7) in the
    // Struct and in each Value (the generated classes refuse one inside a map entry).
    const entry = (v: string) => {
      const val = Buffer.concat([Buffer.from([0x1a, v.length]), Buffer.from(v), Buffer.from([0x48, 7])]);
      const body = Buffer.concat([Buffer.from([0x0a, 1]), Buffer.from("k"), Buffer.from([0x12, val.length]), val]);
      return Buffer.concat([Buffer.from([0x0a, body.length]), body]);
    };
    const bytes = Buffer.concat([entry("one"), Buffer.from([0x48, 7]), entry("two")]);
    expect(decodeStruct(bytes).value).toEqual({ k: "two" });
    expect((structproto.Struct.deserializeBinary(bytes) as PbStruct).toJavaScript()).toEqual({ k: "two" });
  });

  it("refuses a Value with no kind, as the plugin always has", () => {
    // { "k": Value {} }
    expect(() => decodeStruct(Buffer.from([0x0a, 0x05, 0x0a, 0x01, 0x6b, 0x12, 0x00]))).toThrow("Unexpected struct type");
  });

  it("reads no Struct as an empty object", () => {
    expect(readStruct(undefined)).toMatchObject({ value: {} });
    expect(decodeStruct(undefined).secrets.size).toBe(0);
  });

  it("reads a key `__proto__` as a key of its own, never as the object's prototype", () => {
    const sent = JSON.parse('{"source": {"__proto__": {"id": "src-inherited"}}, "config": {"__proto__": "x", "a": 1}}') as Record<string, Record<string, unknown>>;
    const { value } = decodeStruct(encodeStruct(sent)) as { value: Record<string, Record<string, unknown>> };
    expect(Object.keys(value.source!)).toEqual(["__proto__"]);
    expect(value.source!.id).toBeUndefined();
    expect(Object.getPrototypeOf(value.source)).toBe(Object.prototype);
    expect(Object.entries(value.config!)).toEqual([["__proto__", "x"], ["a", 1]]);
  });

  it("round-trips a large property bag unchanged", () => {
    const big = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`topic.${String(i).padStart(3, "0")}`, { id: `t-${i}`, parts: [i, i / 3, `x${i}`], on: i % 2 === 0 }]));
    const secretPaths: Path[] = [["topic.007", "id"], ["topic.299", "parts", 2]];
    const decoded = decodeStruct(encodeStruct(big, secretPaths));
    expect(decoded.value).toEqual(big);
    expect(sortedPaths(decoded.secrets)).toEqual(sortedPaths(secretPaths));
  });
});
