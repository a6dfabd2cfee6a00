#!/usr/bin/env bash
# `npm run package-plugin [-- --all]`: the provider plugin pulumi-resource-cdc as a tarball that
# `pulumi plugin install resource cdc <version> --file <tarball>` installs, offline afterwards:
# this machine's linux one, or every platform's with --all, built as the release builds them
# (scripts/release/plugin-tarballs.ts, staging through scripts/bundle-plugin.mjs --stage: the
# plugin as one bundle, the schema, package.json, LICENSE, a launcher per OS that needs Node.js on
# PATH and runs the bundle with the heap options of bin/plugin-node-options).
# Output: artifacts/pulumi-resource-cdc-v<version>-<os>-<arch>.tar.gz (the last line printed is this machine's).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_ensure_node && cdc_ensure_deps && cdc_build
out="$(mktemp -d -t pulumi-cdc-package-plugin.XXXXXX)"
trap 'rm -rf "$out"' EXIT
npx tsc -p scripts/release/tsconfig.json --noEmit false --outDir "$out"
node "$out/scripts/release/package-plugin.js" "$(pwd)" "$@"
