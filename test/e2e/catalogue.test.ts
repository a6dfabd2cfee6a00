import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../catalogue/index.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { destinationConnectorSchema, sourceConnectorSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

// The "done when", under the real engine: a source or destination built from each
// connector's generated helper with its required keys is created, and previews empty afterwards.
describe("every catalogued connector under the real Pulumi engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    stack = await TestStack.create(join(__dirname, "fixtures", "catalogue"), { stackName: "catalogue" });
    await stack.useApi(emulator);
  });
  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  it("creates each from its helper, previews empty, and puts tags changed by hand back", async () => {
    await stack.up();
    const outputs = await stack.outputs();
    const ids = outputs["resourceIds"] as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(Object.keys(CATALOGUE.source).length + Object.keys(CATALOGUE.destination).length);
    expect(await web.listAll("/sources", {}, sourceConnectorSchema)).toHaveLength(Object.keys(CATALOGUE.source).length);
    expect(await web.listAll("/destinations", {}, destinationConnectorSchema)).toHaveLength(Object.keys(CATALOGUE.destination).length);
    await stack.preview(["--expect-no-changes"]);

    // Someone takes the tag off the PostgreSQL source in the console: preview says so, up puts it back.
    const id = ids["source-postgresql"]!;
    const live = await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    expect(live!["tags"]).toEqual([outputs["tagId"]]);
    const config = { ...live!.config, "database.password": "********" };
    await web.put("/sources/{id}", { params: { id }, body: { name: live!.name, connector: "postgresql", config, tags: [] } });
    const drifted = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(drifted.code).not.toBe(0);
    expect(drifted.output).toMatch(/tags were changed to \[\]/);
    await stack.up();
    expect((await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!["tags"]).toEqual([outputs["tagId"]]);
    await stack.preview(["--expect-no-changes"]);
  });
});
