#!/usr/bin/env bash
# The benchmark (package.json "bench"): toolchain, dependencies, build, a type check of the
# bench script, then the run. Arguments go to the script, e.g.:
#
#   bash scripts/bench/run.sh --counts 200,1000 --latency-ms 0,100 --out .bench/result.json
#
# Prints a markdown table (for docs/benchmarks.md) and writes the JSON result (default .bench/result.json).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
cdc_build
# ts-node runs with --transpile-only (faster start), so the types are checked here instead.
npx tsc -p scripts/bench/tsconfig.json
exec npx ts-node --transpile-only --project scripts/bench/tsconfig.json scripts/bench/bench.ts "$@"
