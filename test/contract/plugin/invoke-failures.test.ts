import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinationConnectorSchema, sourceConnectorSchema } from "../../../provider/client/index.js";
import { FUNCTIONS, type FunctionToken } from "../../../provider/kinds/index.js";
import { emptyproto, grpc, provproto, statusproto } from "../../../plugin/proto.js";
import {
  checkRequest,
  configureRequest,
  createRequest,
  deleteRequest,
  FAST_RETRIES,
  failuresOf,
  invokeRequest,
  plain,
  readRequest,
  rejection,
  secret,
  startPluginHarness,
  updateRequest,
  type PluginHarness,
} from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Props = Record<string, any>;

describe("Invoke over gRPC", () => {
  let h: PluginHarness;
  let sourceId: string;
  let tagId: string;
  beforeAll(async () => {
    h = await startPluginHarness();
    sourceId = ((await h.console.post("/sources", { body: { name: "orders-db", connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema })) as { id: string }).id;
    // A name that "orders-db" is a partial match of: the lookup is by the exact name.
    await h.console.post("/sources", { body: { name: "orders-db-replica", connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema });
    tagId = ((await h.console.post("/tags", { body: { name: "pii", description: "personal data", type: ["sources"] } })) as { id: string }).id;
  });
  afterAll(async () => h?.close());

  /** Invoke, and check that what comes back is what the schema says the function returns. */
  const invoke = async (tok: FunctionToken, args: Props) => {
    const resp = await h.call("invoke", invokeRequest(tok, args));
    if (resp.hasReturn()) {
      const returned = Object.keys(plain(resp.getReturn())).sort();
      const outputs = FUNCTIONS[tok].outputs;
      expect(returned).toEqual(expect.arrayContaining(outputs.filter((o) => o.required).map((o) => o.name)));
      for (const key of returned) expect(outputs.map((o) => o.name)).toContain(key);
    }
    return resp;
  };

  it("cdc:index:getSource finds a source by its exact name", async () => {
    const resp = await invoke("cdc:index:getSource", { name: "orders-db" });
    expect(failuresOf(resp)).toEqual([]);
    const found = plain(resp.getReturn());
    expect(found).toMatchObject({ id: sourceId, name: "orders-db", connector: "postgresql", status: "Active", topics: ["public.orders", "public.customers"] });
    // The password as the API shows it: the mask, never the value.
    expect(found.config["database.password"]).toBe("********");
    expect(JSON.stringify(found)).not.toContain(pgSourceConfig["database.password"]);
  });

  it("cdc:index:getTag finds a tag by name", async () => {
    const found = plain((await invoke("cdc:index:getTag", { name: "pii" })).getReturn());
    expect(found).toEqual({ id: tagId, name: "pii", description: "personal data", type: ["sources"], system: false });
  });

  it("cdc:index:getRoles lists the roles", async () => {
    const found = plain((await invoke("cdc:index:getRoles", {})).getReturn());
    expect(Object.keys(found)).toEqual(["roles"]);
    expect(found.roles.map((r: Props) => r.key)).toEqual(expect.arrayContaining(["admin", "editor", "viewer"]));
    expect(found.roles[0]).toMatchObject({ id: expect.stringMatching(/^role_/), name: expect.any(String), permissions: expect.any(Array) });
  });

  it("a lookup without a name fails naming `name`, with no API call", async () => {
    for (const tok of ["cdc:index:getSource", "cdc:index:getDestination", "cdc:index:getTag"] as const) {
      const before = h.emulator.stats().total;
      const resp = await invoke(tok, {});
      expect(failuresOf(resp)).toEqual([{ property: "name", reason: expect.stringContaining("is required") }]);
      expect(resp.hasReturn()).toBe(false);
      expect(h.emulator.stats().total).toBe(before);
    }
  });

  it("a name that is nobody's is an error saying so", async () => {
    const err = await rejection(invoke("cdc:index:getTag", { name: "no-such-tag" }));
    expect(err.details).toContain('no tag named "no-such-tag"');
    const src = await rejection(invoke("cdc:index:getSource", { name: "orders" }));
    expect(src.details).toMatch(/orders/);
  });

  it("an unknown function is an error listing the functions", async () => {
    const err = await rejection(h.call("invoke", invokeRequest("cdc:index:getNope", { name: "x" })));
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toContain('unknown function "cdc:index:getNope"');
    for (const tok of ["cdc:index:getRoles", "cdc:index:getSource", "cdc:index:getDestination", "cdc:index:getTag"]) expect(err.details).toContain(tok);
  });
});

/**
 * A pass-through proxy in front of the emulator that, when a destination's create is answered,
 * tells the emulator to fail that destination's pause (its `faults` routes are path prefixes, and
 * the new id is known only then). Compression is refused so the answer can be read.
 */
async function startArmingProxy(upstream: string, onCreated: (id: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = { ...req.headers, host: target.host };
      delete headers["accept-encoding"];
      const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on("data", (c: Buffer) => body.push(c));
        answer.on("end", () => {
          const raw = Buffer.concat(body);
          const path = (req.url ?? "").split("?")[0];
          if (req.method === "POST" && path === "/destinations" && (answer.statusCode ?? 500) < 300) {
            const created = JSON.parse(raw.toString("utf8")) as { id?: string; result?: { id?: string } };
            const id = created.id ?? created.result?.id;
            if (id) onCreated(id);
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(raw);
        });
      });
      forward.on("error", () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The ErrorResourceInitFailed a gRPC error carries in grpc-status-details-bin, decoded. */
function initFailure(err: { metadata?: any }) {
  const bin = err.metadata?.get("grpc-status-details-bin") as Buffer[] | undefined;
  expect(bin?.length).toBe(1);
  const status = statusproto.Status.deserializeBinary(new Uint8Array(bin![0]!));
  const details = status.getDetailsList();
  expect(details).toHaveLength(1);
  expect(details[0].getTypeUrl()).toMatch(/(^|\/)pulumirpc\.ErrorResourceInitFailed$/);
  const detail = details[0].unpack(provproto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
  return {
    code: status.getCode() as number,
    message: status.getMessage() as string,
    id: detail.getId() as string,
    properties: plain(detail.getProperties()),
    inputs: plain(detail.getInputs()),
    reasons: detail.getReasonsList() as string[],
  };
}

describe("partial failures over gRPC", () => {
  let h: PluginHarness;
  let proxy: Awaited<ReturnType<typeof startArmingProxy>>;
  let armed = false;
  beforeAll(async () => {
    // The emulator starts first; the plugin talks to it through the proxy.
    const emulatorFirst = await startPluginHarness({ configure: false });
    proxy = await startArmingProxy(emulatorFirst.emulator.url, (id) => {
      if (armed) emulatorFirst.emulator.setFaults({ failRate: 1, routes: [`/destinations/${id}/pause`] });
    });
    h = emulatorFirst;
    await h.call("configure", configureRequest({ ...h.emulator, url: proxy.url }, FAST_RETRIES));
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.stop();
  });

  const checked = async (name: string, news: Props, olds: Props = {}) => {
    const resp = await h.call("check", checkRequest("cdc:index:Destination", name, news, olds));
    expect(failuresOf(resp)).toEqual([]);
    return plain(resp.getInputs());
  };

  it("a destination created but not paused: the error carries ErrorResourceInitFailed with its id, and the next Update finishes it", async () => {
    const inputs = await checked("half", { connector: "snowflake", config: snowflakeConfig, desiredState: "paused" });
    armed = true;
    const err = await rejection(h.call("create", createRequest("cdc:index:Destination", "half", inputs))).finally(() => {
      armed = false;
    });
    h.emulator.setFaults({ failRate: 0, routes: ["/"] });
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toMatch(/could not be completed.*503/);
    expect(err.details).not.toContain(snowflakeConfig["snowflake.private.key"]);

    const failure = initFailure(err);
    expect(failure.code).toBe(grpc.status.UNKNOWN);
    expect(failure.message).toBe(err.details);
    // The object the API made, by id: the engine keeps it in the stack instead of losing it.
    const live = await h.console.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id: failure.id } });
    expect(live).toMatchObject({ id: failure.id, name: inputs.name, connector_status: "Active" });
    expect(failure.properties).toMatchObject({ name: inputs.name, connector: "snowflake", status: "Active", desiredState: "paused" });
    expect(failure.properties).not.toHaveProperty("logicalName");
    // The secret stays a secret in the properties kept, and in the inputs.
    expect(failure.properties.config["snowflake.private.key"]).toEqual(secret(expect.anything()));
    expect(JSON.stringify(failure.properties)).not.toContain(snowflakeConfig["snowflake.private.key"]);
    expect(failure.inputs.config["snowflake.private.key"]).toEqual(secret(snowflakeConfig["snowflake.private.key"]));
    expect(failure.inputs).toMatchObject({ name: inputs.name, desiredState: "paused" });

    // The engine's next `pulumi up` updates the half-made destination from what was kept.
    const updated = await h.call("update", updateRequest("cdc:index:Destination", "half", failure.id, failure.properties, inputs));
    expect(plain(updated.getProperties())).toMatchObject({ status: "Paused", desiredState: "paused" });
    await h.call("delete", deleteRequest("cdc:index:Destination", "half", failure.id, plain(updated.getProperties())));
  });

  it("an update whose pause fails is kept the same way", async () => {
    const inputs = await checked("later", { connector: "snowflake", config: snowflakeConfig });
    const created = await h.call("create", createRequest("cdc:index:Destination", "later", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    const news = await checked("later", { connector: "snowflake", config: { ...snowflakeConfig, "snowflake.schema.name": "STAGING" }, desiredState: "paused" }, inputs);
    h.emulator.setFaults({ failRate: 1, routes: [`/destinations/${id}/pause`] });
    const err = await rejection(h.call("update", updateRequest("cdc:index:Destination", "later", id, outs, news))).finally(() =>
      h.emulator.setFaults({ failRate: 0, routes: ["/"] }),
    );
    const failure = initFailure(err);
    expect(failure.id).toBe(id);
    // The config went through before the pause failed.
    expect(failure.properties).toMatchObject({ status: "Active", config: { "snowflake.schema.name": "STAGING" } });
    const read = await h.call("read", readRequest("cdc:index:Destination", "later", id, failure.properties, news));
    expect(plain(read.getProperties())).toMatchObject({ status: "Active", config: { "snowflake.schema.name": "STAGING" } });
    await h.call("delete", deleteRequest("cdc:index:Destination", "later", id, failure.properties));
  });

  it("an error with nothing made carries no details", async () => {
    const inputs = await checked("refused", { connector: "snowflake", config: snowflakeConfig });
    h.emulator.setFaults({ failRate: 1, routes: ["/destinations"] });
    const err = await rejection(h.call("create", createRequest("cdc:index:Destination", "refused", inputs))).finally(() =>
      h.emulator.setFaults({ failRate: 0, routes: ["/"] }),
    );
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toMatch(/503/);
    expect(err.metadata?.get("grpc-status-details-bin")).toEqual([]);
    expect(await h.console.listAll("/destinations", {}, destinationConnectorSchema)).toEqual([]);
  });
});

describe("Cancel over gRPC", () => {
  it("returns, and the plugin still serves afterwards", async () => {
    const h = await startPluginHarness();
    try {
      await h.call("cancel", new emptyproto.Empty());
      const resp = await h.call("invoke", invokeRequest("cdc:index:getRoles", {}));
      expect(plain(resp.getReturn()).roles.length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });
});
