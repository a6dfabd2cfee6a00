import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, type ConnectorKind } from "../../../catalogue/index.js";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../../provider/client/index.js";
import { allConfig } from "../../support/catalogue-samples.js";
import { call } from "./helpers.js";

// What the response bound (cdc:maxResponseMiB) is measured against: the largest answer the API
// gives is a full page (100) of the connector with the most keys, every key set. The bound must
// stay far above it, so no real listing is ever refused.

let emulator: RunningEmulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const reply = await call(emulator.url, "POST", "/auth/access-token", { body: { client_id: emulator.clientId, secret: emulator.clientSecret } });
  token = reply.body.accessToken;
});
afterAll(async () => {
  await emulator.stop();
});

const PAGE = 100;

function largest(kind: ConnectorKind) {
  return Object.values(CATALOGUE[kind])
    .filter((spec) => spec.family !== "api")
    .sort((a, b) => JSON.stringify(allConfig(b)).length - JSON.stringify(allConfig(a)).length)[0]!;
}

describe("the largest listing page", () => {
  for (const kind of ["source", "destination"] as const) {
    it(`of ${kind}s, 100 of the widest connector with every key set, is far under the default bound`, async () => {
      const spec = largest(kind);
      for (let i = 0; i < PAGE; i++) {
        const made = await call(emulator.url, "POST", `/${kind}s`, { token, body: { name: `wide-${kind}-${i}`, connector: spec.code, config: allConfig(spec), created_from: "terraform" } });
        expect(made.status, made.text.slice(0, 300)).toBe(200);
      }
      const page = await call(emulator.url, "GET", `/${kind}s?page=1&page_size=${PAGE}&secret_returned=true`, { token });
      expect(page.body.result).toHaveLength(PAGE);
      const bytes = Buffer.byteLength(page.text);
      console.log(`largest ${kind} page: ${PAGE} × ${spec.code}, ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(2)} MiB); bound ${DEFAULT_MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
      expect(bytes * 10).toBeLessThan(DEFAULT_MAX_RESPONSE_BYTES);
    });
  }
});
