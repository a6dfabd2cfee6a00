import { join } from "node:path";
import { updateCatalogue } from "./vendor-update.js";

// `npm run generate` step 2: newer vendor files (PULUMI_CDC_VENDOR_GENERATED, optional), the
// CHANGELOG's announced changes and pulumi-cdc's overrides (vendor-update.ts).
const root = process.argv[2] ?? join(__dirname, "..", "..");
const dir = process.argv[3] || undefined;
const { written, updated, provenance } = updateCatalogue(root, dir);
for (const u of updated) console.log(`catalogue: ${u.kind} ${u.code} from ${u.commit}${u.removed.length > 0 ? `; removed ${u.removed.join(", ")}` : ""}`);
for (const a of provenance.announced) console.log(`catalogue: announced (${a.from}): ${a.change}: ${a.applied.join(", ")}`);
console.log(written ? "wrote catalogue/connectors.json" : "catalogue/connectors.json is up to date");
