import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIN_NODE_VERSION, nodeVersionProblem } from "../../../provider/node-version.js";
import { runSync } from "../../support/process.js";

const DIST = join(__dirname, "..", "..", "..", "dist");

describe("the Node.js version check", () => {
  it("refuses a Node.js older than the minimum in one line naming both versions", () => {
    expect(MIN_NODE_VERSION).toBe("22.19.0");
    expect(nodeVersionProblem("20.20.2")).toBe("pulumi-cdc needs Node.js >= 22.19.0 (this is 20.20.2): install a newer Node.js and run it again");
    expect(nodeVersionProblem("v18.0.0")).toMatch(/^pulumi-cdc needs Node\.js >= 22\.19\.0 \(this is 18\.0\.0\)/);
    // undici 8 needs 22.19: an early 22 is refused too, not only an older major.
    expect(nodeVersionProblem("22.12.0")).toMatch(/\(this is 22\.12\.0\)/);
    expect(nodeVersionProblem("22.18.9")).toBeDefined();
  });

  it("accepts the minimum and anything newer, and does not refuse what it cannot read", () => {
    for (const v of ["22.19.0", "22.19.1", "22.20.0", "23.0.0", "24.21.0", "v25.1.0", "30"]) expect(nodeVersionProblem(v)).toBeUndefined();
    expect(nodeVersionProblem("")).toBeUndefined();
    expect(nodeVersionProblem("nightly")).toBeUndefined();
  });
});

/** A Node.js older than the minimum: the system's, before the toolchain put a newer one first on PATH. */
function olderNode(): { path: string; version: string } | undefined {
  const candidates = [process.env.CDC_OLD_NODE, "/usr/bin/node", "/usr/local/bin/node", ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "node"))];
  for (const path of candidates) {
    if (!path || !existsSync(path)) continue;
    const asked = runSync(path, ["-p", "process.versions.node"]);
    if (asked.code !== 0) continue;
    const version = asked.stdout.trim();
    if (nodeVersionProblem(version) !== undefined) return { path, version };
  }
  return undefined;
}

describe("the built entry points under an older Node.js", () => {
  const old = olderNode();
  const entries = [
    ["the SDK", ["-e", `require(${JSON.stringify(join(DIST, "sdk", "index.js"))})`]],
    ["the provider", ["-e", `require(${JSON.stringify(join(DIST, "provider", "index.js"))})`]],
    ["the CLI", [join(DIST, "cli", "index.js"), "--help"]],
  ] as const;
  for (const [what, args] of entries) {
    it(`${what} says which Node.js it needs in one line, with no stack trace`, (ctx) => {
      if (!old) {
        ctx.skip(`no Node.js older than ${MIN_NODE_VERSION} on this machine (looked at CDC_OLD_NODE, /usr/bin/node, /usr/local/bin/node and PATH)`);
        return;
      }
      const run = runSync(old.path, args, { env: { ...process.env, NODE_OPTIONS: "" } });
      expect(run.stderr).toBe(`pulumi-cdc needs Node.js >= ${MIN_NODE_VERSION} (this is ${old.version}): install a newer Node.js and run it again\n`);
      expect(run.stderr).not.toMatch(/\bat |undici|createZstdDecompress/);
      expect(run.stdout).toBe("");
      expect(run.code).toBe(1);
    });
  }
});
