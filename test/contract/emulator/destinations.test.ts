import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect422, expectDetail, openSession, uniqueName, type Session } from "./helpers.js";
import { emulatorSnowflakeConfig } from "../../support/fixtures.js";

let s: Session;

beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

async function createDestination(connector: string, config: Record<string, unknown>, query = "") {
  const reply = await s.api("POST", `/destinations${query}`, { body: { name: uniqueName(connector), connector, config } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("POST /destinations", () => {
  it("creates a snowflake destination: no service_id, no topics, key masked, defaults filled", async () => {
    const dst = await createDestination("snowflake", { ...emulatorSnowflakeConfig(), "hard.delete": false });
    expect(dst).not.toHaveProperty("service_id");
    expect(dst.connector_display_name).toBe("Snowflake");
    expect(dst.topic_ids).toEqual([]);
    expect(dst.topics).toEqual([]);
    expect(dst.topic_map).toEqual({});
    expect(dst.tasks).toEqual([0]);
    expect(dst.connector_status).toBe("Active");
    expect(dst.config).toMatchObject({
      "snowflake.url.name": "acme.snowflakecomputing.com",
      "snowflake.user.name": "LOADER",
      "snowflake.private.key": "********",
      "snowflake.database.name": "RAW",
      "snowflake.schema.name": "CDC",
      "ingestion.mode": "append",
      "hard.delete": "false",
    });
    expect(dst.config).not.toHaveProperty("snowflake.private.key.passphrase");
  });

  it("returns the private key and its optional passphrase with secret_returned=true", async () => {
    const dst = await createDestination("snowflake", { ...emulatorSnowflakeConfig(), "snowflake.private.key.passphrase": "pp" }, "?secret_returned=true");
    expect(dst.config["snowflake.private.key"]).toBe(emulatorSnowflakeConfig()["snowflake.private.key"]);
    expect(dst.config["snowflake.private.key.passphrase"]).toBe("pp");
  });

  it("keeps an optional secret sent empty and echoes it as \"\", masked or not (a refresh then matches what was sent)", async () => {
    const dst = await createDestination("snowflake", { ...emulatorSnowflakeConfig(), "snowflake.private.key.passphrase": "" });
    expect(dst.config["snowflake.private.key.passphrase"]).toBe("");
    expect(dst.config["snowflake.private.key"]).toBe("********");
    const got = await s.api("GET", `/destinations/${dst.id}`);
    expect(got.body.result[0].config["snowflake.private.key.passphrase"]).toBe("");
    const revealed = await s.api("GET", `/destinations/${dst.id}?secret_returned=true`);
    expect(revealed.body.result[0].config["snowflake.private.key.passphrase"]).toBe("");
  });

  it("creates clickhouse, postgresql and s3 destinations with their defaults and masks", async () => {
    const ch = await createDestination("clickhouse", {
      hostname: "ch.example",
      "connection.username": "loader",
      "connection.password": "chpw",
      database: "analytics",
      ssl: false,
      port: "9440",
    });
    expect(ch.config).toMatchObject({
      hostname: "ch.example",
      port: "9440",
      "connection.username": "loader",
      "connection.password": "********",
      database: "analytics",
      ssl: "false",
      "ingestion.mode": "upsert",
    });
    const pg = await createDestination("postgresql", {
      "database.hostname.user.defined": "wh",
      "database.database.user.defined": "dw",
      "connection.username": "loader",
      "connection.password": "pgpw",
      "table.name.prefix": "cdc_",
      "insert.mode": "upsert",
    });
    expect(pg.config).toMatchObject({ "database.port.user.defined": "5432", "database.hostname": "wh", "insert.mode": "upsert", "connection.password": "********" });
    const s3 = await createDestination("s3", { "aws.access.key.id": "AKIAEXAMPLE", "aws.secret.access.key": "wJalr/secret", "aws.s3.bucket.name": "lake" });
    expect(s3.config).toMatchObject({
      "aws.access.key.id": "********",
      "aws.secret.access.key": "********",
      "aws.s3.region": "us-west-2",
      "format.user.defined": "JSON Array",
      format: "JSON Array",
      "file.compression.type": "gzip",
    });
    expect(s3.connector_display_name).toBe("S3");
  });

  it("answers 409 for a duplicate name, and a source may share a destination's name", async () => {
    const dst = await createDestination("snowflake", emulatorSnowflakeConfig());
    expectDetail(await s.api("POST", "/destinations", { body: { name: dst.name, connector: "snowflake", config: emulatorSnowflakeConfig() } }), 409);
    const src = await s.api("POST", "/sources", {
      body: { name: dst.name, connector: "webhook", config: {} },
    });
    expect(src.status).toBe(200);
  });

  it("validates body, connector and config", async () => {
    const unknown = await s.api("POST", "/destinations", { body: { name: "d", connector: "firebolt", config: {} } });
    expect422(unknown, { loc: ["body", "connector"], type: "enum" });
    expect(unknown.body.detail[0].msg).toMatch(/^Input should be 'azblob', 'bigquery', .* or 'weaviate'$/);
    expect422(await s.api("POST", "/destinations", { body: { name: "d", connector: "mongodb", config: {} } }), { loc: ["body", "connector"] });
    expect422(await s.api("POST", "/destinations", { body: { name: "d", connector: "snowflake", config: { ...emulatorSnowflakeConfig(), "snowflake.private.key": undefined } } }), {
      loc: ["body", "config", "snowflake.private.key"],
      type: "missing",
    });
    expect422(await s.api("POST", "/destinations", { body: { name: "d", connector: "snowflake", config: { ...emulatorSnowflakeConfig(), "ingestion.mode": "merge" } } }), {
      loc: ["body", "config", "ingestion.mode"],
      type: "enum",
      ctx: { expected: "'upsert' or 'append'" },
    });
    expect422(await s.api("POST", "/destinations", { body: { name: "d", connector: "s3", config: [] } }), { loc: ["body", "config"], type: "dict_type" });
    expect422(await s.api("POST", "/destinations", { body: { name: "d", connector: 5, config: {} } }), { loc: ["body", "connector"], type: "string_type" });
    expect422(await s.api("POST", "/destinations", { body: { name: "d", connector: "s3", config: {}, created_from: "cdk" } }), { loc: ["body", "created_from"], type: "enum" });
    expect422(await s.api("POST", "/destinations", { rawBody: "{]", headers: { "content-type": "application/json" } }), { type: "json_invalid" });
  });
});

describe("GET, PUT and DELETE /destinations/{destination_id}", () => {
  it("gets an envelope, updates with the masked placeholder, deletes", async () => {
    const dst = await createDestination("snowflake", emulatorSnowflakeConfig());
    const got = await s.api("GET", `/destinations/${dst.id}`);
    expect(got.body).toEqual({ result: [dst], page: 1, page_size: 10, total: 1, has_next: false });

    const updated = await s.api("PUT", `/destinations/${dst.id}?secret_returned=true`, {
      body: { name: dst.name, connector: "snowflake", config: { ...emulatorSnowflakeConfig(), "snowflake.private.key": "********", "snowflake.role.name": "LOADER_ROLE" } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.config["snowflake.private.key"]).toBe(emulatorSnowflakeConfig()["snowflake.private.key"]);
    expect(updated.body.config["snowflake.role.name"]).toBe("LOADER_ROLE");
    // ingestion.mode is set once, at creation (a replace-on-change key of the catalogue).
    expect422(
      await s.api("PUT", `/destinations/${dst.id}`, { body: { name: dst.name, connector: "snowflake", config: { ...emulatorSnowflakeConfig(), "snowflake.private.key": "********", "ingestion.mode": "upsert" } } }),
      { loc: ["body", "config", "ingestion.mode"], type: "value_error" },
    );

    expect((await s.api("DELETE", `/destinations/${dst.id}`)).body).toEqual({ id: dst.id, deleted: true });
    expect((await s.api("GET", `/destinations/${dst.id}`)).body.total).toBe(0);
    expectDetail(await s.api("DELETE", `/destinations/${dst.id}`), 404);
    expectDetail(await s.api("PUT", `/destinations/${dst.id}`, { body: { name: "x", connector: "snowflake", config: emulatorSnowflakeConfig() } }), 404);
  });

  it("refuses the placeholder for a secret that was never stored", async () => {
    const dst = await createDestination("snowflake", emulatorSnowflakeConfig());
    expect422(
      await s.api("PUT", `/destinations/${dst.id}`, {
        body: { name: dst.name, connector: "snowflake", config: { ...emulatorSnowflakeConfig(), "snowflake.private.key.passphrase": "********" } },
      }),
      { loc: ["body", "config", "snowflake.private.key.passphrase"], type: "value_error" },
    );
  });

  it("lists with paging limits and filters", async () => {
    const tag = uniqueName("dlist");
    await s.api("POST", "/destinations", { body: { name: `${tag}-a`, connector: "snowflake", config: emulatorSnowflakeConfig() } });
    await s.api("POST", "/destinations", {
      body: { name: `${tag}-b`, connector: "s3", config: { "aws.access.key.id": "A", "aws.secret.access.key": "B", "aws.s3.bucket.name": "c" } },
    });
    const all = await s.api("GET", `/destinations?partial_name=${tag}`);
    expect(all.body.total).toBe(2);
    expect(all.text).not.toContain(emulatorSnowflakeConfig()["snowflake.private.key"]);
    const s3 = await s.api("GET", `/destinations?partial_name=${tag}&connector=s3`);
    expect(s3.body.result.map((r: { name: string }) => r.name)).toEqual([`${tag}-b`]);
    expect422(await s.api("GET", "/destinations?page_size=500"), { loc: ["query", "page_size"], type: "less_than_equal" });
    expect422(await s.api("GET", "/destinations?page=-1"), { loc: ["query", "page"], type: "greater_than_equal" });
  });
});

describe("destination lifecycle", () => {
  it("follows active →pause→ paused →resume→ active; any →stop→ stopped →resume→ active", async () => {
    const dst = await createDestination("snowflake", emulatorSnowflakeConfig());
    const paused = await s.api("PUT", `/destinations/${dst.id}/pause`);
    expect(paused.body).toMatchObject({ connector_status: "Paused", tasks: [0], task_statuses: { "0": { state: "PAUSED" } } });
    const stoppedFromPaused = await s.api("PUT", `/destinations/${dst.id}/stop`);
    expect(stoppedFromPaused.body).toMatchObject({ connector_status: "Stopped", tasks: [], task_statuses: {} });
    expectDetail(await s.api("PUT", `/destinations/${dst.id}/pause`), 409, /Stopped/);
    expect((await s.api("PUT", `/destinations/${dst.id}/stop`)).body.connector_status).toBe("Stopped");
    const resumed = await s.api("PUT", `/destinations/${dst.id}/resume`);
    expect(resumed.body).toMatchObject({ connector_status: "Active", tasks: [0], task_statuses: { "0": { state: "RUNNING" } } });
    expect((await s.api("PUT", `/destinations/${dst.id}/stop`)).body.connector_status).toBe("Stopped");
    expect((await s.api("GET", `/destinations?partial_name=${dst.name}&status=Stopped`)).body.total).toBe(1);
  });

  it("answers 404 for unknown destinations and 422 for bad path ids", async () => {
    for (const action of ["stop", "pause", "resume"]) {
      expectDetail(await s.api("PUT", `/destinations/missing/${action}`), 404);
      expect422(await s.api("PUT", `/destinations/${"d".repeat(129)}/${action}`), { loc: ["path", "destination_id"], type: "string_too_long" });
    }
  });
});
