import { readFileSync } from "node:fs";
import { catalogueEntry } from "../../../provider/catalogue.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE, KINDS } from "../../../catalogue/index.js";
import { checkConnectorConfig } from "../../../provider/check.js";
import { renderAll, settableKeys } from "../../../scripts/generate/render.js";
import { mysqlTables, postgresqlTables } from "../../../sdk/connectors.js";
import { HELPERS, snowflakeDestination, topicRouterTransform } from "../../../generated/typescript/index.js";
import { isSecret, requiredArgs, requiredConfig, resolvedConfig } from "../../support/catalogue-samples.js";

const root = join(__dirname, "..", "..", "..");

describe("generated helpers", () => {
  it("are up to date with the catalogue and the kinds' declarations (run `npm run generate` when this fails)", () => {
    for (const [path, content] of renderAll()) {
      expect(readFileSync(join(root, path), "utf8"), `${path} is stale: run npm run generate`).toBe(content);
    }
  });

  it("exist for every connector and transform type of the catalogue", () => {
    for (const kind of KINDS) {
      expect(Object.keys(HELPERS[kind]).sort()).toEqual(Object.keys(CATALOGUE[kind]).sort());
    }
    expect(Object.keys(HELPERS.transform)).toHaveLength(7);
  });

  it("send the API's keys, leave unset keys unset, and make secret keys Pulumi secrets", async () => {
    const built = snowflakeDestination({
      snowflakeUrlName: "acme.snowflakecomputing.com",
      snowflakeUserName: "LOADER",
      snowflakePrivateKey: "MIIE-key",
      snowflakeDatabaseName: "ANALYTICS",
      snowflakeSchemaName: "RAW",
      ingestionMode: "upsert",
    });
    expect(built.connector).toBe("snowflake");
    expect(Object.keys(built.config).sort()).toEqual([
      "ingestion.mode",
      "snowflake.database.name",
      "snowflake.private.key",
      "snowflake.schema.name",
      "snowflake.url.name",
      "snowflake.user.name",
    ]);
    expect(await isSecret(built.config["snowflake.private.key"])).toBe(true);
    expect(await isSecret(built.config["snowflake.url.name"])).toBe(false);
    expect(await resolvedConfig(built.config)).toMatchObject({ "snowflake.private.key": "MIIE-key", "ingestion.mode": "upsert" });
  });

  it.each(KINDS.flatMap((kind) => Object.values(CATALOGUE[kind]).map((spec) => [`${kind} ${spec.code}`, spec] as const)))(
    "%s: required keys only pass check()",
    async (_label, spec) => {
      const helper = (HELPERS[spec.kind] as Record<string, (args: object) => { config: Record<string, unknown> }>)[spec.code]!;
      const config = await resolvedConfig(helper(requiredArgs(spec)).config as never);
      expect(checkConnectorConfig(catalogueEntry(spec.kind, spec.code), config)).toEqual([]);
      // The helper writes exactly the keys given (an API source's auth mode may require more than the always-required ones).
      expect(Object.keys(config).sort()).toEqual(Object.keys(requiredConfig(spec)).sort());
      for (const k of settableKeys(spec)) expect(k.computed).toBeFalsy();
    },
  );

  it("give transforms their type and keys", async () => {
    const router = topicRouterTransform({ name: "router", transformsInputTopicPattern: "src\\..*", transformsOutputTopicPattern: "out.$1" });
    expect(router.transform).toBe("topic_router");
    expect(await resolvedConfig(router.config)).toEqual({
      "transforms.name": "router",
      "transforms.input.topic.pattern": "src\\..*",
      "transforms.output.topic.pattern": "out.$1",
    });
  });

  it("refuse a property that is not a setting (JavaScript callers)", () => {
    expect(() => snowflakeDestination({ urlName: "x" } as never)).toThrow(/"urlName" is not a setting of this destination/);
  });
});

describe("hand-written conveniences", () => {
  it("turn a list of tables into both of PostgreSQL's include lists", async () => {
    const built = postgresqlTables({
      databaseHostname: "db",
      databaseUser: "cdc",
      databasePassword: "pw",
      databaseDbname: "shop",
      tables: ["public.orders", "sales.invoices", "public.customers"],
    });
    const config = await resolvedConfig(built.config);
    expect(config).toMatchObject({ "table.include.list.user.defined": "public.orders,sales.invoices,public.customers", "schema.include.list": "public,sales" });
    expect(checkConnectorConfig(catalogueEntry("source", "postgresql"), config)).toEqual([]);
  });
  it("turn a list of tables into MySQL's table and database include lists", async () => {
    const built = mysqlTables({ databaseHostname: "m", databaseUser: "u", databasePassword: "p", tables: ["shop.orders", "crm.people"] });
    expect(await resolvedConfig(built.config)).toMatchObject({ "table.include.list.user.defined": "shop.orders,crm.people", "database.include.list.user.defined": "shop,crm" });
  });
});
