#!/usr/bin/env bash
# `npm run conformance -- <path to a clone of the vendor's Terraform provider>`: builds the
# vendor's acceptance tests and runs them against the emulator (see docs/emulator.md, and emulator/README.md: "Conformance").
# Not part of `npm test`: it needs the vendor's repository, Go and terraform.
set -euo pipefail
cd "$(dirname "$0")/../.."
vendor="${1:-}"
if [ -z "$vendor" ] || [ ! -f "$vendor/internal/provider/provider_test.go" ]; then
  echo "usage: npm run conformance -- <path to a clone of github.com/streamkap-com/terraform-provider-streamkap> [go test -run regex]" >&2
  echo "error: '${vendor}' is not a clone of the vendor's provider (no internal/provider/provider_test.go)" >&2
  exit 2
fi
command -v go >/dev/null 2>&1 || { echo "error: conformance needs Go (go test -c builds the vendor's acceptance tests): install Go >= 1.25" >&2; exit 2; }
terraform_bin="${TF_ACC_TERRAFORM_PATH:-$(command -v terraform || true)}"
[ -n "$terraform_bin" ] && [ -x "$terraform_bin" ] || { echo "error: conformance needs the terraform CLI on PATH (or TF_ACC_TERRAFORM_PATH): the acceptance tests drive it" >&2; exit 2; }
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_ensure_node && cdc_ensure_deps && cdc_build
out="$(mktemp -d -t pulumi-cdc-conformance.XXXXXX)"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/conformance/tsconfig.json --outDir "$out"
TF_ACC_TERRAFORM_PATH="$terraform_bin" node "$out/scripts/conformance/conformance.js" "$(pwd)" "$(cd "$vendor" && pwd)" "${2:-}"
