import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../support/process.js";
import { CLIENT_ID, CLIENT_SECRET, FakeApi } from "./fake-api.js";

// A 2xx far over the bound (cdc:maxResponseMiB) must not grow the process by its size: before the
// bound, a 64 MiB answer grew a provider process by about 196 MiB. The client runs in a process
// of its own, so its peak resident memory is its own; the server streams with back-pressure, so
// it sends only what the client reads.

const CLIENT = resolve(__dirname, "..", "..", "..", "dist", "provider", "client", "index.js");
const MiB = 1024 * 1024;
const BODY = 128 * MiB;
const BOUND = 8 * MiB;
// The client's own buffers beyond the bound (socket and stream buffers, the error): generous,
// and far under what reading the body whole costs (several times BODY).
const CONSTANT = 48 * MiB;

let api: FakeApi;
beforeAll(async () => {
  api = await new FakeApi().start();
  api.route("GET", "/sources", async ({ res }) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"result": [');
    const chunk = Buffer.from('"padding-padding-padding-padding",'.repeat(2000));
    let closed = false;
    res.on("close", () => (closed = true));
    // Bounded by BODY; each write waits for the client to take the last (back-pressure).
    for (let sent = 0; sent < BODY && !closed; sent += chunk.length) {
      if (!res.write(chunk)) await new Promise((done) => res.once("drain", done).once("close", done));
    }
    if (!closed) res.end('"end"]}');
  });
});
afterAll(async () => {
  await api.stop();
});

const child = `
const { CdcClient, anyJsonSchema } = require(process.env.CLIENT);
const client = new CdcClient({
  settings: { apiUrl: process.env.API, clientId: process.env.ID, clientSecret: process.env.SECRET, createdFrom: "terraform" },
  maxResponseBytes: Number(process.env.BOUND),
  retry: { maxAttempts: 1 },
});
const before = process.memoryUsage().rss;
client.get("/sources", { schema: anyJsonSchema }).then(
  () => console.log(JSON.stringify({ read: true })),
  (err) => console.log(JSON.stringify({ name: err.name, message: err.message, growth: process.resourceUsage().maxRSS * 1024 - before })),
).finally(() => client.close());
`;

describe("an answer over the size bound", () => {
  it.skipIf(!existsSync(CLIENT))(`of ${BODY / MiB} MiB, with a bound of ${BOUND / MiB} MiB, fails clearly and grows the process by less than the bound plus ${CONSTANT / MiB} MiB`, async () => {
    const r = await run(process.execPath, ["-e", child], {
      env: { ...process.env, NODE_OPTIONS: "", CLIENT, API: api.url, ID: CLIENT_ID, SECRET: CLIENT_SECRET, BOUND: String(BOUND) },
      timeout: 120_000,
    });
    expect(r.code, r.output).toBe(0);
    const outcome = JSON.parse(r.stdout.trim().split("\n").pop()!) as { name: string; message: string; growth: number };
    expect(outcome.name).toBe("ResponseTooLargeError");
    expect(outcome.message).toMatch(/GET \/sources failed: 200 OK: unexpected response body: body is over the bound of 8388608 bytes \(cdc:maxResponseMiB\), not read further/);
    expect(outcome.growth).toBeLessThan(BOUND + CONSTANT);
  });
});
