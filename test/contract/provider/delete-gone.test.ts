import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provider, type ResourceKind } from "../../../provider/index.js";
import { startHarness, type ProviderHarness } from "./harness.js";

/**
 * The platform's newest client counts a 404 on delete as success, for every kind: the object is
 * gone, which is what a delete wants (deleted in the console, or a retried DELETE whose first
 * answer was lost). Topics and SMT chains send no DELETE, so they are not here.
 */
const GONE: Array<[ResourceKind, string, Record<string, unknown>, string]> = [
  ["Source", "src-gone", {}, "DELETE /sources/:source_id"],
  ["Destination", "dst-gone", {}, "DELETE /destinations/:destination_id"],
  ["Tag", "tag-gone", {}, "DELETE /tags/:tag_id"],
  ["ClientCredential", "cdc-gone", {}, "DELETE /auth/client-credentials/:client_id"],
  ["HttpConnection", "http-gone", {}, "DELETE /agents/connections/http/:connection_id"],
  ["LlmConnection", "llm-gone", {}, "DELETE /agents/connections/llm/:connection_id"],
  ["Agent", "agent-gone", {}, "DELETE /agents/:job_id"],
  ["Pipeline", "pipe-gone", { name: "gone" }, "DELETE /pipelines/:pipeline_id"],
  ["Transform", "tr-gone", { name: "gone" }, "DELETE /transforms"],
  ["KafkaUser", "user-gone", { username: "user-gone" }, "DELETE /kafka-access/kafka-users/:username"],
  ["TopicDestination", "source_gone.hubspot.contacts|dst-gone", {}, "DELETE /topics/:topic_id/destinations/:destination_id"],
];

describe("a delete answered 404", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it.each(GONE)("is a success for a %s", async (kind, id, props, route) => {
    h.emulator.resetStats();
    const remove = provider(kind).delete as (id: string, props: Record<string, unknown>) => Promise<void>;
    await expect(remove(id, props)).resolves.toBeUndefined();
    // The DELETE was sent and refused as unknown, not skipped.
    expect(h.emulator.stats().requests[route]).toBe(1);
  });
});
