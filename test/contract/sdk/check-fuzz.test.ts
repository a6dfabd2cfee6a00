import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dynamicProvider } from "../../../provider/index.js";
import { DECLARATIONS } from "../../../provider/kinds/index.js";
import { providerText } from "../../../sdk/dynamic.js";
import { fuzzedKind, FuzzTotals, inputsWith, inputsWithSeveral, prototypePolluted, runParameters, verdictProblems, withOlds, withUnknowns, type Fuzzed } from "../../support/fuzz.js";
import { startHarness, type ProviderHarness } from "../provider/harness.js";

/**
 * The dynamic providers' check (what the engine's Node.js dynamic-provider host calls for every
 * resource of a TypeScript program) fed arbitrary values for every property of every kind: it
 * answers, never throws, names a property in each failure, and calls no API. The core is
 * configured against an emulator whose request counters must stay at zero.
 */

const totals = new FuzzTotals("dynamic providers' check");
let h: ProviderHarness;

beforeAll(async () => {
  h = await startHarness();
  h.emulator.resetStats();
});
afterAll(async () => {
  console.log(totals.line());
  await h?.close();
});

/** One case: the news the dynamic class registers (its inputs, the resource's name, its provider text), checked. */
async function checkCase(kind: Fuzzed, { olds, news: inputs }: { olds: Record<string, unknown>; news: Record<string, unknown> }): Promise<void> {
  totals.cases += 1;
  const news = { ...inputs, logicalName: "fuzzed", __provider: providerText(kind.name as never) };
  let result: { inputs?: unknown; failures?: { property: string; reason: string }[] };
  try {
    result = (await dynamicProvider(kind.name as never).check(olds as never, news as never)) as typeof result;
  } catch (err) {
    totals.crashes += 1;
    throw new Error(`check threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
  const calls = h.emulator.stats().total;
  totals.apiCalls = calls;
  expect(calls, "API requests made by check").toBe(0);
  expect(prototypePolluted()).toBeUndefined();
  expect(result.inputs, "check's inputs").toBeTypeOf("object");
  const failures = result.failures ?? [];
  if (failures.length > 0) totals.refused += 1;
  expect(verdictProblems(kind, inputs, failures, result.inputs as Record<string, unknown>)).toEqual([]);
}

describe.each(DECLARATIONS.map((d) => [d.name, fuzzedKind(d)] as const))("%s: the dynamic providers' check of fuzzed inputs", (name, kind) => {
  it("passes its valid inputs", async () => {
    for (const inputs of kind.valid) {
      const result = (await dynamicProvider(name as never).check({} as never, { ...inputs, logicalName: "valid" } as never)) as { failures: unknown[] };
      expect(result.failures).toEqual([]);
    }
  });

  it.each(kind.inputs.map((p) => [p.name, p] as const))("answers for any %s, naming it when it refuses", async (property, spec) => {
    await fc.assert(fc.asyncProperty(withOlds(kind, withUnknowns(inputsWith(kind, [spec]))), (c) => checkCase(kind, c)), runParameters(`dynamic ${name}.${property}`));
  });

  it("answers for several properties fuzzed at once", async () => {
    await fc.assert(fc.asyncProperty(withOlds(kind, withUnknowns(inputsWithSeveral(kind))), (c) => checkCase(kind, c)), runParameters(`dynamic ${name} several`));
  });
});
