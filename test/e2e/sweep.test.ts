import { afterAll, describe, expect, it } from "vitest";
import { faultMix, killAndRecover, SweepStack } from "../../scripts/chaos/sweep/core.js";
import { ENGINE_TIMEOUT_MS } from "../support/pulumi.js";

// The crash-point sweep's fixed slice (issue 39): the program of every kind (41 resources) on the
// provider plugin with PULUMI_SKIP_CHECKPOINTS=true, killed with -9 right after the API answered
// its k-th write (by count, not time), then `pulumi-cdc recover --yes` and one plain `pulumi up`
// (or `destroy`), the invariants checked against the emulator each time. The whole sweep (both
// hosts, both checkpoint modes, up, destroy and replace points over the whole run) is
// `npm run chaos -- --sweep`; docs/recovery.md has its last summary. The fault mix is seeded.

const SEED = 20261128;

describe("the crash-point sweep's slice: plugin host, skipped checkpoints", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const stacks: SweepStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
  });

  it("an up killed early and a destroy killed halfway: each recovered, then every object once, tracked, no secret lost, a clean preview; nothing left", async () => {
    const s = await SweepStack.create("plugin", "skipped", "slice-a", faultMix(SEED));
    stacks.push(s);
    // Sources and destinations made, pipelines and the rest not yet.
    const up = await killAndRecover(s, "up", 12);
    expect(up.reached, "the up ended before its 12th write").toBe(true);
    expect(up.failures).toEqual([]);
    const destroy = await killAndRecover(s, "destroy", 20);
    expect(destroy.reached, "the destroy ended before its 20th write").toBe(true);
    expect(destroy.failures).toEqual([]);
  });

  it("an up killed late, among the pipelines, agents and bindings: recovered, then every object once with no 409", async () => {
    const s = await SweepStack.create("plugin", "skipped", "slice-b", faultMix(SEED + 1));
    stacks.push(s);
    const up = await killAndRecover(s, "up", 30);
    expect(up.reached, "the up ended before its 30th write").toBe(true);
    expect(up.failures).toEqual([]);
  });
});
