import { describe, expect, it } from "vitest";
import { SECRET_SIG, SIG_KEY, fromStruct, readStruct, secret, toSecretStruct, toStruct, unwrapSecrets, wrapSecrets, type Path } from "../../../plugin/marshal.js";
import { structproto } from "../../../plugin/proto.js";

// The one-pass conversions give what the two-pass ones they replace gave.
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
};
const paths: Path[] = [["config", "database.password"], ["config", "nested", "a", 2, "b"], ["tags", 1], ["absent"], ["config", "missing", "x"], ["list", 0], ["gone"]];

describe("toSecretStruct", () => {
  it("is toStruct(wrapSecrets(...))", () => {
    const oneStep = (toSecretStruct(value, paths) as { toJavaScript(): unknown }).toJavaScript();
    const twoSteps = (toStruct(wrapSecrets(value, paths)) as { toJavaScript(): unknown }).toJavaScript();
    expect(oneStep).toEqual(twoSteps);
    expect((oneStep as { config: Record<string, unknown> }).config["database.password"]).toEqual(secret("pw"));
  });

  it("keeps a value already wrapped, and wraps a whole subtree", () => {
    const wrapped = { a: secret("x"), b: { c: 1, d: [2] } };
    const p: Path[] = [["a"], ["b"], ["b", "c"]];
    expect((toSecretStruct(wrapped, p) as { toJavaScript(): unknown }).toJavaScript()).toEqual({ a: secret("x"), b: secret({ c: 1, d: [2] }) });
  });
});

describe("readStruct", () => {
  it("is unwrapSecrets(fromStruct(...))", () => {
    const struct = structproto.Struct.fromJavaScript({
      name: "orders",
      config: { "database.password": secret("pw"), port: 5432, list: [secret(1), { k: secret({ deep: secret("x") }) }], none: null },
      tags: ["a"],
      bare: { [SIG_KEY]: SECRET_SIG },
    });
    const oneStep = readStruct(struct);
    const twoSteps = unwrapSecrets(fromStruct(struct));
    expect(oneStep.value).toEqual(twoSteps.value);
    expect([...oneStep.secrets].map((p) => JSON.stringify(p)).sort()).toEqual([...twoSteps.secrets].map((p) => JSON.stringify(p)).sort());
    expect(oneStep.secrets.size).toBe(5);
  });

  it("reads no Struct as an empty object", () => {
    expect(readStruct(undefined)).toMatchObject({ value: {} });
    expect(readStruct(undefined).secrets.size).toBe(0);
  });
});
