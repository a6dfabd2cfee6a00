#!/usr/bin/env bash
# The one test command (README: `npm test`): toolchain, dependencies, build, then every suite
# (unit, contract against the emulator over HTTP, end-to-end under the real Pulumi engine).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
# The TypeScript build and the tests' type check need only Node.js and node_modules, so they run
# beside the rest of the toolchain: on a new machine that is the Go builds of the Pulumi CLI and
# the language hosts (minutes), which leave a core idle while they resolve modules and link.
# A set-up that fails is a failed run, and says so on the closing line CI reads, as a test would.
setup_failed() {
  echo "[test] $1" >&2
  echo "0 passed, 1 failed"
  exit 1
}
cdc_ensure_node || setup_failed "Node.js could not be set up (above)"
cdc_ensure_deps || setup_failed "the npm dependencies could not be installed (above)"
(
  cdc_build
  echo "[test] type-checking the tests (tsconfig.test.json)" >&2
  npx tsc -p tsconfig.test.json
) &
typescript=$!
cdc_toolchain || { wait "$typescript" || true; setup_failed "the toolchain could not be set up (above)"; }
wait "$typescript" || setup_failed "the TypeScript build or the tests' type check failed (above)"
# Node.js's on-disk compile cache for every node process of the run (the engine's language host,
# each program, each provider, the CLI): the same modules load in every one of some hundreds of
# Pulumi commands, and V8's cached code of them spares compiling them again (code, not results).
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/node_modules/.cache/node-compile-cache}"
# And a preload that lets that cache serve them (scripts/lib/test-node-preload.cjs says how): the
# V8 flag Pulumi's runtime sets, set from each process's start, and the cache written by the
# processes the engine stops with a signal. About a tenth of the CPU of a TypeScript program's runs.
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require \"$PWD/scripts/lib/test-node-preload.cjs\""
# The Go processes of the run (the CLI, some hundreds of times, the YAML, Go and Python language
# hosts, the Go quickstart's go build and go vet) collect no garbage until a process holds 3 GiB,
# as the toolchain's own Go builds: each lives seconds and stays far below that, so the collector's
# work was all overhead (a tenth of the CPU of a YAML stack's runs, a fifth of a cold go build's).
export GOGC="${GOGC:-off}" GOMEMLIMIT="${GOMEMLIMIT:-3GiB}"

results="$(mktemp -t pulumi-cdc-vitest.XXXXXX.json)"
trap 'rm -f "$results"' EXIT
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$results" "$@" || status=$?

# The closing line CI reads: the counts of every test that ran.
node -e '
  const fs = require("node:fs");
  let r = {};
  try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
  const passed = r.numPassedTests ?? 0;
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A suite that failed without a failing test (it did not load, or a hook threw and its tests
  // were skipped) is a failure all the same.
  const broken = (r.testResults ?? []).filter(
    (s) => s.status === "failed" && !(s.assertionResults ?? []).some((t) => t.status === "failed"),
  ).length;
  // No results at all (vitest crashed) is a failure too, never a silent "0 failed".
  const failed = (r.numFailedTests ?? 0) + broken + (r.testResults ? 0 : 1);
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$results"
exit "$status"
