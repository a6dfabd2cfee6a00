import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runOkSync } from "../../support/process.js";

const SDK = join(__dirname, "..", "..", "..", "dist", "sdk", "index.js");

// What a program loads with `import ... from "pulumi-cdc"`, run by the built package as a program
// runs it: the API client (undici, zod) belongs to the provider process and to lookups, and costs
// every `pulumi up` and preview about 80 ms of CPU when the SDK loads it for nothing.
function modulesLoadedBy(script: string): string[] {
  const { stdout } = runOkSync(process.execPath, ["-e", `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`]);
  return JSON.parse(stdout) as string[];
}

describe("loading the SDK", () => {
  it("does not load the API client until a lookup runs", () => {
    const loaded = modulesLoadedBy(`require(${JSON.stringify(SDK)})`);
    expect(loaded.some((m) => m.includes(`${join("dist", "generated", "typescript", "kinds.js")}`))).toBe(true);
    expect(loaded.filter((m) => /node_modules[\\/](undici|zod)[\\/]/.test(m))).toEqual([]);
    expect(loaded.filter((m) => m.includes(join("dist", "provider", "client")))).toEqual([]);
  });
});
