import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// No module of the product imports itself back, through any chain of relative imports (type-only
// ones included: they tie the modules as much as value imports, only not at run time).

const root = resolve(__dirname, "..", "..");
const DIRS = ["provider", "plugin", "cli", "sdk", "catalogue", "emulator", "scripts/generate"];

/** Cycles let through, as the sorted modules of each with the reason. None today. */
const ALLOWED: ReadonlyArray<{ modules: string[]; why: string }> = [];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === "node_modules") continue;
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (entry.endsWith(".ts") && !entry.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The module a relative specifier names: `./x.js` is ./x.ts, a directory is its index.ts. */
function target(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Each module's relative imports (static, type-only, re-exports and dynamic `import()`), by path relative to the root. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const deps = importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => target(file, spec))
      .filter((t): t is string => t !== undefined)
      .map((t) => relative(root, t));
    graph.set(relative(root, file), [...new Set(deps)]);
  }
  return graph;
}

/** The strongly connected components of more than one module (or of one importing itself): the cycles. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe("import cycles", () => {
  it("finds a cycle, and only a cycle, in a small graph", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
    expect(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]]))).toEqual([]);
  });

  it("reads type-only imports, re-exports and dynamic imports as edges", () => {
    const graph = importGraph([join(root, "cli", "args.ts"), join(root, "sdk", "lookups.ts"), join(root, "provider", "kinds", "index.ts")]);
    expect(graph.get("cli/args.ts")).toContain("cli/import/args.ts");
    // `import("../provider/lookup.js")` and `import type {...} from "../provider/lookup.js"`.
    expect(graph.get("sdk/lookups.ts")).toContain("provider/lookup.ts");
    // `export type {...} from "./spec.js"`.
    expect(graph.get("provider/kinds/index.ts")).toContain("provider/kinds/spec.ts");
  });

  it(`are none in ${DIRS.join(", ")}`, () => {
    const graph = importGraph(DIRS.flatMap((d) => sources(join(root, d))));
    expect(graph.size).toBeGreaterThan(100);
    const allowed = new Set(ALLOWED.map((a) => [...a.modules].sort().join(" ")));
    const unexpected = cycles(graph).filter((c) => !allowed.has(c.join(" ")));
    expect(unexpected, "modules that import each other, directly or through others: move what they share into a module both import").toEqual([]);
  });

  it("leave the hosts thin: the plugin imports only the core (no cli/, sdk/ or emulator/), and nothing outside it imports the plugin", () => {
    const graph = importGraph(DIRS.flatMap((d) => sources(join(root, d))));
    const crossings = [...graph].flatMap(([from, tos]) =>
      tos.flatMap((to) => {
        const fromPlugin = from.startsWith("plugin/");
        const toPlugin = to.startsWith("plugin/");
        if (fromPlugin && /^(cli|sdk|emulator)\//.test(to)) return [`${from} → ${to}`];
        if (!fromPlugin && toPlugin) return [`${from} → ${to}`];
        return [];
      }),
    );
    expect(crossings).toEqual([]);
  });
});
