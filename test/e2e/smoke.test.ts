import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT_MS, pulumiVersion, TestStack } from "../support/pulumi.js";

// The engine path every real resource depends on: the Pulumi CLI runs a TypeScript program whose
// dynamic provider loads its implementation by package name in the provider process.
describe("Pulumi engine smoke test", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let stack: TestStack;

  beforeAll(async () => {
    // With ts-node's type check, as a user's program runs (the other suites leave it to tsc).
    stack = await TestStack.create(join(__dirname, "fixtures", "smoke"), { typeCheck: true });
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it("runs up, preview, refresh and destroy with a dynamic provider", async () => {
    const version = await pulumiVersion();
    console.log(`Pulumi engine ${version}`);
    expect(version).toMatch(/^v3\.\d+\.\d+/);

    const up = await stack.up();
    console.log(up.stdout);
    expect(up.stdout).toMatch(/\+\s+pulumi-nodejs:dynamic\/cdc:Smoke\s+smoke\s+created/);
    expect(await stack.outputs()).toEqual({ label: "hello", loadedProvider: "pulumi-cdc" });

    const preview = await stack.preview(["--expect-no-changes"]);
    expect(preview.stdout).toMatch(/2 unchanged/);

    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/2 unchanged/);

    const destroy = await stack.destroy();
    console.log(destroy.stdout);
    expect(destroy.stdout).toMatch(/-\s+pulumi-nodejs:dynamic\/cdc:Smoke\s+smoke\s+deleted/);
  });
});
