import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { Session } from "node:inspector/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueEntry, secretKeySet } from "../../../provider/catalogue.js";
import { pgSourceConfig } from "../../support/fixtures.js";
import { checkRequest, createRequest, invokeRequest, plain, startPluginHarness, type PluginHarness } from "./harness.js";

// A Source create, followed from the plugin's `create` to its POST, should read top-down: each
// file hands on to the next and none is returned to, and the connector's catalogue entry is
// looked up once by the operation and passed down, not looked up again by every helper.

const root = `${resolve(__dirname, "../../..")}/`;

/** The product files on a stack, outermost first, each once per run of frames in it. */
function filesOf(stack: string): string[] {
  const files = stack
    .split("\n")
    .map((line) => /\((\/[^)]+?):\d+:\d+\)|at (\/[^ ]+?):\d+:\d+$/.exec(line.trim()))
    .map((m) => m?.[1] ?? m?.[2])
    .filter((f): f is string => f !== undefined && f.startsWith(root) && !f.includes("/node_modules/"))
    .map((f) => f.slice(root.length))
    .filter((f) => !f.startsWith("test/"))
    .reverse();
  return files.filter((f, i) => f !== files[i - 1]);
}

/** Calls of each named function of the product between start() and stop(), by V8's precise coverage. */
async function countCalls(session: Session, run: () => Promise<void>): Promise<Map<string, number>> {
  await session.post("Profiler.takePreciseCoverage"); // resets the counters
  await run();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const calls = new Map<string, number>();
  for (const script of result) {
    if (!script.url.includes(root) || script.url.includes("/node_modules/")) continue;
    const file = script.url.slice(script.url.indexOf(root) + root.length);
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0;
      if (fn.functionName && count > 0) calls.set(`${file}:${fn.functionName}`, (calls.get(`${file}:${fn.functionName}`) ?? 0) + count);
    }
  }
  return calls;
}

describe("a Source create through the plugin", () => {
  let h: PluginHarness;
  const session = new Session();
  beforeAll(async () => {
    h = await startPluginHarness();
    // The token, fetched once: the create's own requests are what is followed.
    await h.call("invoke", invokeRequest("cdc:index:getRoles", {}));
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  });
  afterAll(async () => {
    await session.post("Profiler.stopPreciseCoverage").catch(() => undefined);
    session.disconnect();
    await h?.close();
  });

  async function checkedInputs(name: string) {
    const resp = await h.call("check", checkRequest("cdc:index:Source", name, { name, connector: "postgresql", config: pgSourceConfig }));
    return plain(resp.getInputs());
  }

  it("reaches its POST through at most 8 files, never going back to one it left", async () => {
    const inputs = await checkedInputs("orders-path");
    const stacks: string[] = [];
    const onRequest = (message: unknown) => {
      const request = (message as { request: { method: string; path: string } }).request;
      if (request.method === "POST" && request.path.startsWith("/sources")) stacks.push(new Error().stack ?? "");
    };
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100;
    subscribe("undici:request:create", onRequest);
    try {
      await h.call("create", createRequest("cdc:index:Source", "orders-path", inputs));
    } finally {
      unsubscribe("undici:request:create", onRequest);
      Error.stackTraceLimit = limit;
    }
    expect(stacks).toHaveLength(1);
    const path = filesOf(stacks[0]!);
    // The path, for whoever reads a failure: plugin host → the kind's rules → the create → the request core → the wire.
    expect(path[0], path.join(" → ")).toBe("plugin/server.ts");
    expect(path.at(-1), path.join(" → ")).toBe("provider/client/transport.ts");
    expect(path.length, path.join(" → ")).toBeLessThanOrEqual(8);
    expect(new Set(path).size, `a file is entered twice: ${path.join(" → ")}`).toBe(path.length);
  });

  it("looks the connector up in the catalogue once for the rules and once for the host, and works out its secret keys once", async () => {
    const inputs = await checkedInputs("orders-once");
    const calls = await countCalls(session, async () => {
      await h.call("create", createRequest("cdc:index:Source", "orders-once", inputs));
    });
    // One by the rules' create (passed down to the body and the outputs), one by the host marking
    // the outputs' secret paths for the engine. (The provider reads the catalogue only through
    // catalogueEntry; the in-process emulator reads it too, so findConnector is not counted.)
    expect(calls.get("provider/catalogue.ts:catalogueEntry")).toBe(2);
    // An entry's secret keys are worked out once, whoever asks.
    const entry = catalogueEntry("source", "postgresql");
    expect(secretKeySet(entry, {})).toBe(secretKeySet(entry, { "database.password": "x" }));
    expect([...secretKeySet(entry, {})]).toContain("database.password");
  });
});
