import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORIGIN, findConnector, findKey } from "../../../catalogue/index.js";
import { requiredConfig } from "../../support/catalogue-samples.js";
import { expect422, expectDetail, openSession, uniqueName, type Session } from "./helpers.js";
import { emulatorPgSourceConfig } from "../../support/fixtures.js";

let s: Session;

beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

async function createSource(overrides: Record<string, unknown> = {}, query = "") {
  const reply = await s.api("POST", `/sources${query}`, {
    body: { name: uniqueName("pg"), connector: "postgresql", config: emulatorPgSourceConfig(), ...overrides },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("POST /sources", () => {
  it("creates a source with every connector field filled in", async () => {
    const name = uniqueName("orders");
    const src = await createSource({ name });
    expect(src.name).toBe(name);
    expect(src.connector).toBe("postgresql");
    expect(src.id).toMatch(/^[0-9a-f]{24}$/);
    expect(src.connector_display_name).toBe("PostgreSQL");
    expect(new Date(src.created_timestamp).toISOString()).toBe(src.created_timestamp);
    for (const field of ["sub_id", "tenant_id", "service_id"]) expect(typeof src[field]).toBe("string");
    expect(src.tasks).toEqual([0]);
    expect(src.connector_status).toBe("Active");
    expect(src.task_statuses).toEqual({ "0": { state: "RUNNING" } });
    expect(src.created_from).toBe("api");
  });

  it("echoes every config value as a string, adds the server defaults and the plain keys it derives", async () => {
    const src = await createSource();
    expect(src.config).toMatchObject({
      "database.hostname.user.defined": "db.internal",
      "database.port.user.defined": "5433",
      "database.user": "cdc",
      "database.password": "********",
      "database.dbname": "app",
      "schema.include.list": "public",
      "table.include.list.user.defined": "public.users,public.orders",
      "heartbeat.enabled": "true",
      "database.sslmode": "require",
      "slot.name": "streamkap_pgoutput_slot",
      "publication.name": "streamkap_pub",
      // Derived by the platform from the .user.defined keys (emulator/README.md).
      "database.hostname": "db.internal",
      "database.port": "5433",
      "table.include.list": "public.users,public.orders",
    });
    expect(src.config["ssh.public.key.user.displayed"]).toMatch(/^ssh-ed25519 /);
    for (const value of Object.values(src.config)) expect(typeof value).toBe("string");
    expect(Object.keys(src.config)).toEqual(Object.keys(src.config).sort());
  });

  it("derives one topic per captured table, prefixed with the source id", async () => {
    const src = await createSource({ config: { ...emulatorPgSourceConfig(), "table.include.list.user.defined": " public.users , public.orders,public.users" } });
    expect(src.topics).toEqual(["public.users", "public.orders"]);
    expect(src.topic_ids).toEqual([`source_${src.id}.public.users`, `source_${src.id}.public.orders`]);
    expect(src.topic_map).toEqual({
      "public.users": `source_${src.id}.public.users`,
      "public.orders": `source_${src.id}.public.orders`,
    });
  });

  it("returns secrets only when secret_returned=true", async () => {
    const shown = await createSource({}, "?secret_returned=true");
    expect(shown.config["database.password"]).toBe("pg-s3cret");
    const hidden = await createSource({}, "?secret_returned=false");
    expect(hidden.config["database.password"]).toBe("********");
  });

  it("records created_from: explicit values, null, and the api default", async () => {
    expect((await createSource({ created_from: "terraform" })).created_from).toBe("terraform");
    expect((await createSource({ created_from: "web" })).created_from).toBe("web");
    expect((await createSource({ created_from: null })).created_from).toBeNull();
  });

  it("refuses config keys the platform does not have, and drops null values so defaults apply", async () => {
    expect422(await s.api("POST", "/sources", { body: { name: uniqueName("x"), connector: "postgresql", config: { ...emulatorPgSourceConfig(), "max.batch.size": 2048 } } }), {
      loc: ["body", "config", "max.batch.size"],
      type: "extra_forbidden",
      msg: "Extra inputs are not permitted",
    });
    const src = await createSource({ config: { ...emulatorPgSourceConfig(), "binary.handling.mode": null } });
    expect(src.config["binary.handling.mode"]).toBe("bytes");
  });

  it("accepts a key the platform has since dropped (removedKeys), as an older client sends it, and keeps none of it", async () => {
    const sqlserver = findConnector("source", "sqlserveraws")!;
    expect(sqlserver.removedKeys).toContain("streamkap.snapshot.large.table.threshold");
    const config = { ...requiredConfig(sqlserver), "streamkap.snapshot.large.table.threshold": 250000 };
    const reply = await s.api("POST", "/sources?secret_returned=true&wait=false", { body: { name: uniqueName("mssql"), connector: "sqlserveraws", config } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.config).not.toHaveProperty("streamkap.snapshot.large.table.threshold");
    const unknown = await s.api("POST", "/sources?secret_returned=true&wait=false", { body: { name: uniqueName("mssql"), connector: "sqlserveraws", config: { ...requiredConfig(sqlserver), "no.such.key": 1 } } });
    expect(unknown.status).toBe(422);
  });

  it("accepts the keys the platform's Terraform provider sends beyond its generated schema (catalogue additions)", async () => {
    const pg = findConnector("source", "postgresql")!;
    const config = { ...requiredConfig(pg), "streamkap.snapshot.chunk.size.bytes": 65536 };
    const reply = await s.api("POST", "/sources?secret_returned=true&wait=false", { body: { name: uniqueName("pg"), connector: "postgresql", config } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.config["streamkap.snapshot.chunk.size.bytes"]).toBe("65536");
    for (const addition of (ORIGIN as unknown as { additions: { keys: Array<{ kind: string; code: string; key: string }> } }).additions.keys) {
      expect(findKey(findConnector(addition.kind as "source", addition.code)!, addition.key), `${addition.code} ${addition.key}`).toBeDefined();
    }
  });

  it("carries tag ids, left out of the answer when there are none", async () => {
    const tag = (await s.api("POST", "/tags", { body: { name: uniqueName("tag"), type: ["sources"] } })).body;
    const tagged = await createSource({ tags: [tag.id] });
    expect(tagged.tags).toEqual([tag.id]);
    expect(await createSource()).not.toHaveProperty("tags");
    expect422(await s.api("POST", "/sources", { body: { name: uniqueName("x"), connector: "postgresql", config: emulatorPgSourceConfig(), tags: ["nope"] } }), {
      loc: ["body", "tags", 0],
      type: "value_error",
    });
    const put = (tags: unknown) => s.api("PUT", `/sources/${tagged.id}`, { body: { name: tagged.name, connector: "postgresql", config: emulatorPgSourceConfig(), tags } });
    expect((await put(null)).body.tags).toEqual([tag.id]); // null keeps
    expect((await put(undefined)).body.tags).toEqual([tag.id]); // absent keeps
    expect(await (await put([])).body).not.toHaveProperty("tags"); // [] clears
    await put([tag.id]);
    await s.api("DELETE", `/tags/${tag.id}`);
    expect((await s.api("GET", `/sources/${tagged.id}`)).body.result[0]).not.toHaveProperty("tags");
  });

  it("creates mysql and mongodb sources with their own topic keys and secrets", async () => {
    const mysql = await s.api("POST", "/sources", {
      body: {
        name: uniqueName("my"),
        connector: "mysql",
        config: {
          "database.hostname.user.defined": "m",
          "database.user": "u",
          "database.password": "pw",
          "database.include.list.user.defined": "shop",
          "table.include.list.user.defined": "shop.orders",
        },
      },
    });
    expect(mysql.status, mysql.text).toBe(200);
    expect(mysql.body.config["database.port.user.defined"]).toBe("3306");
    expect(mysql.body.config["database.password"]).toBe("********");
    expect(mysql.body.topics).toEqual(["shop.orders"]);
    expect(mysql.body.connector_display_name).toBe("MySQL");

    const mongo = await s.api("POST", "/sources?secret_returned=1", {
      body: {
        name: uniqueName("mongo"),
        connector: "mongodb",
        config: {
          "mongodb.connection.string.user.defined": "mongodb+srv://u:p@cluster0.example.net/",
          "database.include.list": "shop",
          "collection.include.list.user.defined": "shop.carts,shop.users",
          "signal.data.collection.schema.or.database": "shop",
        },
      },
    });
    expect(mongo.status, mongo.text).toBe(200);
    expect(mongo.body.config["mongodb.connection.string.user.defined"]).toBe("mongodb+srv://u:p@cluster0.example.net/");
    expect(mongo.body.config["mongodb.connection.hostname"]).toBe("cluster0.example.net");
    expect(mongo.body.connector_display_name).toBe("MongoDB Atlas");
    expect(mongo.body.topic_ids).toEqual([`source_${mongo.body.id}.shop.carts`, `source_${mongo.body.id}.shop.users`]);
  });

  it("answers 409 for a name already taken", async () => {
    const src = await createSource();
    expectDetail(await s.api("POST", "/sources", { body: { name: src.name, connector: "postgresql", config: emulatorPgSourceConfig() } }), 409, /already exists/);
  });

  it("validates the body shape", async () => {
    expect422(
      await s.api("POST", "/sources", { body: {} }),
      { loc: ["body", "name"], type: "missing" },
      { loc: ["body", "connector"], type: "missing" },
      { loc: ["body", "config"], type: "missing" },
    );
    expect422(await s.api("POST", "/sources", { body: { name: 1, connector: "postgresql", config: emulatorPgSourceConfig() } }), { loc: ["body", "name"], type: "string_type" });
    expect422(await s.api("POST", "/sources", { body: { name: "", connector: "postgresql", config: emulatorPgSourceConfig() } }), {
      loc: ["body", "name"],
      type: "string_too_short",
    });
    expect422(await s.api("POST", "/sources", { body: { name: "x".repeat(256), connector: "postgresql", config: emulatorPgSourceConfig() } }), {
      loc: ["body", "name"],
      type: "string_too_long",
      ctx: { max_length: 255 },
    });
    expect422(await s.api("POST", "/sources", { body: { name: "a", connector: "postgresql", config: "host=db" } }), { loc: ["body", "config"], type: "dict_type" });
    expect422(await s.api("POST", "/sources", { body: { name: "a", connector: "postgresql", config: emulatorPgSourceConfig(), created_from: "pulumi" } }), {
      loc: ["body", "created_from"],
      type: "enum",
      ctx: { expected: "'web', 'api' or 'terraform'" },
    });
    expect422(await s.api("POST", "/sources", { rawBody: '{"name": "a",', headers: { "content-type": "application/json" } }), { type: "json_invalid" });
    expect422(await s.api("POST", "/sources", {}), { loc: ["body"], type: "missing" });
    expect422(await s.api("POST", "/sources?secret_returned=maybe", { body: { name: "a", connector: "postgresql", config: emulatorPgSourceConfig() } }), {
      loc: ["query", "secret_returned"],
      type: "bool_parsing",
      input: "maybe",
    });
  });

  it("answers 422 naming the field for an unknown connector", async () => {
    const reply = await s.api("POST", "/sources", { body: { name: "a", connector: "cassandra", config: {} } });
    expect422(reply, { loc: ["body", "connector"], type: "enum", input: "cassandra" });
    expect(reply.body.detail[0].msg).toMatch(/^Input should be 'alloydb', 'db2', .* or 'zendesk_webhook'$/);
    // A destination-only connector is not a source.
    expect422(await s.api("POST", "/sources", { body: { name: "a", connector: "snowflake", config: {} } }), { loc: ["body", "connector"], type: "enum" });
  });

  it("validates config against the catalogue", async () => {
    const { ["database.user"]: _omit, ...withoutUser } = emulatorPgSourceConfig();
    void _omit;
    expect422(await s.api("POST", "/sources", { body: { name: "a", connector: "postgresql", config: withoutUser } }), {
      loc: ["body", "config", "database.user"],
      type: "missing",
      msg: "Field required",
      input: withoutUser,
    });
    const bad = (patch: Record<string, unknown>) =>
      s.api("POST", "/sources", { body: { name: uniqueName("bad"), connector: "postgresql", config: { ...emulatorPgSourceConfig(), ...patch } } });
    const port = "database.port.user.defined";
    expect422(await bad({ [port]: "five" }), { loc: ["body", "config", port], type: "int_parsing" });
    expect422(await bad({ "streamkap.snapshot.parallelism": 51 }), { loc: ["body", "config", "streamkap.snapshot.parallelism"], type: "less_than_equal", ctx: { le: 50 } });
    expect422(await bad({ "streamkap.snapshot.chunk.size.bytes": 1 }), { loc: ["body", "config", "streamkap.snapshot.chunk.size.bytes"], type: "greater_than_equal", ctx: { ge: 4096 } });
    expect422(await bad({ [port]: 54.5 }), { loc: ["body", "config", port], type: "int_from_float" });
    expect422(await bad({ "heartbeat.enabled": "sometimes" }), { loc: ["body", "config", "heartbeat.enabled"], type: "bool_parsing" });
    expect422(await bad({ "database.sslmode": "maybe" }), {
      loc: ["body", "config", "database.sslmode"],
      type: "enum",
      ctx: { expected: "'require' or 'disable'" },
    });
    const host = "database.hostname.user.defined";
    expect422(await bad({ [host]: { host: "db" } }), { loc: ["body", "config", host], type: "string_type" });
    expect422(await bad({ [host]: "" }), { loc: ["body", "config", host], type: "string_too_short" });
    expect422(await bad({ "table.include.list.user.defined": " , " }), { loc: ["body", "config", "table.include.list.user.defined"], type: "value_error" });
    expect422(await bad({ "database.password": "********" }), { loc: ["body", "config", "database.password"], type: "value_error" });
  });
});

describe("GET /sources/{source_id}", () => {
  it("answers a one-item envelope", async () => {
    const src = await createSource();
    const reply = await s.api("GET", `/sources/${src.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ result: [src], page: 1, page_size: 10, total: 1, has_next: false });
  });

  it("reveals secrets only with secret_returned=true", async () => {
    const src = await createSource();
    expect((await s.api("GET", `/sources/${src.id}?secret_returned=true`)).body.result[0].config["database.password"]).toBe("pg-s3cret");
    expect((await s.api("GET", `/sources/${src.id}`)).body.result[0].config["database.password"]).toBe("********");
    expect422(await s.api("GET", `/sources/${src.id}?secret_returned=2`), { loc: ["query", "secret_returned"], type: "bool_parsing" });
  });

  it("answers an empty envelope for an unknown id", async () => {
    const reply = await s.api("GET", "/sources/000000000000000000000000");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ result: [], page: 1, page_size: 10, total: 0, has_next: false });
  });

  it("rejects an over-long id in the path", async () => {
    expect422(await s.api("GET", `/sources/${"a".repeat(129)}`), { loc: ["path", "source_id"], type: "string_too_long" });
  });
});

describe("GET /sources", () => {
  it("pages through results", async () => {
    const prefix = uniqueName("paging");
    for (let i = 0; i < 3; i += 1) await createSource({ name: `${prefix}-${i}` });
    const first = await s.api("GET", `/sources?partial_name=${prefix}&page_size=2`);
    expect(first.status).toBe(200);
    expect(first.body.result.map((r: { name: string }) => r.name)).toEqual([`${prefix}-0`, `${prefix}-1`]);
    expect(first.body).toMatchObject({ page: 1, page_size: 2, total: 3, has_next: true });
    const second = await s.api("GET", `/sources?partial_name=${prefix}&page_size=2&page=2`);
    expect(second.body.result.map((r: { name: string }) => r.name)).toEqual([`${prefix}-2`]);
    expect(second.body).toMatchObject({ page: 2, total: 3, has_next: false });
    const beyond = await s.api("GET", `/sources?partial_name=${prefix}&page=9`);
    expect(beyond.body).toMatchObject({ result: [], total: 3, has_next: false, page_size: 10 });
  });

  it("filters by partial_name (case-insensitive), connector and status, and masks secrets", async () => {
    const tag = uniqueName("Filter");
    const pg = await createSource({ name: `${tag}-pg` });
    const mongo = await s.api("POST", "/sources", {
      body: {
        name: `${tag}-mongo`,
        connector: "mongodb",
        config: {
          "mongodb.connection.string.user.defined": "mongodb://x",
          "database.include.list": "a",
          "collection.include.list.user.defined": "a.b",
          "signal.data.collection.schema.or.database": "a",
        },
      },
    });
    await s.api("PUT", `/sources/${pg.id}/pause`);
    const byName = await s.api("GET", `/sources?partial_name=${tag.toUpperCase()}`);
    expect(byName.body.total).toBe(2);
    expect(byName.text).not.toContain("pg-s3cret");
    const byConnector = await s.api("GET", `/sources?partial_name=${tag}&connector=mongodb`);
    expect(byConnector.body.result.map((r: { id: string }) => r.id)).toEqual([mongo.body.id]);
    const paused = await s.api("GET", `/sources?partial_name=${tag}&status=paused`);
    expect(paused.body.result.map((r: { id: string }) => r.id)).toEqual([pg.id]);
    // The platform's client lists with secret_returned=true and takes a listed item as its object.
    const revealed = await s.api("GET", `/sources?partial_name=${tag}-pg&secret_returned=true`);
    expect(revealed.body.result[0].config["database.password"]).toBe("pg-s3cret");
  });

  it("validates paging and filter parameters", async () => {
    expect422(await s.api("GET", "/sources?page_size=101"), {
      loc: ["query", "page_size"],
      type: "less_than_equal",
      msg: "Input should be less than or equal to 100",
      input: "101",
      ctx: { le: 100 },
    });
    expect((await s.api("GET", "/sources?page_size=100")).status).toBe(200);
    expect422(await s.api("GET", "/sources?page_size=0"), { loc: ["query", "page_size"], type: "greater_than_equal", ctx: { ge: 1 } });
    expect422(await s.api("GET", "/sources?page=0"), { loc: ["query", "page"], type: "greater_than_equal" });
    expect422(await s.api("GET", "/sources?page=first"), { loc: ["query", "page"], type: "int_parsing", input: "first" });
    expect422(await s.api("GET", "/sources?status=Sleeping"), { loc: ["query", "status"], type: "enum" });
  });
});

describe("PUT /sources/{source_id}", () => {
  it("replaces name and config; the masked placeholder keeps a stored secret", async () => {
    const src = await createSource();
    const newName = uniqueName("renamed");
    const reply = await s.api("PUT", `/sources/${src.id}?secret_returned=true`, {
      body: {
        name: newName,
        connector: "postgresql",
        config: { ...emulatorPgSourceConfig(), "database.password": "********", "table.include.list.user.defined": "public.users" },
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.name).toBe(newName);
    expect(reply.body.config["database.password"]).toBe("pg-s3cret");
    expect(reply.body.topics).toEqual(["public.users"]);
    expect(reply.body.created_timestamp).toBe(src.created_timestamp);
  });

  it("replaces a secret sent in clear and drops keys left out", async () => {
    const src = await createSource({ config: { ...emulatorPgSourceConfig(), "slot.name": "custom_slot", "column.include.list.user.defined": "id" } });
    const reply = await s.api("PUT", `/sources/${src.id}`, {
      body: { name: src.name, connector: "postgresql", config: { ...emulatorPgSourceConfig(), "database.password": "rotated" } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.config["database.password"]).toBe("********");
    expect(reply.body.config["slot.name"]).toBe("streamkap_pgoutput_slot");
    expect(reply.body.config).not.toHaveProperty("column.include.list.user.defined");
    const got = await s.api("GET", `/sources/${src.id}?secret_returned=true`);
    expect(got.body.result[0].config["database.password"]).toBe("rotated");
  });

  it("answers 409 when renaming onto another source's name, not onto its own", async () => {
    const a = await createSource();
    const b = await createSource();
    expectDetail(await s.api("PUT", `/sources/${b.id}`, { body: { name: a.name, connector: "postgresql", config: emulatorPgSourceConfig() } }), 409);
    expect((await s.api("PUT", `/sources/${b.id}`, { body: { name: b.name, connector: "postgresql", config: emulatorPgSourceConfig() } })).status).toBe(200);
  });

  it("refuses a connector change and validates like create", async () => {
    const src = await createSource();
    expect422(await s.api("PUT", `/sources/${src.id}`, { body: { name: src.name, connector: "mysql", config: emulatorPgSourceConfig() } }), {
      loc: ["body", "connector"],
      type: "value_error",
    });
    expect422(await s.api("PUT", `/sources/${src.id}`, { body: { name: src.name, connector: "postgresql", config: { "database.port.user.defined": 1 } } }), {
      loc: ["body", "config", "database.hostname.user.defined"],
      type: "missing",
    });
    expect422(await s.api("PUT", `/sources/${src.id}`, { body: { config: {} } }), { loc: ["body", "name"], type: "missing" }, { loc: ["body", "connector"], type: "missing" });
    expect422(await s.api("PUT", `/sources/${src.id}`, { rawBody: "nope", headers: { "content-type": "application/json" } }), { type: "json_invalid" });
    expect422(await s.api("PUT", `/sources/${src.id}?secret_returned=perhaps`, { body: { name: src.name, connector: "postgresql", config: emulatorPgSourceConfig() } }), {
      loc: ["query", "secret_returned"],
    });
  });

  it("answers 404 for an unknown source", async () => {
    expectDetail(await s.api("PUT", "/sources/ffffffffffffffffffffffff", { body: { name: "x", connector: "postgresql", config: emulatorPgSourceConfig() } }), 404);
  });
});

describe("DELETE /sources/{source_id}", () => {
  it("deletes once, frees the name, then answers 404", async () => {
    const src = await createSource();
    const del = await s.api("DELETE", `/sources/${src.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: src.id, deleted: true });
    expect((await s.api("GET", `/sources/${src.id}`)).body.result).toEqual([]);
    expectDetail(await s.api("DELETE", `/sources/${src.id}`), 404);
    expect((await s.api("POST", "/sources", { body: { name: src.name, connector: "postgresql", config: emulatorPgSourceConfig() } })).status).toBe(200);
    expect422(await s.api("DELETE", `/sources/${"z".repeat(300)}`), { loc: ["path", "source_id"] });
  });

  it("takes wait=false on create, update and delete as the platform's client sends it, and refuses a wait that is no boolean", async () => {
    const created = await s.api("POST", "/sources?secret_returned=true&wait=false", { body: { name: uniqueName("w"), connector: "postgresql", config: emulatorPgSourceConfig() } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.connector_status).toBe("Active");
    const id = created.body.id as string;
    const updated = await s.api("PUT", `/sources/${id}?secret_returned=true&wait=false`, { body: { name: created.body.name, connector: "postgresql", config: emulatorPgSourceConfig() } });
    expect(updated.status, updated.text).toBe(200);
    expect422(await s.api("DELETE", `/sources/${id}?wait=later`), { loc: ["query", "wait"], type: "bool_parsing" });
    expect((await s.api("DELETE", `/sources/${id}?secret_returned=true&wait=false`)).body).toEqual({ id, deleted: true });
  });
});

describe("source lifecycle", () => {
  it("pauses and resumes, with matching task states", async () => {
    const src = await createSource();
    const paused = await s.api("PUT", `/sources/${src.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.connector_status).toBe("Paused");
    expect(paused.body.task_statuses).toEqual({ "0": { state: "PAUSED" } });
    expect(paused.body.config["database.password"]).toBe("********");
    expect((await s.api("PUT", `/sources/${src.id}/pause`)).body.connector_status).toBe("Paused");
    const resumed = await s.api("PUT", `/sources/${src.id}/resume`);
    expect(resumed.body.connector_status).toBe("Active");
    expect(resumed.body.task_statuses).toEqual({ "0": { state: "RUNNING" } });
    expect((await s.api("GET", `/sources/${src.id}`)).body.result[0].connector_status).toBe("Active");
  });

  it("answers 404 for unknown sources and has no stop operation", async () => {
    expectDetail(await s.api("PUT", "/sources/nope/pause"), 404, /not found/);
    expectDetail(await s.api("PUT", "/sources/nope/resume"), 404);
    expect((await s.api("PUT", "/sources/nope/stop")).body).toEqual({ detail: "Not Found" });
    expect422(await s.api("PUT", `/sources/${"q".repeat(129)}/resume`), { loc: ["path", "source_id"] });
  });
});
