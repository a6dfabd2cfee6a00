import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, destinationEnvelopeSchema, getClient, resetClients } from "../../../provider/client/index.js";
import { LiveCache } from "../../../provider/live-cache.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { startHarness, type ProviderHarness } from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";
import { ConsoleClient } from "../../support/web.js";

// The live checks of a run read the API in bulk: one listing per kind (pages of 100) shared by
// every diff and read, and one config comparison per destination. These tests count the
// emulator's requests; they never time anything.

const sources = new ConnectorProvider(SOURCE);
const destinations = new ConnectorProvider(DESTINATION);

const LIST_SOURCES = "GET /sources";
const LIST_DESTINATIONS = "GET /destinations";
const GET_SOURCE = "GET /sources/:source_id";
const GET_DESTINATION = "GET /destinations/:destination_id";
const COMPARE = "GET /destinations/:destination_id/config-history/compare-to-original";

interface Deployed {
  provider: ConnectorProvider;
  id: string;
  outs: ConnectorOutputs;
  inputs: ConnectorInputs;
}

async function deploy(p: ConnectorProvider, news: Record<string, unknown>): Promise<Deployed> {
  const { inputs, failures } = await p.check({}, news);
  expect(failures).toEqual([]);
  const { id, outs } = await p.create(inputs as ConnectorInputs);
  return { provider: p, id, outs, inputs: inputs as ConnectorInputs };
}

/** A new provider process, as the next `pulumi` command gets: new client, new cache. */
async function nextRun(h: ProviderHarness) {
  await resetClients();
  configure({ "cdc:apiUrl": h.emulator.url, "cdc:clientId": h.emulator.clientId, "cdc:clientSecret": h.emulator.clientSecret }, {});
  getClient();
  h.emulator.resetStats();
}

function requests(h: ProviderHarness): Record<string, number> {
  const { requests: all } = h.emulator.stats();
  return Object.fromEntries(Object.entries(all).filter(([route]) => !route.startsWith("POST /auth/")));
}

/** Waits (bounded) until the emulator has seen `n` requests on `route`, or gives up. */
async function settle(h: ProviderHarness, route: string, n: number) {
  for (let i = 0; i < 200 && (h.emulator.stats().requests[route] ?? 0) < n; i++) await delay(10);
}

describe("a run's live checks against the emulator", () => {
  let h: ProviderHarness;
  let fleet: Deployed[];
  const SOURCES = 120;
  const DESTINATIONS = 3;

  beforeAll(async () => {
    h = await startHarness();
    fleet = [];
    for (let i = 0; i < SOURCES; i++) {
      fleet.push(await deploy(sources, { logicalName: `src-${i}`, connector: "postgresql", config: { ...pgSourceConfig, "table.include.list.user.defined": `public.t${i}` } }));
    }
    for (let i = 0; i < DESTINATIONS; i++) {
      fleet.push(await deploy(destinations, { logicalName: `dst-${i}`, connector: "snowflake", config: snowflakeConfig }));
    }
  });
  afterAll(async () => h?.close());

  it("diff one resource at a time, as the engine does: one listing per page of each kind, one comparison per destination", async () => {
    await nextRun(h);
    for (const r of fleet) expect(await r.provider.diff(r.id, r.outs, r.inputs)).toMatchObject({ changes: false });
    expect(requests(h)).toEqual({ [LIST_SOURCES]: Math.ceil(SOURCES / 100), [LIST_DESTINATIONS]: 1, [COMPARE]: DESTINATIONS });
    expect(h.emulator.stats().tokenRequests.accessToken).toBe(1);
  });

  it("refresh reads, all at once, share them the same way", async () => {
    await nextRun(h);
    const reads = await Promise.all(fleet.map((r) => r.provider.read(r.id, r.outs)));
    expect(reads.map((r) => r.id)).toEqual(fleet.map((r) => r.id));
    expect(requests(h)).toEqual({ [LIST_SOURCES]: Math.ceil(SOURCES / 100), [LIST_DESTINATIONS]: 1, [COMPARE]: DESTINATIONS });
  });

  it("still finds every drift: config, status, rename and deletion", async () => {
    const [renamed, paused, edited, gone] = fleet.slice(0, 4) as [Deployed, Deployed, Deployed, Deployed];
    const destination = fleet[SOURCES]!;
    await h.console.put("/sources/{id}", {
      params: { id: renamed.id },
      body: { name: "renamed-by-hand", connector: "postgresql", config: { ...renamed.outs.config, "database.password": "********" } },
    });
    await h.console.put("/sources/{id}/pause", { params: { id: paused.id } });
    await h.console.put("/sources/{id}", {
      params: { id: edited.id },
      body: { name: edited.outs.name, connector: "postgresql", config: { ...edited.outs.config, "database.password": "********", "database.hostname.user.defined": "replica" } },
    });
    await h.console.delete("/sources/{id}", { params: { id: gone.id } });
    const [live] = (await h.console.get("/destinations/{id}", { params: { id: destination.id }, schema: destinationEnvelopeSchema })).result;
    await h.console.put("/destinations/{id}", {
      params: { id: destination.id },
      body: { name: live!.name, connector: "snowflake", config: { ...live!.config, "snowflake.schema.name": "HOTFIX" } },
    });

    await nextRun(h);
    const changed: string[] = [];
    for (const r of fleet) if ((await r.provider.diff(r.id, r.outs, r.inputs)).changes) changed.push(r.id);
    expect(changed).toEqual([renamed.id, paused.id, edited.id, gone.id, destination.id]);
    // The deleted source is missing from the listing: one GET confirms it is gone.
    expect(requests(h)).toEqual({ [LIST_SOURCES]: 2, [LIST_DESTINATIONS]: 1, [COMPARE]: DESTINATIONS, [GET_SOURCE]: 1 });

    // Put back, for the tests after this one.
    for (const r of [renamed, paused, edited, destination]) r.outs = (await r.provider.update(r.id, r.outs, r.inputs)).outs;
    fleet.splice(fleet.indexOf(gone), 1);
  });

  it("never answers from data read before its own write of that object", async () => {
    await nextRun(h);
    const [source] = fleet as [Deployed];
    const destination = fleet.find((r) => r.provider === destinations)!;
    expect(await source.provider.diff(source.id, source.outs, source.inputs)).toMatchObject({ changes: false });
    expect(await destination.provider.diff(destination.id, destination.outs, destination.inputs)).toMatchObject({ changes: false });

    // Our updates after the listing: the next checks must see them, not the listing.
    const sourceNews = { ...source.inputs, config: { ...source.inputs.config, "database.hostname.user.defined": "moved.internal" } };
    const sourceOuts = (await sources.update(source.id, source.outs, sourceNews)).outs;
    const destinationNews = { ...destination.inputs, config: { ...destination.inputs.config, "snowflake.schema.name": "STAGING" } };
    const destinationOuts = (await destinations.update(destination.id, destination.outs, destinationNews)).outs;
    const before = requests(h);
    expect(await sources.diff(source.id, sourceOuts, sourceNews)).toMatchObject({ changes: false });
    expect((await sources.read(source.id, sourceOuts)).props).toMatchObject({ config: { "database.hostname.user.defined": "moved.internal" }, drift: { detected: false } });
    expect(await destinations.diff(destination.id, destinationOuts, destinationNews)).toMatchObject({ changes: false });
    const after = requests(h);
    expect(after[GET_SOURCE]! - (before[GET_SOURCE] ?? 0)).toBe(2);
    expect(after[GET_DESTINATION]! - (before[GET_DESTINATION] ?? 0)).toBe(1);
    expect(after[COMPARE]! - before[COMPARE]!).toBe(1);
    expect(after[LIST_SOURCES]).toBe(before[LIST_SOURCES]);

    // A create after the listing is not taken for a deletion.
    const fresh = await deploy(sources, { logicalName: "late", connector: "postgresql", config: pgSourceConfig });
    expect(await sources.diff(fresh.id, fresh.outs, fresh.inputs)).toMatchObject({ changes: false });
    await sources.delete(fresh.id);
    expect((await sources.read(fresh.id, fresh.outs)).id).toBe("");

    source.outs = sourceOuts;
    source.inputs = sourceNews;
    destination.outs = destinationOuts;
    destination.inputs = destinationNews;
  });

  it("asks the API again when the same pass asks twice about one object (a person may have edited it in between)", async () => {
    await nextRun(h);
    const [source] = fleet as [Deployed];
    expect(await sources.diff(source.id, source.outs, source.inputs)).toMatchObject({ changes: false });
    await h.console.put("/sources/{id}/pause", { params: { id: source.id } });
    expect(await sources.diff(source.id, source.outs, source.inputs)).toMatchObject({ changes: true });
    expect(requests(h)).toMatchObject({ [LIST_SOURCES]: 2, [GET_SOURCE]: 1 });
    await h.console.put("/sources/{id}/resume", { params: { id: source.id } });
  });
});

describe("prefetching destination comparisons", () => {
  let h: ProviderHarness;
  let api: ConsoleClient;
  const ours: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    api = new ConsoleClient({ settings: { apiUrl: h.emulator.url, clientId: h.emulator.clientId, clientSecret: h.emulator.clientSecret, createdFrom: "terraform" } });
    // Another stack's destinations, made earlier with the same IaC value: listed before ours.
    for (let i = 0; i < 4; i++) {
      await h.console.post("/destinations", { body: { name: `other-stack-${i}`, connector: "snowflake", config: snowflakeConfig, created_from: "terraform" } });
    }
    for (let i = 0; i < 6; i++) ours.push((await deploy(destinations, { logicalName: `ours-${i}`, connector: "snowflake", config: snowflakeConfig })).id);
    // Someone else's destinations in the same tenant, made in the web console.
    for (let i = 0; i < 3; i++) {
      await h.console.post("/destinations", { body: { name: `theirs-${i}`, connector: "snowflake", config: snowflakeConfig, created_from: "web" } });
    }
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  /** A fresh cache reading two ahead, with nothing fetched yet. */
  function readingTwoAhead() {
    h.emulator.resetStats();
    return new LiveCache(api, { prefetchComparisons: true, prefetchWorkers: 2, prefetchAhead: 2 }).reader("diff");
  }

  /** What the engine asks for each destination: the object and its comparison, together. */
  async function check(reader: ReturnType<typeof readingTwoAhead>, id: string) {
    const [live, comparison] = await Promise.all([reader.connector("destination", id), reader.comparison(id)]);
    expect(live).toMatchObject({ id });
    expect(comparison).toMatchObject({ has_changes: false });
  }

  it("fetches the comparisons of the destination asked about and of the next `prefetchAhead` this client made, before they are asked for", async () => {
    const reader = readingTwoAhead();
    await check(reader, ours[0]!);
    await settle(h, COMPARE, 3);
    await delay(100);
    // ours[0] and the two after it; none of the other stack's (listed before) or the console's.
    expect(requests(h)[COMPARE]).toBe(3);

    for (const id of ours.slice(1)) await check(reader, id);
    await delay(100);
    // Every comparison once, and one listing.
    expect(requests(h)[COMPARE]).toBe(ours.length);
    expect(requests(h)[LIST_DESTINATIONS]).toBe(1);
  });

  it("a reader out of the listing's order gets a round trip for the one out of place, and reads ahead from it too", async () => {
    const reader = readingTwoAhead();
    // The fourth one listed, asked about first: fetched then, with the two after it.
    await check(reader, ours[3]!);
    await settle(h, COMPARE, 3);
    for (const id of ours.filter((id) => id !== ours[3])) await check(reader, id);
    await delay(100);
    // Still every comparison once; none of the other tenants'.
    expect(requests(h)[COMPARE]).toBe(ours.length);
  });

  it("fetches every one this client could have made, in whatever order asked, when they all fit in the read-ahead", async () => {
    h.emulator.resetStats();
    // 4 of the other stack's and 6 of ours: 10, within the one asked about and 9 more.
    const reader = new LiveCache(api, { prefetchComparisons: true, prefetchWorkers: 2, prefetchAhead: 9 }).reader("diff");
    await check(reader, ours[3]!);
    // All ten, those listed before ours[3] included, before anything else is asked.
    await settle(h, COMPARE, 10);
    await delay(100);
    expect(requests(h)[COMPARE]).toBe(10);
    for (const id of ours.filter((id) => id !== ours[3])) await check(reader, id);
    await delay(100);
    // Nothing more: every destination of the stack was answered from what was read ahead.
    expect(requests(h)[COMPARE]).toBe(10);
  });

  it("fetches only what the stack asks about and `prefetchAhead` past it: another stack's destinations listed after cost at most that many", async () => {
    const reader = readingTwoAhead();
    const later: string[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await h.console.post("/destinations", { body: { name: `later-stack-${i}`, connector: "snowflake", config: snowflakeConfig, created_from: "terraform" } });
      later.push((made as { id: string }).id);
    }
    h.emulator.resetStats();
    for (const id of ours) await check(reader, id);
    await delay(100);
    expect(requests(h)[COMPARE]).toBe(ours.length + 2);
    for (const id of later) await h.console.delete("/destinations/{id}", { params: { id } });
  });
});
