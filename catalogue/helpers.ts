import type { CatalogueKind, ConnectorSpec } from "./index.js";

/**
 * The names of the SDK's generated helpers (generated/typescript/), as data about the catalogue: the
 * generator (scripts/generate/render.ts) writes them, and `pulumi-cdc import` writes calls to them.
 */

/** Codes whose run-together words read better split (`kafkadirect` → `kafkaDirect`). */
const WORDS: Readonly<Record<string, string>> = {
  azblob: "azureBlob",
  httpsink: "httpSink",
  kafkadirect: "kafkaDirect",
  mongodbhosted: "mongodbHosted",
  motherduck: "motherDuck",
  oracleaws: "oracleAws",
};

/** `Source`, `Destination`, `Transform`: a part of the catalogue as its kind is named (provider/kinds/), the suffix of its helpers. */
export function kindOfPart(kind: CatalogueKind): string {
  return `${kind[0]!.toUpperCase()}${kind.slice(1)}`;
}

function camel(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The helper's base name, from the Terraform resource's name (`streamkap_source_sqlserver` → `sqlserver`). */
function baseName(spec: ConnectorSpec): string {
  const tail = spec.terraformResource.replace(/^streamkap_(source|destination|transform)_/, "");
  return WORDS[tail] ?? camel(tail);
}

/** `postgresqlSource`, `snowflakeDestination`, `mapFilterTransform`: the generated helper of a connector or transform type. */
export function helperName(spec: ConnectorSpec): string {
  return `${baseName(spec)}${kindOfPart(spec.kind)}`;
}
