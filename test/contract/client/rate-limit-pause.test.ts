import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

// A 429 tells the client that the API is over its limit for this caller, not only for the one
// request that got it: every other request of the same client waits out the Retry-After too,
// instead of earning 429s of its own. The waits go through an injected sleep that the test
// releases, so nothing here depends on timing.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ok = z.looseObject({ ok: z.boolean() });

/** A sleep that records each wait and returns only when released. */
function gatedSleep() {
  const waits: number[] = [];
  const pending: Array<() => void> = [];
  return {
    waits,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        waits.push(ms);
        pending.push(resolve);
      }),
    release: () => pending.splice(0).forEach((resolve) => resolve()),
  };
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await delay(5);
  expect(condition()).toBe(true);
}

describe("a 429 pauses the whole client", () => {
  it("holds back the client's other requests until its Retry-After has passed, and no other client's", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources", ({ res, call }) => (call === 1 ? sendJson(res, 429, { detail: "slow down" }, { "retry-after": "2" }) : sendJson(res, 200, { ok: true })));
    h.api.route("GET", "/destinations", ({ res }) => sendJson(res, 200, { ok: true }));
    const gate = gatedSleep();
    const client = h.makeClient({ sleep: gate.sleep });
    const other = h.makeClient({ sleep: gate.sleep });

    const first = client.get("/sources", { schema: ok });
    await until(() => gate.waits.length === 1);
    expect(gate.waits).toEqual([2000]);

    // Asked for while the pause runs: it waits the rest of it before anything is sent.
    const second = client.get("/destinations", { schema: ok });
    await until(() => gate.waits.length === 2);
    expect(gate.waits).toEqual([2000, 2000]);
    expect(h.api.requestsTo("GET", "/destinations")).toHaveLength(0);

    // Another client object, with a pool of its own, is not held back.
    await expect(other.get("/destinations", { schema: ok })).resolves.toEqual({ ok: true });
    expect(h.api.requestsTo("GET", "/destinations")).toHaveLength(1);

    h.clock.now += 2000;
    gate.release();
    await expect(first).resolves.toEqual({ ok: true });
    await expect(second).resolves.toEqual({ ok: true });
    expect(h.api.requestsTo("GET", "/sources")).toHaveLength(2);
    expect(h.api.requestsTo("GET", "/destinations")).toHaveLength(2);

    // The pause is over: the next request goes out at once.
    await expect(client.get("/destinations", { schema: ok })).resolves.toEqual({ ok: true });
    expect(gate.waits).toHaveLength(2);
  });
});
