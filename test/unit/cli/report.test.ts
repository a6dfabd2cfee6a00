import { describe, expect, it } from "vitest";
import type { CheckedResource } from "../../../cli/check.js";
import { driftRun, exitCodeFor, MARKDOWN_MAX_LINE, MARKDOWN_MAX_LINES, markdownCell, renderHuman, renderJson, renderMarkdown } from "../../../cli/report.js";

const at = new Date("2026-03-04T05:06:07.000Z");

const clean = (type: "source" | "destination", name: string, id: string): CheckedResource => ({
  type,
  name,
  id,
  urn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/cdc:${type === "source" ? "Source" : "Destination"}::${name}`,
  drift: { detected: false, maskedDiff: "", changedKeys: [], status: { desired: "active", live: "Active", drifted: false } },
});

const destinationDiff = "--- original\n+++ current\n@@ -1,2 +1,2 @@\n snowflake.private.key: ********\n-snowflake.schema.name: RAW\n+snowflake.schema.name: STAGING\n";

const driftedDestination: CheckedResource = {
  ...clean("destination", "warehouse-1a2b", "d1"),
  drift: {
    detected: true,
    maskedDiff: destinationDiff,
    changedKeys: [],
    latestTimestamp: "2026-03-04T05:00:00.000Z",
    baselineTimestamp: "2026-03-04T04:00:00.000Z",
    status: { desired: "active", live: "Active", drifted: false },
  },
};

describe("driftRun and exit codes", () => {
  it("is clean (exit 0) only when no resource drifted, and 2 otherwise", () => {
    const ok = driftRun("dev", at, [clean("source", "orders", "s1")]);
    expect(ok).toMatchObject({ stack: "dev", checkedAt: "2026-03-04T05:06:07.000Z", clean: true });
    expect(exitCodeFor(ok)).toBe(0);
    const bad = driftRun("dev", at, [clean("source", "orders", "s1"), driftedDestination]);
    expect(bad.clean).toBe(false);
    expect(exitCodeFor(bad)).toBe(2);
    expect(exitCodeFor(driftRun("dev", at, []))).toBe(0);
  });
});

describe("renderJson", () => {
  it("prints the run object as it is, parseable, with the documented fields", () => {
    const run = driftRun("dev", at, [driftedDestination]);
    const parsed = JSON.parse(renderJson(run));
    expect(parsed).toEqual({
      stack: "dev",
      checkedAt: "2026-03-04T05:06:07.000Z",
      clean: false,
      resources: [
        {
          type: "destination",
          name: "warehouse-1a2b",
          id: "d1",
          urn: driftedDestination.urn,
          drift: {
            detected: true,
            maskedDiff: destinationDiff,
            changedKeys: [],
            latestTimestamp: "2026-03-04T05:00:00.000Z",
            baselineTimestamp: "2026-03-04T04:00:00.000Z",
            status: { desired: "active", live: "Active", drifted: false },
          },
        },
      ],
    });
  });
});

describe("renderHuman", () => {
  it("prints one ✓ line per clean resource and a clean summary without hints", () => {
    const text = renderHuman(driftRun("dev", at, [clean("source", "orders", "s1"), clean("destination", "warehouse-1a2b", "d1")]));
    expect(text).toBe(
      [
        "✓ source orders (id s1): no drift",
        "✓ destination warehouse-1a2b (id d1): no drift",
        "",
        "No drift: 2 resources of stack dev match the API.",
        "",
      ].join("\n"),
    );
  });

  it("indents the masked diff under a drifted resource and ends with the summary and the up/refresh hint", () => {
    const text = renderHuman(driftRun("dev", at, [clean("source", "orders", "s1"), driftedDestination]));
    const lines = text.split("\n");
    expect(lines[0]).toBe("✓ source orders (id s1): no drift");
    expect(lines[1]).toBe("✗ destination warehouse-1a2b (id d1): drift");
    expect(lines.slice(2, 8)).toEqual([
      "    --- original",
      "    +++ current",
      "    @@ -1,2 +1,2 @@",
      "     snowflake.private.key: ********",
      "    -snowflake.schema.name: RAW",
      "    +snowflake.schema.name: STAGING",
    ]);
    expect(text).toContain("Drift: 1 of 2 resources of stack dev changed outside Pulumi.");
    expect(text).toContain("run `pulumi up` to put the program's config back, or `pulumi refresh` to accept the live config");
    expect(text).not.toContain("--refresh");
  });

  it("reports a status change with its own line and the --refresh hint", () => {
    const paused: CheckedResource = {
      ...clean("source", "orders", "s1"),
      drift: { detected: true, maskedDiff: "", changedKeys: [], status: { desired: "active", live: "Paused", drifted: true } },
    };
    const text = renderHuman(driftRun("dev", at, [paused]));
    expect(text).toContain("✗ source orders (id s1): drift\n    status: Paused, the program wants active\n");
    expect(text).toContain("Status changed: run `pulumi up` to put the program's desiredState back");
    // Only the status changed: no advice about config.
    expect(text).not.toContain("Config changed");
  });

  it("reports a deleted resource on its line, with the recreate hint", () => {
    const gone: CheckedResource = { ...clean("destination", "warehouse-1a2b", "d1"), drift: { detected: true, deleted: true, maskedDiff: "", changedKeys: [] } };
    const text = renderHuman(driftRun("dev", at, [gone]));
    expect(text).toContain("✗ destination warehouse-1a2b (id d1): deleted outside Pulumi\n");
    expect(text).toContain("Deleted: run `pulumi up --refresh` to create it again, or `pulumi refresh` to drop it from the stack.");
    expect(text).not.toContain("Config changed");
  });

  it("lists changed keys when there is no diff text, and explains an empty destination diff", () => {
    const keysOnly: CheckedResource = { ...clean("source", "orders", "s1"), drift: { detected: true, maskedDiff: "", changedKeys: ["a", "b"] } };
    expect(renderHuman(driftRun("dev", at, [keysOnly]))).toContain("    changed keys: a, b\n");
    const undone: CheckedResource = { ...driftedDestination, drift: { ...driftedDestination.drift, maskedDiff: "" } };
    expect(renderHuman(driftRun("dev", at, [undone]))).toContain(
      "    config rewritten at 2026-03-04T05:00:00.000Z, after Pulumi's last write at 2026-03-04T04:00:00.000Z\n",
    );
  });

  it("shows a health status on a clean line without calling it drift", () => {
    const broken: CheckedResource = {
      ...clean("destination", "warehouse-1a2b", "d1"),
      drift: { detected: false, maskedDiff: "", changedKeys: [], status: { desired: "active", live: "Broken", drifted: false } },
    };
    const text = renderHuman(driftRun("dev", at, [broken]));
    expect(text).toContain("✓ destination warehouse-1a2b (id d1): no drift (status Broken)\n");
    expect(text).toContain("No drift: 1 resource of stack dev");
  });

  it("says so when the stack has nothing to check", () => {
    expect(renderHuman(driftRun("dev", at, []))).toBe("Stack dev has no pulumi-cdc resources: nothing to check.\n");
  });

  it("names the other kinds in words, prints their findings, and hints `pulumi up --refresh` for a tag", () => {
    const object = (type: CheckedResource["type"], name: string, findings: string[]): CheckedResource => ({
      type,
      name,
      id: `${type}-1`,
      urn: `urn:pulumi:dev::p::cdc:index:X::${name}`,
      drift: { detected: findings.length > 0, maskedDiff: findings.join("\n"), changedKeys: [] },
    });
    const text = renderHuman(
      driftRun("dev", at, [
        object("kafka_user", "analytics-dev", ["ACLs were changed: added WRITE on TOPIC payments"]),
        object("http_connection", "tickets", []),
        object("llm_connection", "model", []),
        object("tag", "pii-1a2b", ['description was changed to "x"']),
        object("client_credential", "dbt", ["roles were changed to [role_editor]"]),
      ]),
    );
    expect(text).toContain("✗ client credential dbt (id client_credential-1): drift\n    roles were changed to [role_editor]\n");
    expect(text).toContain("Client credential changed: run `pulumi up --refresh` to put the program's roles and description back, or `pulumi refresh` to accept them.");
    expect(text).toContain("✗ Kafka user analytics-dev (id kafka_user-1): drift\n    ACLs were changed: added WRITE on TOPIC payments\n");
    expect(text).toContain("✓ HTTP connection tickets (id http_connection-1): no drift\n");
    expect(text).toContain("✓ LLM connection model (id llm_connection-1): no drift\n");
    expect(text).toContain("✗ tag pii-1a2b (id tag-1): drift\n");
    expect(text).toContain("Config changed: run `pulumi up`");
    expect(text).toContain("Tag changed: run `pulumi up --refresh` to put the program's version back, or `pulumi refresh` to accept it.");
    // Only a tag: no "Config changed" hint, whose plain `pulumi up` would not put a tag back.
    const onlyTag = renderHuman(driftRun("dev", at, [object("tag", "pii-1a2b", ['description was changed to "x"'])]));
    expect(onlyTag).not.toContain("Config changed");
    // JSON keeps the machine name of the kind.
    expect(JSON.parse(renderJson(driftRun("dev", at, [object("kafka_user", "a", [])]))).resources[0].type).toBe("kafka_user");
  });
});

/** The `|` of a Markdown table line that separate cells (an escaped `\|` is text). */
function cellSeparators(line: string): number {
  return (line.match(/(?<!\\)\|/g) ?? []).length;
}

describe("renderMarkdown", () => {
  const object = (type: CheckedResource["type"], name: string, findings: string[], extra: Partial<CheckedResource["drift"]> = {}): CheckedResource => ({
    type,
    name,
    id: `${type}-1`,
    urn: `urn:pulumi:dev::p::cdc:index:X::${name}`,
    drift: { detected: findings.length > 0 || extra.detected === true, maskedDiff: findings.join("\n"), changedKeys: [], ...extra },
  });

  it("is one short line when nothing drifted, and when there is nothing to check", () => {
    expect(renderMarkdown(driftRun("dev", at, [clean("source", "orders", "s1"), clean("destination", "warehouse-1a2b", "d1")]))).toBe(
      "**pulumi-cdc drift**: no drift, the 2 resources of stack dev match the API.\n",
    );
    expect(renderMarkdown(driftRun("dev", at, [clean("source", "orders", "s1")]))).toBe("**pulumi-cdc drift**: no drift, the 1 resource of stack dev match the API.\n");
    expect(renderMarkdown(driftRun("dev", at, []))).toBe("**pulumi-cdc drift**: stack dev has no pulumi-cdc resources, nothing to check.\n");
  });

  it("is a table with a row per drifted resource: kind, name and id, the diff's changed lines (masks kept), the fix", () => {
    const md = renderMarkdown(driftRun("dev", at, [clean("source", "orders", "s1"), driftedDestination]));
    expect(md).toBe(
      [
        "**pulumi-cdc drift**: drift, 1 of 2 resources of stack dev changed outside Pulumi.",
        "",
        "| kind | name | what changed | fix |",
        "|---|---|---|---|",
        "| destination | warehouse-1a2b (id d1) | -snowflake.schema.name: RAW<br>+snowflake.schema.name: STAGING | `pulumi up` puts the program's config back; `pulumi refresh` accepts the live config |",
        "",
      ].join("\n"),
    );
  });

  it("shows what the human report shows for each drifted resource, the same masked text, and the same fixes", () => {
    const masked = object("source", "orders", ["--- a", "+++ b", "@@ -1 +1 @@", "-database.password: ********", "+database.password: ********", "-database.hostname: db", "+database.hostname: elsewhere"]);
    const paused: CheckedResource = { ...clean("source", "billing", "s2"), drift: { detected: true, maskedDiff: "", changedKeys: [], status: { desired: "active", live: "Paused", drifted: true } } };
    const gone: CheckedResource = { ...clean("destination", "lake", "d2"), drift: { detected: true, deleted: true, maskedDiff: "", changedKeys: [] } };
    const keysOnly: CheckedResource = { ...clean("source", "keys", "s3"), drift: { detected: true, maskedDiff: "", changedKeys: ["a", "b"] } };
    const run = driftRun("dev", at, [
      masked,
      paused,
      gone,
      keysOnly,
      object("tag", "pii", ['description was changed to "x"']),
      object("client_credential", "dbt", ["roles were changed to [role_editor]"]),
    ]);
    const md = renderMarkdown(run);
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| kind"));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(cellSeparators(row)).toBe(5);
    expect(rows[0]).toContain("| source | orders (id source-1) | -database.password: \\*\\*\\*\\*\\*\\*\\*\\*<br>+database.password: \\*\\*\\*\\*\\*\\*\\*\\*<br>-database.hostname: db<br>+database.hostname: elsewhere |");
    expect(rows[1]).toContain("| status: Paused, the program wants active | `pulumi up` puts the program's desiredState back; `pulumi refresh` accepts the live status |");
    expect(rows[2]).toContain("| destination | lake (id d2) | deleted outside Pulumi | `pulumi up --refresh` creates it again; `pulumi refresh` drops it from the stack |");
    expect(rows[3]).toContain("| changed keys: a, b |");
    expect(rows[4]).toContain('| tag | pii (id tag-1) | description was changed to "x" | `pulumi up --refresh` puts the program\'s version back; `pulumi refresh` accepts it |');
    expect(rows[5]).toContain("| client credential | dbt (id client\\_credential-1) | roles were changed to \\[role\\_editor\\] | `pulumi up --refresh` puts the program's roles and description back");
    // Every changed line the human report prints is in the Markdown, as text.
    const human = renderHuman(run);
    for (const line of human.split("\n").filter((l) => /^ {4}[-+](?![-+]{2} )/.test(l) || /^ {4}(status|changed keys|description|roles)/.test(l))) {
      expect(md).toContain(markdownCell(line.trim()));
    }
    // Masks stay masks; nothing else stands in for them.
    expect(md).not.toContain("[REDACTED]");
  });

  it("escapes what would break the table or format text: pipes, newlines, backticks, emphasis, links, HTML", () => {
    const nasty = object("http_connection", "a|b`c`\nd", ["url was changed to `https://x/?a=1|2` <script>alert(1)</script> **bold** [link](http://y) ~~s~~ back\\slash\r\nsecond line\ttab"]);
    const md = renderMarkdown(driftRun("dev|prod", at, [nasty]));
    const lines = md.split("\n");
    expect(lines[0]).toBe("**pulumi-cdc drift**: drift, 1 of 1 resource of stack dev\\|prod changed outside Pulumi.");
    const rows = lines.filter((l) => l.startsWith("| ") && !l.startsWith("| kind"));
    expect(rows).toHaveLength(1);
    expect(cellSeparators(rows[0]!)).toBe(5);
    expect(rows[0]).toBe(
      "| HTTP connection | a\\|b\\`c\\`<br>d (id http\\_connection-1) | url was changed to \\`https://x/?a=1\\|2\\` &lt;script&gt;alert(1)&lt;/script&gt; \\*\\*bold\\*\\* \\[link\\](http://y) \\~\\~s\\~\\~ back\\\\slash<br>second line tab | `pulumi up` puts the program's config back; `pulumi refresh` accepts the live config |",
    );
    expect(md).not.toContain("<script>");
  });

  it("keeps a row short: at most 12 lines of what changed, each at most 200 characters", () => {
    const long = object("transform", "t", [...Array.from({ length: 30 }, (_, i) => `setting ${i} was changed`), "x".repeat(500)]);
    const row = renderMarkdown(driftRun("dev", at, [long]))
      .split("\n")
      .find((l) => l.startsWith("| transform"))!;
    const changed = row.split(" | ")[2]!.split("<br>");
    expect(changed).toHaveLength(MARKDOWN_MAX_LINES);
    expect(changed[MARKDOWN_MAX_LINES - 1]).toBe("… 20 more lines: run pulumi-cdc drift for all of them");
    const wide = renderMarkdown(driftRun("dev", at, [object("topic", "t", ["y".repeat(500)])]));
    expect(wide).toContain(`${"y".repeat(MARKDOWN_MAX_LINE - 1)}…`);
    expect(wide).not.toContain("y".repeat(MARKDOWN_MAX_LINE));
  });
});

describe("markdownCell", () => {
  it("escapes each character that Markdown or HTML would read, and turns line breaks into <br>", () => {
    expect(markdownCell("a|b")).toBe("a\\|b");
    expect(markdownCell("`x`")).toBe("\\`x\\`");
    expect(markdownCell("*_[]~\\")).toBe("\\*\\_\\[\\]\\~\\\\");
    expect(markdownCell("<br>&amp;")).toBe("&lt;br&gt;&amp;amp;");
    expect(markdownCell("one\ntwo\r\nthree\rfour")).toBe("one<br>two<br>three<br>four");
    expect(markdownCell("tab\there\u001b[31m")).toBe("tab here \\[31m");
    expect(markdownCell("plain text: 1.2, (x) #3 +y -z")).toBe("plain text: 1.2, (x) #3 +y -z");
  });
});
