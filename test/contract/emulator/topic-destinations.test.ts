import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findConnector } from "../../../catalogue/index.js";
import { requiredConfig } from "../../support/catalogue-samples.js";
import { startEmulator } from "../../../emulator/index.js";
import { openSession, type Session } from "./helpers.js";

// Topic-to-destination bindings of API sources, over real HTTP: the rules the vendor's tests pin.
let s: Session;
let hubspot: { id: string };
let postgres: { id: string };
let warehouse: { id: string };
let lake: { id: string };

async function create(kind: "sources" | "destinations", name: string, connector: string, config: Record<string, unknown>) {
  const reply = await s.api("POST", `/${kind}`, { body: { name, connector, config, created_from: "terraform" } });
  expect(reply.status, reply.text).toBeLessThan(300);
  const body = reply.body as { id?: string; result?: Array<{ id: string }> };
  return { id: body.id ?? body.result![0]!.id };
}

const path = (topic: string, destination: string) => `/topics/${encodeURIComponent(topic)}/destinations/${encodeURIComponent(destination)}`;

beforeAll(async () => {
  s = await openSession();
  hubspot = await create("sources", "crm", "hubspot", { resources: ["contacts", "companies"], token: "pat-1" });
  postgres = await create("sources", "orders", "postgresql", requiredConfig(findConnector("source", "postgresql")!));
  const snowflake = requiredConfig(findConnector("destination", "snowflake")!);
  warehouse = await create("destinations", "warehouse", "snowflake", snowflake);
  lake = await create("destinations", "lake", "snowflake", snowflake);
});
afterAll(async () => {
  await s?.emulator.stop();
});

describe("PUT, GET and DELETE /topics/{topic_id}/destinations/{destination_id}", () => {
  it("attaches an API source's topic while the source is still Pending, idempotently", async () => {
    const source = await s.api("GET", `/sources/${hubspot.id}`);
    expect(JSON.stringify(source.body)).toContain("Pending");
    const topic = `source_${hubspot.id}.hubspot.contacts`;
    const first = await s.api("PUT", path(topic, warehouse.id));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ source_id: hubspot.id, destination_id: warehouse.id, topic_ids: [topic] });
    const again = await s.api("PUT", path(topic, warehouse.id));
    expect(again.body).toEqual(first.body);
    expect((await s.api("GET", path(topic, warehouse.id))).body).toEqual(first.body);
  });

  it("keeps one binding per (source, destination), and detaching one topic leaves the others", async () => {
    const contacts = `source_${hubspot.id}.hubspot.contacts`;
    const companies = `source_${hubspot.id}.hubspot.companies`;
    const a = await s.api("PUT", path(contacts, lake.id));
    const b = await s.api("PUT", path(companies, lake.id));
    expect(b.body.binding_id).toBe(a.body.binding_id);
    expect(b.body.topic_ids).toEqual([contacts, companies]);
    // Another destination is another binding.
    expect((await s.api("GET", path(contacts, warehouse.id))).body.binding_id).not.toBe(a.body.binding_id);

    const detached = await s.api("DELETE", path(contacts, lake.id));
    expect(detached.status, detached.text).toBe(200);
    expect(detached.body).toEqual({ detached: true });
    expect((await s.api("GET", path(contacts, lake.id))).status).toBe(404);
    expect((await s.api("GET", path(companies, lake.id))).body.topic_ids).toEqual([companies]);
    // Detaching it again is a 404 (the provider counts that as done).
    expect((await s.api("DELETE", path(contacts, lake.id))).status).toBe(404);
  });

  it("applies a change as a read-modify-write of the binding: two changes at once lose one, arranged by count", async () => {
    const rivals = await create("destinations", "rivals", "snowflake", requiredConfig(findConnector("destination", "snowflake")!));
    const contacts = `source_${hubspot.id}.hubspot.contacts`;
    const companies = `source_${hubspot.id}.hubspot.companies`;
    const sent = async () => {
      const replies = await Promise.all([contacts, companies].map((t) => s.api("GET", path(t, rivals.id))));
      return [contacts, companies].filter((_, i) => replies[i]!.status === 200);
    };

    // Both PUTs read the binding (none yet) before either writes: the later write keeps only its
    // own topic. Which came first is the network's choice; that one of the two is lost is not.
    const attaching = s.emulator.gatherBindingWrites(2);
    const puts = await Promise.all([s.api("PUT", path(contacts, rivals.id)), s.api("PUT", path(companies, rivals.id))]);
    await attaching.reached;
    expect(puts.map((r) => r.status)).toEqual([200, 200]);
    expect(puts[1]!.body.binding_id).toBe(puts[0]!.body.binding_id);
    const [survivor] = await sent();
    expect(await sent()).toHaveLength(1);

    // One after the other, nothing is lost.
    const lost = survivor === contacts ? companies : contacts;
    expect((await s.api("PUT", path(lost, rivals.id))).body.topic_ids.sort()).toEqual([companies, contacts].sort());
    expect(await sent()).toHaveLength(2);

    // Two detaches at once: each writes the list it read less its own topic, so one topic stays.
    const detaching = s.emulator.gatherBindingWrites(2);
    const deletes = await Promise.all([s.api("DELETE", path(contacts, rivals.id)), s.api("DELETE", path(companies, rivals.id))]);
    await detaching.reached;
    expect(deletes.map((r) => r.status)).toEqual([200, 200]);
    expect(await sent()).toHaveLength(1);
  });

  it("takes bindingChangeMs, the modelled time of a change, as a non-negative integer, and a gathering of at least 2", async () => {
    await expect(startEmulator({ port: 0, bindingChangeMs: -1 })).rejects.toThrow("bindingChangeMs must be a non-negative integer, got -1");
    expect(() => s.emulator.gatherBindingWrites(1)).toThrow(/at least 2/);
  });

  it("refuses a non-API source with 400, and an unknown topic, source or destination with 404", async () => {
    const cdc = await s.api("PUT", path(`source_${postgres.id}.public.orders`, warehouse.id));
    expect(cdc.status).toBe(400);
    expect(cdc.body.detail).toBe("Send-to-destination is available for API sources only");
    expect((await s.api("PUT", path(`source_${hubspot.id}.hubspot.deals`, warehouse.id))).status).toBe(404);
    expect((await s.api("PUT", path("source_nope.hubspot.contacts", warehouse.id))).status).toBe(404);
    expect((await s.api("PUT", path(`source_${hubspot.id}.hubspot.contacts`, "no-such-destination"))).status).toBe(404);
    const gone = await s.api("GET", path(`source_${hubspot.id}.hubspot.companies`, warehouse.id));
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/is not sent to destination/);
  });
});
