import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { KIND_NAMES } from "../../provider/kinds/index.js";

// A kind is declared once, in provider/kinds/ (the registry); every table of kinds elsewhere is
// derived from it. This finds tables of kinds written by hand in the product's code: two kinds in
// a row in a list or a union (`"Tag", "Topic"`, `"Tag" | "Topic"`), two lines in a row each
// keyed by a kind or holding only a kind (a map or a list written a row per kind), or a switch
// with a `case` for each of two kinds or more (a table written as code). A kind's own rules, its
// emulator route and its tests may name it; generated code is written from the registry.

const root = join(__dirname, "..", "..");
/** The product, and the generator that writes code from the registry. */
const PRODUCT = ["provider", "plugin", "sdk", "cli", "catalogue", "policy/src", "scripts/generate"];
const EXEMPT = [/^provider\/kinds\//, /(^|\/)generated\//, /\.test\.ts$/];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === "node_modules" ? [] : sources(path);
    return /\.(ts|mts|js|mjs)$/.test(entry) ? [path] : [];
  });
}

const names = KIND_NAMES.join("|");
/** Two kinds in a row, quoted, with only a comma or a bar between (a list or a union of them), or only a key between (a one-line map). */
const listed = new RegExp(`["'\`](${names})["'\`]\\s*(,|\\||,\\s*["']?[\\w-]+["']?\\s*:)\\s*["'\`](${names})["'\`]`);
/** A line keyed by a kind or by one of its properties (a row of a map: `Tag:`, `"Pipeline.source":`), or holding only a kind (a row of a list). */
const keyed = new RegExp(`^\\s*(["']?(${names})(\\.\\w+)?["']?\\s*:|(type\\s+)?["']?(${names})["']?\\s*,\\s*$)`);
/** A branch of a switch for one kind. */
const caseRow = new RegExp(`^\\s*case\\s+["'\`](${names})["'\`]\\s*:`);

/** The hand-written tables of kinds in one file's text, as `line: text`. */
export function kindTables(text: string): string[] {
  // An import list names what a module uses, whatever it is called: not a table.
  let inImport = false;
  const lines = text.split("\n").map((line) => {
    const skipped = inImport || /^import\b/.test(line);
    if (/^import\b.*\{\s*$/.test(line)) inImport = true;
    else if (inImport && /\}\s*from\s/.test(line)) inImport = false;
    return skipped ? "" : line;
  });
  const found: string[] = [];
  // The kinds' `case` rows of each switch, by the line the switch starts on: one kind is a branch, two or more a table.
  const cases = new Map<number, number[]>();
  let inSwitch = -1;
  lines.forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    if (/\bswitch\s*\(/.test(line)) inSwitch = i;
    if (caseRow.test(line)) cases.set(inSwitch, [...(cases.get(inSwitch) ?? []), i]);
    const rowOfMap = keyed.test(line) && (keyed.test(lines[i - 1] ?? "") || keyed.test(lines[i + 1] ?? ""));
    if (listed.test(line) || rowOfMap) found.push(`${i + 1}: ${line.trim()}`);
  });
  for (const rows of cases.values()) if (rows.length > 1) found.push(...rows.map((i) => `${i + 1}: ${lines[i]!.trim()}`));
  return found.sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}

describe("the kind registry", () => {
  it("finds a table of kinds written by hand (the detector itself)", () => {
    expect(kindTables(`const order = ["Tag", "Source"];`)).toHaveLength(1);
    expect(kindTables(`type K = "Tag" | "Topic";`)).toHaveLength(1);
    expect(kindTables(`const SUFFIX = { source: "Source", destination: "Destination" };`)).toHaveLength(1);
    expect(kindTables(["const LABEL = {", "  Tag: \"tag\",", "  Topic: \"topic\",", "};"].join("\n"))).toHaveLength(2);
    expect(kindTables(["export {", "  Tag,", "  Topic,", "} from \"./kinds.js\";"].join("\n"))).toHaveLength(2);
    expect(kindTables(["const ARGS_CLASS = {", '  "Pipeline.source": "ConnectorRefArgs",', '  "DestinationSmtChain.transforms": "SmtTransformArgs",', "};"].join("\n"))).toHaveLength(2);
    expect(kindTables(["import {", "  type Tag,", "  type Topic,", "} from \"./api.js\";"].join("\n"))).toEqual([]);
    expect(kindTables(`if (kind === "Tag") return;`)).toEqual([]);
    expect(kindTables(`ref(owner === "source" ? "Source" : "Transform", id)`)).toEqual([]);
    expect(kindTables(`// Tag, Topic and Source are kinds`)).toEqual([]);
    const table = ["switch (r.kind) {", '  case "Tag":', "    return [r.name];", '  case "Source":', '  case "Destination":', "    return [r.connector];", "}"];
    expect(kindTables(table.join("\n"))).toEqual(['2: case "Tag":', '4: case "Source":', '5: case "Destination":']);
    // One kind's branch is no table, nor are two switches with one each.
    expect(kindTables(["switch (kind) {", '  case "Tag":', "    return 1;", "  default:", "    return 2;", "}"].join("\n"))).toEqual([]);
    expect(kindTables(["switch (a) {", '  case "Tag":', "    break;", "}", "switch (b) {", '  case "Topic":', "    break;", "}"].join("\n"))).toEqual([]);
  });

  it("is the only place that lists kinds: no product file outside provider/kinds/ holds a table of them", () => {
    const tables = PRODUCT.flatMap((dir) => sources(join(root, dir)))
      .map((path) => relative(root, path).split("\\").join("/"))
      .filter((path) => !EXEMPT.some((re) => re.test(path)))
      .flatMap((path) => kindTables(readFileSync(join(root, path), "utf8")).map((row) => `${path}:${row}`));
    expect(tables, "a table of kinds written by hand: derive it from the registry (provider/kinds/index.ts) instead").toEqual([]);
  });
});
