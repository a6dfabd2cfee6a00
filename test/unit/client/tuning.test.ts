import { describe, expect, it } from "vitest";
import { DEFAULT_TUNING, resolveTuning, RetryBudget, SettingsError, withBudget, currentBudget } from "../../../provider/client/index.js";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("resolveTuning", () => {
  it("has documented defaults: 8 attempts, 500 ms doubling to 10 s, Retry-After capped at 30 s, 300 s per resource, at most 64 in flight, answers up to 32 MiB", () => {
    expect(resolveTuning(undefined, {})).toEqual({
      retry: { maxAttempts: 8, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 30_000 },
      resourceTimeoutMs: 300_000,
      maxConcurrency: 64,
      maxResponseBytes: 32 * 1024 * 1024,
    });
    expect(DEFAULT_TUNING.resourceTimeoutMs).toBe(300_000);
  });

  it("reads the response bound in MiB and refuses one out of range, naming the key", () => {
    expect(resolveTuning(config({ "cdc:maxResponseMiB": "2" }), {}).maxResponseBytes).toBe(2 * 1024 * 1024);
    expect(resolveTuning(undefined, { CDC_MAX_RESPONSE_MIB: "1" }).maxResponseBytes).toBe(1024 * 1024);
    expect(() => resolveTuning(config({ "cdc:maxResponseMiB": "0" }), {})).toThrow(/cdc:maxResponseMiB .*from 1 to 4096/);
  });

  it("reads stack config first, then the environment", () => {
    const t = resolveTuning(config({ "cdc:retryAttempts": "3", "cdc:resourceTimeoutSec": "60" }), {
      CDC_RETRY_ATTEMPTS: "9",
      CDC_MAX_CONCURRENCY: "2",
      CDC_RETRY_AFTER_MAX_MS: "5000",
    });
    expect(t.retry.maxAttempts).toBe(3);
    expect(t.resourceTimeoutMs).toBe(60_000);
    expect(t.maxConcurrency).toBe(2);
    expect(t.retry.maxRetryAfterMs).toBe(5000);
  });

  it("names the key, its range and the fix for a bad value", () => {
    expect(() => resolveTuning(config({ "cdc:maxConcurrency": "0" }), {})).toThrow(SettingsError);
    expect(() => resolveTuning(config({ "cdc:maxConcurrency": "0" }), {})).toThrow(
      /cdc:maxConcurrency \(or CDC_MAX_CONCURRENCY\) must be a whole number from 1 to 256, got "0".*pulumi config set cdc:maxConcurrency <n>/,
    );
    expect(() => resolveTuning(undefined, { CDC_RETRY_BASE_DELAY_MS: "1.5s" })).toThrow(/cdc:retryBaseDelayMs .* got "1.5s"/);
  });
});

describe("RetryBudget", () => {
  it("allows a wait only while it ends before the deadline, and sums up what was retried", () => {
    let now = 1000;
    const budget = new RetryBudget("source create", 5000, () => now);
    expect(budget.allows(5000)).toBe(true);
    expect(budget.allows(5001)).toBe(false);
    expect(budget.summary()).toBe("");
    budget.record("POST /sources", "503");
    budget.record("POST /sources", "503");
    budget.record("GET /sources", "UND_ERR_SOCKET");
    now = 3500;
    expect(budget.retries).toBe(3);
    expect(budget.remainingMs()).toBe(2500);
    expect(budget.summary()).toBe("3 retries over 2.5 s (POST /sources 503 ×2, GET /sources UND_ERR_SOCKET ×1)");
  });

  it("is carried through awaits to every call of the operation, and only of that operation", async () => {
    expect(currentBudget()).toBeUndefined();
    const seen = await Promise.all([
      withBudget("a", 10, async () => {
        await new Promise((r) => setTimeout(r, 5));
        return currentBudget()?.label;
      }),
      withBudget("b", 10, async () => currentBudget()?.label),
    ]);
    expect(seen).toEqual(["a", "b"]);
  });
});
