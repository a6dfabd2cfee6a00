import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runOkSync } from "../../support/process.js";

const DIST = join(__dirname, "..", "..", "..", "dist", "provider");

// The provider process starts cold on every Pulumi command: what it loads before its first
// answer is paid by every up, preview, refresh and destroy.
function modulesLoadedBy(script: string): string[] {
  const { stdout } = runOkSync(process.execPath, ["-e", `(async () => { ${script}; })().then(() => console.log(JSON.stringify(Object.keys(require.cache))))`]);
  return JSON.parse(stdout) as string[];
}

describe("loading the provider", () => {
  it("loads the diff library only when a source drift is rendered", () => {
    const drift = JSON.stringify(join(DIST, "drift.js"));
    // A kind's rules load at its first operation: the entry alone loads none of them.
    const index = JSON.stringify(join(DIST, "index.js"));
    expect(modulesLoadedBy(`require(${index})`).filter((m) => m.includes(join("provider", "resources")))).toEqual([]);
    const atStart = modulesLoadedBy(`await require(${index}).provider("Source").check({}, { name: "s", connector: "postgresql", config: {} })`);
    expect(atStart.some((m) => m.endsWith(join("provider", "resources", "connector.js")))).toBe(true);
    expect(atStart.filter((m) => /node_modules[\\/]diff[\\/]/.test(m))).toEqual([]);

    const clean = modulesLoadedBy(`require(${drift}).sourceDrift({ a: "1" }, { a: 1 }, new Set(), "s")`);
    expect(clean.filter((m) => /node_modules[\\/]diff[\\/]/.test(m))).toEqual([]);
    const drifted = modulesLoadedBy(`const r = require(${drift}).sourceDrift({ a: "1" }, { a: "2" }, new Set(), "s"); if (!r.maskedDiff.includes("+a: 2")) process.exit(3)`);
    expect(drifted.some((m) => /node_modules[\\/]diff[\\/]/.test(m))).toBe(true);
  });
});
