import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, getRequestCounts, resetClients } from "../../../provider/client/index.js";
import { ConnectorProvider, DESTINATION, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { TagProvider, type TagInputs } from "../../../provider/resources/tag.js";
import { destinationConnectorSchema } from "../../../provider/client/index.js";
import { provider } from "../../../provider/index.js";
import { CLIENT_ID, CLIENT_SECRET, FakeApi, sendJson } from "../client/fake-api.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { snowflakeConfig } from "../../support/fixtures.js";
import { tagItems } from "../../support/web.js";

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
        const { inputs } = await tags.check({}, { logicalName: `t${i}`, type: ["sources"] });
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
    h = await startHarness({}, FAST_RETRIES);
  });
  afterAll(async () => h?.close());

  it("finds the object by its unique name and carries on as if the answer had arrived", async () => {
    const { inputs } = await destinations.check({}, { logicalName: "lost", connector: "snowflake", config: snowflakeConfig });
    // Every write's answer is lost; the lookups (GET) are answered.
    h.emulator.setFaults({ lostResponseRate: 1, routes: ["/destinations"] });
    const created = await destinations.create(inputs as ConnectorInputs).finally(() => h.emulator.setFaults({ lostResponseRate: 0, routes: ["/"] }));
    expect(h.emulator.stats().faults.lost).toBe(1);
    const live = await h.console.listAll("/destinations", {}, destinationConnectorSchema);
    // One object, and it is the create's result: no duplicate, no orphan, its original config the baseline.
    expect(live.map((d) => d.id)).toEqual([created.id]);
    expect(created.outs.name).toBe((inputs as ConnectorInputs).name);
    expect(created.outs.drift).toMatchObject({ baselineOriginal: true });
    await destinations.delete(created.id);
  });

  it("sends the create again when nothing was created (a 503 or a dropped connection)", async () => {
    const { inputs } = await destinations.check({}, { logicalName: "retried", connector: "snowflake", config: snowflakeConfig });
    h.emulator.resetStats();
    // The POST is answered 503 (nothing created), and so is the first lookup.
    h.emulator.setFaults({ failNext: 2, routes: ["/destinations"] });
    const created = await destinations.create(inputs as ConnectorInputs).finally(() => h.emulator.setFaults({ failNext: 0, routes: ["/"] }));
    expect(h.emulator.stats().faults.failed).toBe(2);
    const live = await h.console.listAll("/destinations", {}, destinationConnectorSchema);
    expect(live.map((d) => d.id)).toEqual([created.id]);
    await destinations.delete(created.id);
  });

  it("does not take over an object of that name made by someone else", async () => {
    const { inputs } = await destinations.check({}, { logicalName: "taken", name: "taken-by-hand", connector: "snowflake", config: snowflakeConfig });
    await h.console.post("/destinations", { body: { name: "taken-by-hand", connector: "snowflake", config: snowflakeConfig, created_from: "web" } });
    const error = await destinations.create(inputs as ConnectorInputs).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/409.*choose another name, or take it over with adoptId/);
  });

  it("of a tag is recovered the same way", async () => {
    const { inputs } = await tags.check({}, { logicalName: "lost-tag", type: ["topics"] });
    h.emulator.resetStats();
    h.emulator.setFaults({ lostResponseRate: 1, routes: ["/tags"] });
    const created = await tags.create(inputs as TagInputs).finally(() => h.emulator.setFaults({ lostResponseRate: 0, routes: ["/"] }));
    expect(h.emulator.stats().faults.lost).toBe(1);
    const items = tagItems(await h.console.get("/tags", { query: { tag_name: (inputs as TagInputs).name } })) as Array<{ id: string }>;
    expect(items.map((t) => t.id)).toEqual([created.id]);
    await tags.delete(created.id);
  });
});

describe("the retry budget of a resource", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness({}, { ...FAST_RETRIES, "cdc:resourceTimeoutSec": "1", "cdc:retryAttempts": "50", "cdc:retryBaseDelayMs": "200" });
  });
  afterAll(async () => h?.close());

  it("ends a create that cannot succeed with an error saying what was retried, and leaves nothing behind", async () => {
    const { inputs } = await tags.check({}, { logicalName: "budget", type: ["topics"] });
    h.emulator.setFaults({ failRate: 1, routes: ["/tags"] });
    const started = Date.now();
    const error = await provider("Tag").create(inputs as TagInputs).catch((e: unknown) => e);
    h.emulator.setFaults({ failRate: 0, routes: ["/"] });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect((error as Error).message).toMatch(/tag ".*": create failed \d+ times?/);
    expect((error as Error).message).toMatch(/retry budget \(cdc:resourceTimeoutSec, 1 s\) is spent/);
    expect((error as Error).message).toMatch(/503/);
    expect(tagItems(await h.console.get("/tags", { query: { tag_name: (inputs as TagInputs).name } }))).toEqual([]);
  });
});

describe("short-lived tokens", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness({ tokenTtlSeconds: 1 });
  });
  afterAll(async () => h?.close());

  it("are refreshed (or renewed after a 401) without failing an operation", async () => {
    const { inputs } = await tags.check({}, { logicalName: "ttl", type: ["topics"] });
    const { id, outs } = await tags.create(inputs as TagInputs);
    await new Promise((r) => setTimeout(r, 1500));
    const read = await tags.read(id, outs);
    expect(read.id).toBe(id);
    await tags.delete(id);
    const stats = h.emulator.stats();
    expect(stats.tokenRequests.accessToken + stats.tokenRequests.refresh).toBeGreaterThanOrEqual(2);
  });
});

describe("a destination created but not brought to its desired state", () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await new FakeApi().start();
    configure({ "cdc:apiUrl": api.url, "cdc:clientId": CLIENT_ID, "cdc:clientSecret": CLIENT_SECRET, ...FAST_RETRIES }, {});
  });
  afterAll(async () => {
    await resetClients();
    await api?.stop();
  });

  it("stays in state with the original config as its drift baseline", async () => {
    api.route("POST", "/destinations", ({ res, seen }) =>
      sendJson(res, 200, { id: "d-half", ...(seen.body as object), connector_status: "Active", config: { "snowflake.schema.name": "RAW" } }),
    );
    api.route("PUT", "/destinations/{id}/stop", ({ res }) => sendJson(res, 409, { detail: "the destination is being deployed" }));
    const { inputs } = await destinations.check({}, { logicalName: "half", connector: "snowflake", config: snowflakeConfig, desiredState: "stopped" });
    const error = (await destinations.create(inputs as ConnectorInputs).catch((e: unknown) => e)) as { name: string; id: string; properties: ConnectorOutputs };
    expect(error).toMatchObject({ name: "PartialFailure", id: "d-half" });
    // The next preview compares the history with its original, which is this create's config.
    expect(error.properties.drift).toMatchObject({ detected: false, baselineOriginal: true });
    expect(api.requestsTo("GET", "/destinations/d-half/config-history/compare-to-original")).toEqual([]);
  });
});
