import { describe, expect, it } from "vitest";
import { intOf, metricsOf, topicDetailSchema, topicLookupOf } from "../../../provider/topic-shapes.js";

const read = (raw: unknown) => topicLookupOf(topicDetailSchema.parse(raw));
const base = { id: "source_s1.public.orders", name: "public.orders", prefix: "source_s1", entity: { entity_type: "sources", entity_id: "s1", name: "orders" } };

describe("a topic's details", () => {
  it("reads the service's form: partitions an object, configs underscored and strings (the vendor's beta.28)", () => {
    const t = read({ ...base, kafka: { partitions: { count: 6, replication_factor: 3, min_insync_replicas: 2 }, configs: { retention_ms: "604800000", cleanup_policy: "compact" } }, tags: ["t1"] });
    expect(t).toEqual({
      id: "source_s1.public.orders",
      name: "public.orders",
      prefix: "source_s1",
      entityType: "sources",
      entityId: "s1",
      entityName: "orders",
      partitionCount: 6,
      retentionMs: 604800000,
      cleanupPolicy: "compact",
      tagIds: ["t1"],
    });
  });

  it("still reads the older form: dotted Kafka names, numbers, a bare partition count", () => {
    const t = read({ ...base, kafka: { partitions: 4, configs: { "retention.ms": 86400000, "cleanup.policy": "delete" } } });
    expect(t).toMatchObject({ partitionCount: 4, retentionMs: 86400000, cleanupPolicy: "delete" });
    expect(read({ ...base, kafka: { partitions: { count: "5" }, configs: { "retention.ms": "-1" } } })).toMatchObject({ partitionCount: 5, retentionMs: -1 });
    // The service's names win over the dotted ones when both come.
    expect(read({ ...base, kafka: { partitions: { count: 1 }, configs: { retention_ms: "1000", "retention.ms": "2000", cleanup_policy: "delete", "cleanup.policy": "compact" } } })).toMatchObject({
      retentionMs: 1000,
      cleanupPolicy: "delete",
    });
    expect(read({ ...base, partition_count: 2, tags: [{ id: "t2" }] })).toMatchObject({ partitionCount: 2, tagIds: ["t2"] });
  });

  it("leaves out what the service does not say, or says in a form that is no number", () => {
    const t = read({ ...base, kafka: { partitions: { count: 3 }, configs: { retention_ms: "a week", cleanup_policy: null } } });
    expect(t).not.toHaveProperty("retentionMs");
    expect(t).not.toHaveProperty("cleanupPolicy");
    expect(read({ id: "x.y" })).toEqual({ id: "x.y", name: "", prefix: "", entityType: "", entityId: "", entityName: "", partitionCount: 0, tagIds: [] });
  });
});

describe("intOf", () => {
  it("reads whole numbers from numbers and numeric strings only", () => {
    expect([intOf(7), intOf("604800000"), intOf(" -1 "), intOf("0")]).toEqual([7, 604800000, -1, 0]);
    expect([intOf(1.5), intOf("1.5"), intOf("1e3"), intOf(""), intOf("x"), intOf(null), intOf(undefined), intOf("99999999999999999999")]).toEqual(
      Array(8).fill(undefined),
    );
  });
});

describe("the table metrics (the vendor's beta.31)", () => {
  const row = {
    partition_count: 6,
    replication_factor: "3",
    retention_ms: "604800000",
    last_message_timestamp: "2026-09-01T10:00:00Z",
    snapshot_status_json: '{"status":"completed","tables":{"public.orders":{"rows":42}}}',
    record_error_total: 0,
  };

  it("reads a topic's row, keyed by topic: integers from strings, the snapshot status parsed", () => {
    expect(metricsOf({ "source_s1.public.orders": row }, "source_s1.public.orders", "s1")).toEqual({
      topicId: "source_s1.public.orders",
      entityId: "s1",
      partitionCount: 6,
      replicationFactor: 3,
      retentionMs: 604800000,
      lastMessageTimestamp: "2026-09-01T10:00:00Z",
      snapshotStatus: { status: "completed", tables: { "public.orders": { rows: 42 } } },
      // A reported zero stays zero.
      recordErrorTotal: 0,
    });
  });

  it("a value the service sends as null is absent; the six counters it never sends are never read", () => {
    const m = metricsOf(
      { t: { partition_count: null, replication_factor: 3, retention_ms: null, last_message_timestamp: null, snapshot_status_json: null, record_error_total: null, messages_in: 5, lag: 1 } },
      "t",
      "e",
    );
    expect(m).toEqual({ topicId: "t", entityId: "e", replicationFactor: 3 });
  });

  it("keeps snapshot text that is not JSON as it came, an object as it came, and a number timestamp as text", () => {
    expect(metricsOf({ t: { snapshot_status_json: "running", last_message_timestamp: 1767225600000 } }, "t", "e")).toEqual({
      topicId: "t",
      entityId: "e",
      snapshotStatus: "running",
      lastMessageTimestamp: "1767225600000",
    });
    expect(metricsOf({ t: { snapshot_status_json: { status: "done" } } }, "t", "e")?.snapshotStatus).toEqual({ status: "done" });
  });

  it("a topic the answer leaves out (not the tenant's) has no row", () => {
    expect(metricsOf({ other: row }, "t", "e")).toBeUndefined();
    expect(metricsOf({ t: null }, "t", "e")).toBeUndefined();
    // The older reference's entity-keyed form was never the service's: it is no row of the topic.
    expect(metricsOf({ e: { t: { messages_in: 1 } } }, "t", "e")).toBeUndefined();
  });
});
