import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { anyJsonSchema, CdcClient } from "../../../provider/client/index.js";

/**
 * The platform's newest client renews its token 60 s before `expiresIn` runs out, one renewal at
 * a time, against the emulator (its tokens live 5 minutes here; the client's clock is a fake).
 */
let emu: RunningEmulator | undefined;
let api: CdcClient | undefined;
afterEach(async () => {
  await api?.close();
  await emu?.stop();
  api = emu = undefined;
});

async function start() {
  emu = await startEmulator({ port: 0, tokenTtlSeconds: 300 });
  const clock = { now: 1_700_000_000_000 };
  api = new CdcClient({ settings: { apiUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret, createdFrom: "terraform" }, now: () => clock.now });
  const renewals = () => emu!.stats().tokenRequests.accessToken + emu!.stats().tokenRequests.refresh;
  return { emu, api, clock, renewals };
}

describe("token renewal", () => {
  it("renews 60 s before expiry, not sooner, and once for many callers at that moment", async () => {
    const { api, clock, renewals } = await start();
    await api.get("/auth/roles", { schema: anyJsonSchema });
    expect(renewals()).toBe(1);

    clock.now += (300 - 61) * 1000;
    await Promise.all(Array.from({ length: 10 }, () => api.get("/auth/roles", { schema: anyJsonSchema })));
    expect(renewals()).toBe(1);

    clock.now += 2000; // 59 s left
    await Promise.all(Array.from({ length: 10 }, () => api.get("/auth/roles", { schema: anyJsonSchema })));
    expect(renewals()).toBe(2);
  });
});
