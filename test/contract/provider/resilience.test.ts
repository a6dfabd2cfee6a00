import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequestCounts } from "../../../provider/client/index.js";
import { ConnectorProvider, DESTINATION, type ConnectorInputs } from "../../../provider/resources/connector.js";
import { TagProvider, type TagInputs } from "../../../provider/resources/tag.js";
import { destinationConnectorSchema } from "../../../provider/client/index.js";
import { snowflakeConfig, startHarness, type ProviderHarness } from "./harness.js";

const destinations = new ConnectorProvider(DESTINATION);
const tags = new TagProvider();

describe("one run's worth of operations", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("is served by a single token request", async () => {
    h.emulator.resetStats();
    const ids = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const { inputs } = await tags.check({}, { logicalName: `t${i}`, type: ["source"] });
        const { id, outs } = await tags.create(inputs as TagInputs);
        await tags.read(id, outs);
        return id;
      }),
    );
    await Promise.all(ids.map((id) => tags.delete(id)));
    const stats = h.emulator.stats();
    expect(stats.total).toBeGreaterThanOrEqual(36);
    expect(stats.tokenRequests).toEqual({ accessToken: 1, refresh: 0 });
    expect(getRequestCounts().tokenRequests).toEqual({ clientCredentials: 1, refresh: 0 });
  });
});

describe("a flaky API", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    // Seeded: the same requests meet the same faults on every run.
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("still completes create, read, update and delete through retries", async () => {
    const { inputs } = await destinations.check({}, { logicalName: "flaky", connector: "snowflake", config: snowflakeConfig });
    const { id, outs } = await destinations.create(inputs as ConnectorInputs);
    // Seeded: the same requests meet the same faults on every run. GET, PUT and DELETE are retried.
    h.emulator.setFaults({ failRate: 0.2, dropRate: 0.1, seed: 7, routes: ["/destinations"] });
    const read = await destinations.read(id, outs);
    expect(read.id).toBe(id);
    const news = { ...(inputs as ConnectorInputs), config: { ...snowflakeConfig, "snowflake.schema.name": "X" } };
    const updated = await destinations.update(id, outs, news);
    expect(updated.outs.config["snowflake.schema.name"]).toBe("X");
    await destinations.delete(id);
    const faults = h.emulator.stats().faults;
    expect(faults.failed + faults.dropped).toBeGreaterThan(0);
  });

});

describe("a create whose answer is lost", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("finds the object by its unique name and keeps it in state instead of orphaning it", async () => {
    const { inputs } = await destinations.check({}, { logicalName: "lost", connector: "snowflake", config: snowflakeConfig });
    h.emulator.setFaults({ lostResponseRate: 1, routes: ["/destinations"] });
    let error: unknown;
    try {
      await destinations.create({ ...(inputs as ConnectorInputs), __provider: "p" } as ConnectorInputs);
    } catch (err) {
      error = err;
    } finally {
      h.emulator.setFaults({ lostResponseRate: 0, routes: ["/"] });
    }
    expect(h.emulator.stats().faults.lost).toBe(1);
    const [created] = await h.console.listAll("/destinations", {}, destinationConnectorSchema);
    expect(error).toMatchObject({ name: "PartialFailure", id: created!.id, properties: { name: (inputs as ConnectorInputs).name, __provider: "p" } });
    expect((error as Error).message).toMatch(/kept in the stack/);
    await destinations.delete(created!.id!);
  });

  it("of a tag is recovered the same way", async () => {
    const { inputs } = await tags.check({}, { logicalName: "lost-tag", type: ["topic"] });
    h.emulator.setFaults({ lostResponseRate: 1, routes: ["/tags"] });
    const error = await tags.create(inputs as TagInputs).catch((e: unknown) => e);
    h.emulator.setFaults({ lostResponseRate: 0, routes: ["/"] });
    expect(error).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    await tags.delete((error as { id: string }).id);
  });
});

describe("short-lived tokens", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness({ tokenTtlSeconds: 1 });
  });
  afterAll(async () => h?.close());

  it("are refreshed (or renewed after a 401) without failing an operation", async () => {
    const { inputs } = await tags.check({}, { logicalName: "ttl", type: ["topic"] });
    const { id, outs } = await tags.create(inputs as TagInputs);
    await new Promise((r) => setTimeout(r, 1500));
    const read = await tags.read(id, outs);
    expect(read.id).toBe(id);
    await tags.delete(id);
    const stats = h.emulator.stats();
    expect(stats.tokenRequests.accessToken + stats.tokenRequests.refresh).toBeGreaterThanOrEqual(2);
  });
});
