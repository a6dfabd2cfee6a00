#!/usr/bin/env bash
# The recovery figure for very large stacks (docs/large-stacks.md): toolchain, dependencies,
# build, a type check, then a pulumi up and a pulumi destroy of the benchmark's plugin program,
# each killed with -9 halfway with PULUMI_SKIP_CHECKPOINTS=true, each followed by
# `pulumi-cdc recover --yes` and one `pulumi up`:
#
#   bash scripts/chaos/run-killed.sh [--count 1000] [--latency-ms 0] [--out .chaos/killed.json]
#
# Prints the JSON record; exits 1 when an object is missing, duplicated or orphaned.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
cdc_build
npx tsc -p scripts/chaos/tsconfig.json
exec npx ts-node --transpile-only --project scripts/chaos/tsconfig.json scripts/chaos/killed.ts "$@"
