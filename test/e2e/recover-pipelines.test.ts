import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_TAG_ID } from "../../provider/kinds/pipeline.js";
import { pipelineSchema } from "../../provider/pipelines/schemas.js";
import { convergedFailures, destroyedFailures, stackIds, SweepStack, type Host, type Mode } from "../../scripts/chaos/sweep/core.js";
import { ENGINE_TIMEOUT_MS } from "../support/pulumi.js";

// Issue 39: a `pulumi up` killed with -9 after it made pipelines. Before, `recover` called them
// "not a pulumi-cdc resource" (checkpoints on) or did not look for them (skipped), said "Done",
// and the next `pulumi up` failed with a 409 on each. Both hosts, both checkpoint modes, on the
// crash-point sweep's program (every kind, scripts/chaos/sweep), killed by count: two pipelines
// made, a third create held unanswered until the kill. The dynamic host's stack with checkpoints
// also meets the worst moment for the kill, and is destroyed to nothing at the end.

const CASES: Array<[Host, Mode]> = [
  ["dynamic", "default"],
  ["dynamic", "skipped"],
  ["plugin", "default"],
  ["plugin", "skipped"],
];

/** The stack's lock files in its file backend (`.pulumi/locks/<org>/<project>/<stack>/<id>.json`). */
function lockFiles(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((e) => {
      const p = join(d, e);
      return statSync(p).isDirectory() ? walk(p) : p.endsWith(".json") ? [p] : [];
    });
  try {
    return walk(join(dir, "backend", ".pulumi", "locks"));
  } catch {
    return [];
  }
}

describe.each(CASES)("pipelines made by a killed pulumi up (%s host, %s checkpoints)", { timeout: ENGINE_TIMEOUT_MS }, (host, mode) => {
  const stacks: SweepStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
  });

  it("are taken into the stack by pulumi-cdc recover; the next plain pulumi up makes no duplicate and meets no 409", async () => {
    const s = await SweepStack.create(host, mode, `rp${host[0]}${mode[0]}`);
    stacks.push(s);
    expect(await s.killAfter("up", 2, "POST /pipelines"), "the up ended before its third pipeline").toBe(true);
    const made = (await s.web.listAll("/pipelines", {}, pipelineSchema)).filter((p) => p.name?.startsWith(`${s.prefix}-pipe-`));
    expect(made.length).toBeGreaterThanOrEqual(2);

    if (host === "dynamic" && mode === "default") {
      // The worst moment for the kill, made certain: Pulumi writes the checkpoint's metadata
      // sidecar in place, and a kill in the middle leaves it empty (seen in CI). Pulumi then
      // cannot load the stack at all; recover must still settle it.
      const sidecar = join(s.dir, "backend", ".pulumi", "stacks", "cdc-sweep", "sweep.json.attrs");
      writeFileSync(sidecar, "");
      expect((await s.pulumi(["stack", "export"])).output).toMatch(/failed to load checkpoint: EOF/);
      const dryRun = await s.cli(["recover"]);
      expect(dryRun.code, dryRun.output).toBe(0);
      expect(dryRun.output).toMatch(/--yes removes \S*\.json\.attrs/);
      expect(dryRun.output).toMatch(/pending operation/);
      expect(dryRun.output).toMatch(/Nothing was changed/);
      expect(readFileSync(sidecar, "utf8")).toBe("");
    }

    if (host === "plugin" && mode === "default") {
      // The killed run's lock, written as another host's (a CI runner elsewhere): never released.
      const [lock] = lockFiles(s.dir);
      expect(lock, "the killed run left no lock").toBeDefined();
      const mine = readFileSync(lock!, "utf8");
      writeFileSync(lock!, JSON.stringify({ ...JSON.parse(mine), hostname: "runner-7.example", pid: 4242 }));
      const refused = await s.cli(["recover", "--yes"]);
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toMatch(/locked by \S+@runner-7\.example \(pid 4242\), a run on another host/);
      expect(refused.output).toMatch(/release the lock deliberately with `pulumi cancel --stack sweep`/);
      expect(readFileSync(lock!, "utf8")).toContain("runner-7.example");
      // That run is over after all: its lock, as this host's again, is released by recover.
      writeFileSync(lock!, mine);
    }

    const recovered = await s.cli(["recover", "--yes"]);
    expect(recovered.code, recovered.output).toBe(0);
    expect(recovered.output).not.toMatch(/not a pulumi-cdc resource|unsettled/);
    expect(recovered.output).toMatch(/Done/);
    if (host === "dynamic" && mode === "default") expect(recovered.output).toMatch(/Removed \S*\.json\.attrs/);
    // Every pipeline the killed run made is in the stack now: those it had recorded, and the rest
    // taken in by recover (all of them when checkpoints were skipped: the stack recorded none).
    const tracked = (await stackIds(s)).get("Pipeline") ?? [];
    expect(made.map((p) => p.id).filter((id) => !tracked.includes(id)), recovered.output).toEqual([]);
    const adopted = recovered.output.split("\n").filter((l) => /^\s+adopt\s+pipe-\d/.test(l));
    if (mode === "skipped") expect(adopted.length, recovered.output).toBe(made.length);

    const up = await s.pulumi(["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect(up.output, `recover said:\n${recovered.output}`).not.toMatch(/\b409\b|already exists/);
    expect(await convergedFailures(s)).toEqual([]);
    // The program's pipelines 2 to 7 set no tags: made by the killed run or by this up, on either
    // host, they carry the platform's Development tag, as the vendor's provider gives them, and the
    // preview above was clean (test/contract/provider/pipeline.test.ts has the rest of that rule).
    const untagged = (await s.web.listAll("/pipelines", {}, pipelineSchema)).filter((p) => /-pipe-[2-7]$/.test(p.name ?? ""));
    expect(untagged.map((p) => p.tags)).toEqual(Array.from({ length: 6 }, () => [DEVELOPMENT_TAG_ID]));

    if (host === "dynamic" && mode === "default") {
      const destroy = await s.pulumi(["destroy", "--yes"]);
      expect(destroy.code, destroy.output).toBe(0);
      expect(await destroyedFailures(s)).toEqual([]);
    }
  });
});
