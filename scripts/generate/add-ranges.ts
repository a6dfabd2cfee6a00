import { join } from "node:path";
import { addRanges } from "./ranges.js";

// `npm run generate` step 2: the ranges pulumi-cdc adds where the platform publishes none (ranges.ts).
const root = process.argv[2] ?? join(__dirname, "..", "..");
const { written, added } = addRanges(root);
console.log(`catalogue: ${added} integer key(s) carry a range of pulumi-cdc's (rangeSource); ${written ? "wrote catalogue/connectors.json" : "catalogue/connectors.json is up to date"}`);
