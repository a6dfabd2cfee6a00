import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { sourceConnectorSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

// A HubSpot API source in TypeScript under the real engine, as a user runs it: a first preview,
// up (which previews first), a clean preview, a console-side change seen as drift, destroy.
describe("a HubSpot API source under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  let web: ConsoleClient;
  const TOKEN = "pat-e2e-hubspot-token";

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    stack = await TestStack.create(join(__dirname, "fixtures", "api-source-ts"), { stackName: `api-source-${process.pid}` });
    await stack.useApi(emulator, {}, { hubspotToken: TOKEN });
  });
  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  it("previews, goes up with only the keys set, previews clean, shows a console edit as drift, and is destroyed", async () => {
    const first = await stack.preview();
    // The stack and the source.
    expect(first.stdout).toMatch(/\+ 2 to create/);
    expect(first.stdout).toContain("crm");

    await stack.up();
    const { id } = (await stack.outputs()) as { id: string };
    const live = await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    expect(live).toMatchObject({ connector: "hubspot", connector_status: "Pending" });
    expect(live!.config).toEqual({ resources: "contacts,deals", token: "********", sync_all_properties: "false", properties: "email,firstname" });
    expect(await stack.exportState()).not.toContain(TOKEN);

    await stack.preview(["--expect-no-changes"]);

    await web.put("/sources/{id}", { params: { id }, body: { name: live!.name, connector: "hubspot", config: { resources: ["contacts"] } }, schema: sourceConnectorSchema });
    const drifted = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(drifted.code).not.toBe(0);
    expect(drifted.output).toMatch(/changed outside Pulumi/);
    expect(drifted.output).toContain("resources");

    await stack.destroy();
    expect(await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } })).toBeUndefined();
  });
});
