import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect422, expectDetail, openSession, uniqueName, type Session } from "./helpers.js";
import { emulatorPgSourceConfig, emulatorSnowflakeConfig } from "../../support/fixtures.js";

let s: Session;

beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

async function ok(method: string, path: string, body?: unknown) {
  const reply = await s.api(method, path, body === undefined ? {} : { body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const source = () => ok("POST", "/sources", { name: uniqueName("pg"), connector: "postgresql", config: emulatorPgSourceConfig() });
const destination = () => ok("POST", "/destinations", { name: uniqueName("sf"), connector: "snowflake", config: emulatorSnowflakeConfig() });
const transform = (extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}) =>
  ok("POST", "/transforms", {
    transform: "map_filter",
    config: { "transforms.name": uniqueName("mf"), "transforms.input.topic.pattern": "public\\.(.*)", "transforms.output.topic.pattern": "clean.$1", ...config },
    created_from: "terraform",
    ...extra,
  });

function pipelineBody(src: any, dst: any, extra: Record<string, unknown> = {}) {
  return {
    name: uniqueName("pl"),
    snapshot_new_tables: true,
    source: { id: src.id, name: src.name, connector: src.connector, topics: ["public.orders"] },
    destination: { id: dst.id, name: dst.name, connector: dst.connector },
    transforms: [],
    tags: [],
    created_from: "terraform",
    ...extra,
  };
}

describe("pipelines", () => {
  it("creates a pipeline, echoing source topics as ids and leaving out empty tags; GET by id answers the envelope", async () => {
    const [src, dst] = [await source(), await destination()];
    const created = await ok("POST", "/pipelines?secret_returned=true&wait=false", pipelineBody(src, dst));
    expect(created.source).toEqual({ id: src.id, name: src.name, connector: "postgresql", topics: [`source_${src.id}.public.orders`] });
    expect(created.destination).toEqual({ id: dst.id, name: dst.name, connector: "snowflake" });
    expect(created.snapshot_new_tables).toBe(true);
    expect(created).not.toHaveProperty("tags");
    const got = await ok("GET", `/pipelines/${created.id}?secret_returned=true`);
    expect(got.result).toEqual([created]);
    const gone = await ok("GET", "/pipelines/000000000000000000000000");
    expect(gone).toMatchObject({ result: [], total: 0 });
  });

  it("accepts the platform's Development tag, the default of the vendor's provider, by its fixed id", async () => {
    const [src, dst] = [await source(), await destination()];
    const created = await ok("POST", "/pipelines?secret_returned=true&wait=false", pipelineBody(src, dst, { tags: ["670e5ca40afe1d3983ce0c22"] }));
    expect(created.tags).toEqual(["670e5ca40afe1d3983ce0c22"]);
  });

  it("checks every reference on write, all at once", async () => {
    const [src, dst] = [await source(), await destination()];
    const body = pipelineBody(src, dst, {
      source: { id: src.id, name: "wrong", connector: "mysql", topics: ["public.nope"] },
      destination: { id: "missing", name: "x", connector: "snowflake" },
      transforms: [{ id: "no-such-transform", topic: "x" }],
      tags: ["no-such-tag"],
    });
    expect422(
      await s.api("POST", "/pipelines", { body }),
      { loc: ["body", "source", "name"], type: "value_error" },
      { loc: ["body", "source", "connector"], type: "value_error" },
      { loc: ["body", "source", "topics", 0], type: "value_error" },
      { loc: ["body", "destination", "id"], type: "value_error" },
      { loc: ["body", "transforms", 0, "id"], type: "value_error" },
      { loc: ["body", "tags", 0], type: "value_error" },
    );
  });

  it("takes transform topics by pretty name or topic id, refuses another's topic, and echoes entries sorted by topic id", async () => {
    const [src, dst] = [await source(), await destination()];
    const t = await transform();
    expect(t.topics).toEqual(["clean.orders", "clean.users"]);
    expect(t.topic_ids).toEqual([`transform_${t.id}_0.clean.orders`, `transform_${t.id}_0.clean.users`]);
    const created = await ok(
      "POST",
      "/pipelines",
      pipelineBody(src, dst, { transforms: [{ id: t.id, topic: "clean.users" }, { id: t.id, topic_id: t.topic_ids[0] }] }),
    );
    expect(created.transforms.map((e: any) => e.topic)).toEqual(["clean.orders", "clean.users"]);
    expect(created.transforms[0]).toEqual({ id: t.id, name: t.name, start_time: null, topic_id: t.topic_ids[0], topic: "clean.orders" });
    expect422(await s.api("POST", "/pipelines", { body: pipelineBody(src, dst, { transforms: [{ id: t.id, topic: "other.topic" }] }) }), {
      loc: ["body", "transforms", 0, "topic"],
      type: "value_error",
    });
  });

  it("answers 409 for a duplicate name; PUT replaces in place and keeps tags when none are sent", async () => {
    const [src, dst] = [await source(), await destination()];
    const tag = await ok("POST", "/tags", { name: uniqueName("tag"), type: ["pipelines"] });
    const body = pipelineBody(src, dst, { tags: [tag.id] });
    const created = await ok("POST", "/pipelines", body);
    expectDetail(await s.api("POST", "/pipelines", { body: pipelineBody(src, dst, { name: body.name }) }), 409, /already exists/);
    const { tags: _t, ...untagged } = body;
    void _t;
    const updated = await ok("PUT", `/pipelines/${created.id}`, { ...untagged, snapshot_new_tables: false, source: { ...body.source, topics: ["public.users", "public.orders"] } });
    expect(updated.id).toBe(created.id);
    expect(updated.tags).toEqual([tag.id]);
    expect(updated.snapshot_new_tables).toBe(false);
    expect(updated.source.topics).toEqual([`source_${src.id}.public.users`, `source_${src.id}.public.orders`]);
    expectDetail(await s.api("PUT", "/pipelines/nope", { body }), 404);
  });

  it("refuses to delete a source, destination or transform a pipeline uses, naming the pipeline", async () => {
    const [src, dst] = [await source(), await destination()];
    const t = await transform();
    const p = await ok("POST", "/pipelines", pipelineBody(src, dst, { transforms: [{ id: t.id, topic: "clean.orders" }] }));
    for (const path of [`/sources/${src.id}`, `/destinations/${dst.id}`, `/transforms?id=${t.id}`]) {
      const reply = await s.api("DELETE", path);
      expectDetail(reply, 409, new RegExp(`used by pipeline '${p.name}'`));
    }
    await ok("DELETE", `/pipelines/${p.id}`);
    expectDetail(await s.api("DELETE", `/pipelines/${p.id}`), 404);
    await ok("DELETE", `/transforms?id=${t.id}`);
    await ok("DELETE", `/sources/${src.id}`);
  });

  it("with delayed deletes, a deleted pipeline stays (and holds its source) for the configured number of reads", async () => {
    const [src, dst] = [await source(), await destination()];
    const p = await ok("POST", "/pipelines", pipelineBody(src, dst));
    s.emulator.setFaults({ deleteDelayReads: 2 });
    try {
      await ok("DELETE", `/pipelines/${p.id}?wait=false`);
    } finally {
      s.emulator.setFaults({ deleteDelayReads: 0 });
    }
    expectDetail(await s.api("DELETE", `/sources/${src.id}`), 409);
    expect((await ok("GET", `/pipelines/${p.id}`)).result[0].status).toBe("Deleting");
    expect((await ok("GET", `/pipelines/${p.id}`)).result).toHaveLength(1);
    expect((await ok("GET", `/pipelines/${p.id}`)).result).toEqual([]);
    await ok("DELETE", `/sources/${src.id}`);
  });
});

describe("transforms", () => {
  it("creates with the catalogue's defaults as strings, 422 'already exists' for a duplicate name", async () => {
    const t = await transform({ tags: [] });
    expect(t).toMatchObject({ transform_type: "map_filter", status: "NOT_DEPLOYED", version: 0, start_time: null });
    expect(t.config["transforms.input.job.parallelism"]).toBe("5");
    expect(t.config["transforms.language"]).toBe("JavaScript");
    expect(t).not.toHaveProperty("tags");
    expect422(await s.api("POST", "/transforms", { body: { transform: "map_filter", config: { "transforms.name": t.name } } }), {
      loc: ["body", "config", "transforms.name"],
      msg: expect.stringContaining("already exists"),
    });
    expect422(await s.api("POST", "/transforms", { body: { transform: "map_filter", config: { "transforms.name": uniqueName("x"), "transforms.input.job.parallelism": 21 } } }), {
      type: "less_than_equal",
    });
    expect422(await s.api("POST", "/transforms", { body: { transform: "blender", config: {} } }), { loc: ["body", "transform"], type: "enum" });
  });

  it("PUT /transforms takes the id in the body and replaces the implementation (left out: cleared); the type cannot change", async () => {
    const t = await transform({ implementation: { language: "JAVASCRIPT", value_transform: "function _stk(r){return r}" } });
    expect(t.version).toBe(1);
    const config = { ...t.config, "transforms.input.job.parallelism": 7 };
    const kept = await ok("PUT", "/transforms", { id: t.id, transform: "map_filter", config, implementation: t.implementation, tags: null });
    expect(kept.version).toBe(1);
    expect(kept.config["transforms.input.job.parallelism"]).toBe("7");
    const cleared = await ok("PUT", "/transforms", { id: t.id, transform: "map_filter", config });
    expect(cleared.implementation).toEqual({});
    expect422(await s.api("PUT", "/transforms", { body: { id: t.id, transform: "rollup", config } }), { loc: ["body", "transform"], type: "value_error" });
    expectDetail(await s.api("PUT", "/transforms", { body: { id: "nope", transform: "map_filter", config } }), 404);
  });

  it("implementation versions, preview and live deploys, job status DEPLOYING then RUNNING", async () => {
    const t = await transform();
    expectDetail(await s.api("GET", `/transforms/${t.id}/job_status`), 400, /^Job not found$/);
    const impl = { language: "JAVASCRIPT", value_transform: "function _stk(record) { return record; }" };
    const saved = await ok("PUT", `/transforms/${t.id}/implementation_details`, { transform_id: t.id, implementation: impl });
    expect(saved).toMatchObject({ transform_id: t.id, version_id: "1", implementation: impl });
    const details = await ok("GET", `/transforms/${t.id}/implementation_details`);
    expect(details.impl_versions["1"]).toMatchObject({ transform_id: t.id, version_id: "1", implementation: impl });
    expect422(await s.api("PUT", `/transforms/${t.id}/deploy-job-preview/no-version?replay_window=0`), { loc: ["query", "replay_window"] });
    await ok("PUT", `/transforms/${t.id}/deploy-job-preview/no-version?replay_window=24h`);
    expectDetail(await s.api("GET", `/transforms/${t.id}/job_status`), 400, /Job not found/);
    await ok("PUT", `/transforms/${t.id}/deploy-job-live/no-version`);
    expect((await ok("GET", `/transforms/${t.id}/job_status`)).status).toBe("DEPLOYING");
    const running = await ok("GET", `/transforms/${t.id}/job_status`);
    expect(running).toMatchObject({ id: t.id, status: "RUNNING", start_time: expect.any(String) });
    const after = (await ok("GET", `/transforms/${t.id}`)).result[0];
    expect(after.topic_ids[0]).toBe(`transform_${t.id}_1.clean.orders`);
  });

  it("a job whose implementation does not parse ends FAILED with the reason", async () => {
    const t = await transform({ implementation: { language: "JAVASCRIPT", value_transform: "function _stk(record) { return record; " } });
    await ok("PUT", `/transforms/${t.id}/deploy-job-live/no-version`);
    await ok("GET", `/transforms/${t.id}/job_status`);
    const failed = await ok("GET", `/transforms/${t.id}/job_status`);
    expect(failed.status).toBe("FAILED");
    expect(failed.failure_reason).toMatch(/SyntaxError in value_transform/);
  });

  it("DELETE /transforms?id= deletes; the GET after is an empty envelope", async () => {
    const t = await transform();
    await ok("DELETE", `/transforms?id=${t.id}`);
    expect((await ok("GET", `/transforms/${t.id}`)).result).toEqual([]);
    expectDetail(await s.api("DELETE", `/transforms?id=${t.id}`), 404);
  });
});

describe("topics", () => {
  it("GET /topics/details lists every topic with its entity, filtered by entity_type and entity_id; `details` is no topic id", async () => {
    const [a, b] = [await source(), await source()];
    const reply = await s.api("GET", `/topics/details?entity_type=sources&entity_id=${a.id}&entity_id=${b.id}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ page: 1, total: 4, has_next: false });
    expect(reply.body.result.map((t: { id: string }) => t.id).sort()).toEqual(
      [`source_${a.id}.public.orders`, `source_${a.id}.public.users`, `source_${b.id}.public.orders`, `source_${b.id}.public.users`].sort(),
    );
    expect(reply.body.result[0]).toMatchObject({ name: expect.any(String), entity: { entity_type: "sources", entity_id: expect.any(String) }, serialization: { key_format: "avro" } });
    // The platform never sends these (the vendor's beta.31), nor the Kafka block in a listing.
    for (const key of ["messages_7d", "messages_30d", "kafka"]) expect(reply.body.result[0]).not.toHaveProperty(key);
    const paged = await ok("GET", `/topics/details?entity_id=${a.id}&limit=1&offset=1`);
    expect(paged).toMatchObject({ total: 2, page: 2, page_size: 1, has_next: false });
    expect((await ok("GET", `/topics/details?entity_type=transforms&entity_id=${a.id}`)).result).toEqual([]);
    expect422(await s.api("GET", "/topics/details?entity_type=galaxies"), { loc: ["query", "entity_type"] });
  });

  it("POST /topics/table_metrics answers topic id -> metrics for the tenant's topics, leaving out the others", async () => {
    const src = await source();
    const mine = `source_${src.id}.public.orders`;
    const users = `source_${src.id}.public.users`;
    await ok("PUT", `/topics/${users}`, { payload: { partition_count: 5 } });
    const reply = await s.api("POST", "/topics/table_metrics", {
      body: {
        entities: [{ id: src.id, entity_type: "sources", connector: "postgresql", topic_ids: [mine, "source_other.public.x", users], topic_db_ids: [] }],
        time_type: "latest",
        time_interval: 24,
        time_unit: "hour",
      },
    });
    expect(reply.status, reply.text).toBe(200);
    // Keyed by topic (the vendor's beta.31): the topic of a source not the tenant's is left out.
    expect(Object.keys(reply.body).sort()).toEqual([mine, users].sort());
    expect(reply.body[mine]).toEqual({
      partition_count: 3,
      replication_factor: 3,
      retention_ms: "604800000",
      last_message_timestamp: null,
      snapshot_status_json: null,
      record_error_total: 0,
    });
    expect(reply.body[users].partition_count).toBe(5);
    for (const gone of ["messages_in", "messages_out", "bytes_in", "bytes_out", "lag", "avg_latency_ms"]) expect(reply.body[mine]).not.toHaveProperty(gone);
    expect422(await s.api("POST", "/topics/table_metrics", { body: { entities: [{ id: "x" }] } }), { loc: ["body", "entities", 0, "entity_type"], type: "missing" });
    // The platform's client sends its id lists without omitempty: null when it has none.
    const nulls = await s.api("POST", "/topics/table_metrics", { body: { entities: [{ id: src.id, entity_type: "sources", connector: "postgresql", topic_ids: null, topic_db_ids: null }] } });
    expect(nulls.status, nulls.text).toBe(200);
    expect(nulls.body).toEqual({});
  });

  it("GET answers kafka.partitions.count and string configs; PUT takes the payload wrapper, grows partitions, sets and clears tags", async () => {
    const src = await source();
    const id = `source_${src.id}.public.orders`;
    const topic = await ok("GET", `/topics/${id}?detailed=true`);
    expect(topic).toMatchObject({ id, name: "public.orders", prefix: `source_${src.id}`, kafka: { partitions: { count: 3 } }, entity: { entity_type: "sources", entity_id: src.id } });
    // The platform's form (the vendor's beta.28): partitions an object, configs underscored and strings.
    expect(topic.kafka).toEqual({ partitions: { count: 3, replication_factor: 3 }, configs: { retention_ms: "604800000", cleanup_policy: "delete" } });
    const tag = await ok("POST", "/tags", { name: uniqueName("tag"), type: ["topics"] });
    const grown = await ok("PUT", `/topics/${id}`, { payload: { partition_count: 6, tags: [tag.id] } });
    expect(grown.kafka.partitions.count).toBe(6);
    expect(grown.tags).toEqual([tag.id]);
    const kept = await ok("PUT", `/topics/${id}`, { payload: { partition_count: 6 } });
    expect(kept.tags).toEqual([tag.id]);
    expect(await ok("PUT", `/topics/${id}`, { payload: { tags: [] } })).not.toHaveProperty("tags");
  });

  it("refuses fewer partitions, an empty payload, an unknown topic, and deleting a topic", async () => {
    const src = await source();
    const id = `source_${src.id}.public.users`;
    expect422(await s.api("PUT", `/topics/${id}`, { body: { payload: { partition_count: 2 } } }), {
      loc: ["body", "payload", "partition_count"],
      msg: expect.stringContaining("can only be increased"),
    });
    expect422(await s.api("PUT", `/topics/${id}`, { body: { payload: {} } }), { loc: ["body", "payload"] });
    expect422(await s.api("PUT", `/topics/${id}`, { body: { partition_count: 4 } }), { loc: ["body", "payload"], type: "missing" });
    expectDetail(await s.api("GET", `/topics/source_${src.id}.public.nope`), 404, /not found/);
    expectDetail(await s.api("PUT", `/topics/source_${src.id}.public.nope`, { body: { payload: { partition_count: 4 } } }), 404);
    expectDetail(await s.api("DELETE", `/topics/${id}`), 409, /belongs to source/);
  });
});
