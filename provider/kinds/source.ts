import { connectorImport, connectorKind, connectorTerraform } from "./connector.js";
import type { KindSpec } from "./spec.js";

export const SOURCE = {
  name: "Source",
  token: "cdc:index:Source",
  noun: "source",
  plural: "sources",
  report: "source",
  imported: {
    flag: "sources",
    suffix: "Source",
    order: 4,
    section: "Sources",
    ...connectorImport("Source"),
  },
  terraform: connectorTerraform("Source"),
  internal: ["logicalName"],
  catalogue: { kind: "source", codeProperty: "connector", module: "sources" },
  ...connectorKind("Source"),
} satisfies KindSpec<"Source">;
