#!/usr/bin/env bash
# `npm run terraform-schema -- <clone of the vendor's Terraform provider>`: builds the provider from
# the clone and writes catalogue/terraform-schema.json from `terraform providers schema -json`
# (scripts/generate/terraform-schema.ts). Needs Go and terraform; not part of `npm run generate`.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
mkdir -p node_modules/.cache
out="$(mktemp -d "$(pwd)/node_modules/.cache/pulumi-cdc-terraform-schema.XXXXXX")"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/generate/tsconfig.json --noEmit false --outDir "$out"
node "$out/scripts/generate/terraform-schema.js" "$(pwd)" "$(cd "${1:?usage: npm run terraform-schema -- <clone> [--later <absolute path of a newer checkout> --later-commit <sha>]}" && pwd)" "${@:2}"
