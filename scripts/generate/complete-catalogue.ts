import { join } from "node:path";
import { completeCatalogue } from "./vendor-keys.js";

// `npm run generate` step 1, when PULUMI_CDC_VENDOR_REPO names a clone of the vendor's provider.
const root = process.argv[2] ?? join(__dirname, "..", "..");
const repo = process.argv[3]!;
const { written, additions } = completeCatalogue(root, repo);
for (const a of additions) console.log(`catalogue: ${a.kind} ${a.code} ${a.key} (${a.found})`);
console.log(written ? `wrote catalogue/connectors.json (${additions.length} key(s) beyond the generated files)` : "catalogue/connectors.json is up to date");
