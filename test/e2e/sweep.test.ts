import { afterAll, describe, expect, it } from "vitest";
import { census, convergedFailures, destroyedFailures, faultMix, liveCount, SweepStack, stackIds } from "../../scripts/chaos/sweep/core.js";
import { ENGINE_TIMEOUT_MS } from "../support/pulumi.js";

// The crash-point sweep's fixed slice (issue 39), with the setting docs/large-stacks.md recommends
// for very large stacks, PULUMI_SKIP_CHECKPOINTS=true: the engine writes the stack once, at the end
// of a run, so a killed run leaves no record of what it did. The API's does: recover rebuilds it.
// The program of every kind (41 resources) on the provider plugin (the host for very large stacks;
// recover reads both hosts alike), killed with -9 right after the API answered its k-th write (by
// count, not time), then `pulumi-cdc recover --yes` and one plain `pulumi up` (or `destroy`), the
// invariants checked against the emulator each time. The whole sweep (both hosts, both checkpoint
// modes, up, destroy and replace points over the whole run) is `npm run chaos -- --sweep`;
// docs/recovery.md has its last summary; a kill among the pipelines is test/e2e/recover-pipelines.
// The fault mix is seeded, the garbled answers of issue 49 among its faults (each met, asserted at
// the end). The 1,000-resource figure is in docs/large-stacks.md.

const SEED = 20261128;

describe("the crash-point sweep's slice: plugin host, skipped checkpoints", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const stacks: SweepStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
  });

  it("an up killed early and a destroy killed halfway: each settled by recover, then every object once, tracked, no secret lost, a clean preview; nothing left", async () => {
    const s = await SweepStack.create("plugin", "skipped", "slice", faultMix(SEED));
    stacks.push(s);

    // Killed at the 12th write: sources and destinations made, pipelines and the rest not yet.
    expect(await s.killAfter("up", 12), "the up ended before its 12th write").toBe(true);
    // What skipped checkpoints lose: the stack holds none of the objects the run made.
    expect((await stackIds(s)).get("Source") ?? []).toEqual([]);
    expect((await census(s)).Source.length).toBeGreaterThan(0);
    const dryRun = await s.cli(["recover"]);
    expect(dryRun.code, dryRun.output).toBe(0);
    expect(dryRun.output).toMatch(/objects? of the program made but not recorded/);
    expect(dryRun.output).toMatch(/Nothing was changed/);
    const recovered = await s.cli(["recover", "--yes"]);
    expect(recovered.code, recovered.output).toBe(0);
    expect(recovered.output).toMatch(/Done/);
    const up = await s.pulumi(["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect(up.output, `recover said:\n${recovered.output}`).not.toMatch(/\b409\b|already exists/);
    expect(await convergedFailures(s)).toEqual([]);

    // A destroy killed at its 20th write: the stack still lists every object, some of them deleted.
    const sources = s.expected().sources.length;
    const before = await liveCount(s);
    expect(await s.killAfter("destroy", 20), "the destroy ended before its 20th write").toBe(true);
    expect(await liveCount(s)).toBeLessThan(before);
    expect((await stackIds(s)).get("Source")).toHaveLength(sources);
    const recoveredDestroy = await s.cli(["recover", "--yes"]);
    expect(recoveredDestroy.code, recoveredDestroy.output).toBe(0);
    // The refresh dropped what the destroy had deleted.
    expect((await stackIds(s)).get("Source") ?? []).toHaveLength((await census(s)).Source.length);
    const destroy = await s.pulumi(["destroy", "--yes"]);
    expect(destroy.code, destroy.output).toBe(0);
    expect(destroy.output, `recover said:\n${recoveredDestroy.output}`).not.toMatch(/\b404\b/);
    expect(await destroyedFailures(s)).toEqual([]);
    const met = s.emulator.stats().faults;
    for (const g of ["html", "truncated", "wrongShape", "oversized"] as const) expect(met[g], `${g} answers met: ${JSON.stringify(met)}`).toBeGreaterThan(0);
  });
});
