import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { providerText, type ResourceKind } from "../../sdk/dynamic.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";

// Each resource's state holds its provider's text (`__provider`), which the engine's dynamic-provider
// host loads to diff, read and delete it. pulumi-cdc 0.1.0 stored a serialized closure there
// (2.3 KB); now it stores one line that loads the provider by package name. A stack deployed
// before the change must go on working after it.

const FIXTURE = join(__dirname, "fixtures", "upgrade");
const KINDS = ["Tag", "Source", "Destination", "ClientCredential"];

interface StateResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The serialized provider of each resource kind in the stack's state (inputs and outputs agree). */
async function providerTexts(stack: TestStack): Promise<Record<string, string>> {
  const checkpoint = JSON.parse(await stack.exportState()) as { deployment: { resources: StateResource[] } };
  const texts: Record<string, Set<string>> = {};
  for (const r of checkpoint.deployment.resources) {
    const kind = r.type.replace("pulumi-nodejs:dynamic/cdc:", "");
    if (!KINDS.includes(kind)) continue;
    for (const text of [r.inputs?.["__provider"], r.outputs?.["__provider"]]) {
      expect(typeof text).toBe("string");
      (texts[kind] ??= new Set()).add(text as string);
    }
  }
  expect(Object.keys(texts).sort()).toEqual([...KINDS].sort());
  return Object.fromEntries(
    Object.entries(texts).map(([kind, set]) => {
      // Every resource of a kind carries the same text.
      expect(set.size, kind).toBe(1);
      return [kind, [...set][0]!];
    }),
  );
}

describe("a stack deployed with the per-resource provider objects of earlier versions", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    stack = await TestStack.create(FIXTURE, { stackName: `upgrade-${process.pid}` });
    await stack.useApi(emulator);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.dispose();
    await emulator?.stop();
  });

  it("previews with no changes after the upgrade, deletes with its recorded provider, and then stores the one-line text", async () => {
    await stack.setConfig("upgrade:legacy", "true");
    // Five resources and the stack.
    expect((await stack.up()).stdout).toMatch(/\+ 6 created/);
    for (const [kind, text] of Object.entries(await providerTexts(stack))) {
      expect(text, kind).toContain(`with({ kind: "${kind}"`);
      expect(text.length, kind).toBeGreaterThan(2000);
    }

    await stack.run(["config", "rm", "upgrade:legacy", "--stack", stack.stackName]);
    await stack.preview(["--expect-no-changes"]);
    const upgraded = await stack.up();
    expect(upgraded.stdout).toMatch(/6 unchanged/);
    expect(upgraded.stdout).not.toMatch(/updated|replaced|created|deleted/);
    await stack.refresh();
    await stack.preview(["--expect-no-changes"]);

    // The engine deletes each resource with the provider text its state recorded.
    const destroyed = await stack.destroy();
    expect(destroyed.stdout).toMatch(/- 6 deleted/);
    expect(emulator.stats().requests["DELETE /sources/:source_id"]).toBe(2);

    // Deployed now: each resource carries its kind's one line, and a second preview is empty.
    await stack.up();
    const texts = await providerTexts(stack);
    expect(texts).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, providerText(kind as ResourceKind)])));
    expect(texts["Source"]).toBe('exports.handler = () => require("pulumi-cdc/provider").dynamicProvider("Source");\n');
    await stack.preview(["--expect-no-changes"]);
  });
});
