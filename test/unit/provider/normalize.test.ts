import { describe, expect, it } from "vitest";
import { alignLiveConfig, changedConfigKeys, containsUnknown, MASK, renderConfig, toApiString, UNKNOWN } from "../../../provider/normalize.js";

describe("toApiString", () => {
  it("echoes numbers and booleans as the API does", () => {
    expect(toApiString(5432)).toBe("5432");
    expect(toApiString(true)).toBe("true");
    expect(toApiString("x")).toBe("x");
  });
});

describe("changedConfigKeys", () => {
  it("compares on the API's string echo, so 5432 and \"5432\" are equal", () => {
    expect(changedConfigKeys({ port: 5432, ssl: true }, { port: "5432", ssl: "true" })).toEqual([]);
  });
  it("reports changed, added and removed keys", () => {
    expect(changedConfigKeys({ a: "1", b: "2" }, { a: "1", b: "3", c: "4" })).toEqual(["b", "c"]);
    expect(changedConfigKeys({ a: "1", b: "2" }, { a: "1" })).toEqual(["b"]);
  });
  it("treats a value unknown during preview as a change", () => {
    expect(changedConfigKeys({ a: "1" }, { a: UNKNOWN })).toEqual(["a"]);
    expect(containsUnknown({ config: { a: UNKNOWN } })).toBe(true);
  });
  it("reads a recorded config that is no map (a stack edited by hand) as holding no key", () => {
    for (const recorded of [false, "", [], "text"]) expect(changedConfigKeys(recorded as never, { a: "1" })).toEqual(["a"]);
  });
});

describe("alignLiveConfig", () => {
  const secrets = new Set(["password"]);
  it("keeps only the keys the user set, so server-filled defaults never diff", () => {
    const live = { host: "db", port: "5432", sslmode: "require", password: MASK };
    expect(alignLiveConfig({ host: "db", port: 5432, password: "s3cret" }, live, secrets)).toEqual({
      host: "db",
      port: 5432, // the program's type is kept when the echo means the same value
      password: "s3cret",
    });
  });
  it("never takes a masked echo as the value, even for keys not known to be secret", () => {
    expect(alignLiveConfig({ token: "abc" }, { token: MASK }, new Set())).toEqual({ token: "abc" });
    expect(alignLiveConfig({ token: "abc" }, { token: null }, new Set())).toEqual({ token: "abc" });
  });
  it("shows a live change of a plain key and a key the server dropped", () => {
    expect(alignLiveConfig({ host: "db", schema: "s" }, { host: "db2" }, secrets)).toEqual({ host: "db2", schema: "" });
  });
});

describe("renderConfig", () => {
  it("sorts keys and masks secrets", () => {
    expect(renderConfig({ b: 1, password: "p", a: true }, new Set(["password"]))).toBe(`a: true\nb: 1\npassword: ${MASK}\n`);
  });
});
