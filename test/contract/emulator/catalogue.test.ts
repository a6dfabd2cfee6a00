import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, MASK, type ConfigKeySpec, type ConnectorKind, type ConnectorSpec } from "../../../emulator/index.js";
import { expect422, openSession, uniqueName, type Session } from "./helpers.js";

/** Drives the server from the exported catalogue, so the data the provider mirrors is what the API enforces. */

let s: Session;

beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s?.emulator.stop();
});

function sampleValue(spec: ConnectorSpec, key: ConfigKeySpec): string | number | boolean {
  if (spec.topicKey === key.key) return "db.first,db.second";
  switch (key.type) {
    case "integer":
      return key.min ?? 1;
    case "boolean":
      return true;
    case "enum":
      return key.values![0]!;
    case "string":
      return `value-of-${key.key}`;
  }
}

function requiredConfig(spec: ConnectorSpec): Record<string, string | number | boolean> {
  return Object.fromEntries(spec.keys.filter((k) => k.required).map((k) => [k.key, sampleValue(spec, k)]));
}

const path = (kind: ConnectorKind) => (kind === "source" ? "/sources" : "/destinations");
const all = (Object.keys(CATALOGUE) as ConnectorKind[]).flatMap((kind) => Object.values(CATALOGUE[kind]).map((spec) => [kind, spec] as const));

describe("the exported connector catalogue", () => {
  it("covers the connectors the provider relies on, and marks credentials secret", () => {
    expect(Object.keys(CATALOGUE.source).sort()).toEqual(["mongodb", "mysql", "postgresql"]);
    expect(Object.keys(CATALOGUE.destination).sort()).toEqual(["clickhouse", "postgresql", "s3", "snowflake"]);
    const secrets = all.flatMap(([, spec]) => spec.keys.filter((k) => k.secret).map((k) => `${spec.kind}:${spec.connector}:${k.key}`));
    expect(secrets.sort()).toEqual([
      "destination:clickhouse:connection.password",
      "destination:postgresql:database.password",
      "destination:s3:aws.secret.access.key",
      "destination:snowflake:snowflake.private.key",
      "destination:snowflake:snowflake.private.key.passphrase",
      "source:mongodb:mongodb.connection.string",
      "source:mysql:database.password",
      "source:postgresql:database.password",
    ]);
    for (const [, spec] of all) {
      for (const key of spec.keys) {
        if (key.default !== undefined) expect(key.required, `${spec.connector} ${key.key}`).toBe(false);
        if (key.type === "enum") expect(key.values, `${spec.connector} ${key.key}`).toContain(key.default);
      }
      if (spec.kind === "source") expect(spec.keys.find((k) => k.key === spec.topicKey)?.required).toBe(true);
    }
  });

  it.each(all.map(([kind, spec]) => [`${kind} ${spec.connector}`, kind, spec] as const))(
    "%s: required keys suffice, defaults are echoed as strings, secrets are masked",
    async (_label, kind, spec) => {
      const config = requiredConfig(spec);
      const reply = await s.api("POST", path(kind), { body: { name: uniqueName(spec.connector), connector: spec.connector, config } });
      expect(reply.status, reply.text).toBe(200);
      const echoed = reply.body.config as Record<string, string>;
      for (const key of spec.keys) {
        if (key.secret && key.required) expect(echoed[key.key], key.key).toBe(MASK);
        else if (key.required) expect(echoed[key.key], key.key).toBe(String(config[key.key]));
        else if (key.default !== undefined) expect(echoed[key.key], key.key).toBe(key.default);
        else expect(echoed, key.key).not.toHaveProperty(key.key);
      }
      for (const value of Object.values(echoed)) expect(typeof value).toBe("string");
      if (kind === "source") expect(reply.body.topics).toEqual(["db.first", "db.second"]);
    },
  );

  it.each(all.map(([kind, spec]) => [`${kind} ${spec.connector}`, kind, spec] as const))(
    "%s: each missing required key is a 422 at body.config.<key>",
    async (_label, kind, spec) => {
      const reply = await s.api("POST", path(kind), { body: { name: uniqueName("missing"), connector: spec.connector, config: {} } });
      const details = expect422(reply);
      const expected = spec.keys.filter((k) => k.required).map((k) => ["body", "config", k.key]);
      expect(details.filter((d) => d.type === "missing").map((d) => d.loc)).toEqual(expect.arrayContaining(expected));
      expect(details).toHaveLength(expected.length);
    },
  );
});
