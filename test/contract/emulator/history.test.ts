import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect422, expectDetail, manualClock, openSession, uniqueName, type Session } from "./helpers.js";
import { emulatorSnowflakeConfig } from "../../support/fixtures.js";

// The clock stands still unless a test moves it, so same-millisecond writes are the normal case here.
const clock = manualClock();
let s: Session;

beforeAll(async () => {
  s = await openSession({ clock: clock.now });
});
afterAll(async () => {
  await s?.emulator.stop();
});

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function create(config = emulatorSnowflakeConfig()) {
  const reply = await s.api("POST", "/destinations", { body: { name: uniqueName("hist"), connector: "snowflake", config } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { id: string; name: string };
}

async function put(dst: { id: string; name: string }, config: Record<string, unknown>, name = dst.name) {
  const reply = await s.api("PUT", `/destinations/${dst.id}`, { body: { name, connector: "snowflake", config } });
  expect(reply.status, reply.text).toBe(200);
}

const compare = async (id: string) => {
  const reply = await s.api("GET", `/destinations/${id}/config-history/compare-to-original`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { has_changes: boolean; oldest_timestamp: string; latest_timestamp: string; masked_diff: string };
};

describe("GET /destinations/{id}/config-history/compare-to-original", () => {
  it("reports no changes right after create", async () => {
    const dst = await create();
    const cmp = await compare(dst.id);
    expect(Object.keys(cmp).sort()).toEqual(["has_changes", "latest_timestamp", "masked_diff", "oldest_timestamp"]);
    expect(cmp.has_changes).toBe(false);
    expect(cmp.oldest_timestamp).toMatch(ISO_MS);
    expect(cmp.latest_timestamp).toBe(cmp.oldest_timestamp);
    expect(cmp.masked_diff).toBe("");
  });

  it("shows a unified diff of original against current after a change", async () => {
    const dst = await create();
    await put(dst, { ...emulatorSnowflakeConfig(), "snowflake.private.key": "********", "snowflake.role.name": "LOADER_ROLE" });
    const cmp = await compare(dst.id);
    expect(cmp.has_changes).toBe(true);
    expect(cmp.latest_timestamp > cmp.oldest_timestamp).toBe(true);
    expect(cmp.masked_diff.startsWith(`--- original\t${cmp.oldest_timestamp}\n+++ current\t${cmp.latest_timestamp}\n`)).toBe(true);
    expect(cmp.masked_diff).toMatch(/^@@ /m);
    expect(cmp.masked_diff).toMatch(/^-snowflake\.role\.name: STREAMKAP_ROLE$/m);
    expect(cmp.masked_diff).toMatch(/^\+snowflake\.role\.name: LOADER_ROLE$/m);
    expect(cmp.masked_diff).toMatch(/^ snowflake\.private\.key: \*{8}$/m);
  });

  it("marks a changed secret without ever showing either value", async () => {
    const dst = await create();
    await put(dst, { ...emulatorSnowflakeConfig(), "snowflake.private.key": "NEW-PRIVATE-KEY-VALUE" });
    const cmp = await compare(dst.id);
    expect(cmp.has_changes).toBe(true);
    expect(cmp.masked_diff).toMatch(/^-snowflake\.private\.key: \*{8}$/m);
    expect(cmp.masked_diff).toMatch(/^\+snowflake\.private\.key: \*{8} \(changed\)$/m);
    expect(cmp.masked_diff).not.toContain("NEW-PRIVATE-KEY-VALUE");
    expect(cmp.masked_diff).not.toContain(emulatorSnowflakeConfig()["snowflake.private.key"]);
  });

  it("records an entry only when the config really changes", async () => {
    const dst = await create();
    await put(dst, { ...emulatorSnowflakeConfig(), "snowflake.role.name": "LOADER_ROLE" });
    const before = await compare(dst.id);
    clock.advance(5);
    await put(dst, { ...emulatorSnowflakeConfig(), "snowflake.private.key": "********", "snowflake.role.name": "LOADER_ROLE" }, uniqueName("renamed"));
    expect((await compare(dst.id)).latest_timestamp).toBe(before.latest_timestamp);
  });

  it("keeps latest_timestamp moving when a change is reverted, with has_changes false", async () => {
    const dst = await create();
    await put(dst, { ...emulatorSnowflakeConfig(), "snowflake.role.name": "LOADER_ROLE" });
    const changed = await compare(dst.id);
    await put(dst, emulatorSnowflakeConfig());
    const reverted = await compare(dst.id);
    expect(reverted.has_changes).toBe(false);
    expect(reverted.masked_diff).toBe("");
    expect(reverted.latest_timestamp > changed.latest_timestamp).toBe(true);
  });

  it("hands out strictly increasing timestamps within the same millisecond", async () => {
    const dst = await create();
    const seen: string[] = [(await compare(dst.id)).latest_timestamp];
    for (let i = 0; i < 4; i += 1) {
      await put(dst, { ...emulatorSnowflakeConfig(), "consumer.override.max.poll.records": 10 + i });
      seen.push((await compare(dst.id)).latest_timestamp);
    }
    for (const ts of seen) expect(ts).toMatch(ISO_MS);
    for (let i = 1; i < seen.length; i += 1) expect(Date.parse(seen[i]!)).toBeGreaterThan(Date.parse(seen[i - 1]!));
    expect((await compare(dst.id)).oldest_timestamp).toBe(seen[0]);
  });

  it("answers 404 for an unknown destination and 422 for a bad path id", async () => {
    expectDetail(await s.api("GET", "/destinations/unknown/config-history/compare-to-original"), 404);
    expect422(await s.api("GET", `/destinations/${"h".repeat(129)}/config-history/compare-to-original`), { loc: ["path", "destination_id"] });
  });

  it("forgets the history of a deleted destination", async () => {
    const dst = await create();
    await s.api("DELETE", `/destinations/${dst.id}`);
    expectDetail(await s.api("GET", `/destinations/${dst.id}/config-history/compare-to-original`), 404);
  });
});
