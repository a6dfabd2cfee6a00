import { describe, expect, it } from "vitest";
import { destinationDrift, reportDrift, sourceDrift } from "../../../provider/drift.js";

const comparison = (latest: string) => ({
  has_changes: true,
  oldest_timestamp: "2026-01-01T00:00:00.000Z",
  latest_timestamp: latest,
  masked_diff: "--- original\n+++ current\n-a: 1\n+a: 2\n",
});

describe("destinationDrift", () => {
  it("is not drift when the latest config is the one Pulumi wrote (original != current after an update)", () => {
    const report = destinationDrift(comparison("2026-01-02T00:00:00.000Z"), "2026-01-02T00:00:00.000Z");
    expect(report.detected).toBe(false);
    expect(report.maskedDiff).toBe("");
  });
  it("is drift when a config was recorded after Pulumi's baseline, with the API's masked diff", () => {
    const report = destinationDrift(comparison("2026-01-02T00:00:00.001Z"), "2026-01-02T00:00:00.000Z");
    expect(report).toMatchObject({ detected: true, maskedDiff: expect.stringContaining("+a: 2"), baselineTimestamp: "2026-01-02T00:00:00.000Z" });
  });
  it("takes the original config as the baseline of a destination Pulumi created and has not written since", () => {
    const untouched = destinationDrift({ ...comparison("2026-01-01T00:00:00.000Z"), has_changes: false, masked_diff: "" }, undefined, true);
    expect(untouched).toMatchObject({ detected: false, baselineTimestamp: "2026-01-01T00:00:00.000Z" });
    const edited = destinationDrift(comparison("2026-01-01T00:00:00.001Z"), undefined, true);
    expect(edited).toMatchObject({ detected: true, maskedDiff: expect.stringContaining("+a: 2"), baselineTimestamp: "2026-01-01T00:00:00.000Z" });
    // Without timestamps nothing resolves, and the report still says the baseline is the original.
    const blank = destinationDrift({ has_changes: false, oldest_timestamp: null, latest_timestamp: null, masked_diff: "" }, undefined, true);
    expect(blank).toMatchObject({ detected: false, baselineOriginal: true });
    expect(blank.baselineTimestamp).toBeUndefined();
    // A recorded timestamp (Pulumi's own later write) wins over the original.
    expect(destinationDrift(comparison("2026-01-02T00:00:00.000Z"), "2026-01-02T00:00:00.000Z", true).detected).toBe(false);
  });
  it("is never drift without a baseline (state from before baselines existed)", () => {
    expect(destinationDrift(comparison("2026-01-02T00:00:00.000Z"), undefined).detected).toBe(false);
  });
});

describe("sourceDrift", () => {
  it("reports changed plain keys in a unified diff and never a secret", () => {
    const report = sourceDrift({ host: "a", password: "p1" }, { host: "b", password: "p2" }, new Set(["password"]), "source s");
    expect(report.detected).toBe(true);
    expect(report.changedKeys).toEqual(["host"]);
    expect(report.maskedDiff).toContain("-host: a");
    expect(report.maskedDiff).toContain("+host: b");
    expect(report.maskedDiff).not.toMatch(/p1|p2/);
  });
  it("is clean when only the representation differs", () => {
    expect(sourceDrift({ port: 5432 }, { port: "5432" }, new Set(), "s").detected).toBe(false);
  });
});

describe("reportDrift", () => {
  it("writes one indented block per object, and nothing when there is no finding", () => {
    const out: string[] = [];
    reportDrift("destination \"wh\" (d1)", [], (t) => out.push(t));
    expect(out).toEqual([]);
    reportDrift("destination \"wh\" (d1)", ["is Paused; the program wants active", "config was changed:\n-a: 1\n+a: 2\n"], (t) => out.push(t));
    expect(out).toEqual([
      "drift: destination \"wh\" (d1) changed outside Pulumi; `pulumi up` puts the program's version back:\n" +
        "  is Paused; the program wants active\n  config was changed:\n  -a: 1\n  +a: 2\n",
    ]);
  });
});
