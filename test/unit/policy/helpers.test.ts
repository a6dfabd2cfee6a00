import { describe, expect, it } from "vitest";
import { unknownGuardrailKeys } from "../../../catalogue/guardrails.js";
import { globMatch, known, stackOf } from "../../../policy/src/values.js";

describe("the policy pack's pure helpers (policy/src/values.ts) and its catalogue facts", () => {
  it("every key of catalogue/guardrails.json is some connector's key", () => {
    expect(unknownGuardrailKeys()).toEqual([]);
  });

  it("matches stack names against a glob of * and ?", () => {
    expect(globMatch("prod*", "prod-policy")).toBe(true);
    expect(globMatch("prod*", "preprod")).toBe(false);
    expect(globMatch("prod-?", "prod-1")).toBe(true);
    expect(globMatch("prod.eu", "prodXeu")).toBe(false);
  });

  it("reads the stack from a URN, and tells known values from the engine's unknowns", () => {
    expect(stackOf("urn:pulumi:prod-eu::shop::cdc:index:Source::orders")).toBe("prod-eu");
    expect(known({ a: ["x", 1] })).toBe(true);
    expect(known({ a: ["04da6b54-80e4-46f7-96ec-b56ff0331ba9"] })).toBe(false);
  });
});
