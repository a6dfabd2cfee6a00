import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SDK = join(__dirname, "..", "..", "..", "dist", "sdk", "index.js");

// What a program loads with `import ... from "pulumi-cdc"`, run by the built package as a program
// runs it: the API client (undici, zod) belongs to the provider process and to lookups, and costs
// every `pulumi up` and preview about 80 ms of CPU when the SDK loads it for nothing.
function modulesLoadedBy(script: string): string[] {
  const out = execFileSync(process.execPath, ["-e", `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`], { encoding: "utf8" });
  return JSON.parse(out) as string[];
}

describe("loading the SDK", () => {
  it("does not load the API client until a lookup runs", () => {
    const loaded = modulesLoadedBy(`require(${JSON.stringify(SDK)})`);
    expect(loaded.some((m) => m.includes(`${join("dist", "sdk", "source.js")}`))).toBe(true);
    expect(loaded.filter((m) => /node_modules[\\/](undici|zod)[\\/]/.test(m))).toEqual([]);
    expect(loaded.filter((m) => m.includes(join("dist", "provider", "client")))).toEqual([]);
  });
});
