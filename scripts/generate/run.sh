#!/usr/bin/env bash
# `npm run generate`: the SDK's typed helpers (sdk/generated/*.ts) from catalogue/connectors.json.
# Run it after changing the catalogue and commit the result; the tests fail while it is stale.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
# Compiled on its own (not from dist/, which is built from the files it writes).
out="$(mktemp -d -t pulumi-cdc-generate.XXXXXX)"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/generate/tsconfig.json --noEmit false --outDir "$out"
node "$out/scripts/generate/main.js" "$(pwd)"
