import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffCatalogue, renderChanges, type CatalogueFiles } from "./catalogue-diff.js";
import { addRanges } from "./ranges.js";
import { readCheckout } from "./vendor-checkout.js";
import { completeCatalogue } from "./vendor-keys.js";
import { renderSync, syncCatalogue } from "./vendor-sync.js";
import { updateCatalogue } from "./vendor-update.js";

/**
 * `npm run vendor-sync -- <checkout> [--check] [--report <file>] [--commit <sha>]`, the catalogue's
 * part (scripts/vendor-sync/run.sh then runs `npm run generate`): the vendor's facts from the
 * checkout (vendor-sync.ts), the keys its hand-written code adds when it is a clone (vendor-keys.ts),
 * the CHANGELOG's announced changes and pulumi-cdc's overrides (vendor-update.ts) and ranges
 * (ranges.ts); then the report of what changed, key by key. --check changes nothing: it says
 * whether the catalogue already is what the checkout gives (exit 1 when not).
 */

const FILES = { connectors: "connectors.json", apiSources: "api-sources.json", smt: "smt-data.ts" } as const;

function read(root: string): CatalogueFiles {
  const at = (f: string) => readFileSync(join(root, "catalogue", f), "utf8");
  return { connectors: at(FILES.connectors), apiSources: at(FILES.apiSources), smt: at(FILES.smt) };
}

function main(argv: string[]): number {
  const root = argv[0]!;
  const args = argv.slice(1);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const value = args[i + 1];
    if (!value || value.startsWith("--")) throw new Error(`${name} needs a value`);
    args.splice(i, 2);
    return value;
  };
  const check = args.includes("--check");
  if (check) args.splice(args.indexOf("--check"), 1);
  const reportPath = flag("--report");
  const commit = flag("--commit");
  if (args.length !== 1 || args[0]!.startsWith("--")) {
    throw new Error("usage: npm run vendor-sync -- <checkout of the vendor's provider> [--check] [--report <file>] [--commit <sha>]");
  }
  const checkout = readCheckout(args[0]!, commit);
  const before = read(root);
  // --check works on a copy of catalogue/.
  const work = check ? mkdtempSync(join(tmpdir(), "pulumi-cdc-vendor-sync-")) : root;
  try {
    if (check) {
      mkdirSync(join(work, "catalogue"));
      for (const f of Object.values(FILES)) cpSync(join(root, "catalogue", f), join(work, "catalogue", f));
    }
    const result = syncCatalogue(work, checkout);
    // The keys a clone's hand-written code sends beyond its generated files; not from a clone older
    // than parts of the catalogue (its code would speak for versions the catalogue has left).
    if (checkout.git && existsSync(join(checkout.dir, "internal", "provider", "testdata", "schemas"))) {
      if (result.kept.length === 0) completeCatalogue(work, checkout.dir);
      else console.error(`vendor-sync: the keys beyond the generated files are not taken from this clone: ${result.kept.length} connector(s) of the catalogue are newer than it`);
    }
    updateCatalogue(work, undefined);
    addRanges(work);
    const after = read(work);
    const changes = diffCatalogue(before, after);
    const reread = [...new Set(changes.filter((c) => result.same.includes(c.where)).map((c) => c.where))].sort();
    const report = renderSync({ ...result, reread }, renderChanges(changes));
    process.stdout.write(report);
    if (reportPath) writeFileSync(reportPath, report);
    if (!check) return 0;
    const differ = (Object.keys(FILES) as Array<keyof typeof FILES>).filter((f) => before[f] !== after[f]).map((f) => `catalogue/${FILES[f]}`);
    if (differ.length === 0) {
      console.log("vendor-sync --check: the catalogue is what this checkout gives (no file would change)");
      return 0;
    }
    console.log(`vendor-sync --check: a sync would change ${differ.join(", ")}`);
    return 1;
  } finally {
    if (check) rmSync(work, { recursive: true, force: true });
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  console.error(`vendor-sync: ${(e as Error).message}`);
  process.exitCode = 2;
}
