import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DRIFT_USAGE } from "../../../cli/args.js";
import { RESOURCE_KINDS } from "../../../provider/served.js";

/** The guide that holds the drift command's table (moved there from the README). */
const README = readFileSync(join(__dirname, "..", "..", "..", "docs", "drift-in-ci.md"), "utf8");

/** The "kind  what is checked" rows of `pulumi-cdc drift --help`. */
function helpRows(): Array<[string, string]> {
  const rows = [...DRIFT_USAGE.matchAll(/^ {2}(\S[^\n]*?) {2,}(\S[^\n]*)$/gm)].map((m) => [m[1]!, m[2]!] as [string, string]);
  // The options table has the same layout: only the rows before it.
  return rows.filter(([kind]) => !kind.startsWith("-"));
}

/** Where each resource kind is named in the help's table. */
const ROW_OF: Record<string, string> = {
  Source: "sources, destinations",
  Destination: "sources, destinations",
  Pipeline: "pipelines",
  Transform: "transforms",
  Topic: "topics",
  TopicDestination: "topic destinations",
  DestinationSmtChain: "SMT chains",
  Tag: "tags",
  Agent: "agents",
  HttpConnection: "HTTP connections",
  LlmConnection: "LLM connections",
  KafkaUser: "Kafka users",
  ClientCredential: "client credentials",
};

describe("pulumi-cdc drift --help and docs/drift-in-ci.md say the same thing", () => {
  it("the guide's table has exactly the help's rows, in the same words", () => {
    const rows = helpRows();
    expect(rows.length).toBeGreaterThanOrEqual(9);
    for (const [kind, what] of rows) expect(README, kind).toContain(`| ${kind} | ${what} |`);
    const start = README.indexOf("| kind | checked |");
    expect(start).toBeGreaterThan(0);
    const table = README.slice(start).split("\n\n")[0]!.split("\n").slice(2);
    expect(table).toHaveLength(rows.length);
  });

  it("both name every kind", () => {
    const kinds = new Set(helpRows().map(([kind]) => kind));
    for (const kind of RESOURCE_KINDS) {
      expect(ROW_OF[kind], `${kind} has no row in the help's table: add what the drift command checks of it`).toBeDefined();
      expect(kinds, kind).toContain(ROW_OF[kind]);
    }
    expect(DRIFT_USAGE).toContain("Every kind of pulumi-cdc.");
    expect(README).toContain("Every kind of pulumi-cdc.");
  });
});
