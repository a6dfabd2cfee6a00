import { describe, expect, it } from "vitest";
import { ConflictError, ConnectionError, ServerError, ValidationError, withBudget, type RetryPolicy } from "../../../provider/client/index.js";
import { createSurvivingFaults, NameTakenError } from "../../../provider/resources/create.js";

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 100, maxRetryAfterMs: 1000 };
const ctx = { method: "POST", path: "/sources" };
const e503 = () => new ServerError({ ...ctx, status: 503 });
const dropped = () => new ConnectionError({ ...ctx, code: "UND_ERR_SOCKET", reason: "other side closed" });
const e409 = () => new ConflictError({ ...ctx, status: 409, detail: "A source named x already exists" });

interface Obj {
  name: string;
  connector: string;
}

/** A fake API: `outcomes` is what each POST does ("ok", "lost" = created but the answer is lost, "503", "drop"). */
function fakeApi(outcomes: string[], existing?: Obj) {
  let stored: Obj | undefined = existing;
  const log: string[] = [];
  const sleeps: number[] = [];
  return {
    log,
    sleeps,
    get stored() {
      return stored;
    },
    steps: {
      what: 'source "x"',
      send: async () => {
        const outcome = outcomes.shift() ?? "ok";
        log.push(`POST ${outcome}`);
        if (stored) throw e409();
        if (outcome === "503") throw e503();
        if (outcome === "drop") throw dropped();
        stored = { name: "x", connector: "postgresql" };
        if (outcome === "lost") throw dropped();
        return stored;
      },
      find: async () => {
        log.push("GET");
        return stored;
      },
      mismatch: (found: Obj) => (found.connector !== "postgresql" ? `a ${found.connector} connector` : undefined),
      policy,
      sleep: async (ms: number) => void sleeps.push(ms),
    },
  };
}

describe("createSurvivingFaults", () => {
  it("returns the answer when there is one", async () => {
    const api = fakeApi(["ok"]);
    await expect(createSurvivingFaults(api.steps)).resolves.toEqual({ name: "x", connector: "postgresql" });
    expect(api.log).toEqual(["POST ok"]);
  });

  it("a lost answer: the object found by name is the result, no second POST", async () => {
    const api = fakeApi(["lost"]);
    await expect(createSurvivingFaults(api.steps)).resolves.toEqual({ name: "x", connector: "postgresql" });
    expect(api.log).toEqual(["POST lost", "GET"]);
  });

  it("a 503 or a dropped connection that created nothing: sends the create again after a back-off", async () => {
    const api = fakeApi(["503", "drop", "ok"]);
    await expect(createSurvivingFaults(api.steps)).resolves.toMatchObject({ name: "x" });
    expect(api.log).toEqual(["POST 503", "GET", "POST drop", "GET", "POST ok"]);
    expect(api.sleeps).toHaveLength(2);
  });

  it("a 409 after an uncertain attempt means that attempt created it", async () => {
    const api = fakeApi(["lost"]);
    let finds = 0;
    // The first lookup fails (it is retried by the next round), the re-sent POST meets a 409.
    const steps = { ...api.steps, find: async () => (finds++ === 0 ? Promise.reject(e503()) : api.steps.find()) };
    await expect(createSurvivingFaults(steps)).resolves.toMatchObject({ name: "x" });
    expect(api.log).toEqual(["POST lost", "POST ok", "GET"]);
  });

  it("a 409 on the first attempt is someone else's object: the ConflictError goes to the caller", async () => {
    const api = fakeApi(["ok"], { name: "x", connector: "postgresql" });
    await expect(createSurvivingFaults(api.steps)).rejects.toBeInstanceOf(ConflictError);
    expect(api.log).toEqual(["POST ok"]);
  });

  it("never takes over an object of that name that is not what it sent", async () => {
    const api = fakeApi(["503"]);
    const steps = { ...api.steps, find: async () => ({ name: "x", connector: "mysql" }) };
    await expect(createSurvivingFaults(steps)).rejects.toThrow(NameTakenError);
    await expect(createSurvivingFaults({ ...steps, send: () => Promise.reject(e503()) })).rejects.toThrow(/name is taken by another object \(a mysql connector\)/);
  });

  it("does not retry what a retry cannot fix (a 422)", async () => {
    const api = fakeApi([]);
    const invalid = new ValidationError({ ...ctx, status: 422 }, [{ loc: ["body", "name"], msg: "Field required" }]);
    await expect(createSurvivingFaults({ ...api.steps, send: () => Promise.reject(invalid) })).rejects.toBe(invalid);
    expect(api.log).toEqual([]);
  });

  it("stops after the policy's attempts with an error saying what failed and that nothing was created", async () => {
    const api = fakeApi(["503", "503", "drop", "503", "503"]);
    const error = (await createSurvivingFaults(api.steps).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^source "x": create failed 4 times \(503; 503; UND_ERR_SOCKET; 503\); nothing was created \(looked up by name\); cdc:retryAttempts \(4\) allows no more\./);
    expect(error.message).toMatch(/Run `pulumi up` again when the API is back\.$/);
    expect(api.stored).toBeUndefined();
  });

  it("a 409 to its own replay it cannot look up is said to be the earlier attempt's, not a name collision", async () => {
    const api = fakeApi(["lost"]);
    // Every lookup fails: the create is sent again, and the API answers that it exists.
    const steps = { ...api.steps, find: () => Promise.reject(e503()) };
    const error = (await createSurvivingFaults(steps).catch((e: unknown) => e)) as Error;
    // The fake answers 409 to every POST once the object is stored.
    expect(api.log).toEqual(["POST lost", "POST ok", "POST ok", "POST ok"]);
    expect(error.message).toMatch(
      /^source "x": create failed 4 times \(UND_ERR_SOCKET; lookup 503; 409 after an earlier attempt; .*\); the create was sent again after UND_ERR_SOCKET and the API answered that it already exists, so an earlier attempt of this create most likely made it \(not a name collision\), but the API could not be asked for it;/,
    );
    expect(error.message).not.toMatch(/nothing was created/);
  });

  it("stops when the resource's budget would run out, and says so", async () => {
    const api = fakeApi(["503", "503", "503", "503"]);
    const slow = { ...api.steps, policy: { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 } };
    const error = (await withBudget("source create", 1000, () => createSurvivingFaults(slow)).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/create failed 1 time over \d\.\d s .*the resource's retry budget \(cdc:resourceTimeoutSec, 1 s\) is spent/);
  });
});
