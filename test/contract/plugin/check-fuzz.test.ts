import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provproto } from "../../../plugin/proto.js";
import { DECLARATIONS } from "../../../provider/kinds/index.js";
import { TYPED_KINDS } from "../../../provider/typed/kinds.js";
import { fuzzedKind, fuzzedTyped, FuzzTotals, inputsWith, inputsWithSeveral, prototypePolluted, runParameters, unwrapSecrets, verdictProblems, withEngineValues, withOlds, type Fuzzed } from "../../support/fuzz.js";
import { engineCheckRequest, failuresOf, plain, startPluginHarness, type PluginHarness } from "./harness.js";

/**
 * The plugin's Check RPC, over gRPC, fed arbitrary values for every property of every kind (and
 * several properties at once of every typed resource, `cdc:sources:Postgresql`), with
 * the engine's unknowns and secret wrappers anywhere and the bytes an engine may send that the
 * generated classes cannot (own `__proto__` keys, NaN): it answers (no gRPC error from an
 * exception), names a property in each failure, calls no API, and answers the next call.
 */

const totals = new FuzzTotals("plugin's Check");
let h: PluginHarness;

beforeAll(async () => {
  h = await startPluginHarness();
  h.emulator.resetStats();
});
afterAll(async () => {
  console.log(totals.line());
  await h?.close();
});

const check = (kind: Fuzzed, news: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
  h.callBytes("Check", engineCheckRequest(kind.token, "fuzzed", news, olds), provproto.CheckResponse) as Promise<{ getFailuresList(): unknown[]; getInputs(): { toJavaScript(): Record<string, unknown> } | undefined }>;

async function checkCase(kind: Fuzzed, { olds, news }: { olds: Record<string, unknown>; news: Record<string, unknown> }): Promise<void> {
  totals.cases += 1;
  let resp: Awaited<ReturnType<typeof check>>;
  try {
    resp = await check(kind, news, olds);
  } catch (err) {
    totals.crashes += 1;
    throw new Error(`Check failed over gRPC: ${err instanceof Error ? err.message : String(err)}`);
  }
  const calls = h.emulator.stats().total;
  totals.apiCalls = calls;
  expect(calls, "API requests made by Check").toBe(0);
  expect(prototypePolluted()).toBeUndefined();
  const failures = failuresOf(resp);
  if (failures.length > 0) totals.refused += 1;
  const checked = unwrapSecrets(plain(resp.getInputs())) as Record<string, unknown>;
  expect(verdictProblems(kind, unwrapSecrets(news) as Record<string, unknown>, failures, checked)).toEqual([]);
}

/** The plugin still answers, and as before: a valid input passes. */
async function stillServes(kind: Fuzzed): Promise<void> {
  for (const inputs of kind.valid) expect(failuresOf(await check(kind, inputs))).toEqual([]);
}

describe.each(DECLARATIONS.map((d) => [d.name, fuzzedKind(d)] as const))("%s: the plugin's Check of fuzzed inputs", (name, kind) => {
  it.each(kind.inputs.map((p) => [p.name, p] as const))("answers for any %s, naming it when it refuses", async (property, spec) => {
    try {
      await fc.assert(fc.asyncProperty(withOlds(kind, withEngineValues(inputsWith(kind, [spec]))), (c) => checkCase(kind, c)), runParameters(`plugin ${name}.${property}`));
    } finally {
      await stillServes(kind);
    }
  });

  it("answers for several properties fuzzed at once", async () => {
    try {
      await fc.assert(fc.asyncProperty(withOlds(kind, withEngineValues(inputsWithSeveral(kind))), (c) => checkCase(kind, c)), runParameters(`plugin ${name} several`));
    } finally {
      await stillServes(kind);
    }
  });
});

// A typed resource is its kind with the config spread into properties: the plugin maps them (provider/typed/props.ts).
describe.each(Object.values(TYPED_KINDS).map((t) => [t.token, fuzzedTyped(t)] as const))("%s: the plugin's Check of fuzzed inputs", (token, kind) => {
  it("answers for several properties fuzzed at once, naming them when it refuses", async () => {
    await stillServes(kind);
    try {
      await fc.assert(fc.asyncProperty(withOlds(kind, withEngineValues(inputsWithSeveral(kind))), (c) => checkCase(kind, c)), runParameters(`plugin ${token} several`));
    } finally {
      await stillServes(kind);
    }
  });
});
