import type { ConnectorConfig } from "./build-config.js";
import {
  mongodbSource,
  mysqlSource,
  postgresqlSource,
  type MongodbSourceArgs,
  type MysqlSourceArgs,
  type PostgresqlSourceArgs,
} from "../generated/typescript/sources.js";

/**
 * Hand-written conveniences on top of the generated helpers (generated/typescript/), where a plain
 * list reads better than the API's comma-separated keys. Every other connector and setting:
 * the generated helper of the same name.
 */

/** Distinct entries, in order, joined as the API's comma-separated lists want. */
function commaList(entries: readonly string[]): string {
  return [...new Set(entries.map((e) => e.trim()).filter((e) => e !== ""))].join(",");
}

/** The part before the first dot of each `a.b` entry: the schema of `schema.table`. */
function prefixes(entries: readonly string[]): string[] {
  return entries.map((e) => e.trim().split(".")[0] ?? "").filter((p) => p !== "");
}

/**
 * A PostgreSQL source from a list of `schema.table` names: both of the API's include lists
 * (`table.include.list.user.defined` and the required `schema.include.list`) follow from it.
 */
export function postgresqlTables(
  args: Omit<PostgresqlSourceArgs, "tableIncludeList" | "schemaIncludeList"> & { tables: readonly string[]; schemas?: readonly string[] },
): ConnectorConfig<"postgresql"> {
  const { tables, schemas, ...rest } = args;
  return postgresqlSource({ ...rest, tableIncludeList: commaList(tables), schemaIncludeList: commaList(schemas ?? prefixes(tables)) });
}

/** A MySQL source from a list of `database.table` names: the table and database include lists follow from it. */
export function mysqlTables(
  args: Omit<MysqlSourceArgs, "tableIncludeList" | "databaseIncludeList"> & { tables: readonly string[]; databases?: readonly string[] },
): ConnectorConfig<"mysql"> {
  const { tables, databases, ...rest } = args;
  return mysqlSource({ ...rest, tableIncludeList: commaList(tables), databaseIncludeList: commaList(databases ?? prefixes(tables)) });
}

/** A MongoDB Atlas source from a list of `database.collection` names: the collection and database include lists follow from it. */
export function mongodbCollections(
  args: Omit<MongodbSourceArgs, "collectionIncludeList" | "databaseIncludeList"> & { collections: readonly string[]; databases?: readonly string[] },
): ConnectorConfig<"mongodb"> {
  const { collections, databases, ...rest } = args;
  return mongodbSource({ ...rest, collectionIncludeList: commaList(collections), databaseIncludeList: commaList(databases ?? prefixes(collections)) });
}
