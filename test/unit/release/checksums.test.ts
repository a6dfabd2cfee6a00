import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { artefacts, CHECKSUMS_FILE, checksumProblems, formatChecksums, parseChecksums, sha256File, writeChecksums } from "../../../scripts/release/checksums.js";
import { run } from "../../support/process.js";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

// SHA256SUMS as the release dry run writes it over artifacts/ (scripts/release/checksums.ts) and
// checks it again: a release laid out in folders as artifacts/ is, listed by file name.
describe("SHA256SUMS", () => {
  let dir: string;
  const files: Record<string, string> = {
    "plugin/pulumi-resource-cdc-v1.2.3-linux-amd64.tar.gz": "a tarball",
    "npm/pulumi-cdc-1.2.3.tgz": "an npm tarball",
    "python/pulumi_cdc-1.2.3-py3-none-any.whl": "a wheel",
    "sbom/pulumi-cdc-1.2.3.cdx.json": "{}",
    "release.json": "{}\n",
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-checksums-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("lists every file under the folder by its name, sorted, with its SHA-256, and nothing else", async () => {
    await writeChecksums(dir);
    const expected = Object.entries(files)
      .map(([path, text]) => `${sha256(text)}  ${path.split("/").pop()}`)
      .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
    expect(readFileSync(join(dir, CHECKSUMS_FILE), "utf8")).toBe(`${expected.join("\n")}\n`);
    expect(await checksumProblems(dir)).toEqual([]);
  });

  it("is read by sha256sum -c, as a user checks the files downloaded beside it", async () => {
    await writeChecksums(dir);
    const flat = mkdtempSync(join(tmpdir(), "pulumi-cdc-checksums-flat-"));
    try {
      copyFileSync(join(dir, CHECKSUMS_FILE), join(flat, CHECKSUMS_FILE));
      copyFileSync(join(dir, "npm", "pulumi-cdc-1.2.3.tgz"), join(flat, "pulumi-cdc-1.2.3.tgz"));
      const ok = await run("sha256sum", ["-c", CHECKSUMS_FILE, "--ignore-missing"], { cwd: flat });
      expect(ok.code, ok.output).toBe(0);
      expect(ok.stdout).toBe("pulumi-cdc-1.2.3.tgz: OK\n");
      writeFileSync(join(flat, "pulumi-cdc-1.2.3.tgz"), "another npm tarball");
      const bad = await run("sha256sum", ["-c", CHECKSUMS_FILE, "--ignore-missing"], { cwd: flat });
      expect(bad.code).not.toBe(0);
      expect(bad.stdout).toContain("pulumi-cdc-1.2.3.tgz: FAILED");
    } finally {
      rmSync(flat, { recursive: true, force: true });
    }
  });

  it("a file changed after it was written fails the check, naming the file", async () => {
    await writeChecksums(dir);
    writeFileSync(join(dir, "npm", "pulumi-cdc-1.2.3.tgz"), "an npm tarball, tampered with");
    expect(await checksumProblems(dir)).toEqual([
      `npm/pulumi-cdc-1.2.3.tgz: its SHA-256 is ${sha256("an npm tarball, tampered with")}, SHA256SUMS says ${sha256("an npm tarball")}`,
    ]);
  });

  it("a file it does not list, and a listed file that is gone, fail the check", async () => {
    await writeChecksums(dir);
    writeFileSync(join(dir, "python", "pulumi_cdc-1.2.3.tar.gz"), "an sdist written late");
    unlinkSync(join(dir, "plugin", "pulumi-resource-cdc-v1.2.3-linux-amd64.tar.gz"));
    expect(await checksumProblems(dir)).toEqual([
      "pulumi-resource-cdc-v1.2.3-linux-amd64.tar.gz is in SHA256SUMS but not in the release",
      "python/pulumi_cdc-1.2.3.tar.gz is not in SHA256SUMS",
    ]);
  });

  it("no SHA256SUMS at all fails the check", async () => {
    expect(await checksumProblems(dir)).toEqual([`SHA256SUMS is missing from ${dir}`]);
  });

  it("two files of one name in different folders cannot both be listed by name", () => {
    writeFileSync(join(dir, "plugin", "release.json"), "{}");
    expect(() => artefacts(dir)).toThrow("plugin/release.json and release.json have the same name");
  });

  it("hashes a file larger than a stream's chunk as the whole of it", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    big[big.length - 1] = 1;
    writeFileSync(join(dir, "big.bin"), big);
    expect(await sha256File(join(dir, "big.bin"))).toBe(sha256(big));
  });
});

describe("SHA256SUMS lines", () => {
  const hex = "ab".repeat(32);

  it("reads sha256sum's text and binary lines, and says which line does not read and which name comes twice", () => {
    const text = [`${hex}  a.tgz`, `${hex.toUpperCase()} *b.whl`, `${hex} c.tgz`, "not a line", `${hex}  dir/d.tgz`, `${hex}  a.tgz`, ""].join("\n");
    const { sums, problems } = parseChecksums(text);
    expect(sums).toEqual([
      { name: "a.tgz", sha256: hex },
      { name: "b.whl", sha256: hex },
      { name: "a.tgz", sha256: hex },
    ]);
    expect(problems).toEqual([
      `SHA256SUMS line 3 is not "<sha256>  <file name>": "${hex} c.tgz"`,
      'SHA256SUMS line 4 is not "<sha256>  <file name>": "not a line"',
      `SHA256SUMS line 5 is not "<sha256>  <file name>": "${hex}  dir/d.tgz"`,
      "SHA256SUMS lists a.tgz twice",
    ]);
  });

  it("writes no name sha256sum would have to escape, and no hash that is not one", () => {
    expect(() => formatChecksums([{ name: "a\\b.tgz", sha256: hex }])).toThrow("a backslash or a line break");
    expect(() => formatChecksums([{ name: "a.tgz", sha256: "abc" }])).toThrow("a.tgz: abc is not a SHA-256 in hex");
    expect(formatChecksums([{ name: "b", sha256: hex }, { name: "a", sha256: hex }])).toBe(`${hex}  a\n${hex}  b\n`);
  });
});
