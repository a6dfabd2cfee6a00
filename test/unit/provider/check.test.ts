import { describe, expect, it } from "vitest";
import { checkConnectorConfig } from "../../../provider/check.js";
import { UNKNOWN } from "../../../provider/normalize.js";
import { ClientCredentialProvider } from "../../../provider/resources/clientCredential.js";
import { ConnectorProvider, DESTINATION, SOURCE } from "../../../provider/resources/connector.js";
import { TagProvider } from "../../../provider/resources/tag.js";

const pg = {
  "database.hostname": "db",
  "database.user": "cdc",
  "database.password": "pw",
  "database.dbname": "shop",
  "table.include.list": "public.orders",
};

describe("connector config against the catalogue", () => {
  it("accepts a complete config", () => {
    expect(checkConnectorConfig("source", "postgresql", pg)).toEqual([]);
  });
  it("names each missing required key and the fix", () => {
    const failures = checkConnectorConfig("source", "postgresql", { "database.hostname": "db" });
    expect(failures.map((f) => f.property)).toEqual([
      'config["database.user"]',
      'config["database.password"]',
      'config["database.dbname"]',
      'config["table.include.list"]',
    ]);
    expect(failures[0]!.reason).toMatch(/is required by the postgresql source connector.*add it to config/);
  });
  it("suggests the closest key for a misspelt one", () => {
    const failures = checkConnectorConfig("source", "postgresql", { ...pg, "database.hostnme": "x" });
    expect(failures).toEqual([{ property: 'config["database.hostnme"]', reason: expect.stringContaining('did you mean "database.hostname"?') }]);
  });
  it("checks integers, booleans and enums, but not values unknown during preview", () => {
    const failures = checkConnectorConfig("source", "postgresql", {
      ...pg,
      "database.port": "70000",
      "heartbeat.enabled": "yes",
      "database.sslmode": "maybe",
      "slot.name": UNKNOWN,
    });
    expect(failures.map((f) => f.property)).toEqual(['config["database.port"]', 'config["heartbeat.enabled"]', 'config["database.sslmode"]']);
    expect(failures[0]!.reason).toMatch(/whole number between 1 and 65535/);
    expect(failures[2]!.reason).toMatch(/must be one of disable, require, verify-ca, verify-full/);
  });
  it("leaves connectors outside the catalogue to the API", () => {
    expect(checkConnectorConfig("source", "oracle", { anything: 1 })).toEqual([]);
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
    const first = await destinations.check({}, { logicalName: "wh", connector: "s3", config: { "aws.access.key.id": "a", "aws.secret.access.key": "b", "s3.bucket.name": "c" } });
    const replaced = await destinations.check(first.inputs as never, { logicalName: "wh", connector: "snowflake", config: {} });
    expect(replaced.inputs.name).not.toBe(first.inputs.name);
  });
  it("keeps an explicit name and defaults desiredState to active", async () => {
    const { inputs } = await sources.check({}, { logicalName: "orders", name: "orders-cdc", connector: "postgresql", config: pg });
    expect(inputs).toMatchObject({ name: "orders-cdc", autonamed: false, desiredState: "active" });
  });
  it("rejects a stopped source, a wrong type and a bad name with the property named", async () => {
    const { failures } = await sources.check({}, { name: " bad", connector: 5, config: { a: { nested: 1 } }, desiredState: "stopped" });
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
  it("validates tag types", async () => {
    const tags = new TagProvider();
    expect((await tags.check({}, { logicalName: "t", type: "source" })).failures).toEqual([
      { property: "type", reason: expect.stringMatching(/a list of what the tag applies to/) },
    ]);
    expect((await tags.check({}, { logicalName: "t", type: [] })).failures).toEqual([{ property: "type", reason: expect.stringMatching(/at least one of source/) }]);
    expect((await tags.check({}, { logicalName: "t", type: ["table"] })).failures).toEqual([{ property: "type[0]", reason: expect.stringMatching(/must be one of source/) }]);
  });
});
