import { describe, expect, it } from "vitest";
import { catalogueEntry } from "../../../provider/catalogue.js";
import { checkConnectorConfig, toWireConfig } from "../../../provider/check.js";
import { UNKNOWN } from "../../../provider/normalize.js";
import { ClientCredentialProvider } from "../../../provider/resources/clientCredential.js";
import { ConnectorProvider, DESTINATION, SOURCE } from "../../../provider/resources/connector.js";
import { TagProvider } from "../../../provider/resources/tag.js";

const pg = {
  "database.hostname.user.defined": "db",
  "database.user": "cdc",
  "database.password": "pw",
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders",
};

describe("connector config against the catalogue", () => {
  it("accepts a complete config", () => {
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), pg)).toEqual([]);
  });
  it("names each missing required key and the fix", () => {
    const failures = checkConnectorConfig(catalogueEntry("source", "postgresql"), { "database.hostname.user.defined": "db" });
    expect(failures.map((f) => f.property)).toEqual([
      'config["database.user"]',
      'config["database.password"]',
      'config["database.dbname"]',
      'config["schema.include.list"]',
      'config["table.include.list.user.defined"]',
    ]);
    expect(failures[0]!.reason).toBe("is required by the postgresql source connector: add it to config (helper property databaseUser)");
  });
  it("suggests the key meant for a misspelt one, a plain key, or a helper property name", () => {
    const typo = checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "database.dbnme": "x" });
    expect(typo).toEqual([{ property: 'config["database.dbnme"]', reason: expect.stringContaining('did you mean "database.dbname"?') }]);
    const plain = checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "database.hostname": "x" });
    expect(plain).toEqual([{ property: 'config["database.hostname"]', reason: expect.stringContaining('did you mean "database.hostname.user.defined"?') }]);
    const camel = checkConnectorConfig(catalogueEntry("destination", "snowflake"), { snowflakeUrlName: "x" });
    expect(camel.find((f) => f.property === 'config["snowflakeUrlName"]')!.reason).toContain('did you mean "snowflake.url.name"?');
  });
  it("passes a key nowhere near a catalogued one through to the API", () => {
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "some.future.platform.setting": "on" })).toEqual([]);
  });
  it("checks types, allowed values and ranges, but not values unknown during preview", () => {
    const failures = checkConnectorConfig(catalogueEntry("source", "postgresql"), {
      ...pg,
      "database.port.user.defined": "70x",
      "streamkap.snapshot.parallelism": 51,
      "heartbeat.enabled": "yes",
      "database.sslmode": "Disable",
      "slot.name": 5,
      "publication.name": UNKNOWN,
    });
    expect(failures).toEqual([
      { property: 'config["database.port.user.defined"]', reason: 'must be a whole number, got "70x": write it as a number, e.g. 5432' },
      { property: 'config["streamkap.snapshot.parallelism"]', reason: "must be a whole number between 1 and 50, got 51: set a value in that range (helper property streamkapSnapshotParallelism)" },
      { property: 'config["heartbeat.enabled"]', reason: 'must be true or false, got "yes"' },
      { property: 'config["database.sslmode"]', reason: 'must be one of "require", "disable"; got "Disable": did you mean "disable"?' },
      { property: 'config["slot.name"]', reason: 'must be a string, got 5: write it as a string, "5"' },
    ]);
  });
  it("refuses a port outside 1 to 65535, naming the key, the range and the helper property", () => {
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "database.port.user.defined": 99999 })).toEqual([
      { property: 'config["database.port.user.defined"]', reason: "must be a whole number between 1 and 65535 (a TCP port), got 99999: set a value in that range (helper property databasePort)" },
    ]);
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "database.port.user.defined": "0", "ssh.port": -22 }).map((f) => f.property)).toEqual([
      'config["database.port.user.defined"]',
      'config["ssh.port"]',
    ]);
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "database.port.user.defined": 65535, "ssh.port": 1 })).toEqual([]);
  });
  it("refuses keys the platform sets itself", () => {
    const failures = checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "ssh.public.key.user.displayed": "ssh-ed25519 AAAA" });
    expect(failures).toEqual([{ property: 'config["ssh.public.key.user.displayed"]', reason: expect.stringMatching(/set by the platform/) }]);
  });
  it("checks transform configs too", () => {
    expect(checkConnectorConfig(catalogueEntry("transform", "topic_router"), { "transforms.name": "r" }).map((f) => f.property)).toEqual([
      'config["transforms.input.topic.pattern"]',
      'config["transforms.output.topic.pattern"]',
    ]);
    expect(checkConnectorConfig(catalogueEntry("transform", "enrich"), { "transforms.name": "e", "transforms.input.job.parallelism": 0 })[0]!.reason).toMatch(/between 1 and 20/);
  });
  it("leaves connectors outside the catalogue to the API", () => {
    expect(checkConnectorConfig(catalogueEntry("source", "cassandra"), { anything: 1 })).toEqual([]);
  });
});

describe("the wire form", () => {
  it("sends integers and booleans as JSON numbers and booleans, drops null, encodes json-string maps", () => {
    expect(
      toWireConfig(catalogueEntry("source", "postgresql"), { ...pg, "database.port.user.defined": "5433", "heartbeat.enabled": "TRUE", "slot.name": null, "publication.name": UNKNOWN }),
    ).toEqual({ ...pg, "database.port.user.defined": 5433, "heartbeat.enabled": true, "publication.name": UNKNOWN });
    const map = toWireConfig(catalogueEntry("destination", "clickhouse"), { "topics.config.map": { orders: { delete_sql_execute: "DELETE 1" } } });
    expect(map).toEqual({ "topics.config.map": JSON.stringify({ orders: JSON.stringify({ delete_sql_execute: "DELETE 1" }) }) });
    expect(toWireConfig(catalogueEntry("destination", "snowflake"), { "auto.qa.dedupe.table.mapping": {} })).toEqual({});
  });
  it("keeps keys and connectors outside the catalogue as given", () => {
    expect(toWireConfig(catalogueEntry("source", "cassandra"), { port: "9042", on: "true" })).toEqual({ port: "9042", on: "true" });
  });
});

describe("check()", () => {
  const sources = new ConnectorProvider(SOURCE);
  const destinations = new ConnectorProvider(DESTINATION);

  it("autonames from the resource name and keeps the name across runs", async () => {
    const first = await sources.check({}, { logicalName: "orders", connector: "postgresql", config: pg });
    expect(first.failures).toEqual([]);
    expect(first.inputs.name).toMatch(/^orders-[0-9a-f]{8}$/);
    const again = await sources.check(first.inputs as never, { logicalName: "orders", connector: "postgresql", config: pg });
    expect(again.inputs.name).toBe(first.inputs.name);
  });
  it("renews an autoname when the connector changes (a replacement)", async () => {
    const first = await destinations.check({}, { logicalName: "wh", connector: "s3", config: { "aws.access.key.id": "a", "aws.secret.access.key": "b", "aws.s3.bucket.name": "c" } });
    const replaced = await destinations.check(first.inputs as never, { logicalName: "wh", connector: "snowflake", config: {} });
    expect(replaced.inputs.name).not.toBe(first.inputs.name);
  });
  it("keeps an explicit name and defaults desiredState to active", async () => {
    const { inputs } = await sources.check({}, { logicalName: "orders", name: "orders-cdc", connector: "postgresql", config: pg });
    expect(inputs).toMatchObject({ name: "orders-cdc", autonamed: false, desiredState: "active" });
  });
  it("rejects a stopped source, a wrong type and a bad name with the property named", async () => {
    const { failures } = await sources.check({}, { name: " bad", connector: 5, config: { a: [1] }, desiredState: "stopped" });
    expect(failures.map((f) => f.property).sort()).toEqual(["config.a", "connector", "desiredState", "name"]);
    expect(failures.find((f) => f.property === "desiredState")!.reason).toBe("must be one of active, paused");
  });
  it("allows stopped for destinations", async () => {
    const { failures } = await destinations.check({}, { connector: "custom", config: {}, desiredState: "stopped" });
    expect(failures).toEqual([]);
  });
  it("requires at least one role for a client credential", async () => {
    const { failures } = await new ClientCredentialProvider().check({}, { roleIds: [] });
    expect(failures).toEqual([{ property: "roleIds", reason: expect.stringMatching(/at least one role id/) }]);
  });
  it("validates tag types as the platform spells them", async () => {
    const tags = new TagProvider();
    expect((await tags.check({}, { logicalName: "t", type: "sources" })).failures).toEqual([
      { property: "type", reason: expect.stringMatching(/a list of what the tag is for/) },
    ]);
    expect((await tags.check({}, { logicalName: "t", type: [] })).failures).toEqual([{ property: "type", reason: expect.stringMatching(/at least one of environment, general, sources/) }]);
    expect((await tags.check({}, { logicalName: "t", type: ["source"] })).failures).toEqual([{ property: "type[0]", reason: expect.stringMatching(/must be one of environment, general, sources, destinations/) }]);
    expect((await tags.check({}, { logicalName: "t", type: ["sources", "destinations", "environment"] })).failures).toEqual([]);
  });
  it("takes tags on a connector as ids, and leaves them alone when unset", async () => {
    const withTags = await sources.check({}, { logicalName: "o", connector: "postgresql", config: pg, tags: ["t1", "t2"] });
    expect(withTags.inputs).toMatchObject({ tags: ["t1", "t2"] });
    const without = await sources.check({}, { logicalName: "o", connector: "postgresql", config: pg });
    expect(without.inputs).not.toHaveProperty("tags");
    expect((await sources.check({}, { logicalName: "o", connector: "postgresql", config: pg, tags: "t1" })).failures).toEqual([
      { property: "tags", reason: "must be a list of tag ids or Tag resources" },
    ]);
  });
});
