import { describe, expect, it } from "vitest";
import { catalogueEntry } from "../../../provider/catalogue.js";
import { findConnector } from "../../../catalogue/index.js";
import { checkConnectorConfig, configAsProgram, wireConfigWithDefaults, withoutRemovedKeys } from "../../../provider/check.js";
import { checkLive } from "../../../provider/drift.js";
import type { LiveReader } from "../../../provider/live-cache.js";
import { recordedInPlain } from "../../../provider/secret-digest.js";

// Issue 27: a stack deployed with the catalogue of an older platform version (beta.24) holds keys
// the platform has since dropped and values recorded in plain for keys that became secret.

const pg = {
  "database.hostname.user.defined": "db",
  "database.user": "cdc",
  "database.password": "pw",
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders",
};

describe("keys the platform has since dropped (removedKeys)", () => {
  it("are the catalogue's facts this suite relies on", () => {
    expect(findConnector("destination", "s3")!.removedKeys).toContain("file.name.prefix");
    expect(findConnector("source", "postgresql")!.removedKeys).toContain("post.processors");
  });

  it("are left out of a config, and only they; a config without any is returned as is", () => {
    const recorded = { ...pg, "post.processors": "x", "database.port": 5432 };
    expect(withoutRemovedKeys(catalogueEntry("source", "postgresql"), recorded)).toEqual({ ...pg, "database.port": 5432 });
    expect(withoutRemovedKeys(catalogueEntry("source", "postgresql"), pg)).toBe(pg);
    // Another connector, one the catalogue does not know, or one not known yet: nothing is a removed key.
    expect(withoutRemovedKeys(catalogueEntry("source", "mysql"), { "post.processors": "x" })).toEqual({ "post.processors": "x" });
    expect(withoutRemovedKeys(catalogueEntry("source", "no-such-connector"), { "post.processors": "x" })).toEqual({ "post.processors": "x" });
    expect(withoutRemovedKeys(catalogueEntry("source", "04da6b54-80e4-46f7-96ec-b56ff0331ba9"), { "post.processors": "x" })).toEqual({ "post.processors": "x" });
  });

  it("are never sent, even when the program still sets one", () => {
    const body = wireConfigWithDefaults(catalogueEntry("destination", "s3"), { "aws.s3.bucket.name": "lake", "file.name.prefix": "orders/" });
    expect(body).not.toHaveProperty("file.name.prefix");
    expect(body["aws.s3.bucket.name"]).toBe("lake");
  });

  it("pass check as what a program for the older version sets, not as a typo of another key", () => {
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), { ...pg, "post.processors": "x" })).toEqual([]);
  });

  it("are not read back as something a program sets (import, adoption)", () => {
    expect(configAsProgram(catalogueEntry("destination", "s3"), { "aws.s3.bucket.name": "lake", "file.name.prefix": "orders/" })).toEqual({ "aws.s3.bucket.name": "lake" });
  });

  it("are no source drift when the stack records one and the object no longer holds it", async () => {
    const live = { id: "src", name: "orders", connector: "postgresql", connector_status: "Active", config: { ...pg, "database.password": "********" } };
    const reader: LiveReader = { connector: async () => live, comparison: async () => undefined };
    const recorded = { kind: "source" as const, id: "src", name: "orders", connector: "postgresql", desiredState: "active" };
    expect((await checkLive(reader, { ...recorded, config: { ...pg, "post.processors": "x" } })).config.detected).toBe(false);
    // A key the platform still has is drift when it is gone, as before.
    expect((await checkLive(reader, { ...recorded, config: { ...pg, "database.port": 5432 } })).config.changedKeys).toEqual(["database.port"]);
  });
});

describe("secret keys recorded in plain (recorded before the key became secret)", () => {
  const secrets = new Set(["aws.access.key.id", "aws.secret.access.key"]);

  it("are the secret keys whose recorded scalar is the program's value", () => {
    const recorded = { "aws.access.key.id": "AKIA-EXAMPLE", "aws.secret.access.key": { secretDigest: "ab12" }, "aws.s3.bucket.name": "lake" };
    const news = { "aws.access.key.id": "AKIA-EXAMPLE", "aws.secret.access.key": "s3cr3t", "aws.s3.bucket.name": "lake" };
    expect(recordedInPlain(recorded, news, secrets)).toEqual(["aws.access.key.id"]);
  });

  it("are not a value the program changed, a mask, a digest, or a key that is not secret", () => {
    expect(recordedInPlain({ "aws.access.key.id": "AKIA-OLD" }, { "aws.access.key.id": "AKIA-NEW" }, secrets)).toEqual([]);
    expect(recordedInPlain({ "aws.access.key.id": "********" }, { "aws.access.key.id": "********" }, secrets)).toEqual([]);
    expect(recordedInPlain({ "aws.access.key.id": { secretDigest: "ab12" } }, { "aws.access.key.id": "AKIA-EXAMPLE" }, secrets)).toEqual([]);
    expect(recordedInPlain({ "aws.s3.bucket.name": "lake" }, { "aws.s3.bucket.name": "lake" }, secrets)).toEqual([]);
    expect(recordedInPlain({ "aws.access.key.id": "AKIA-EXAMPLE" }, {}, secrets)).toEqual([]);
  });
});
