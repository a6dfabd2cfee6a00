#!/usr/bin/env bash
# The reliability figure (package.json "chaos"): toolchain, dependencies, build, a type check of
# the script, then one full deploy and destroy of 66 resources under API faults per seed:
#
#   bash scripts/chaos/run.sh [--seeds 1,2,3] [--sources 60] [--out .chaos/result.json]
#
# Prints a markdown table (for docs/benchmarks.md, "Reliability under faults"); exits 1 when a seed did not converge in one run.
#
#   bash scripts/chaos/run.sh --sweep [...]
#
# The crash-point sweep instead (scripts/chaos/sweep/main.ts, docs/recovery.md): every kind, killed
# after the k-th API write on both hosts and checkpoint modes, recovered, and checked.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
cdc_build
npx tsc -p scripts/chaos/tsconfig.json
script=scripts/chaos/chaos.ts
for arg in "$@"; do [[ "$arg" == "--sweep" ]] && script=scripts/chaos/sweep/main.ts; done
exec npx ts-node --transpile-only --project scripts/chaos/tsconfig.json "$script" "$@"
