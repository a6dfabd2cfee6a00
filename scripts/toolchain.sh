# shellcheck shell=bash
# Source this file: it makes sure Node.js >= 22.19, the Pulumi CLI and Pulumi's YAML language host
# are available, installing them into a cache outside the repository when the machine lacks them,
# and sets up an offline Pulumi environment (file backend, passphrase, no update checks, no plugin
# downloads).
#
#   source scripts/toolchain.sh
#
# Idempotent: once the cache is filled a second run only checks versions (seconds).
# Override the cache with PULUMI_CDC_CACHE.

CDC_NODE_VERSION=24.21.0
CDC_PULUMI_VERSION=3.259.0
# The commit of the v3.259.0 tag, for the record: a05d88f24d05.
# pulumi-language-yaml, built from github.com/pulumi/pulumi-yaml against the pkg/v3 above.
CDC_PULUMI_YAML_VERSION=1.38.1
# undici 8 (the API client) needs 22.19: provider/node-version.ts refuses anything older.
CDC_MIN_NODE=22.19.0
# actionlint, the linter of .github/workflows, built from its Go module (cdc_ensure_actionlint).
CDC_ACTIONLINT_VERSION=1.7.12
# The release's SBOM tools (cdc_ensure_sbom_tools): cyclonedx-bom from PyPI (its command is
# cyclonedx-py) for the Python package, cyclonedx-gomod from its Go module for the Go SDK.
CDC_CYCLONEDX_PY_VERSION=7.5.0
CDC_CYCLONEDX_GOMOD_VERSION=1.10.0
CDC_MIN_PULUMI=3.200.0

CDC_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CDC_CACHE="${PULUMI_CDC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cdc}"

cdc_say() { printf '[toolchain] %s\n' "$*" >&2; }
cdc_die() { printf '[toolchain] error: %s\n' "$*" >&2; return 1; }

# version_ge A B: true when dotted version A >= B.
cdc_version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

cdc_ensure_node() {
  if command -v node >/dev/null 2>&1; then
    local version
    version="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
    if cdc_version_ge "$version" "$CDC_MIN_NODE"; then
      return 0
    fi
  fi
  local arch
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) cdc_die "no Node.js >= $CDC_MIN_NODE on PATH and no prebuilt package for $(uname -m); install Node.js $CDC_MIN_NODE or newer" || return 1 ;;
  esac
  local dir="$CDC_CACHE/node-$CDC_NODE_VERSION"
  local bin="$dir/node_modules/node-linux-$arch/bin"
  if [ ! -x "$bin/node" ]; then
    command -v npm >/dev/null 2>&1 || { cdc_die "Node.js >= $CDC_MIN_NODE is needed and there is no npm to install it: install Node.js $CDC_MIN_NODE or newer"; return 1; }
    cdc_say "installing Node.js $CDC_NODE_VERSION into $dir (npm package node-linux-$arch)"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-$arch@$CDC_NODE_VERSION" >&2 \
      || { cdc_die "could not install node-linux-$arch@$CDC_NODE_VERSION"; return 1; }
  fi
  case ":$PATH:" in *":$bin:"*) ;; *) export PATH="$bin:$PATH" ;; esac
  cdc_say "using Node.js $(node --version) from $bin"
}

# Builds the Pulumi CLI from Pulumi's Go modules at the pinned release.
cdc_build_pulumi() {
  local out="$1" build="$CDC_CACHE/build-pulumi-v$CDC_PULUMI_VERSION"
  command -v go >/dev/null 2>&1 || {
    cdc_die "no Pulumi CLI (>= $CDC_MIN_PULUMI) on PATH and no Go toolchain to build one: install the Pulumi CLI, or Go >= 1.25 and run again"
    return 1
  }
  mkdir -p "$build" "$out"
  cat >"$build/go.mod" <<EOF
module pulumicdc.local/toolchain

go 1.25.11

require (
	github.com/pulumi/pulumi/pkg/v3 v$CDC_PULUMI_VERSION
	github.com/pulumi/pulumi/sdk/v3 v$CDC_PULUMI_VERSION
)

// pkg/v3 carries this replace in its own go.mod; replaces do not travel with a dependency.
replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
EOF
  cat >"$build/tools.go" <<'EOF'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
EOF
  cdc_say "building the Pulumi CLI v$CDC_PULUMI_VERSION from Go modules (first run only: about 5 minutes on 2 cores)"
  cdc_go_build "the Pulumi CLI" "$build" "$out/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
    "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$CDC_PULUMI_VERSION"
}

# cdc_go_build LABEL BUILD_DIR OUT_FILE PACKAGE LDFLAGS: resolves the modules of BUILD_DIR (a
# go.mod and a tools.go importing PACKAGE) and builds PACKAGE into OUT_FILE (cdc_go_compile).
cdc_go_build() {
  local label="$1" build="$2" out="$3" pkg="$4" ldflags="$5"
  cdc_go_resolve "$label" "$build" || return 1
  cdc_go_compile "$label" "$build" "$ldflags" "$(dirname "$out")" "$pkg" || return 1
  [ "$(basename "$out")" = "$(basename "$pkg")" ] || mv "$(dirname "$out")/$(basename "$pkg")" "$out"
}

# cdc_go_resolve LABEL BUILD_DIR: go mod tidy in BUILD_DIR (once per build directory: every build
# of it then finds its modules resolved).
cdc_go_resolve() {
  cdc_say "  resolving modules..."
  (cd "$2" && go mod tidy) >&2 || { cdc_die "go mod tidy failed for the $1 build in $2"; return 1; }
}

# cdc_go_compile LABEL BUILD_DIR LDFLAGS OUT_DIR PACKAGE...: builds the PACKAGEs of BUILD_DIR
# (modules resolved) into OUT_DIR, one binary named after each package's last element, in ONE go
# build: the packages they share compile once and the links run side by side. Progress every 30 s;
# a binary appears only once complete. With Go's default settings (cgo as the machine has it, no
# -trimpath, no build tags), as a Go program's own `go build` has them: Go's build cache keys each compiled
# package by those settings, so the standard library and the modules the tools share with a Pulumi
# Go program at the same versions (some 400 packages of the Go quickstart's 750, half its compile)
# are compiled here once and serve its first build too (the tests', and a user's), instead of
# being compiled a second time for another configuration. No build tags either: gRPC's
# `grpcnotrace`, which these builds had, changed the key of gRPC and of every package built on it
# (52 of the Go quickstart's packages, Pulumi's SDK among them), so they were compiled twice. Linked without the symbol table and
# DWARF (-s -w): half the link's CPU for each of these binaries of 100-160 MB, which nobody runs
# under a debugger (a panic's stack trace needs neither). The compiler and linker run with their
# garbage collector held off until 3 GiB (GOGC=off GOMEMLIMIT=3GiB): a fifth less CPU for the same
# output (net/http from scratch: 30 -> 23 s of CPU; compile processes of some hundred MB each).
cdc_go_compile() {
  local label="$1" build="$2" ldflags="$3" out="$4"
  shift 4
  local tmp="$out/.build-$$" started=$SECONDS pkg
  cdc_say "  compiling (a line every 30 s while it runs)..."
  rm -rf "$tmp" && mkdir -p "$tmp" || return 1
  (
    cd "$build" &&
      GOGC=off GOMEMLIMIT=3GiB go build -ldflags "-s -w${ldflags:+ $ldflags}" -o "$tmp/" "$@"
  ) >&2 &
  local pid=$! next=$((SECONDS + 30))
  # Polled every second, not every 30 s: a build that takes 5 s must not cost 30.
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if [ "$SECONDS" -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
      cdc_say "  still compiling $label ($((SECONDS - started)) s)"
      next=$((next + 30))
    fi
  done
  wait "$pid" || { rm -rf "$tmp"; cdc_die "building $label failed (see the Go output above)"; return 1; }
  for pkg in "$@"; do
    mv "$tmp/$(basename "$pkg")" "$out/$(basename "$pkg")" || { rm -rf "$tmp"; return 1; }
  done
  rm -rf "$tmp"
  cdc_say "built $label in $((SECONDS - started)) s"
}

# Builds Pulumi's YAML language host from Go modules at the pinned release, against the same
# pkg/v3 and sdk/v3 as the CLI (so the Go caches of the CLI build serve most of it).
cdc_build_pulumi_yaml() {
  local out="$1" build="$CDC_CACHE/build-pulumi-yaml-v$CDC_PULUMI_YAML_VERSION"
  command -v go >/dev/null 2>&1 || {
    cdc_die "no pulumi-language-yaml on PATH and no Go toolchain to build one: install Pulumi's YAML language host (pulumi-language-yaml), or Go >= 1.25 and run again"
    return 1
  }
  mkdir -p "$build" "$out"
  cat >"$build/go.mod" <<EOF
module pulumicdc.local/toolchain-yaml

go 1.25.11

require (
	github.com/pulumi/pulumi-yaml v$CDC_PULUMI_YAML_VERSION
	github.com/pulumi/pulumi/pkg/v3 v$CDC_PULUMI_VERSION
	github.com/pulumi/pulumi/sdk/v3 v$CDC_PULUMI_VERSION
)

// pkg/v3 carries this replace in its own go.mod; replaces do not travel with a dependency.
// (pulumi-yaml's own go.mod carries none.)
replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
EOF
  cat >"$build/tools.go" <<'EOF'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
EOF
  cdc_say "building pulumi-language-yaml v$CDC_PULUMI_YAML_VERSION from Go modules (first run only: a few minutes once the CLI is built)"
  cdc_go_build "pulumi-language-yaml" "$build" "$out/pulumi-language-yaml" \
    github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml \
    "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$CDC_PULUMI_YAML_VERSION"
}

# cdc_on_path_besides NAME DIR: true when an executable NAME is on PATH outside DIR.
cdc_on_path_besides() {
  local dir IFS=:
  for dir in $PATH; do
    [ "${dir:-.}" != "$2" ] && [ -x "${dir:-.}/$1" ] && return 0
  done
  return 1
}

# cdc_ensure_pulumi_yaml SHIMS: the machine's pulumi-language-yaml when it has one; otherwise
# ours, built once into the cache and linked into SHIMS (beside our CLI, or on PATH).
cdc_ensure_pulumi_yaml() {
  local shims="$1" out="$CDC_CACHE/pulumi-yaml-v$CDC_PULUMI_YAML_VERSION/bin"
  if cdc_on_path_besides pulumi-language-yaml "$shims"; then
    [ -L "$shims/pulumi-language-yaml" ] && rm -f "$shims/pulumi-language-yaml"
    return 0
  fi
  if [ ! -x "$out/pulumi-language-yaml" ]; then
    cdc_build_pulumi_yaml "$out" || return 1
  fi
  ln -sfn "$out/pulumi-language-yaml" "$shims/pulumi-language-yaml"
}

# cdc_install_shim PATH: stdin as the executable PATH, renamed into place whole (an engine starting
# it meanwhile never reads half a file).
cdc_install_shim() {
  local tmp="$1.$$.tmp"
  cat >"$tmp" && chmod +x "$tmp" && mv -f "$tmp" "$1"
}

cdc_ensure_pulumi() {
  local have="" cli built="$CDC_CACHE/pulumi-v$CDC_PULUMI_VERSION/bin"
  # This checkout's directory of plugins: the CLI we build is linked into it, our shims sit beside
  # it. Each checkout on the machine has its own, because the engine runs the plugins next to the
  # CLI it runs: in one shared directory, each checkout's toolchain.sh would point the language
  # host at its own copy, and another checkout's tests would run a host without the methods they
  # need (a policy pack's RunPlugin failing with "Unknown error").
  local shims="$CDC_CACHE/shims-$(printf '%s' "$CDC_REPO_ROOT" | cksum | cut -d' ' -f1)"
  # A shell that sourced an older toolchain.sh has the shared directory on PATH: it goes.
  PATH="$(printf '%s' ":$PATH:" | sed "s#:$built:#:#g; s#^:##; s#:\$##")"
  cli="$(command -v pulumi 2>/dev/null || true)"
  if [ -n "$cli" ] && [ "$cli" != "$shims/pulumi" ]; then
    have="$(pulumi version 2>/dev/null | sed 's/^v//')"
  fi
  if [ -n "$have" ] && cdc_version_ge "$have" "$CDC_MIN_PULUMI"; then
    # The machine's own CLI; our shims go on PATH only where it lacks its own.
    rm -f "$shims/pulumi"
  else
    if [ ! -x "$built/pulumi" ]; then
      cdc_build_pulumi "$built" || return 1
    fi
    mkdir -p "$shims"
    if ! [ "$built/pulumi" -ef "$shims/pulumi" ]; then
      ln -f "$built/pulumi" "$shims/pulumi" 2>/dev/null || cdc_install_shim "$shims/pulumi" <"$built/pulumi" || return 1
    fi
  fi
  mkdir -p "$shims"

  # The engine prefers plugins that sit next to the CLI (and warns about ones found elsewhere
  # on PATH), so our language host and the dynamic-provider shim go there.
  if [ -x "$shims/pulumi" ] || ! command -v pulumi-language-nodejs >/dev/null 2>&1; then
    printf '#!/bin/sh\nexec node "%s/scripts/toolchain/pulumi-language-nodejs.js" "$@"\n' "$CDC_REPO_ROOT" | cdc_install_shim "$shims/pulumi-language-nodejs"
  fi
  if [ -x "$shims/pulumi" ] || ! command -v pulumi-resource-pulumi-nodejs >/dev/null 2>&1; then
    local shim="$CDC_REPO_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
    [ -f "$shim" ] || { cdc_die "$shim is missing: run npm ci first"; return 1; }
    cdc_install_shim "$shims/pulumi-resource-pulumi-nodejs" <"$shim"
  fi
  # A CLI that finds no Node.js language host runs a TypeScript policy pack through
  # `pulumi-analyzer-policy-nodejs` (v3.259's name for it; Pulumi's Node.js SDK ships the script as
  # `pulumi-analyzer-policy`, the name older CLIs look for): both, as the other shims (docs/toolchain.md).
  if [ -x "$shims/pulumi" ] || ! command -v pulumi-analyzer-policy >/dev/null 2>&1; then
    cdc_install_shim "$shims/pulumi-analyzer-policy" <"$CDC_REPO_ROOT/scripts/toolchain/pulumi-analyzer-policy"
    cdc_install_shim "$shims/pulumi-analyzer-policy-nodejs" <"$CDC_REPO_ROOT/scripts/toolchain/pulumi-analyzer-policy"
  fi
  # With CDC_CODEGEN_BESIDE_YAML set (cdc_toolchain), the Go tools of tools/ build beside the YAML
  # host: both build on the packages the CLI's build compiled, each mostly a link of a large binary
  # on one core, so one after the other left a core idle for half a minute on a new machine.
  local codegen=""
  if [ -n "${CDC_CODEGEN_BESIDE_YAML:-}" ] && command -v go >/dev/null 2>&1; then
    (PATH="$shims:$PATH" cdc_ensure_codegen >/dev/null) &
    codegen=$!
  fi
  cdc_ensure_pulumi_yaml "$shims" || { [ -z "$codegen" ] || wait "$codegen"; return 1; }
  # A failure of that build is reported when cdc_ensure_codegen runs again (it builds what is missing).
  [ -z "$codegen" ] || wait "$codegen" || true
  case ":$PATH:" in *":$shims:"*) ;; *) export PATH="$shims:$PATH" ;; esac
  cdc_say "using Pulumi CLI $(pulumi version) from $(dirname "$(command -v pulumi)")"
  cdc_say "using pulumi-language-yaml from $(dirname "$(command -v pulumi-language-yaml)")"
}

# The Go tools of tools/ (its go.mod and go.sum pinned to the CLI's pkg/v3 and sdk/v3, so the Go
# caches of the CLI build serve most of it): pulumi-cdc-codegen, which writes generated/sdks/go,
# generated/sdks/python, generated/sdks/dotnet, generated/sdks/nodejs and generated/reference from generated/schema.json (`npm run generate`, and the tests that
# check them), pulumi-cdc-plugin-url, which asks the engine's plugin code where it would download
# the plugin from (the release checks), and pulumi-language-go and pulumi-language-python, Go and Python language hosts for
# machines without Pulumi's (their modules are refused by restricted proxies). Built once per
# content of tools/ into the cache (about a minute once the CLI is built); PULUMI_CDC_CODEGEN
# names the generator, and each host is linked beside our CLI (or into the shims directory on
# PATH) unless the machine has its own.
cdc_ensure_codegen() {
  command -v go >/dev/null 2>&1 || {
    cdc_die "no Go toolchain: the code generator and the language hosts of tools/ need Go >= 1.25"
    return 1
  }
  local src="$CDC_REPO_ROOT/tools" hash out build shims
  # exec.py is embedded in the Python host.
  # tools/pulumi-converter-terraform is a module of its own, built by cdc_ensure_terraform_converter.
  hash="$(cd "$src" && find . -path ./pulumi-converter-terraform -prune -o -type f \( -name '*.go' -o -name '*.py' -o -name go.mod -o -name go.sum \) -print | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)"
  out="$CDC_CACHE/codegen-$hash/bin"
  local tool tools=(pulumi-cdc-codegen pulumi-cdc-plugin-url pulumi-language-go pulumi-language-python) missing=""
  for tool in "${tools[@]}"; do [ -x "$out/$tool" ] || missing=1; done
  if [ -n "$missing" ]; then
    mkdir -p "$CDC_CACHE" "$out"
    (
      # One build at a time (two test files may ask at once); the second finds it done.
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      missing=""
      for tool in "${tools[@]}"; do [ -x "$out/$tool" ] || missing=1; done
      if [ -n "$missing" ]; then
        build="$CDC_CACHE/build-codegen-$hash"
        rm -rf "$build" && mkdir -p "$build" && cp -R "$src/." "$build/" || exit 1
        cdc_say "building pulumi-cdc-codegen, pulumi-cdc-plugin-url, pulumi-language-go and pulumi-language-python from tools/ (first run only: about a minute once the CLI is built)"
        # One resolve, and two builds of two binaries each (the hosts carry the CLI's version).
        cdc_go_resolve "tools/" "$build" || exit 1
        cdc_go_compile "pulumi-cdc-codegen and pulumi-cdc-plugin-url" "$build" "" "$out" ./pulumi-cdc-codegen ./pulumi-cdc-plugin-url || exit 1
        cdc_go_compile "pulumi-language-go and pulumi-language-python" "$build" \
          "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$CDC_PULUMI_VERSION" "$out" ./pulumi-language-go ./pulumi-language-python || exit 1
        rm -rf "$build"
      fi
    ) 9>"$CDC_CACHE/codegen.lock" || return 1
  fi
  export PULUMI_CDC_CODEGEN="$out/pulumi-cdc-codegen"
  # The engine's plugin download, asked where it would fetch a plugin from (tools/pulumi-cdc-plugin-url).
  export PULUMI_CDC_PLUGIN_URL="$out/pulumi-cdc-plugin-url"
  # The directory of our shims, as cdc_ensure_pulumi chose it.
  shims="$CDC_CACHE/shims-$(printf '%s' "$CDC_REPO_ROOT" | cksum | cut -d' ' -f1)"
  for tool in pulumi-language-go pulumi-language-python; do
    if cdc_on_path_besides "$tool" "$shims"; then
      if [ -L "$shims/$tool" ]; then rm -f "$shims/$tool"; fi
    else
      mkdir -p "$shims"
      ln -sfn "$out/$tool" "$shims/$tool"
      case ":$PATH:" in *":$shims:"*) ;; *) export PATH="$shims:$PATH" ;; esac
    fi
  done
}

# pulumi-converter-terraform (tools/pulumi-converter-terraform, a module of its own): the converter
# plugin `pulumi convert --from terraform` runs, on the Terraform bridge's converter. Not part of
# cdc_toolchain: its first build compiles the bridge and an older pkg/v3 than the CLI's (3 min 40 s,
# 2 min 50 s of CPU, on 2 busy cores with an empty Go cache; docs/migrating-from-terraform.md), for one opt-in test
# (test/e2e/terraform-convert.test.ts) and the users who convert. Built once per content of its
# directory into the cache and linked into the shims directory on PATH (unless the machine has its
# own), where the CLI finds it.
cdc_ensure_terraform_converter() {
  command -v go >/dev/null 2>&1 || { cdc_die "no Go toolchain to build pulumi-converter-terraform: install Go >= 1.25 and run again"; return 1; }
  local src="$CDC_REPO_ROOT/tools/pulumi-converter-terraform" hash out build shims
  hash="$(cd "$src" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)"
  out="$CDC_CACHE/tf-converter-$hash/bin"
  build="$CDC_CACHE/build-tf-converter-$hash"
  if [ ! -x "$out/pulumi-converter-terraform" ]; then
    mkdir -p "$CDC_CACHE" "$out"
    (
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      [ -x "$out/pulumi-converter-terraform" ] && exit 0
      rm -rf "$build" && mkdir -p "$build" && cp -R "$src/." "$build/" || exit 1
      cdc_say "building pulumi-converter-terraform from tools/pulumi-converter-terraform (first run only: a few minutes)"
      cdc_go_resolve "pulumi-converter-terraform" "$build" || exit 1
      # By its import path: the binary is named after its last element.
      cdc_go_compile "pulumi-converter-terraform" "$build" "" "$out" github.com/pulumi-cdc/pulumi-cdc/tools/pulumi-converter-terraform || exit 1
      rm -rf "$build"
    ) 9>"$CDC_CACHE/tf-converter.lock" || return 1
  fi
  shims="$CDC_CACHE/shims-$(printf '%s' "$CDC_REPO_ROOT" | cksum | cut -d' ' -f1)"
  if cdc_on_path_besides pulumi-converter-terraform "$shims"; then
    if [ -L "$shims/pulumi-converter-terraform" ]; then rm -f "$shims/pulumi-converter-terraform"; fi
  else
    mkdir -p "$shims"
    ln -sfn "$out/pulumi-converter-terraform" "$shims/pulumi-converter-terraform"
    case ":$PATH:" in *":$shims:"*) ;; *) export PATH="$shims:$PATH" ;; esac
  fi
}

# actionlint (github.com/rhysd/actionlint), which lints .github/workflows (the release tests run
# it): built once from its Go module at CDC_ACTIONLINT_VERSION into the cache, as the CLI is.
# Exports PULUMI_CDC_ACTIONLINT.
cdc_ensure_actionlint() {
  local out="$CDC_CACHE/actionlint-v$CDC_ACTIONLINT_VERSION/bin" build="$CDC_CACHE/build-actionlint-v$CDC_ACTIONLINT_VERSION"
  if [ ! -x "$out/actionlint" ]; then
    command -v go >/dev/null 2>&1 || { cdc_die "no Go toolchain to build actionlint: install Go >= 1.25 and run again"; return 1; }
    mkdir -p "$CDC_CACHE" "$out"
    (
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      [ -x "$out/actionlint" ] && exit 0
      rm -rf "$build" && mkdir -p "$build" || exit 1
      printf 'module pulumicdc.local/toolchain-actionlint\n\ngo 1.25.11\n\nrequire github.com/rhysd/actionlint v%s\n' "$CDC_ACTIONLINT_VERSION" >"$build/go.mod"
      printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/rhysd/actionlint/cmd/actionlint"\n' >"$build/tools.go"
      cdc_say "building actionlint v$CDC_ACTIONLINT_VERSION from its Go module (first run only: about a minute)"
      cdc_go_build "actionlint" "$build" "$out/actionlint" github.com/rhysd/actionlint/cmd/actionlint \
        "-X github.com/rhysd/actionlint.version=v$CDC_ACTIONLINT_VERSION" || exit 1
      rm -rf "$build"
    ) 9>"$CDC_CACHE/actionlint.lock" || return 1
  fi
  export PULUMI_CDC_ACTIONLINT="$out/actionlint"
}

# Python for the Python SDK and Python programs: a python3 >= 3.9 that can make virtual
# environments (Debian splits venv into python3-venv, installed here when we may), and a cached
# directory of wheels (PULUMI_CDC_WHEELHOUSE) holding Pulumi's Python SDK at the CLI's release with
# its dependencies, and the build tools, fetched from PyPI once per CLI release and Python version.
# Tests and programs then install with `pip --no-index --find-links`, so a run needs no index and
# gets the same versions every time. Returns 2 (a one-line warning, nothing fetched) when the
# machine has no Python 3.9+ at all, so callers can tell that apart from a failed download.
cdc_ensure_python() {
  local py version
  py="$(command -v python3 2>/dev/null)" || { cdc_say "warning: no python3 on PATH: Python programs and the Python SDK's install are not checked"; return 2; }
  version="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" || version=0
  cdc_version_ge "$version" 3.9 || { cdc_say "warning: python3 is $version, Pulumi's Python SDK needs 3.9+: Python programs are not checked"; return 2; }
  if ! "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      cdc_say "installing python3-venv (Debian's venv and ensurepip for $py)"
      timeout 600 apt-get install -y -q "python$version-venv" >&2 || timeout 600 apt-get install -y -q python3-venv >&2 \
        || { cdc_die "could not install python3-venv: install it (apt-get install python3-venv) and run again"; return 1; }
    else
      cdc_die "$py cannot make virtual environments (no venv/ensurepip module): install python3-venv (Debian) and run again"
      return 1
    fi
  fi
  # Pulumi's SDK, the generated SDK's own requirements beyond it (generated/sdks/python/setup.py), and the
  # build tools (setuptools still asks for `wheel` when a package has a setup.py and no pyproject.toml).
  local reqs=("pulumi==$CDC_PULUMI_VERSION" "parver>=0.2.1" "build>=1.2,<2" "setuptools>=70.1,<81" "wheel")
  local tag
  tag="$("$py" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')-$(printf '%s\n' "${reqs[@]}" | cksum | cut -d' ' -f1)"
  local out="$CDC_CACHE/python-wheels-v$CDC_PULUMI_VERSION-$tag"
  if [ ! -f "$out/.complete" ]; then
    mkdir -p "$CDC_CACHE"
    (
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      [ -f "$out/.complete" ] && exit 0
      local tmp="$out.tmp"
      rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
      cdc_say "fetching Pulumi's Python SDK $CDC_PULUMI_VERSION and the build tools from PyPI into $out (first run only)"
      "$py" -m venv "$tmp/venv" >&2 || { cdc_die "python3 -m venv failed"; exit 1; }
      timeout 900 "$tmp/venv/bin/python" -m pip download --disable-pip-version-check --timeout 60 --retries 3 --dest "$tmp/wheels" \
        "${reqs[@]}" >&2 \
        || { cdc_die "could not download pulumi==$CDC_PULUMI_VERSION and the build tools from PyPI"; exit 1; }
      rm -rf "$out" && mv "$tmp/wheels" "$out" && rm -rf "$tmp" && touch "$out/.complete"
    ) 9>"$CDC_CACHE/python.lock" || return 1
  fi
  export PULUMI_CDC_PYTHON="$py" PULUMI_CDC_WHEELHOUSE="$out"
}

# The release's SBOM tools, each in the cache at its pinned version (npm's own `npm sbom` needs
# nothing). cyclonedx-py in a virtual environment of its own, so its dependencies never meet the
# SDK's; cyclonedx-gomod by `go install module@version`, so the SBOMs it writes name its release
# (built through a tools module, as actionlint is, it would call itself "(devel)").
# Exports PULUMI_CDC_CYCLONEDX_PY and PULUMI_CDC_CYCLONEDX_GOMOD.
cdc_ensure_sbom_tools() {
  cdc_ensure_python || { cdc_die "cyclonedx-py needs the toolchain's Python 3.9+ (above)"; return 1; }
  local py_tag venv gomod="$CDC_CACHE/cyclonedx-gomod-v$CDC_CYCLONEDX_GOMOD_VERSION"
  py_tag="$("$PULUMI_CDC_PYTHON" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')"
  venv="$CDC_CACHE/cyclonedx-py-v$CDC_CYCLONEDX_PY_VERSION-$py_tag"
  mkdir -p "$CDC_CACHE"
  # A virtual environment's scripts name its path, so it is made where it stays, and counts once .complete is there.
  if [ ! -f "$venv/.complete" ]; then
    (
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      [ -f "$venv/.complete" ] && exit 0
      cdc_say "installing cyclonedx-bom $CDC_CYCLONEDX_PY_VERSION from PyPI into $venv (first run only)"
      rm -rf "$venv" && "$PULUMI_CDC_PYTHON" -m venv "$venv" >&2 || exit 1
      timeout 600 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --timeout 60 --retries 3 \
        "cyclonedx-bom==$CDC_CYCLONEDX_PY_VERSION" >&2 || { cdc_die "could not install cyclonedx-bom==$CDC_CYCLONEDX_PY_VERSION from PyPI"; exit 1; }
      touch "$venv/.complete"
    ) 9>"$CDC_CACHE/cyclonedx-py.lock" || return 1
  fi
  if [ ! -x "$gomod/cyclonedx-gomod" ]; then
    command -v go >/dev/null 2>&1 || { cdc_die "no Go toolchain to build cyclonedx-gomod: install Go >= 1.25 and run again"; return 1; }
    (
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      [ -x "$gomod/cyclonedx-gomod" ] && exit 0
      cdc_say "building cyclonedx-gomod v$CDC_CYCLONEDX_GOMOD_VERSION from its Go module (first run only: under a minute)"
      rm -rf "$gomod.tmp" && mkdir -p "$gomod.tmp" || exit 1
      (cd "$CDC_CACHE" && GOWORK=off GOBIN="$gomod.tmp" timeout 900 go install "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v$CDC_CYCLONEDX_GOMOD_VERSION") >&2 \
        || { cdc_die "go install of cyclonedx-gomod v$CDC_CYCLONEDX_GOMOD_VERSION failed"; exit 1; }
      rm -rf "$gomod" && mv "$gomod.tmp" "$gomod"
    ) 9>"$CDC_CACHE/cyclonedx-gomod.lock" || return 1
  fi
  export PULUMI_CDC_CYCLONEDX_PY="$venv/bin/cyclonedx-py" PULUMI_CDC_CYCLONEDX_GOMOD="$gomod/cyclonedx-gomod"
}

# Offline engine settings; a user's own values win.
cdc_pulumi_env() {
  mkdir -p "$CDC_REPO_ROOT/.pulumi-state"
  export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://$CDC_REPO_ROOT/.pulumi-state}"
  if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
    export PULUMI_CONFIG_PASSPHRASE="pulumi-cdc-local-sandbox"
  fi
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
}

# npm ci when node_modules is missing or older than the lockfile.
cdc_ensure_deps() {
  local stamp="$CDC_REPO_ROOT/node_modules/.package-lock.json"
  if [ ! -f "$stamp" ] || [ "$CDC_REPO_ROOT/package-lock.json" -nt "$stamp" ]; then
    cdc_say "installing npm dependencies (npm ci)"
    (cd "$CDC_REPO_ROOT" && npm ci --no-audit --no-fund --loglevel=error) >&2 || { cdc_die "npm ci failed"; return 1; }
  fi
  # Dynamic providers load their code with require("pulumi-cdc/provider") from the program's
  # directory, evaluated without a file name, so Node's self-reference does not apply: the
  # root program and the test fixtures find the package through this link.
  [ -e "$CDC_REPO_ROOT/node_modules/pulumi-cdc" ] || ln -s .. "$CDC_REPO_ROOT/node_modules/pulumi-cdc"
}

cdc_build() {
  cdc_say "compiling TypeScript (npm run build)"
  (cd "$CDC_REPO_ROOT" && npm run --silent build) >&2 || { cdc_die "TypeScript build failed"; return 1; }
}

cdc_toolchain() {
  cdc_ensure_node && cdc_ensure_deps || return 1
  # Python's wheels come from PyPI (the network, on a first run) while the Go builds below use the
  # cores; its variables are exported once it is done.
  local python python_status=0
  (cdc_ensure_python) &
  python=$!
  if ! { CDC_CODEGEN_BESIDE_YAML=1 cdc_ensure_pulumi && cdc_pulumi_env; }; then
    wait "$python"
    return 1
  fi
  # Not fatal here (the demo needs neither tool): `npm run generate` and the tests that need them
  # call it again and fail with its message.
  cdc_ensure_codegen || cdc_say "warning: the code generator and the Go and Python language hosts are not available (above)"
  # Not fatal either: the Python tests call it again, and skip only where there is no Python.
  wait "$python" || python_status=$?
  case "$python_status" in
    0) cdc_ensure_python ;; # done: this only exports PULUMI_CDC_PYTHON and PULUMI_CDC_WHEELHOUSE
    2) ;;                   # no Python 3.9+: warned above
    *) cdc_say "warning: Python's wheels are not available (above)" ;;
  esac
}
