import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { INSTALLATION_PAGE, writeInstallationPage } from "./registry-docs.js";
import { renderAll } from "./render.js";

// Writes generated/typescript/*.ts (from the catalogue and the kinds' declarations) and generated/README.md; says which files changed.
const root = process.argv[2] ?? join(__dirname, "..", "..");
let changed = 0;
for (const [path, content] of renderAll()) {
  const target = join(root, path);
  let current: string | undefined;
  try {
    current = readFileSync(target, "utf8");
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  changed++;
  console.log(`wrote ${path}`);
}
// The one generated section outside generated/: the settings tables of the Registry's installation page.
if (writeInstallationPage(root)) {
  changed++;
  console.log(`wrote the settings of ${INSTALLATION_PAGE}`);
}
console.log(changed === 0 ? "generated files are up to date" : `${changed} file(s) written`);
