#!/usr/bin/env bash
# `npm run generate`: the one command that writes everything under generated/ (generated/README.md
# says what): the SDK's typed helpers (generated/typescript/*.ts) from catalogue/connectors.json,
# its dynamic classes (generated/typescript/kinds.ts) from the kinds' declarations (provider/kinds/)
# and generated/README.md, by the TypeScript generator (scripts/generate/); the plugin's schema
# (generated/schema.json); then, from that schema, the SDKs (generated/sdks/) and the reference pages
# (generated/reference/) by the Go code generator (tools/pulumi-cdc-codegen). Before them it completes
# the catalogue from the vendor's provider when PULUMI_CDC_VENDOR_REPO names a clone and adds the
# ranges pulumi-cdc gives keys the platform publishes none for.
# Run it after changing the catalogue or the kinds and commit the result; the tests fail while it is stale.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
# Compiled on its own (not from dist/, which is built from the files it writes), under the
# checkout's node_modules so that the compiled modules find its dependencies (zod).
mkdir -p node_modules/.cache
out="$(mktemp -d "$(pwd)/node_modules/.cache/pulumi-cdc-generate.XXXXXX")"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/generate/tsconfig.json --noEmit false --outDir "$out"
# The catalogue's keys beyond the vendor's generated files, from a clone of the vendor's provider
# (CI has none: the committed connectors.json is what the tests read).
if [ -n "${PULUMI_CDC_VENDOR_REPO:-}" ]; then
  node "$out/scripts/generate/complete-catalogue.js" "$(pwd)" "$PULUMI_CDC_VENDOR_REPO"
else
  echo "catalogue: PULUMI_CDC_VENDOR_REPO is not set, so the catalogue is not completed from the vendor's provider (the committed one stands)"
fi
# Newer versions of the vendor's generated files (a directory of <commit>/internal/generated/*.go,
# e.g. read from the public index; no network needed), then the changes its CHANGELOG announces for
# connectors without a newer file, and pulumi-cdc's overrides; about.provenance says which is which.
if [ -n "${PULUMI_CDC_VENDOR_GENERATED:-}" ]; then
  node "$out/scripts/generate/update-catalogue.js" "$(pwd)" "$PULUMI_CDC_VENDOR_GENERATED"
else
  node "$out/scripts/generate/update-catalogue.js" "$(pwd)"
fi
# The ranges pulumi-cdc adds where the platform publishes none (ports, sizes, counts), each
# marked "rangeSource": "pulumi-cdc" on its key (scripts/generate/ranges.ts).
node "$out/scripts/generate/add-ranges.js" "$(pwd)"
# The compiled generator holds a copy of the catalogue from before these steps.
cp catalogue/connectors.json "$out/catalogue/connectors.json"
# It also rewrites the one generated section outside generated/: the settings tables of
# docs/installation-configuration.md, the Pulumi Registry's page (scripts/generate/registry-docs.ts).
node "$out/scripts/generate/main.js" "$(pwd)"
# The provider plugin's package schema (generated/schema.json) from provider/kinds/index.ts and the catalogue.
node "$out/scripts/generate/schema.js" "$(pwd)"
# The SDKs of the other languages (generated/sdks/go/cdc, generated/sdks/python, generated/sdks/dotnet),
# the Node.js SDK of the plugin's tokens (generated/sdks/nodejs, which the TypeScript of `pulumi import`
# imports) and the reference pages (generated/reference) from that schema, by tools/pulumi-cdc-codegen (built into the toolchain cache).
cdc_ensure_codegen
"$PULUMI_CDC_CODEGEN" generated/schema.json "$(pwd)"
