#!/usr/bin/env bash
# `npm run package-plugin`: the provider plugin pulumi-resource-cdc as a tarball that
# `pulumi plugin install resource cdc <version> --file <tarball>` installs, offline afterwards.
# It holds the built plugin and core (dist/plugin, dist/provider, dist/catalogue), the schema,
# the production dependencies and, of @pulumi/pulumi, only the protocol definitions; the plugin
# runs on the Node.js (>= 22.19) found on PATH. Output: artifacts/pulumi-resource-cdc-v<version>-linux-<arch>.tar.gz
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
mkdir -p "$stage/dist" "$stage/plugin" artifacts

cp -R dist/plugin dist/provider dist/catalogue "$stage/dist/"
cp plugin/schema.json "$stage/plugin/"
# The versions the repository is tested with, from its own install.
node -e '
  const fs = require("node:fs");
  const pkg = require("./package.json");
  const installed = (name) => require(`./node_modules/${name}/package.json`).version;
  const sdk = "./node_modules/@pulumi/pulumi/package.json";
  const deps = { undici: installed("undici"), zod: installed("zod"), diff: installed("diff"), "@grpc/grpc-js": installed("@grpc/grpc-js"), "google-protobuf": installed("google-protobuf") };
  fs.writeFileSync(process.argv[1], JSON.stringify({ name: "pulumi-resource-cdc", version: pkg.version, private: true, license: pkg.license, description: "The pulumi-cdc provider plugin", engines: pkg.engines, dependencies: deps }, null, 2) + "\n");
' "$stage/package.json"
cdc_say "installing the plugin's production dependencies"
(cd "$stage" && npm install --omit=dev --no-audit --no-fund --ignore-scripts --no-package-lock --loglevel=error) >&2
# Of the Pulumi SDK the plugin needs only the protocol definitions (plugin/proto.ts loads them).
mkdir -p "$stage/node_modules/@pulumi/pulumi"
cp -R node_modules/@pulumi/pulumi/proto "$stage/node_modules/@pulumi/pulumi/"
node -e 'const v = require("./node_modules/@pulumi/pulumi/package.json").version; require("node:fs").writeFileSync(process.argv[1], JSON.stringify({ name: "@pulumi/pulumi", version: v, description: "protocol definitions only" }, null, 2) + "\n")' "$stage/node_modules/@pulumi/pulumi/package.json"
cat >"$stage/pulumi-resource-cdc" <<'SH'
#!/bin/sh
# pulumi-cdc's provider plugin: Node.js >= 22.19 on PATH runs it.
here="$(dirname "$(readlink -f "$0")")"
exec node "$here/dist/plugin/main.js" "$@"
SH
chmod +x "$stage/pulumi-resource-cdc"
out="artifacts/pulumi-resource-cdc-v$version-linux-$arch.tar.gz"
tar -czf "$out" -C "$stage" .
cdc_say "wrote $out ($(du -h "$out" | cut -f1)); install it with: pulumi plugin install resource cdc $version --file $out"
echo "$out"
