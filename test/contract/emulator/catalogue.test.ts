import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, MASK, derivedKeys, type ConnectorKind, type ConnectorSpec } from "../../../emulator/catalogue.js";
import { requiredConfig, sampleValue } from "../../support/catalogue-samples.js";
import { isApiSource } from "../../../catalogue/index.js";
import { expect422, openSession, uniqueName, type Session } from "./helpers.js";

/** Drives the server from the shared catalogue, so the data the SDK and provider read is what the API enforces. */

let s: Session;

beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

const path = (kind: ConnectorKind) => (kind === "source" ? "/sources" : "/destinations");
// CDC connectors: API sources store only the keys set, stringified, under another contract (test/contract/emulator/api-sources.test.ts).
const all = (Object.keys(CATALOGUE) as ConnectorKind[]).flatMap((kind) =>
  Object.values(CATALOGUE[kind])
    .filter((spec) => spec.family !== "api")
    .map((spec) => [`${kind} ${spec.code}`, kind, spec] as const),
);

function create(kind: ConnectorKind, spec: ConnectorSpec, config: Record<string, unknown>, query = "") {
  return s.api("POST", `${path(kind)}${query}`, { body: { name: uniqueName(spec.code), connector: spec.code, config } });
}

describe("the emulator follows the platform's catalogue", () => {
  it("knows the platform's 33 sources (25 CDC and 8 API sources) and 24 destinations, and no others", async () => {
    expect(Object.keys(CATALOGUE.source)).toHaveLength(33);
    expect(Object.keys(CATALOGUE.source).filter(isApiSource).sort()).toEqual(["facebook_ads", "google_ads", "google_analytics", "hubspot", "netsuite", "salesforce", "stripe", "zendesk"]);
    expect(Object.keys(CATALOGUE.destination)).toHaveLength(24);
    const reply = await s.api("POST", "/sources", { body: { name: uniqueName("x"), connector: "postgres", config: {} } });
    expect422(reply, { loc: ["body", "connector"], type: "enum" });
  });

  it.each(all)("%s: required keys suffice; defaults, derived and computed keys are echoed as strings; secrets masked", async (_label, kind, spec) => {
    const config = requiredConfig(spec);
    const reply = await create(kind, spec, config);
    expect(reply.status, reply.text).toBe(200);
    const echoed = reply.body.config as Record<string, string>;
    for (const key of spec.keys) {
      if (key.secret) {
        if (key.required || key.computed || (key.default !== undefined && key.default !== "")) expect(echoed[key.key], key.key).toBe(MASK);
        else expect(echoed, key.key).not.toHaveProperty(key.key);
      } else if (key.required) expect(echoed[key.key], key.key).toBe(String(config[key.key]));
      else if (key.default !== undefined) expect(echoed[key.key], key.key).toBe(String(key.default));
      else if (!key.computed) expect(echoed, key.key).not.toHaveProperty(key.key);
    }
    for (const [plain, from] of derivedKeys(spec)) if (from in echoed) expect(echoed[plain], plain).toBe(echoed[from]);
    for (const value of Object.values(echoed)) expect(typeof value).toBe("string");
    if (kind === "source" && spec.topicKey && spec.topicKey in config) expect(reply.body.topics).toEqual(["db.first", "db.second"]);
  });

  it.each(all)("%s: each missing required key is a 422 at body.config.<key>", async (_label, kind, spec) => {
    const expected = spec.keys.filter((k) => k.required && !k.computed).map((k) => ["body", "config", k.key]);
    const reply = await create(kind, spec, {});
    if (expected.length === 0) {
      expect(reply.status, reply.text).toBe(200);
      return;
    }
    const details = expect422(reply);
    expect(details.filter((d) => d.type === "missing").map((d) => d.loc)).toEqual(expect.arrayContaining(expected));
    expect(details).toHaveLength(expected.length);
  });

  it("rejects keys the platform does not have; ignores the plain keys it derives, sent back as read", async () => {
    const spec = CATALOGUE.source.postgresql!;
    const reply = await create("source", spec, { ...requiredConfig(spec), "database.hostnme": "db" });
    expect422(reply, { loc: ["body", "config", "database.hostnme"], type: "extra_forbidden" });
    const config = requiredConfig(spec);
    const roundTrip = await create("source", spec, { ...config, "database.hostname": "ignored" });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.config["database.hostname"]).toBe(config["database.hostname.user.defined"]);
  });

  it("checks types, allowed values and ranges as the API would", async () => {
    const spec = CATALOGUE.source.postgresql!;
    const reply = await create("source", spec, {
      ...requiredConfig(spec),
      "database.port.user.defined": "not-a-port",
      "streamkap.snapshot.parallelism": 51,
      "heartbeat.enabled": "maybe",
      "database.sslmode": "verify-full",
      "slot.name": 7,
    });
    expect422(
      reply,
      { loc: ["body", "config", "database.port.user.defined"], type: "int_parsing" },
      { loc: ["body", "config", "streamkap.snapshot.parallelism"], type: "less_than_equal" },
      { loc: ["body", "config", "heartbeat.enabled"], type: "bool_parsing" },
      { loc: ["body", "config", "database.sslmode"], type: "enum" },
      { loc: ["body", "config", "slot.name"], type: "string_type" },
    );
  });

  it("leaves the ranges pulumi-cdc adds to pulumi-cdc: a port of 99999 is stored, the platform's own ranges still hold", async () => {
    const spec = CATALOGUE.source.postgresql!;
    expect(spec.keys.find((k) => k.key === "database.port.user.defined")).toMatchObject({ min: 1, max: 65535, rangeSource: "pulumi-cdc" });
    const reply = await create("source", spec, { ...requiredConfig(spec), "database.port.user.defined": 99999, "ssh.port": 0 });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.config).toMatchObject({ "database.port.user.defined": "99999", "ssh.port": "0" });
    const refused = await create("source", spec, { ...requiredConfig(spec), "streamkap.snapshot.parallelism": 51 });
    expect422(refused, { loc: ["body", "config", "streamkap.snapshot.parallelism"], type: "less_than_equal" });
  });

  it("stores numbers and booleans sent as JSON and echoes them as strings; null is unset", async () => {
    const spec = CATALOGUE.source.postgresql!;
    const reply = await create("source", spec, { ...requiredConfig(spec), "database.port.user.defined": 6543, "heartbeat.enabled": false, "slot.name": null });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.config).toMatchObject({
      "database.port.user.defined": "6543",
      "database.port": "6543",
      "heartbeat.enabled": "false",
      "slot.name": String(spec.keys.find((k) => k.key === "slot.name")!.default),
    });
  });

  it("fills in keys the platform computes and keeps them across updates", async () => {
    const spec = CATALOGUE.source.webhook!;
    const created = await create("source", spec, { "api.key": "chosen-by-client" });
    expect(created.status, created.text).toBe(200);
    const first = created.body.config as Record<string, string>;
    expect(first["webhook.url"]).toMatch(/^https:\/\//);
    expect(first["api.key"]).not.toBe("chosen-by-client");
    const updated = await s.api("PUT", `/sources/${created.body.id}`, { body: { name: created.body.name, connector: "webhook", config: {} } });
    expect(updated.body.config).toMatchObject({ "webhook.url": first["webhook.url"], "api.key": first["api.key"] });
  });

  it("takes lists as JSON lists and maps as objects, and echoes them as text", async () => {
    const s3 = CATALOGUE.destination.s3!;
    const list = await create("destination", s3, { ...requiredConfig(s3), "format.output.fields.user.defined": ["id", "name"] });
    expect(list.status, list.text).toBe(200);
    expect(list.body.config["format.output.fields.user.defined"]).toBe("id,name");
    const ch = CATALOGUE.destination.clickhouse!;
    const key = "topics.config.map";
    const encoded = JSON.stringify({ orders: JSON.stringify({ delete_sql_execute: "DELETE 1" }) });
    const map = await create("destination", ch, { ...requiredConfig(ch), [key]: encoded });
    expect(map.status, map.text).toBe(200);
    expect(map.body.config[key]).toBe(encoded);
    const bad = await create("destination", ch, { ...requiredConfig(ch), [key]: { orders: { drop: "x" } } });
    expect422(bad, { loc: ["body", "config", key, "orders", "drop"], type: "extra_forbidden" });
    expect(sampleValue(ch.keys.find((k) => k.key === key)!)).toBeTypeOf("object");
  });
});
