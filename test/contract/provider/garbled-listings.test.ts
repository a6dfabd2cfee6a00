import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTenant } from "../../../cli/import/tenant.js";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { CdcClient, ResponseShapeError } from "../../../provider/client/index.js";
import { listKafkaUsers } from "../../../provider/kafka/api.js";
import { lookupTopics } from "../../../provider/lookup.js";
import { startRecordingProxy, type ProxiedAnswer, type RecordingProxy } from "../../support/recording-proxy.js";
import { seedTenant } from "../../support/tenant-seed.js";
import { webClient } from "../../support/web.js";

// Every listing and read of every kind, answered garbled: an import of the whole tenant reads
// each kind's objects by its own rules, so garbling one route at a time reaches every kind's
// listing (the tags, the credentials, the agents ...); the topics lookup reads the topic details
// and the Kafka users' listing is read on its own. Each must end in a ResponseShapeError naming
// the route, never in fewer objects.

let emulator: RunningEmulator;
let proxy: RecordingProxy;

const READERS: Record<string, (api: CdcClient) => Promise<unknown>> = {
  "an import of the whole tenant": (api) => readTenant(api, {}),
  "the topics lookup": (api) => lookupTopics(api, {}),
  "the Kafka users' listing": (api) => listKafkaUsers(api),
};
const routes: Record<string, string[]> = {};

/** `/topics/6650…` → `/topics/{id}`: one route per template, whatever objects the seed made. */
const template = (path: string) => path.replace(/\/[^/]*\d[^/]*(?=\/|$)/g, (seg) => (seg.length > 9 ? "/{id}" : seg));

const GARBLE: Record<string, (answer: ProxiedAnswer) => ProxiedAnswer> = {
  "an HTML page": () => ({ status: 200, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1>maintenance</body></html>" }),
  "a body cut off": (a) => ({ ...a, body: a.body.slice(0, Math.max(1, Math.floor(a.body.length / 2))) }),
  "another shape": () => ({ status: 200, contentType: "application/json", body: JSON.stringify({ result: "maintenance", tags: "nope" }) }),
  "items of another shape": (a) => ({ ...a, body: JSON.stringify(withStrangeItems(JSON.parse(a.body))) }),
};

/** Every list in the answer (at its top, or under result or tags) gets an item of another shape. */
function withStrangeItems(body: unknown): unknown {
  const strange = { unexpected: true };
  if (Array.isArray(body)) return [...body, strange];
  if (body && typeof body === "object") {
    const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    let changed = false;
    for (const key of ["result", "tags"]) {
      if (Array.isArray(out[key])) {
        out[key] = [...(out[key] as unknown[]), strange];
        changed = true;
      }
    }
    // An answer of one object: the object itself replaced, the envelope of an item list being absent.
    return changed ? out : strange;
  }
  return strange;
}

function client(): CdcClient {
  return new CdcClient({
    settings: { apiUrl: proxy.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "terraform" },
    retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  await seedTenant(webClient(emulator), "garbled");
  await webClient(emulator).post("/kafka-access/kafka-users", { body: { username: "garbled-reader", password: "Garbled-Passw0rd!", whitelist_ips: "10.0.0.0/8", kafka_acls: [] } });
  proxy = await startRecordingProxy(emulator.url);
  for (const [reader, read] of Object.entries(READERS)) {
    proxy.requests.length = 0;
    const api = client();
    await read(api);
    await api.close();
    routes[reader] = [...new Set(proxy.requests.filter((r) => r.method === "GET").map((r) => template(r.path)))].sort();
  }
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await emulator?.stop();
});

describe("every listing under garbled answers", () => {
  it("reaches every kind's listing: tags, topic details, credentials, Kafka users, agents among them", () => {
    expect(Object.values(routes).flat()).toEqual(
      expect.arrayContaining(["/tags", "/sources", "/destinations", "/pipelines", "/transforms", "/topics/details", "/topics/{id}", "/auth/client-credentials", "/kafka-access/kafka-users", "/agents"]),
    );
  });

  for (const [what, garble] of Object.entries(GARBLE)) {
    it(`fails with a ResponseShapeError naming the route when any one route answers ${what}`, async () => {
      const believed: string[] = [];
      for (const [reader, read] of Object.entries(READERS)) {
        for (const route of routes[reader]!) {
          proxy.rewrite = (req, answer) => (req.method === "GET" && template(req.path) === route && answer.status === 200 ? garble(answer) : undefined);
          const api = client();
          try {
            const outcome = await read(api).then(
              () => undefined,
              (err: unknown) => err,
            );
            if (!(outcome instanceof ResponseShapeError) || template(outcome.path) !== route) believed.push(`${reader}, ${route}: ${outcome instanceof Error ? outcome.message : "read without an error"}`);
          } finally {
            proxy.rewrite = undefined;
            await api.close();
          }
        }
      }
      expect(believed).toEqual([]);
    }, 120_000);
  }
});
