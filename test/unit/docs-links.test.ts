import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The README, the guides under docs/, generated/README.md, the reference pages (generated/reference)
// and the examples' READMEs: every relative link points at a file or directory that exists, and
// every `#anchor` on a link to a Markdown file (or within one) names a heading of it, slugged as
// GitHub slugs them. Links with a scheme (http:, https:, mailto:) are not followed: no network
// here. And the README stays short.

const REPO_ROOT = join(__dirname, "..", "..");
const README_MAX_LINES = 250;

/** Folders a walk never enters: installed packages and virtual environments hold READMEs of their own. */
const SKIP_DIRS = new Set(["node_modules", "venv", ".venv", "__pycache__"]);

function walk(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out.sort();
}

/** The Markdown files whose links are checked. */
function checkedFiles(root: string): string[] {
  return [
    join(root, "README.md"),
    ...walk(join(root, "docs"), (p) => p.endsWith(".md")),
    join(root, "generated", "README.md"),
    ...walk(join(root, "generated", "reference"), (p) => p.endsWith(".md")),
    ...walk(join(root, "examples"), (p) => p.endsWith("/README.md")),
  ];
}

/** Lines outside fenced code blocks (``` or ~~~), as [line number, text]; inline code spans blanked unless asked not to. */
function proseLines(text: string, blankCode = true): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1]![0]!.repeat(m[1]!.length);
      else if (m[1]!.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence === undefined) out.push([i + 1, blankCode ? line.replace(/(`+)[^`]*?\1/g, (s) => " ".repeat(s.length)) : line]);
  });
  return out;
}

/** GitHub's anchor of a heading: its text as rendered, lowercased, punctuation but - and _ dropped, spaces to -. */
function slug(heading: string): string {
  // Code spans render as their text; outside them, links and images render as their text, and
  // inline HTML and emphasis marks render as nothing.
  const text = heading
    .split(/(`+[^`]*?`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/^`+|`+$/g, "")
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
            .replace(/<[^>]+>/g, "")
            .replace(/(\*\*|__|\*)(?=\S)([^*]*?\S)\1/g, "$2"),
    )
    .join("")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs (duplicates get -1, -2, ...) and explicit ids. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, line] of proseLines(text, false)) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]!);
  }
  return out;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** The links of a Markdown file: inline links and images, reference definitions, HTML href and src. */
function links(file: string, text: string): Link[] {
  const out: Link[] = [];
  for (const [line, prose] of proseLines(text)) {
    for (const m of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g)) out.push({ file, line, target: m[1]!.replace(/^<|>$/g, "") });
    const def = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (def) out.push({ file, line, target: def[1]! });
    for (const m of prose.matchAll(/\b(?:href|src)="([^"]*)"/g)) out.push({ file, line, target: m[1]! });
  }
  return out;
}

/** What is wrong with one link, or undefined. */
function problem(link: Link, read: (path: string) => string = (p) => readFileSync(p, "utf8")): string | undefined {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:: not followed
  if (target === "") return "empty link";
  const hash = target.indexOf("#");
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const path = pathPart === "" ? link.file : resolve(dirname(link.file), pathPart);
  if (!existsSync(path)) return `${pathPart} does not exist`;
  if (anchor === undefined) return undefined;
  if (!path.endsWith(".md") || !statSync(path).isFile()) return undefined; // an anchor into code or a folder: not checked
  const offered = anchors(read(path));
  if (!offered.has(anchor.toLowerCase())) return `#${anchor} is not a heading of ${relative(REPO_ROOT, path)}`;
  return undefined;
}

describe("documentation links", () => {
  const files = checkedFiles(REPO_ROOT);

  it("checks the README, the guides, the reference and the examples' READMEs", () => {
    const names = files.map((f) => relative(REPO_ROOT, f));
    expect(names).toContain("README.md");
    expect(names).toContain("docs/README.md");
    expect(names).toContain("generated/README.md");
    expect(names).toContain("generated/reference/README.md");
    expect(names).toContain("examples/README.md");
    expect(names.filter((n) => n.startsWith("docs/")).length).toBeGreaterThan(10);
    expect(names.filter((n) => n.startsWith("generated/reference/")).length).toBeGreaterThan(20);
  });

  it("every relative link resolves, and every anchor names a heading", () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const link of links(file, readFileSync(file, "utf8"))) {
        count++;
        const why = problem(link);
        if (why) broken.push(`${relative(REPO_ROOT, file)}:${link.line}: (${link.target}) ${why}`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it(`the README is at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(REPO_ROOT, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("the README links every guide of docs/", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    for (const page of readdirSync(join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md"))) expect(readme, page).toContain(`](docs/${page})`);
  });
});

describe("the link checker itself", () => {
  const file = join(REPO_ROOT, "README.md");

  it("slugs headings as GitHub does", () => {
    expect(slug("The provider plugin and languages")).toBe("the-provider-plugin-and-languages");
    expect(slug("`pulumi import`")).toBe("pulumi-import");
    expect(slug("Conformance: the vendor's acceptance tests against the emulator")).toBe("conformance-the-vendors-acceptance-tests-against-the-emulator");
    expect(slug("A broken checkpoint: `failed to load checkpoint: EOF`")).toBe("a-broken-checkpoint-failed-to-load-checkpoint-eof");
    expect(slug("Reliability under faults: `npm run chaos`")).toBe("reliability-under-faults-npm-run-chaos");
    expect(slug("`startEmulator(options?: Partial<EmulatorOptions>): Promise<RunningEmulator>`")).toBe("startemulatoroptions-partialemulatoroptions-promiserunningemulator");
    expect(slug("snake_case and **bold**")).toBe("snake_case-and-bold");
    expect([...anchors("# A\n## A\n```\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1", "a-2"]);
  });

  it("finds a missing file, a missing heading, and lets good links and web links pass", () => {
    expect(problem({ file, line: 1, target: "docs/no-such-page.md" })).toMatch(/does not exist/);
    expect(problem({ file, line: 1, target: "docs/recovery.md#no-such-heading" })).toMatch(/is not a heading of docs\/recovery.md/);
    expect(problem({ file, line: 1, target: "#no-such-heading" })).toMatch(/is not a heading of README.md/);
    expect(problem({ file, line: 1, target: "docs/recovery.md" })).toBeUndefined();
    expect(problem({ file, line: 1, target: "examples/quickstart/" })).toBeUndefined();
    expect(problem({ file, line: 1, target: "#the-two-commands" })).toBeUndefined();
    expect(problem({ file, line: 1, target: "https://example.com/nowhere" })).toBeUndefined();
  });

  it("skips links in code blocks and code spans, and reads reference definitions", () => {
    const text = "[a](x.md)\n`[b](y.md)`\n```\n[c](z.md)\n```\n[d]: w.md\n![e](img.png \"title\")\n";
    expect(links("/r/f.md", text).map((l) => l.target)).toEqual(["x.md", "w.md", "img.png"]);
  });
});
