import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { anyJsonSchema, CdcClient, ConflictError, tagSchema } from "../../../provider/client/index.js";
import { tagItems } from "../../support/web.js";

// The vendor's beta.31: "say when a request was replayed after a transient failure, so an
// 'already exists' error from a retried create is not read as a name collision". The request
// core sends a request again after a 5xx or a lost answer only when repeating it is safe (GET,
// PUT, DELETE, or a call its caller marks so, as the platform's own client does its creates);
// resource creates go through createSurvivingFaults, which looks the object up instead
// (test/unit/provider/create.test.ts). Here the emulator handles a create and loses its answer.
describe("an 'already exists' answering a replayed request", () => {
  let emulator: RunningEmulator;
  let api: CdcClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new CdcClient({
      settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "terraform" },
      retry: { maxAttempts: 3 },
      // Back-off waits return at once: the faults are arranged by count, not by time.
      sleep: async () => {},
    });
  });
  afterAll(async () => {
    await api?.close();
    await emulator?.stop();
  });

  const tagsNamed = async (name: string) => tagItems(await api.get("/tags", { schema: anyJsonSchema, query: { tag_name: name } })).filter((t) => tagSchema.parse(t).name === name);

  it("says the request was sent again after its answer was lost, so the conflict need not be a name collision", async () => {
    // The create is handled, then its answer is lost: the replay meets the tag the first attempt made.
    emulator.setFaults({ loseNext: 1, routes: ["/tags"] });
    const err = await api
      .post("/tags", { schema: anyJsonSchema, body: { name: "replayed", type: ["topics"] }, idempotent: true })
      .then(() => undefined, (e: unknown) => e)
      .finally(() => emulator.setFaults({ loseNext: 0, routes: ["/"] }));
    expect(emulator.stats().faults.lost).toBe(1);
    expect(err).toBeInstanceOf(ConflictError);
    const message = (err as Error).message;
    expect(message).toMatch(/^POST \/tags failed: 409 Conflict: A tag named 'replayed' already exists \(request id [^,]+, after 2 attempts over [\d.]+ s, replayed after a lost answer \((UND_ERR_SOCKET|ECONNRESET)\)\)/);
    expect(message).toContain("an earlier attempt of this same request may have made the object, so this conflict need not be a name collision");
    expect((err as ConflictError).replayedAfter).toEqual([expect.stringMatching(/^a lost answer/)]);
    // It was made once, by the first attempt.
    expect(await tagsNamed("replayed")).toHaveLength(1);
  });

  it("says nothing of the kind when the name was taken before the request was first sent", async () => {
    await api.post("/tags", { schema: anyJsonSchema, body: { name: "taken", type: ["topics"] } });
    const err = await api.post("/tags", { schema: anyJsonSchema, body: { name: "taken", type: ["topics"] }, idempotent: true }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toMatch(/^POST \/tags failed: 409 Conflict: A tag named 'taken' already exists \(request id [^)]+\)$/);
    expect((err as ConflictError).replayedAfter).toEqual([]);
  });

  it("after a 503 the service never acted on (the emulator's), the replay simply succeeds", async () => {
    emulator.setFaults({ failNext: 1, routes: ["/tags"] });
    await api.post("/tags", { schema: anyJsonSchema, body: { name: "after-503", type: ["topics"] }, idempotent: true }).finally(() => emulator.setFaults({ failNext: 0, routes: ["/"] }));
    expect(emulator.stats().faults.failed).toBeGreaterThanOrEqual(1);
    expect(await tagsNamed("after-503")).toHaveLength(1);
  });
});
