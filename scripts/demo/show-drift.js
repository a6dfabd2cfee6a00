#!/usr/bin/env node
// Prints the drift report of every resource from the JSON of `pulumi preview --refresh --json`
// (read from a file argument or stdin): the `drift` output the refresh computed, with the API's
// masked diff (secret values appear only as ********). The demo uses it when the package has no
// `pulumi-cdc drift` command.
//
// Exit status: 0 when at least one resource drifted, 3 when none did, 1 on unreadable input.
"use strict";

const fs = require("node:fs");

function main() {
  const file = process.argv[2];
  const text = fs.readFileSync(file && file !== "-" ? file : 0, "utf8");
  const preview = JSON.parse(text);
  const steps = Array.isArray(preview.steps) ? preview.steps : [];
  // A refreshing preview reports each resource twice: the refresh step, and then the step the
  // program's run plans from the refreshed state; the drift report lives in the refreshed outputs.
  const reports = new Map();
  for (const step of steps) {
    const state = step.op === "refresh" ? step.newState : step.oldState;
    const drift = state && state.outputs && state.outputs.drift;
    if (!drift || typeof drift !== "object") continue;
    const name = String(step.urn || "").split("::").pop();
    const type = String((state && state.type) || "").split(":").pop();
    reports.set(step.urn, { name, type, drift });
  }
  let drifted = 0;
  for (const { name, type, drift } of reports.values()) {
    if (!drift.detected) {
      process.stdout.write(`  clean   ${type} ${name}: no drift\n`);
      continue;
    }
    drifted++;
    process.stdout.write(`  DRIFT   ${type} ${name}: changed outside Pulumi\n`);
    const when = [drift.baselineTimestamp && `Pulumi last wrote it at ${drift.baselineTimestamp}`, drift.latestTimestamp && `changed at ${drift.latestTimestamp}`]
      .filter(Boolean)
      .join(", ");
    if (when) process.stdout.write(`          (${when})\n`);
    if (Array.isArray(drift.changedKeys) && drift.changedKeys.length > 0) {
      process.stdout.write(`          changed keys: ${drift.changedKeys.join(", ")}\n`);
    }
    for (const line of String(drift.maskedDiff || "").replace(/\n$/, "").split("\n")) {
      process.stdout.write(`          ${line}\n`);
    }
  }
  if (reports.size === 0) process.stdout.write("  (no resource in the preview carries a drift report)\n");
  process.exitCode = drifted > 0 ? 0 : 3;
}

try {
  main();
} catch (error) {
  process.stderr.write(`show-drift: ${error && error.message ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
