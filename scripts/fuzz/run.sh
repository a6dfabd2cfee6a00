#!/usr/bin/env bash
# The inputs' fuzzing at length (package.json "fuzz", issue 49): the suites `npm test` runs with a
# fixed seed and 100 cases a property, here with a random seed (printed first, so a failure replays)
# and more cases:
#
#   bash scripts/fuzz/run.sh [--seed N] [--runs N]     (default: a random seed, 2000 runs a property)
#
# A failure prints fast-check's counterexample and the property's own seed; `--seed` with the run's
# seed replays the whole run. Needs only Node.js and node_modules: the suites serve the plugin and
# the emulator in the test process.
set -euo pipefail
cd "$(dirname "$0")/../.."
seed="" runs=2000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "usage: bash scripts/fuzz/run.sh [--seed N] [--runs N]" >&2; exit 2 ;;
  esac
done
# A seed fast-check takes (a 32-bit integer), from the system's randomness.
seed="${seed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "[fuzz] seed ${seed}, ${runs} runs a property (replay: bash scripts/fuzz/run.sh --seed ${seed} --runs ${runs})"
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_ensure_node
cdc_ensure_deps
export FUZZ_SEED="$seed" FUZZ_RUNS="$runs"
exec npx vitest run --testTimeout=0 test/contract/sdk/check-fuzz.test.ts test/contract/plugin/check-fuzz.test.ts test/contract/emulator/body-fuzz.test.ts
