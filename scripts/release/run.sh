#!/usr/bin/env bash
# `npm run release -- --dry-run [--tag vX.Y.Z]`: builds every release artefact into artifacts/ and
# checks each (scripts/release/main.ts says which), then prints what the release workflow would
# publish. Everything it needs comes from the toolchain: Node.js, the Pulumi CLI and the YAML
# host, the npm dependencies, the Go tools (pulumi-cdc-plugin-url), actionlint, Python's wheels,
# the SBOM tools (cyclonedx-py, cyclonedx-gomod).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
cdc_ensure_codegen
cdc_ensure_actionlint
cdc_ensure_python
cdc_ensure_sbom_tools
export CDC_PULUMI_VERSION
# A clean build: nothing stale in dist/ reaches a package.
rm -rf dist
cdc_build
out="$(mktemp -d -t pulumi-cdc-release.XXXXXX)"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/release/tsconfig.json --noEmit false --outDir "$out"
node "$out/scripts/release/main.js" "$(pwd)" "$@"
