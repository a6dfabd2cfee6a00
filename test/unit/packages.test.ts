import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Two TypeScript packages come out of this repository; each says in one line which one a user wants.

const root = join(__dirname, "..", "..");
const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8")) as { name: string; description?: string };
const firstLine = (path: string) => readFileSync(join(root, path), "utf8").split("\n")[0]!;

describe("the two TypeScript packages", () => {
  it("pulumi-cdc (sdk/, the root package.json) says TypeScript programs install it, and points the rest at the generated SDKs", () => {
    const pkg = json("package.json");
    expect(pkg.name).toBe("pulumi-cdc");
    expect(pkg.description).toMatch(/the package TypeScript programs install/);
    expect(pkg.description).toContain(json("generated/sdks/nodejs/package.json").name);
  });

  it("pulumi-cdc-sdk (generated/sdks/nodejs) says it is the plugin's generated Node.js SDK, and that TypeScript programs normally want pulumi-cdc, in its package.json and its README's first line", () => {
    const pkg = json("generated/sdks/nodejs/package.json");
    expect(pkg.description).toMatch(/^The generated Node\.js SDK of the pulumi-cdc provider plugin/);
    expect(pkg.description).toContain("`pulumi import`");
    expect(pkg.description).toContain(`TypeScript programs normally want \`${json("package.json").name}\``);
    expect(firstLine("generated/sdks/nodejs/README.md")).toBe(pkg.description);
  });

  it("generated/README.md says the SDKs under generated/sdks are generated, one per language", () => {
    const text = readFileSync(join(root, "generated", "README.md"), "utf8");
    expect(text).toContain("`npm run generate`");
    for (const dir of ["go/cdc", "python", "dotnet", "nodejs"]) expect(text).toContain(`\`sdks/${dir}\``);
  });
});
