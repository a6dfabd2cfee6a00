import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { sourceConnectorSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

// What a run asks the API, counted by the emulator, for a stack whose sources span two pages of
// the API's lists. Counts only: the engine calls diff one resource at a time, and a preview that
// costs one round trip per resource would still pass a test that timed it on a fast machine.

const FIXTURE = join(__dirname, "fixtures", "fleet");
const SOURCES = 103;
const DESTINATIONS = 4;

const LISTS_AND_COMPARISONS = {
  "GET /sources": Math.ceil(SOURCES / 100),
  "GET /destinations": Math.ceil(DESTINATIONS / 100),
  "GET /destinations/:destination_id/config-history/compare-to-original": DESTINATIONS,
};

describe("the live checks of a run under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  let web: ConsoleClient;

  /** Requests since the last reset, token requests aside. */
  const apiRequests = () => Object.fromEntries(Object.entries(emulator.stats().requests).filter(([route]) => !route.startsWith("POST /auth/")));

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    stack = await TestStack.create(FIXTURE, { stackName: `fleet-${process.pid}` });
    await stack.useApi(emulator, { "fleet:sources": String(SOURCES), "fleet:destinations": String(DESTINATIONS) });
    await stack.up();
  });

  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  it("a no-change preview lists each kind once per page of 100 and compares each destination once", async () => {
    emulator.resetStats();
    await stack.preview(["--expect-no-changes"]);
    expect(apiRequests()).toEqual(LISTS_AND_COMPARISONS);
    expect(emulator.stats().tokenRequests.accessToken).toBe(1);
  });

  it("so does a refresh, and the drift command", async () => {
    emulator.resetStats();
    await stack.refresh();
    expect(apiRequests()).toEqual(LISTS_AND_COMPARISONS);

    emulator.resetStats();
    const drift = await stack.drift(["--json"], { stackConfigOnly: true });
    expect(drift.code, drift.stderr).toBe(0);
    expect((JSON.parse(drift.stdout) as { resources: unknown[] }).resources).toHaveLength(SOURCES + DESTINATIONS);
    expect(apiRequests()).toEqual(LISTS_AND_COMPARISONS);
  });

  it("and still finds a source paused and one deleted outside Pulumi, with one GET to confirm the deletion", async () => {
    const listed = await web.listAll("/sources", {}, sourceConnectorSchema);
    const [paused, deleted] = [listed[10]!, listed[50]!];
    await web.put("/sources/{id}/pause", { params: { id: paused.id! } });
    await web.delete("/sources/{id}", { params: { id: deleted.id! } });
    emulator.resetStats();
    const preview = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/~ 2 to update/);
    expect(preview.output).toContain(`(${paused.id}) changed outside Pulumi`);
    expect(preview.output).toContain(`(${deleted.id}) changed outside Pulumi`);
    expect(apiRequests()).toEqual({ ...LISTS_AND_COMPARISONS, "GET /sources/:source_id": 1 });
  });
});
