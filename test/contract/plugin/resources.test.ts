import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinationConnectorSchema, sourceConnectorSchema } from "../../../provider/client/index.js";
import { setDriftSink } from "../../../provider/drift.js";
import { KINDS } from "../../../provider/kinds/index.js";
import { emptyproto, grpc, provproto } from "../../../plugin/proto.js";
import { consoleEdit } from "../../support/web.js";
import {
  checkRequest,
  createRequest,
  deleteRequest,
  diffRequest,
  failuresOf,
  invokeRequest,
  plain,
  readRequest,
  rejection,
  secret,
  SIG_KEY,
  startPluginHarness,
  UNKNOWN,
  updateRequest,
  type PluginHarness,
} from "./harness.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Props = Record<string, any>;

const Changes = provproto.DiffResponse.DiffChanges;
const Kind = provproto.PropertyDiff.Kind;

/** The detailedDiff map as plain data: path → {kind, inputDiff}. */
function detailed(resp: any): Record<string, { kind: number; inputDiff: boolean }> {
  const out: Record<string, { kind: number; inputDiff: boolean }> = {};
  resp.getDetaileddiffMap().forEach((d: any, path: string) => {
    out[path] = { kind: d.getKind(), inputDiff: d.getInputdiff() };
  });
  return out;
}

describe("Check over gRPC", () => {
  let h: PluginHarness;
  beforeAll(async () => {
    h = await startPluginHarness();
    // The plugin's token, fetched once: from here on any request the emulator sees is a real call.
    await h.call("invoke", invokeRequest("cdc:index:getRoles", {}));
  });
  afterAll(async () => h?.close());

  /** Check's failures, and how many requests the emulator saw meanwhile. */
  async function check(type: string, news: Props, olds: Props = {}) {
    const before = h.emulator.stats().total;
    const resp = await h.call("check", checkRequest(type, "orders", news, olds));
    return { resp, failures: failuresOf(resp), inputs: plain(resp.getInputs()), requests: h.emulator.stats().total - before };
  }

  it("names a key that is not in the catalogue's form, suggesting the near miss, with no API call", async () => {
    const { failures, requests } = await check("cdc:index:Source", { connector: "postgresql", config: { ...pgSourceConfig, "database.hostname.user.define": "db" } });
    expect(failures).toEqual([
      { property: 'config["database.hostname.user.define"]', reason: expect.stringContaining('did you mean "database.hostname.user.defined"?') },
    ]);
    expect(requests).toBe(0);
  });

  it("names a value of the wrong type and one out of range, with no API call", async () => {
    const abc = await check("cdc:index:Source", { connector: "postgresql", config: { ...pgSourceConfig, "database.port.user.defined": "abc" } });
    expect(abc.failures).toEqual([{ property: 'config["database.port.user.defined"]', reason: expect.stringContaining('must be a whole number, got "abc"') }]);
    expect(abc.requests).toBe(0);
    const far = await check("cdc:index:Source", { connector: "postgresql", config: { ...pgSourceConfig, "database.port.user.defined": 99999 } });
    expect(far.failures).toEqual([
      { property: 'config["database.port.user.defined"]', reason: expect.stringMatching(/between 1 and 65535.*got 99999.*helper property databasePort/) },
    ]);
    expect(far.requests).toBe(0);
  });

  it("names a missing required key, with no API call", async () => {
    const { "database.user": _user, ...config } = pgSourceConfig;
    void _user;
    const { failures, requests } = await check("cdc:index:Source", { connector: "postgresql", config });
    expect(failures).toEqual([{ property: 'config["database.user"]', reason: expect.stringContaining("is required by the postgresql source connector") }]);
    expect(requests).toBe(0);
  });

  it("refuses an unknown type token, listing the kinds", async () => {
    const err = await rejection(h.call("check", checkRequest("cdc:index:Nope", "x", { name: "x" })));
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toContain('unknown resource type "cdc:index:Nope"');
    for (const kind of ["Source", "Destination", "Tag", "ClientCredential", "HttpConnection", "LlmConnection", "Agent", "Pipeline", "Transform", "Topic"]) {
      expect(err.details).toContain(`cdc:index:${kind}`);
    }
  });

  it("returns the inputs with the catalogue's secret keys wrapped as secrets, even when sent plain, and no logicalName", async () => {
    const { failures, inputs, requests } = await check("cdc:index:Source", { connector: "postgresql", config: pgSourceConfig });
    expect(failures).toEqual([]);
    expect(requests).toBe(0);
    expect(inputs.config["database.password"]).toEqual(secret(pgSourceConfig["database.password"]));
    // Only the secret keys are wrapped.
    expect(inputs.config["database.user"]).toBe("cdc");
    expect(inputs).not.toHaveProperty("logicalName");
    expect(inputs).not.toHaveProperty("__provider");
    // The autoname is based on the URN's resource name.
    expect(inputs.name).toMatch(/^orders-[0-9a-f]{8}$/);
    expect(inputs).toMatchObject({ connector: "postgresql", desiredState: "active" });

    // With olds: the name carries over.
    const again = await check("cdc:index:Source", { connector: "postgresql", config: { ...pgSourceConfig, "database.dbname": "shop2" } }, inputs);
    expect(again.inputs.name).toBe(inputs.name);
    // A value the program marked secret stays secret, even where the catalogue does not say so.
    const marked = await check("cdc:index:Source", { connector: "postgresql", config: { ...pgSourceConfig, "database.user": secret("cdc") } });
    expect(marked.inputs.config["database.user"]).toEqual(secret("cdc"));
  });

  it("a ClientCredential's inputs hold nothing secret yet; a Tag's failures name the property path", async () => {
    const cred = await check("cdc:index:ClientCredential", { roleIds: ["role_viewer"], description: "ci" });
    expect(cred.failures).toEqual([]);
    expect(cred.inputs).toEqual({ roleIds: ["role_viewer"], description: "ci" });
    const tag = await check("cdc:index:Tag", { type: ["sources", "nope"], description: 5 });
    expect(tag.failures).toEqual(
      expect.arrayContaining([
        { property: "type[1]", reason: expect.stringContaining("must be one of environment, general, sources") },
        { property: "description", reason: "must be a string" },
      ]),
    );
    expect(tag.requests).toBe(0);
  });
});

describe("Create, Read, Update, Delete and Diff over gRPC", () => {
  let h: PluginHarness;
  /** Drift reports (the plugin sends them to the engine's log; engine-log.test.ts covers that path). */
  const drift: string[] = [];
  beforeAll(async () => {
    setDriftSink((text) => drift.push(text));
    h = await startPluginHarness();
  });
  afterAll(async () => {
    setDriftSink((text) => process.stderr.write(text));
    await h?.close();
  });

  const checked = async (type: string, name: string, news: Props, olds: Props = {}) => {
    const resp = await h.call("check", checkRequest(type, name, news, olds));
    expect(failuresOf(resp)).toEqual([]);
    return plain(resp.getInputs());
  };

  it("Source: a preview Create makes no API call and leaves the API's outputs unknown", async () => {
    const inputs = await checked("cdc:index:Source", "orders", { connector: "postgresql", config: pgSourceConfig });
    const before = h.emulator.stats().total;
    const resp = await h.call("create", createRequest("cdc:index:Source", "orders", inputs, true));
    expect(h.emulator.stats().total).toBe(before);
    expect(resp.getId()).toBe("");
    const props = plain(resp.getProperties());
    expect(props).toMatchObject({ name: inputs.name, connector: "postgresql", config: inputs.config });
    for (const output of ["status", "displayName", "createdTimestamp", "tenantId", "topics", "topicIds", "topicMap", "drift"]) expect(props[output]).toBe(UNKNOWN);
    expect(props.config["database.password"]).toEqual(secret(pgSourceConfig["database.password"]));
  });

  it("Source: Create, Read (clean, then gone), Update (preview and real), Delete", async () => {
    const inputs = await checked("cdc:index:Source", "orders", { connector: "postgresql", config: pgSourceConfig });
    const created = await h.call("create", createRequest("cdc:index:Source", "orders", inputs));
    const id: string = created.getId();
    expect(id).toMatch(/^[0-9a-f]+$/);
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ name: inputs.name, connector: "postgresql", status: "Active", desiredState: "active", topics: ["public.orders", "public.customers"] });
    expect(outs).not.toHaveProperty("logicalName");
    // The password's output is its digest, still wrapped as a secret; the value itself never comes back.
    expect(outs.config["database.password"]).toEqual(secret({ secretDigest: expect.stringMatching(/^[0-9a-f]{32}$/) }));
    expect(JSON.stringify(outs)).not.toContain(pgSourceConfig["database.password"]);
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } });
    expect(live).toMatchObject({ name: inputs.name, created_from: "terraform" });

    // Diff of the state against the same program: nothing to do.
    const same = await h.call("diff", diffRequest("cdc:index:Source", "orders", id, outs, inputs, inputs));
    expect(same.getChanges()).toBe(Changes.DIFF_NONE);
    expect(same.getReplacesList()).toEqual([]);

    // Refresh of a clean source: the same id, outputs as recorded, no inputs (the engine keeps its own).
    const read = await h.call("read", readRequest("cdc:index:Source", "orders", id, outs, inputs));
    expect(read.getId()).toBe(id);
    expect(read.hasInputs()).toBe(false);
    expect(plain(read.getProperties())).toMatchObject({ name: inputs.name, status: "Active", config: { "database.password": secret(expect.anything()) } });

    // Update: a preview writes nothing; the real one pauses and changes the tables.
    const news = await checked("cdc:index:Source", "orders", { connector: "postgresql", config: { ...pgSourceConfig, "table.include.list.user.defined": "public.orders" }, desiredState: "paused" }, inputs);
    const diff = await h.call("diff", diffRequest("cdc:index:Source", "orders", id, outs, news, inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_SOME);
    expect(detailed(diff)).toMatchObject({ 'config["table.include.list.user.defined"]': { kind: Kind.UPDATE, inputDiff: true } });
    expect(diff.getReplacesList()).toEqual([]);
    const before = h.emulator.stats().total;
    const planned = await h.call("update", updateRequest("cdc:index:Source", "orders", id, outs, news, true));
    expect(h.emulator.stats().total).toBe(before);
    expect(plain(planned.getProperties())).toMatchObject({ desiredState: "paused", status: UNKNOWN });
    const updated = await h.call("update", updateRequest("cdc:index:Source", "orders", id, outs, news));
    const updatedOuts = plain(updated.getProperties());
    expect(updatedOuts).toMatchObject({ status: "Paused", desiredState: "paused", topics: ["public.orders"] });
    expect(updatedOuts.config["database.password"]).toEqual(secret(expect.anything()));
    expect((await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!.connector_status).toBe("Paused");

    await h.call("delete", deleteRequest("cdc:index:Source", "orders", id, updatedOuts));
    expect(await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } })).toBeUndefined();
    // Refresh of a source deleted outside Pulumi (here: by the Delete): an empty id, so the engine drops it.
    const gone = await h.call("read", readRequest("cdc:index:Source", "orders", id, updatedOuts, news));
    expect(gone.getId()).toBe("");
    // Deleting what is already gone succeeds.
    await expect(h.call("delete", deleteRequest("cdc:index:Source", "orders", id, updatedOuts))).resolves.toBeInstanceOf(emptyproto.Empty);
  });

  it("Source: values unknown in a preview (outputs of resources not yet made) pass Check and show in Diff and the planned Update", async () => {
    const inputs = await checked("cdc:index:Source", "pending", { connector: "postgresql", config: pgSourceConfig });
    const created = await h.call("create", createRequest("cdc:index:Source", "pending", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    const before = h.emulator.stats().total;
    const news = await checked(
      "cdc:index:Source",
      "pending",
      { connector: "postgresql", config: { ...pgSourceConfig, "database.hostname.user.defined": UNKNOWN, "database.password": secret(UNKNOWN) }, tags: [UNKNOWN] },
      inputs,
    );
    expect(news.config["database.hostname.user.defined"]).toBe(UNKNOWN);
    expect(news.config["database.password"]).toEqual(secret(UNKNOWN));
    expect(news.tags).toEqual([UNKNOWN]);
    expect(h.emulator.stats().total).toBe(before);
    const diff = await h.call("diff", diffRequest("cdc:index:Source", "pending", id, outs, news, inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_SOME);
    expect(diff.getReplacesList()).toEqual([]);
    expect(detailed(diff)).toMatchObject({ 'config["database.hostname.user.defined"]': { kind: Kind.UPDATE, inputDiff: true } });
    expect([...diff.getDiffsList()].sort()).toEqual(["config", "tags"]);
    const planned = await h.call("update", updateRequest("cdc:index:Source", "pending", id, outs, news, true));
    expect(plain(planned.getProperties())).toMatchObject({ name: inputs.name, config: { "database.hostname.user.defined": UNKNOWN }, tags: [UNKNOWN], status: UNKNOWN });
    await h.call("delete", deleteRequest("cdc:index:Source", "pending", id, outs));
  });

  it("Destination: a console edit of snowflake.schema.name is a detailed diff of that key; an ingestion.mode change replaces", async () => {
    const base = { connector: "snowflake", config: { ...snowflakeConfig, "ingestion.mode": "append" } };
    const inputs = await checked("cdc:index:Destination", "wh", base);
    expect(inputs.config["snowflake.private.key"]).toEqual(secret(snowflakeConfig["snowflake.private.key"]));
    const created = await h.call("create", createRequest("cdc:index:Destination", "wh", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ status: "Active", connector: "snowflake", config: { "snowflake.schema.name": "RAW" } });

    const clean = await h.call("diff", diffRequest("cdc:index:Destination", "wh", id, outs, inputs, inputs));
    expect(clean.getChanges()).toBe(Changes.DIFF_NONE);
    expect(clean.getDiffsList()).toEqual([]);
    expect(clean.getDetaileddiffMap().getLength()).toBe(0);

    // A person sets another schema in the web console (the key sent as the mask keeps its value).
    // The next preview is another engine operation, with a plugin process of its own.
    await h.newOperation();
    await consoleEdit(h.console, "destination", id, { config: { "snowflake.schema.name": "MANUAL" } });
    const drifted = await h.call("diff", diffRequest("cdc:index:Destination", "wh", id, outs, inputs, inputs));
    expect(drifted.getChanges()).toBe(Changes.DIFF_SOME);
    expect(drifted.getHasdetaileddiff()).toBe(true);
    expect(detailed(drifted)).toEqual({ 'config["snowflake.schema.name"]': { kind: Kind.UPDATE, inputDiff: true } });
    expect(drifted.getDiffsList()).toEqual(["config"]);
    expect(drifted.getReplacesList()).toEqual([]);
    expect(drift).toEqual([expect.stringContaining("+snowflake.schema.name: MANUAL")]);

    // Refresh (its own operation) takes the live schema into the stack: outputs and inputs both, the key still secret.
    await h.newOperation();
    const read = await h.call("read", readRequest("cdc:index:Destination", "wh", id, outs, inputs));
    expect(read.getId()).toBe(id);
    const readProps = plain(read.getProperties());
    expect(readProps.drift).toMatchObject({ detected: true, changedKeys: ["snowflake.schema.name"] });
    expect(readProps.config["snowflake.schema.name"]).toBe("MANUAL");
    const readInputs = plain(read.getInputs());
    expect(readInputs.config["snowflake.schema.name"]).toBe("MANUAL");
    expect(readInputs.config["snowflake.private.key"]).toEqual(secret(expect.anything()));
    expect(readInputs).not.toHaveProperty("logicalName");

    // Update puts the program's schema back.
    const updated = await h.call("update", updateRequest("cdc:index:Destination", "wh", id, readProps, inputs));
    const updatedOuts = plain(updated.getProperties());
    expect(updatedOuts.config["snowflake.schema.name"]).toBe("RAW");
    const live = await h.console.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id } });
    expect(live!.config!["snowflake.schema.name"]).toBe("RAW");
    // The key's value was kept by the API (the update sends the program's), never returned.
    expect(JSON.stringify(updatedOuts)).not.toContain(snowflakeConfig["snowflake.private.key"]);
    expect((await h.call("diff", diffRequest("cdc:index:Destination", "wh", id, updatedOuts, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);

    // ingestion.mode cannot change in place.
    const upsert = await checked("cdc:index:Destination", "wh", { ...base, config: { ...base.config, "ingestion.mode": "upsert" } }, inputs);
    const replacing = await h.call("diff", diffRequest("cdc:index:Destination", "wh", id, updatedOuts, upsert, inputs));
    expect(replacing.getChanges()).toBe(Changes.DIFF_SOME);
    expect(replacing.getReplacesList()).toEqual(['config["ingestion.mode"]']);
    expect(detailed(replacing)['config["ingestion.mode"]']).toEqual({ kind: Kind.UPDATE_REPLACE, inputDiff: true });
    expect(replacing.getDiffsList()).toContain("config");
    // Autonamed: the replacement gets a new name, so it is created before the original is deleted.
    expect(replacing.getDeletebeforereplace()).toBe(false);
    const named = await checked("cdc:index:Destination", "wh", { ...base, name: inputs.name, config: { ...base.config, "ingestion.mode": "upsert" } }, inputs);
    const namedDiff = await h.call("diff", diffRequest("cdc:index:Destination", "wh", id, updatedOuts, named, inputs));
    expect(namedDiff.getDeletebeforereplace()).toBe(true);

    await h.call("delete", deleteRequest("cdc:index:Destination", "wh", id, updatedOuts));
    expect((await h.call("read", readRequest("cdc:index:Destination", "wh", id, updatedOuts, inputs))).getId()).toBe("");
  });

  it("Tag: Create, Diff, Update, Read, Delete", async () => {
    const inputs = await checked("cdc:index:Tag", "pii", { description: "personal data", type: ["sources", "destinations"] });
    expect(inputs.name).toMatch(/^pii-/);
    const preview = await h.call("create", createRequest("cdc:index:Tag", "pii", inputs, true));
    expect(plain(preview.getProperties())).toMatchObject({ name: inputs.name, system: UNKNOWN, custom: UNKNOWN });
    const created = await h.call("create", createRequest("cdc:index:Tag", "pii", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ name: inputs.name, description: "personal data", type: ["sources", "destinations"], custom: true, system: false });
    expect((await h.call("diff", diffRequest("cdc:index:Tag", "pii", id, outs, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);

    const news = await checked("cdc:index:Tag", "pii", { description: "PII", type: ["sources", "destinations"] }, inputs);
    const diff = await h.call("diff", diffRequest("cdc:index:Tag", "pii", id, outs, news, inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_SOME);
    expect(diff.getReplacesList()).toEqual([]);
    const updated = await h.call("update", updateRequest("cdc:index:Tag", "pii", id, outs, news));
    const updatedOuts = plain(updated.getProperties());
    expect(updatedOuts).toMatchObject({ description: "PII", name: inputs.name });
    const read = await h.call("read", readRequest("cdc:index:Tag", "pii", id, updatedOuts, news));
    expect(read.getId()).toBe(id);
    expect(plain(read.getProperties())).toMatchObject({ description: "PII" });

    await h.call("delete", deleteRequest("cdc:index:Tag", "pii", id, updatedOuts));
    expect((await h.call("read", readRequest("cdc:index:Tag", "pii", id, updatedOuts, news))).getId()).toBe("");
  });

  it("ClientCredential: the secret output is wrapped as a secret and kept by an in-place Update; a service id replaces; Delete revokes it", async () => {
    const inputs = await checked("cdc:index:ClientCredential", "ci", { roleIds: ["role_viewer"], description: "ci" });
    const preview = await h.call("create", createRequest("cdc:index:ClientCredential", "ci", inputs, true));
    expect(plain(preview.getProperties())).toMatchObject({ clientId: UNKNOWN, secret: UNKNOWN });
    const created = await h.call("create", createRequest("cdc:index:ClientCredential", "ci", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ clientId: id, roleIds: ["role_viewer"], description: "ci" });
    expect(outs.secret).toEqual(secret(expect.stringMatching(/.{16,}/)));
    // The secret works: the credential gets a token from the emulator.
    const token = await fetch(`${h.emulator.url}/auth/access-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: id, secret: outs.secret.value }),
    });
    expect(token.status).toBe(200);

    // A refresh keeps the secret (the API never returns it again), still wrapped.
    const read = await h.call("read", readRequest("cdc:index:ClientCredential", "ci", id, outs, inputs));
    expect(read.getId()).toBe(id);
    expect(plain(read.getProperties()).secret).toEqual(outs.secret);

    // Roles and description: updated in place, the same client id and secret.
    const news = await checked("cdc:index:ClientCredential", "ci", { roleIds: ["role_editor"], description: "ci deployer" }, inputs);
    const diff = await h.call("diff", diffRequest("cdc:index:ClientCredential", "ci", id, outs, news, inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_SOME);
    expect(diff.getReplacesList()).toEqual([]);
    expect(detailed(diff)).toEqual({ roleIds: { kind: Kind.UPDATE, inputDiff: true }, description: { kind: Kind.UPDATE, inputDiff: true } });
    const updated = await h.call("update", updateRequest("cdc:index:ClientCredential", "ci", id, outs, news));
    const updatedOuts = plain(updated.getProperties());
    expect(updatedOuts).toMatchObject({ clientId: id, roleIds: ["role_editor"], roleKeys: ["editor"], description: "ci deployer" });
    expect(updatedOuts.secret).toEqual(outs.secret);
    // A service id replaces.
    const moved = await checked("cdc:index:ClientCredential", "ci", { roleIds: ["role_editor"], description: "ci deployer", serviceId: "svc-2" }, news);
    const replacing = await h.call("diff", diffRequest("cdc:index:ClientCredential", "ci", id, updatedOuts, moved, news));
    expect(replacing.getReplacesList()).toEqual(["serviceId"]);
    expect(detailed(replacing)).toEqual({ serviceId: { kind: Kind.UPDATE_REPLACE, inputDiff: true } });

    await h.call("delete", deleteRequest("cdc:index:ClientCredential", "ci", id, outs));
    expect((await h.call("read", readRequest("cdc:index:ClientCredential", "ci", id, outs, inputs))).getId()).toBe("");
    expect(JSON.stringify(plain(created.getProperties()))).toContain(SIG_KEY);
  });

  it("Destination: paused or renamed in the console, the diff names desiredState or name", async () => {
    const inputs = await checked("cdc:index:Destination", "byhand", { connector: "snowflake", config: snowflakeConfig });
    const created = await h.call("create", createRequest("cdc:index:Destination", "byhand", inputs));
    const id: string = created.getId();
    const outs = plain(created.getProperties());
    await h.console.put("/destinations/{id}/pause", { params: { id } });
    await h.newOperation();
    const paused = await h.call("diff", diffRequest("cdc:index:Destination", "byhand", id, outs, inputs, inputs));
    expect(paused.getChanges()).toBe(Changes.DIFF_SOME);
    expect(detailed(paused)).toEqual({ desiredState: { kind: Kind.UPDATE, inputDiff: true } });
    expect(paused.getDiffsList()).toEqual(["desiredState"]);

    await h.console.put("/destinations/{id}/resume", { params: { id } });
    await consoleEdit(h.console, "destination", id, { name: "renamed-by-hand" });
    await h.newOperation();
    const renamed = await h.call("diff", diffRequest("cdc:index:Destination", "byhand", id, outs, inputs, inputs));
    expect(detailed(renamed)).toEqual({ name: { kind: Kind.UPDATE, inputDiff: true } });
    const updated = await h.call("update", updateRequest("cdc:index:Destination", "byhand", id, outs, inputs));
    expect(plain(updated.getProperties())).toMatchObject({ name: inputs.name, status: "Active" });
    await h.call("delete", deleteRequest("cdc:index:Destination", "byhand", id, plain(updated.getProperties())));
    expect(drift.some((text) => text.includes('was renamed to "renamed-by-hand"'))).toBe(true);
  });
});

describe("Read for pulumi import over gRPC", () => {
  let h: PluginHarness;
  beforeAll(async () => {
    h = await startPluginHarness();
  });
  afterAll(async () => h?.close());

  it("rebuilds a Postgres source's inputs from the live object as a program would write them", async () => {
    const made = (await h.console.post("/sources", { body: { name: "legacy-orders", connector: "postgresql", config: pgSourceConfig }, schema: sourceConnectorSchema })) as { id: string };
    const live = await h.console.findOne("/sources/{id}", sourceConnectorSchema, { params: { id: made.id } });
    // What the API returns holds defaults, computed keys and the derived plain hostname.
    expect(live!.config).toMatchObject({ "database.hostname": "db.internal", "slot.name": expect.any(String), "database.sslmode": "require" });

    const resp = await h.call("read", readRequest("cdc:index:Source", "legacy", made.id, {}, {}));
    expect(resp.getId()).toBe(made.id);
    const inputs = plain(resp.getInputs());
    expect(inputs).toMatchObject({ name: "legacy-orders", connector: "postgresql" });
    // The default state, if there at all, is the live one.
    if ("desiredState" in inputs) expect(inputs.desiredState).toBe("active");
    // The config as a program would write it: no defaults (the port is 5432), no keys the
    // platform computes, not the plain database.hostname it derives; the password as the mask, secret.
    expect(inputs.config).toEqual({
      "database.hostname.user.defined": "db.internal",
      "database.user": "cdc",
      "database.password": secret("********"),
      "database.dbname": "shop",
      "schema.include.list": "public",
      "table.include.list.user.defined": "public.orders,public.customers",
    });
    // Only the schema's inputs: nothing of the core's own.
    const schemaInputs = KINDS.Source.inputs.map((p) => p.name);
    for (const key of Object.keys(inputs)) expect(schemaInputs).toContain(key);
    expect(inputs).not.toHaveProperty("autonamed");
    expect(inputs).not.toHaveProperty("logicalName");
    const props = plain(resp.getProperties());
    expect(props).toMatchObject({ name: "legacy-orders", status: "Active", topics: ["public.orders", "public.customers"] });
    expect(props).not.toHaveProperty("logicalName");

    // The imported inputs, checked as the program written from them would be, preview with no changes.
    const check = await h.call("check", checkRequest("cdc:index:Source", "legacy", inputs, inputs));
    expect(failuresOf(check)).toEqual([]);
    const diff = await h.call("diff", diffRequest("cdc:index:Source", "legacy", made.id, props, plain(check.getInputs()), inputs));
    expect(diff.getChanges()).toBe(Changes.DIFF_NONE);
  });

  it("rebuilds a Snowflake destination's, a tag's and a client credential's inputs, each as a program would write them", async () => {
    const dest = (await h.console.post("/destinations", {
      body: { name: "warehouse", connector: "snowflake", config: snowflakeConfig },
      schema: destinationConnectorSchema,
    })) as { id: string };
    const d = await h.call("read", readRequest("cdc:index:Destination", "wh", dest.id, {}, {}));
    const destInputs = plain(d.getInputs());
    expect(destInputs).toMatchObject({ name: "warehouse", connector: "snowflake" });
    expect(destInputs.config).toEqual({ ...snowflakeConfig, "snowflake.private.key": secret("********") });
    expect(destInputs).not.toHaveProperty("autonamed");

    const tag = (await h.console.post("/tags", { body: { name: "finance", description: "money", type: ["sources", "destinations"] } })) as { id: string };
    const t = await h.call("read", readRequest("cdc:index:Tag", "finance", tag.id, {}, {}));
    expect(plain(t.getInputs())).toEqual({ name: "finance", description: "money", type: ["sources", "destinations"] });
    expect(plain(t.getProperties())).toMatchObject({ name: "finance", custom: true, system: false });

    const cred = (await h.console.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: "ci" } })) as { client_id: string };
    const c = await h.call("read", readRequest("cdc:index:ClientCredential", "ci", cred.client_id, {}, {}));
    expect(c.getId()).toBe(cred.client_id);
    expect(plain(c.getInputs())).toEqual({ roleIds: ["role_viewer"], description: "ci" });
    // The secret is shown once, at creation: an import cannot have it (no value, or an empty one).
    const imported = plain(c.getProperties());
    expect(imported.secret?.value ?? imported.secret ?? "").toBe("");
  });

  it("an import of an id that does not exist reads nothing", async () => {
    const resp = await h.call("read", readRequest("cdc:index:Source", "ghost", "0123456789abcdef01234567", {}, {}));
    expect(resp.getId()).toBe("");
  });
});
