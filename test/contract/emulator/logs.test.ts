import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect422, expectDetail, openSession, uniqueName, type Session } from "./helpers.js";
import { emulatorPgSourceConfig } from "../../support/fixtures.js";

let s: Session;
let sourceId: string;

beforeAll(async () => {
  s = await openSession();
  const src = await s.api("POST", "/sources", { body: { name: uniqueName("logsrc"), connector: "postgresql", config: emulatorPgSourceConfig() } });
  sourceId = src.body.id;
});
afterAll(async () => {
  await s?.emulator.stop();
});

const entry = (overrides: Record<string, unknown> = {}) => ({
  connector_name: "orders-pg",
  namespace_name: "prod",
  timestamp: "2026-01-02T03:04:05.123456Z",
  entity_id: sourceId,
  log_section: "connector-error",
  entity_type: "source",
  ...overrides,
});

const IDENTIFYING = ["connector_name", "namespace_name", "timestamp", "entity_id", "log_section", "entity_type"];

describe("POST /logs/summary", () => {
  it("summarises an entry identified by its fields and stores it under a log_uuid", async () => {
    const reply = await s.api("POST", "/logs/summary", { body: entry() });
    expect(reply.status, reply.text).toBe(200);
    const summary = reply.body;
    expect(summary).toMatchObject({ ...entry(), severity: "error" });
    expect(summary.log_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(summary.summary_id).toMatch(/^[0-9a-f]{24}$/);
    expect(typeof summary.summary).toBe("string");
    expect(summary.key_points).toContain("The source currently reports status Active");
    expect(summary.suggested_actions.length).toBeGreaterThan(0);

    const again = await s.api("POST", "/logs/summary", { body: entry() });
    expect(again.body).toEqual(summary);
    const byUuid = await s.api("POST", "/logs/summary", { body: { log_uuid: summary.log_uuid } });
    expect(byUuid.status).toBe(200);
    expect(byUuid.body).toEqual(summary);
    const byUpperUuid = await s.api("POST", "/logs/summary", { body: { log_uuid: summary.log_uuid.toUpperCase() } });
    expect(byUpperUuid.body.summary_id).toBe(summary.summary_id);
  });

  it("grades severity from the section and still summarises entries of deleted entities", async () => {
    const warn = await s.api("POST", "/logs/summary", { body: entry({ log_section: "consumer-lag-warning", entity_type: "destination", entity_id: "gone" }) });
    expect(warn.status).toBe(200);
    expect(warn.body.severity).toBe("warning");
    expect(warn.body.key_points).toContain("The destination no longer exists");
    const info = await s.api("POST", "/logs/summary", { body: entry({ log_section: "snapshot-progress" }) });
    expect(info.body.severity).toBe("info");
    expect(info.body.suggested_actions).toEqual([]);
  });

  it("requires the identifying fields only when log_uuid is absent", async () => {
    const details = expect422(await s.api("POST", "/logs/summary", { body: {} }));
    expect(details.map((d) => d.loc)).toEqual(IDENTIFYING.map((f) => ["body", f]));
    for (const d of details) expect(d).toMatchObject({ type: "missing", msg: "Field required", input: {} });

    const partial = expect422(await s.api("POST", "/logs/summary", { body: { connector_name: "c", entity_type: "source", log_uuid: null } }));
    expect(partial.map((d) => d.loc[1]).sort()).toEqual(["entity_id", "log_section", "namespace_name", "timestamp"]);

    expectDetail(await s.api("POST", "/logs/summary", { body: { log_uuid: "0b7c4f7e-9a65-4b8e-9d0e-2f1b8a7c6d5e" } }), 404, /Log entry/);
  });

  it("reports field errors together with the conditional ones", async () => {
    const details = expect422(await s.api("POST", "/logs/summary", { body: { entity_type: "pipeline", timestamp: "2026-01-02T03:04:05Z" } }));
    expect(details).toContainEqual(
      expect.objectContaining({ loc: ["body", "entity_type"], type: "enum", input: "pipeline", ctx: { expected: "'source' or 'destination'" } }),
    );
    expect(details).toContainEqual(expect.objectContaining({ loc: ["body", "timestamp"], type: "string_pattern_mismatch" }));
    expect(details).toContainEqual(expect.objectContaining({ loc: ["body", "connector_name"], type: "missing" }));
  });

  it("accepts only UTC ISO 8601 timestamps with exactly six fractional digits and Z", async () => {
    for (const bad of [
      "2026-01-02T03:04:05Z",
      "2026-01-02T03:04:05.123Z",
      "2026-01-02T03:04:05.1234567Z",
      "2026-01-02T03:04:05.123456+00:00",
      "2026-01-02 03:04:05.123456Z",
      "2026-01-02T03:04:05.123456z",
    ]) {
      expect422(await s.api("POST", "/logs/summary", { body: entry({ timestamp: bad }) }), {
        loc: ["body", "timestamp"],
        type: "string_pattern_mismatch",
        input: bad,
      });
    }
    expect422(await s.api("POST", "/logs/summary", { body: entry({ timestamp: "2026-13-02T03:04:05.123456Z" }) }), {
      loc: ["body", "timestamp"],
      type: "value_error",
    });
    expect422(await s.api("POST", "/logs/summary", { body: entry({ timestamp: "2026-02-30T03:04:05.123456Z" }) }), {
      loc: ["body", "timestamp"],
      type: "value_error",
    });
    expect422(await s.api("POST", "/logs/summary", { body: entry({ timestamp: 1767323045 }) }), { loc: ["body", "timestamp"], type: "string_type" });
  });

  it("validates log_uuid, types and JSON", async () => {
    expect422(await s.api("POST", "/logs/summary", { body: { log_uuid: "not-a-uuid" } }), { loc: ["body", "log_uuid"], type: "uuid_parsing" });
    expect422(await s.api("POST", "/logs/summary", { body: entry({ connector_name: 12 }) }), { loc: ["body", "connector_name"], type: "string_type" });
    expect422(await s.api("POST", "/logs/summary", { body: entry({ log_section: "" }) }), { loc: ["body", "log_section"], type: "string_too_short" });
    expect422(await s.api("POST", "/logs/summary", { rawBody: '{"log_uuid": }', headers: { "content-type": "application/json" } }), { type: "json_invalid" });
    expect422(await s.api("POST", "/logs/summary", {}), { loc: ["body"], type: "missing" });
    expect422(await s.api("POST", "/logs/summary", { body: "summary please" }), { loc: ["body"], type: "model_attributes_type" });
  });
});
