#!/usr/bin/env bash
# `npm run vendor-sync -- <checkout> [--check] [--report <file>] [--commit <sha>]`: brings the
# catalogue (catalogue/connectors.json, api-sources.json, smt-data.ts) to a checkout of the vendor's
# provider, then regenerates everything from it with `npm run generate`, and prints what changed key
# by key (docs/vendor-sync.md: what the checkout may be, and how to review the change). --check
# changes nothing and exits 1 when a sync would change the catalogue. The steps are
# scripts/generate/sync-catalogue.ts's.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
mkdir -p node_modules/.cache
out="$(mktemp -d "$(pwd)/node_modules/.cache/pulumi-cdc-vendor-sync.XXXXXX")"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/generate/tsconfig.json --noEmit false --outDir "$out"
node "$out/scripts/generate/sync-catalogue.js" "$(pwd)" "$@"
for arg in "$@"; do
  if [ "$arg" = "--check" ]; then exit 0; fi
done
bash scripts/generate/run.sh
