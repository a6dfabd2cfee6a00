import { afterEach, describe, expect, it } from "vitest";
import { lookupTopicMetrics } from "../../../provider/lookup.js";
import { sendJson } from "../client/fake-api.js";
import { startHarness, type Harness } from "../client/harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const entity = { entity_type: "sources", entity_id: "s1", name: "orders", connector: "postgresql", topic_ids: ["source_s1.public.a", "source_s1.public.b"], topic_db_ids: ["db-a", "db-b"] };

// The emulator answers for every topic it lets the tenant read; a service that reads a topic but
// leaves it out of the metrics (it is another tenant's) is played by a tiny server on 127.0.0.1.
describe("getTopicMetrics against a service that leaves a topic out", () => {
  it("sends each topic with its entity and table, reads the topic-keyed answer, and warns naming the topic left out", async () => {
    h = await startHarness();
    h.api.route("GET", "/topics/{id}", ({ res, seen }) => {
      const id = decodeURIComponent(seen.path.slice("/topics/".length));
      sendJson(res, 200, { id, name: id.slice(id.indexOf(".") + 1), prefix: "source_s1", entity, kafka: { partitions: { count: 3, replication_factor: 3 }, configs: { retention_ms: "1000", cleanup_policy: "delete" } } });
    });
    h.api.route("POST", "/topics/table_metrics", ({ res }) =>
      sendJson(res, 200, {
        "source_s1.public.a": {
          partition_count: 3,
          replication_factor: 3,
          retention_ms: "1000",
          last_message_timestamp: "2026-09-09T08:00:00Z",
          snapshot_status_json: '{"state":"done"}',
          record_error_total: "2",
        },
      }),
    );
    const warnings: string[] = [];
    const metrics = await lookupTopicMetrics(h.client, { ids: ["source_s1.public.b", "source_s1.public.a"] }, (m) => void warnings.push(m));
    expect(metrics).toEqual([
      {
        topicId: "source_s1.public.a",
        entityId: "s1",
        partitionCount: 3,
        replicationFactor: 3,
        retentionMs: 1000,
        lastMessageTimestamp: "2026-09-09T08:00:00Z",
        snapshotStatus: { state: "done" },
        recordErrorTotal: 2,
      },
    ]);
    expect(warnings).toEqual([expect.stringMatching(/^topic "source_s1\.public\.b" left out of the metrics: not this tenant's/)]);
    const [sent] = h.api.requestsTo("POST", "/topics/table_metrics");
    expect(sent!.body).toEqual({
      entities: [{ id: "s1", entity_type: "sources", connector: "postgresql", topic_ids: ["source_s1.public.b", "source_s1.public.a"], topic_db_ids: ["db-b", "db-a"] }],
    });
  });
});
