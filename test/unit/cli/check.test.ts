import { describe, expect, it } from "vitest";
import { redactDiff } from "../../../cli/check.js";
import { statusCheck } from "../../../provider/drift.js";
import { registerSecret } from "../../../provider/client/index.js";

describe("statusCheck", () => {
  it("is drift when the live status is another lifecycle state than the program's", () => {
    expect(statusCheck("active", "Paused")).toEqual({ desired: "active", live: "Paused", drifted: true });
    expect(statusCheck("paused", "Stopped")).toEqual({ desired: "paused", live: "Stopped", drifted: true });
    expect(statusCheck("stopped", "Stopped")).toEqual({ desired: "stopped", live: "Stopped", drifted: false });
    expect(statusCheck("active", "ACTIVE")?.drifted).toBe(false);
  });

  it("does not call a health state drift: `pulumi up` cannot change it", () => {
    for (const live of ["Broken", "Starting", "Unassigned", "Unknown", "Pending"]) {
      expect(statusCheck("active", live)).toEqual({ desired: "active", live, drifted: false });
    }
  });

  it("has nothing to say when the API reports no status", () => {
    expect(statusCheck("active", null)).toBeUndefined();
    expect(statusCheck("active", "")).toBeUndefined();
  });
});

describe("redactDiff", () => {
  it("masks a known secret and secret-looking assignments but keeps the API's mask readable", () => {
    // The client registers every value seen under a secret-named key, the mask among them.
    registerSecret("********");
    registerSecret("leaked-client-secret-123");
    const diff = " snowflake.private.key: ********\n-note: leaked-client-secret-123\n+conn: password=hunter22\n";
    expect(redactDiff(diff)).toBe(" snowflake.private.key: ********\n-note: [REDACTED]\n+conn: password=[REDACTED]\n");
  });
});
