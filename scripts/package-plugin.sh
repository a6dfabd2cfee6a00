#!/usr/bin/env bash
# `npm run package-plugin`: the provider plugin pulumi-resource-cdc as a tarball that
# `pulumi plugin install resource cdc <version> --file <tarball>` installs, offline afterwards.
# It holds the plugin bundled into one file with everything it runs (scripts/bundle-plugin.mjs),
# its launcher, the schema and a package.json; the plugin runs on the Node.js (>= 22.19) found on PATH. Output: artifacts/pulumi-resource-cdc-v<version>-linux-<arch>.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_ensure_node && cdc_ensure_deps && cdc_build

version="$(node -p 'require("./package.json").version')"
case "$(uname -m)" in x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
work="$(mktemp -d -t pulumi-cdc-plugin.XXXXXX)"
trap 'rm -rf "$work"' EXIT
stage="$work/plugin"
mkdir -p "$stage" artifacts

# The plugin as one bundled file with its launcher, schema and package.json (scripts/bundle-plugin.mjs):
# no node_modules to install, nothing of @pulumi/pulumi beside it.
node scripts/bundle-plugin.mjs --stage "$stage"
out="artifacts/pulumi-resource-cdc-v$version-linux-$arch.tar.gz"
tar -czf "$out" -C "$stage" .
cdc_say "wrote $out ($(du -h "$out" | cut -f1)); install it with: pulumi plugin install resource cdc $version --file $out"
echo "$out"
