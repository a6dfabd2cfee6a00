import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect422, expectDetail, openSession, uniqueName, type Session } from "./helpers.js";

let s: Session;

beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

async function createTag(body: Record<string, unknown> = {}) {
  const reply = await s.api("POST", "/tags", { body: { name: uniqueName("tag"), type: ["sources"], ...body } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("POST /tags", () => {
  it("creates a custom tag with the documented record", async () => {
    const name = uniqueName("team-data");
    const tag = await createTag({ name, description: "owned by data", type: ["sources", "destinations"], created_from: "terraform" });
    expect(tag).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name,
      description: "owned by data",
      type: ["sources", "destinations"],
      system: false,
      custom: true,
      created_from: "terraform",
    });
  });

  it("defaults description to null and created_from to api", async () => {
    const tag = await createTag();
    expect(tag.description).toBeNull();
    expect(tag.created_from).toBe("api");
  });

  it("answers 409 for a duplicate name, including a system tag's", async () => {
    const tag = await createTag();
    expectDetail(await s.api("POST", "/tags", { body: { name: tag.name, type: ["sources"] } }), 409);
    expectDetail(await s.api("POST", "/tags", { body: { name: "Production", type: ["sources"] } }), 409);
  });

  it("validates the body", async () => {
    expect422(await s.api("POST", "/tags", { body: {} }), { loc: ["body", "name"], type: "missing" }, { loc: ["body", "type"], type: "missing" });
    expect422(await s.api("POST", "/tags", { body: { name: "t", type: [] } }), { loc: ["body", "type"], type: "too_short" });
    expect422(await s.api("POST", "/tags", { body: { name: "t", type: "source" } }), { loc: ["body", "type"], type: "list_type" });
    expect422(await s.api("POST", "/tags", { body: { name: "t", type: ["sources", "galaxy"] } }), {
      loc: ["body", "type", 1],
      type: "enum",
      input: "galaxy",
      ctx: { expected: "'environment', 'general', 'sources', 'destinations', 'pipelines', 'transforms', 'topics', 'services', 'users' or 'tenant'" },
    });
    expect422(await s.api("POST", "/tags", { body: { name: "t", type: ["sources"], description: false } }), { loc: ["body", "description"], type: "string_type" });
    expect422(await s.api("POST", "/tags", { body: { name: "t", type: ["sources"], created_from: "ansible" } }), { loc: ["body", "created_from"], type: "enum" });
    expect422(await s.api("POST", "/tags", { body: { name: "", type: ["sources"] } }), { loc: ["body", "name"], type: "string_too_short" });
    expect422(await s.api("POST", "/tags", { rawBody: "{'name': 't'}", headers: { "content-type": "application/json" } }), { type: "json_invalid" });
  });
});

describe("GET /tags", () => {
  it("includes the read-only system tags", async () => {
    const reply = await s.api("GET", "/tags?tag_name=production");
    expect(reply.status).toBe(200);
    expect(reply.body.tags).toEqual([expect.objectContaining({ name: "Production", system: true, custom: false })]);
  });

  it("answers the system tags under the platform's fixed ids, shaped as every id is (24 hex characters)", async () => {
    const development = await s.api("GET", "/tags/670e5ca40afe1d3983ce0c22");
    expect(development.status, development.text).toBe(200);
    expect(development.body).toMatchObject({ id: "670e5ca40afe1d3983ce0c22", name: "Development", type: ["environment"], system: true, custom: false });
    expect((await s.api("GET", "/tags/670e5bab0d119c0d1f8cda9d")).body).toMatchObject({ name: "Production", system: true });
    // The platform's Terraform client reads one tag through the listing.
    expect((await s.api("GET", "/tags?tag_ids=670e5ca40afe1d3983ce0c22")).body.tags).toEqual([development.body]);
  });

  it("filters by tag_ids given comma-separated, repeated, or both", async () => {
    const a = await createTag();
    const b = await createTag();
    const c = await createTag();
    const ids = (r: { body: { tags: { id: string }[] } }) => r.body.tags.map((t) => t.id).sort();
    expect(ids(await s.api("GET", `/tags?tag_ids=${a.id},${b.id}`))).toEqual([a.id, b.id].sort());
    expect(ids(await s.api("GET", `/tags?tag_ids=${a.id}&tag_ids=${c.id}`))).toEqual([a.id, c.id].sort());
    expect(ids(await s.api("GET", `/tags?tag_ids=${a.id},${b.id}&tag_ids=${c.id}`))).toEqual([a.id, b.id, c.id].sort());
    expect(ids(await s.api("GET", "/tags?tag_ids=nope"))).toEqual([]);
  });

  it("filters by tag_name (case-insensitive substring) and pages", async () => {
    const prefix = uniqueName("Squad");
    for (let i = 0; i < 3; i += 1) await createTag({ name: `${prefix}-${i}` });
    const page = await s.api("GET", `/tags?tag_name=${prefix.toLowerCase()}&page_size=2`);
    expect(page.body).toMatchObject({ total: 3, page: 1, page_size: 2, has_next: true });
    expect(page.body.tags.map((t: { name: string }) => t.name)).toEqual([`${prefix}-0`, `${prefix}-1`]);
    expect422(await s.api("GET", "/tags?page_size=101"), { loc: ["query", "page_size"], type: "less_than_equal" });
    expect422(await s.api("GET", "/tags?page=zero"), { loc: ["query", "page"], type: "int_parsing" });
  });

  it("answers {tags: [...]} as the platform's Terraform client decodes it, every match when not paged", async () => {
    const prefix = uniqueName("Many");
    for (let i = 0; i < 12; i += 1) await createTag({ name: `${prefix}-${i}` });
    const reply = await s.api("GET", `/tags?tag_name=${prefix}`);
    expect(reply.status).toBe(200);
    expect(reply.body).not.toHaveProperty("result");
    expect(reply.body.tags).toHaveLength(12);
  });

  it("filters by tag_type, repeated, matching any of the types", async () => {
    const prefix = uniqueName("Typed");
    const s1 = await createTag({ name: `${prefix}-s`, type: ["sources"] });
    const d1 = await createTag({ name: `${prefix}-d`, type: ["destinations", "general"] });
    await createTag({ name: `${prefix}-p`, type: ["pipelines"] });
    const names = (r: { body: { tags: { name: string }[] } }) => r.body.tags.map((t) => t.name).sort();
    expect(names(await s.api("GET", `/tags?tag_name=${prefix}&tag_type=sources`))).toEqual([s1.name]);
    expect(names(await s.api("GET", `/tags?tag_name=${prefix}&tag_type=sources&tag_type=general`))).toEqual([d1.name, s1.name].sort());
  });

  it("POST /tags/search takes the ids in the body", async () => {
    const a = await createTag();
    const b = await createTag();
    const reply = await s.api("POST", "/tags/search", { body: { tag_ids: [a.id, b.id] } });
    expect(reply.status).toBe(200);
    expect(reply.body.tags.map((t: { id: string }) => t.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("gets one tag by id", async () => {
    const tag = await createTag();
    expect((await s.api("GET", `/tags/${tag.id}`)).body).toEqual(tag);
    expectDetail(await s.api("GET", "/tags/unknown"), 404);
  });
});

describe("PUT /tags/{tag_id}", () => {
  it("replaces name, description and type; keeps created_from", async () => {
    const tag = await createTag({ description: "old", created_from: "web" });
    const name = uniqueName("renamed");
    const reply = await s.api("PUT", `/tags/${tag.id}`, { body: { name, type: ["pipelines"] } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...tag, name, description: null, type: ["pipelines"] });
  });

  it("answers 409 on rename onto another tag, 404 for unknown, 403 for system tags", async () => {
    const a = await createTag();
    const b = await createTag();
    expectDetail(await s.api("PUT", `/tags/${b.id}`, { body: { name: a.name, type: ["sources"] } }), 409);
    expect((await s.api("PUT", `/tags/${b.id}`, { body: { name: b.name, type: ["sources"] } })).status).toBe(200);
    expectDetail(await s.api("PUT", "/tags/unknown", { body: { name: "x", type: ["sources"] } }), 404);
    const system = (await s.api("GET", "/tags?tag_name=Development")).body.tags[0];
    expectDetail(await s.api("PUT", `/tags/${system.id}`, { body: { name: "Dev", type: ["sources"] } }), 403, /system tag/);
  });

  it("validates body and path", async () => {
    const tag = await createTag();
    expect422(await s.api("PUT", `/tags/${tag.id}`, { body: { name: "x" } }), { loc: ["body", "type"], type: "missing" });
    expect422(await s.api("PUT", `/tags/${tag.id}`, { body: { name: 1, type: ["x"] } }), { loc: ["body", "name"], type: "string_type" }, { loc: ["body", "type", 0], type: "enum" });
    expect422(await s.api("PUT", `/tags/${"t".repeat(129)}`, { body: { name: "x", type: ["sources"] } }), { loc: ["path", "tag_id"] });
  });
});

describe("DELETE /tags/{tag_id}", () => {
  it("deletes a custom tag once; system tags are protected", async () => {
    const tag = await createTag();
    const del = await s.api("DELETE", `/tags/${tag.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: tag.id, deleted: true });
    expect((await s.api("GET", `/tags?tag_ids=${tag.id}`)).body.tags).toEqual([]);
    expectDetail(await s.api("DELETE", `/tags/${tag.id}`), 404);
    const system = (await s.api("GET", "/tags?tag_name=Production")).body.tags[0];
    expectDetail(await s.api("DELETE", `/tags/${system.id}`), 403);
    expect422(await s.api("DELETE", `/tags/${"t".repeat(129)}`), { loc: ["path", "tag_id"], type: "string_too_long" });
  });
});
