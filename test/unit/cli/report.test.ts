import { describe, expect, it } from "vitest";
import type { CheckedResource } from "../../../cli/check.js";
import { driftRun, exitCodeFor, renderHuman, renderJson } from "../../../cli/report.js";

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
