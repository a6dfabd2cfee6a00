import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";

/** The checksums file in the release's output directory, in the format `sha256sum` writes and `sha256sum -c` reads. */
export const CHECKSUMS_FILE = "SHA256SUMS";

export interface Checksum {
  name: string;
  sha256: string;
}

// Not localeCompare: the same order on every machine, whatever its locale.
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** SHA-256 of a file, read as a stream: the plugin tarballs are megabytes each, and nothing needs one whole in memory. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Every file under dir but the checksums file, keyed by its base name. The names are the ones a
 * user downloads: a release's assets are flat, and `npm pack <name>@<version>` and `pip download`
 * write the registry's file under the very name the release packed it as. So two files may not
 * share a name, whatever folder each is in.
 */
export function artefacts(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const paths = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort(byCodeUnits);
  for (const path of paths) {
    if (path === join(dir, CHECKSUMS_FILE)) continue;
    const name = basename(path);
    const seen = files.get(name);
    if (seen) throw new Error(`${relative(dir, seen)} and ${relative(dir, path)} have the same name: ${CHECKSUMS_FILE} names each file by its name alone`);
    files.set(name, path);
  }
  return files;
}

/** The file's text: a line `<hex>  <name>` per file (two spaces: sha256sum's text mode), sorted by name. */
export function formatChecksums(sums: readonly Checksum[]): string {
  for (const s of sums) {
    // sha256sum escapes such names with a leading backslash; none of ours needs it, so none may have it.
    if (/[\\\n\r]/.test(s.name)) throw new Error(`${JSON.stringify(s.name)}: a name with a backslash or a line break`);
    if (!/^[0-9a-f]{64}$/.test(s.sha256)) throw new Error(`${s.name}: ${s.sha256} is not a SHA-256 in hex`);
  }
  return [...sums]
    .sort((a, b) => byCodeUnits(a.name, b.name))
    .map((s) => `${s.sha256}  ${s.name}\n`)
    .join("");
}

/** The lines of a checksums file, and what is wrong with it (a line sha256sum would not read, a name listed twice). */
export function parseChecksums(text: string): { sums: Checksum[]; problems: string[] } {
  const sums: Checksum[] = [];
  const problems: string[] = [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    // Text mode ("  ") or binary mode (" *"), as sha256sum reads either.
    const m = /^([0-9a-fA-F]{64}) [ *]([^/\\]+)$/.exec(line);
    if (!m) {
      problems.push(`${CHECKSUMS_FILE} line ${i + 1} is not "<sha256>  <file name>": ${JSON.stringify(line)}`);
      return;
    }
    const name = m[2]!;
    if (sums.some((s) => s.name === name)) problems.push(`${CHECKSUMS_FILE} lists ${name} twice`);
    sums.push({ name, sha256: m[1]!.toLowerCase() });
  });
  return { sums, problems };
}

/** Writes dir/SHA256SUMS over every file under dir (artefacts); returns what it wrote. */
export async function writeChecksums(dir: string): Promise<Checksum[]> {
  const sums: Checksum[] = [];
  for (const [name, path] of artefacts(dir)) sums.push({ name, sha256: await sha256File(path) });
  writeFileSync(join(dir, CHECKSUMS_FILE), formatChecksums(sums));
  return sums;
}

/**
 * What is wrong with dir/SHA256SUMS (empty when nothing), each naming its file: a file it lists
 * that is not there or whose SHA-256, computed again, differs; a file under dir it does not list;
 * a line that does not read.
 */
export async function checksumProblems(dir: string): Promise<string[]> {
  const file = join(dir, CHECKSUMS_FILE);
  if (!existsSync(file)) return [`${CHECKSUMS_FILE} is missing from ${dir}`];
  const { sums, problems } = parseChecksums(readFileSync(file, "utf8"));
  const files = artefacts(dir);
  for (const s of sums) {
    const path = files.get(s.name);
    if (path === undefined) {
      problems.push(`${s.name} is in ${CHECKSUMS_FILE} but not in the release`);
      continue;
    }
    const actual = await sha256File(path);
    if (actual !== s.sha256) problems.push(`${relative(dir, path)}: its SHA-256 is ${actual}, ${CHECKSUMS_FILE} says ${s.sha256}`);
  }
  const listed = new Set(sums.map((s) => s.name));
  for (const [name, path] of files) if (!listed.has(name)) problems.push(`${relative(dir, path)} is not in ${CHECKSUMS_FILE}`);
  return problems;
}
