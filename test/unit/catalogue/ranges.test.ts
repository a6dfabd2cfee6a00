import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE, KINDS, type KeySpec } from "../../../catalogue/index.js";
import { applyRanges, RANGE_SOURCE } from "../../../scripts/generate/ranges.js";
import { renderCatalogue } from "../../../scripts/generate/vendor-keys.js";

const root = join(__dirname, "..", "..", "..");
const everyKey = KINDS.flatMap((kind) => Object.values(CATALOGUE[kind]).flatMap((spec) => spec.keys.map((k) => [`${kind} ${spec.code} ${k.key}`, k] as const)));

describe("the catalogue's integer ranges", () => {
  it("gives every port key 1 to 65535", () => {
    const ports = everyKey.filter(([, k]) => /(^|\.)port(\.user\.defined)?$/.test(k.key) || /Port$/.test(k.name));
    expect(ports.length).toBeGreaterThanOrEqual(40);
    for (const [where, k] of ports) expect({ where, type: k.type, min: k.min, max: k.max }).toEqual({ where, type: "integer", min: 1, max: 65535 });
  });

  it("marks the ranges pulumi-cdc adds as its own, and each holds its key's default", () => {
    const ours = everyKey.filter(([, k]) => k.rangeSource !== undefined);
    expect(ours.length).toBeGreaterThan(0);
    for (const [where, k] of ours) {
      expect(k.rangeSource, where).toBe(RANGE_SOURCE);
      expect(k.type, where).toBe("integer");
      expect(k.rangeWhy, where).toMatch(/^a /);
      expect(k.min, where).toBeTypeOf("number");
    }
    // A range without the mark is the platform's: it carries no reason of ours.
    for (const [where, k] of everyKey.filter(([, k]) => k.rangeSource === undefined)) expect(k.rangeWhy, where).toBeUndefined();
    const inRange = (k: KeySpec) => typeof k.default !== "number" || ((k.min === undefined || k.default >= k.min) && (k.max === undefined || k.default <= k.max));
    expect(everyKey.filter(([, k]) => !inRange(k)).map(([where]) => where)).toEqual([]);
  });

  it("are what `npm run generate` writes (run it when this fails)", () => {
    const text = readFileSync(join(root, "catalogue", "connectors.json"), "utf8");
    const catalogue = JSON.parse(text) as Parameters<typeof applyRanges>[0];
    applyRanges(catalogue);
    expect(renderCatalogue(catalogue)).toBe(text);
  });

  it("show in the generated helpers' docs, as pulumi-cdc's", () => {
    const sources = readFileSync(join(root, "generated", "typescript", "sources.ts"), "utf8");
    expect(sources).toContain("/** `database.port.user.defined`. From 1 to 65535 (a TCP port; this range is pulumi-cdc's, the platform publishes none). Default 5432. */");
    // The platform's own ranges say nothing of the sort.
    expect(sources).toMatch(/`streamkap\.snapshot\.parallelism`\. From 1 to 50\. Default 1\./);
  });
});
