import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDriftSink } from "../../../provider/drift.js";
import { logToEngine } from "../../../plugin/engine-log.js";
import { emptyproto, engineProto, grpc } from "../../../plugin/proto.js";
import { checkRequest, createRequest, diffRequest, plain, readRequest, startPluginHarness, urnOf, type PluginHarness } from "./harness.js";
import { consoleEdit } from "../../support/web.js";
import { snowflakeConfig } from "../../support/fixtures.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
const { engrpc, engproto } = engineProto();

interface Logged {
  severity: number;
  message: string;
  urn: string;
}

/** The engine's side of its log: a gRPC Engine service that records what the plugin logs. */
async function startFakeEngine(): Promise<{ address: string; logged: Logged[]; stop(): Promise<void> }> {
  const logged: Logged[] = [];
  const server = new grpc.Server();
  server.addService(engrpc.EngineService, {
    log: (call: any, callback: any) => {
      const req = call.request;
      logged.push({ severity: req.getSeverity(), message: req.getMessage(), urn: req.getUrn() });
      callback(null, new emptyproto.Empty());
    },
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, logged, stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())) };
}

describe("drift reports go to the engine's log, under the resource", () => {
  let h: PluginHarness;
  let engine: Awaited<ReturnType<typeof startFakeEngine>>;
  beforeAll(async () => {
    engine = await startFakeEngine();
    // As main.ts does with the address the engine starts the plugin with.
    logToEngine(engine.address);
    h = await startPluginHarness();
  });
  afterAll(async () => {
    setDriftSink((t) => process.stderr.write(t));
    await h?.close();
    await engine?.stop();
  });

  it("a console edit found by Diff is logged as a warning naming the key, with the secret masked", async () => {
    const inputs = plain((await h.call("check", checkRequest("cdc:index:Destination", "wh", { connector: "snowflake", config: snowflakeConfig }))).getInputs());
    const created = await h.call("create", createRequest("cdc:index:Destination", "wh", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    await h.newOperation();
    await consoleEdit(h.console, "destination", id, { config: { "snowflake.schema.name": "HOTFIX" } });
    expect(engine.logged).toEqual([]);
    await h.call("diff", diffRequest("cdc:index:Destination", "wh", id, outs, inputs, inputs));
    // One warning for the diff (the engine's Log call is not awaited by the RPC: poll for it).
    await expect.poll(() => engine.logged.length).toBe(1);
    for (const entry of engine.logged) {
      expect(entry.severity).toBe(engproto.LogSeverity.WARNING);
      expect(entry.urn).toBe(urnOf("cdc:index:Destination", "wh"));
      expect(entry.message).toMatch(new RegExp(`^drift: destination "${inputs.name}" \\(${id}\\) changed outside Pulumi`));
      expect(entry.message).toContain("+snowflake.schema.name: HOTFIX");
      expect(entry.message).not.toContain(snowflakeConfig["snowflake.private.key"]);
      expect(entry.message).not.toMatch(/\n$/);
    }
    // A refresh shows what it found as the refresh's own diff, and in the outputs' drift report.
    await h.newOperation();
    const read = await h.call("read", readRequest("cdc:index:Destination", "wh", id, outs, inputs));
    expect(plain(read.getProperties()).drift).toMatchObject({ detected: true, changedKeys: ["snowflake.schema.name"] });
  });
});
