import { connectorImport, connectorKind, connectorTerraform } from "./connector.js";
import type { KindSpec } from "./spec.js";

export const DESTINATION = {
  name: "Destination",
  token: "cdc:index:Destination",
  noun: "destination",
  plural: "destinations",
  report: "destination",
  imported: {
    flag: "destinations",
    suffix: "Destination",
    order: 5,
    section: "Destinations",
    ...connectorImport("Destination"),
  },
  terraform: connectorTerraform("Destination"),
  internal: ["logicalName"],
  catalogue: { kind: "destination", codeProperty: "connector", module: "destinations" },
  ...connectorKind("Destination"),
} satisfies KindSpec<"Destination">;
