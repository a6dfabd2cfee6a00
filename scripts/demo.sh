#!/usr/bin/env bash
# The demo command (README: `npm run demo`): toolchain, dependencies, build, then a stack is
# deployed and destroyed under the real Pulumi engine on a throwaway local backend.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
cdc_build

work="$(mktemp -d -t pulumi-cdc-demo.XXXXXX)"
export PULUMI_BACKEND_URL="file://$work" PULUMI_HOME="$work/home" PULUMI_CONFIG_PASSPHRASE=demo
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

cd test/e2e/fixtures/smoke
step() { printf '\n== %s\n' "$*"; }
step "pulumi stack init demo"
pulumi stack init demo --non-interactive
step "pulumi up"
pulumi up --yes --skip-preview --non-interactive --stack demo
step "pulumi preview --expect-no-changes"
pulumi preview --expect-no-changes --non-interactive --stack demo
step "pulumi destroy"
pulumi destroy --yes --skip-preview --non-interactive --stack demo
pulumi stack rm --yes --non-interactive --stack demo
step "demo finished"
