#!/usr/bin/env bash
# Adopt an existing tenant, end to end and offline against the local emulator:
#   1. start the emulator on a free port,
#   2. seed a small tenant as a person in the web console would (seed.mjs, created_from "web"),
#   3. `pulumi-cdc import` writes a Pulumi program for it,
#   4. set the secrets it printed, `pulumi up` adopts every object,
#   5. `pulumi preview --expect-no-changes` proves the program matches the tenant,
#   6. `pulumi destroy`, and everything is cleaned up (emulator, stack, temp dirs).
#
# Run from anywhere after building the repository (Node.js >= 22.19 and the Pulumi CLI on PATH):
#   cd <repo> && source scripts/toolchain.sh && cdc_toolchain && cdc_build
#   bash examples/adopt-tenant/adopt.sh
#
# It uses a private PULUMI_HOME and file backend in a temp dir: your own stacks are not touched.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
NODE="${NODE:-node}"
EMULATOR_CLI="$REPO/dist/emulator/cli.js"
CDC_CLI="$REPO/dist/cli/index.js"

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'adopt.sh: %s\n' "$*" >&2; exit 1; }

[ -f "$EMULATOR_CLI" ] && [ -f "$CDC_CLI" ] || die "dist/ is missing: build first (source scripts/toolchain.sh && cdc_toolchain && cdc_build)"
[ -e "$REPO/node_modules/pulumi-cdc" ] || die "$REPO/node_modules/pulumi-cdc is missing: run cdc_toolchain (it links the package for programs in the repository)"
command -v pulumi >/dev/null 2>&1 || die "no pulumi on PATH: source scripts/toolchain.sh && cdc_toolchain"
"$NODE" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)' \
  || die "Node.js >= 22.19 is needed ($("$NODE" --version) on PATH): source scripts/toolchain.sh && cdc_toolchain"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pulumi-cdc-adopt.XXXXXX")"
PROGRAM="$WORK/acme-tenant"
STACK="adopt-demo"
EMULATOR_PID=""
STACK_MADE=""

cleanup() {
  local status=$?
  set +e
  if [ -n "$STACK_MADE" ] && [ -d "$PROGRAM" ]; then
    # Only reached with resources left when something failed before the destroy step.
    (cd "$PROGRAM" && pulumi stack rm --yes --force --stack "$STACK" >/dev/null 2>&1)
  fi
  if [ -n "$EMULATOR_PID" ]; then
    kill "$EMULATOR_PID" 2>/dev/null && wait "$EMULATOR_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A private Pulumi: its own home, a file backend and a passphrase, nothing downloaded.
export PULUMI_HOME="$WORK/pulumi-home"
export PULUMI_BACKEND_URL="file://$WORK/pulumi-state"
export PULUMI_CONFIG_PASSPHRASE="adopt-example"
unset PULUMI_CONFIG_PASSPHRASE_FILE
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_SKIP_CONFIRMATIONS=true
mkdir -p "$PULUMI_HOME" "$WORK/pulumi-state"

step "1. Starting the local emulator on a free port"
"$NODE" "$EMULATOR_CLI" --port 0 >"$WORK/emulator.log" 2>&1 &
EMULATOR_PID=$!
URL=""
for _ in $(seq 1 100); do
  URL="$(sed -n 's/^listening on //p' "$WORK/emulator.log")"
  [ -n "$URL" ] && break
  kill -0 "$EMULATOR_PID" 2>/dev/null || { cat "$WORK/emulator.log" >&2; die "the emulator exited"; }
  sleep 0.1
done
[ -n "$URL" ] || { cat "$WORK/emulator.log" >&2; die "the emulator printed no url"; }
export CDC_API_URL="$URL"
export CDC_CLIENT_ID="$(sed -n 's/^client id: //p' "$WORK/emulator.log")"
export CDC_CLIENT_SECRET="$(sed -n 's/^client secret: //p' "$WORK/emulator.log")"
echo "emulator $URL (pid $EMULATOR_PID), client $CDC_CLIENT_ID"

step "2. Seeding a tenant as a person in the web console (created_from \"web\")"
"$NODE" "$HERE/seed.mjs" acme

step "3. pulumi-cdc import --out $PROGRAM"
"$NODE" "$CDC_CLI" import --out "$PROGRAM" | tee "$WORK/import.log"

step "The generated program: $PROGRAM/index.ts"
cat "$PROGRAM/index.ts"

# The program depends on pulumi-cdc and @pulumi/pulumi; inside this repository they resolve from
# its node_modules (elsewhere: npm install in the generated folder).
ln -s "$REPO/node_modules" "$PROGRAM/node_modules"

step "4. A stack, the API settings and the secrets import printed"
cd "$PROGRAM"
pulumi stack init "$STACK" --non-interactive
STACK_MADE=1
pulumi config set cdc:apiUrl "$CDC_API_URL"
pulumi config set cdc:clientId "$CDC_CLIENT_ID"
pulumi config set --secret cdc:clientSecret "$CDC_CLIENT_SECRET"
# The emulator does not check secret values; with a real tenant, set the real ones.
mapfile -t SECRETS < <(sed -n 's/^[[:space:]]*pulumi config set --secret \([^[:space:]]*\).*/\1/p' "$WORK/import.log" | grep -v '^cdc:clientSecret$' || true)
for name in "${SECRETS[@]}"; do
  echo "pulumi config set --secret $name ****"
  pulumi config set --secret "$name" "example-value-of-$name"
done

step "5. pulumi preview, then pulumi up: adopts every object of the tenant"
pulumi preview --non-interactive
pulumi up --yes --non-interactive

step "6. pulumi preview --expect-no-changes"
pulumi preview --expect-no-changes --non-interactive
echo "The preview had no changes: the program matches the tenant."

step "7. pulumi destroy, then cleanup"
pulumi destroy --yes --non-interactive
pulumi stack rm --yes "$STACK" --non-interactive
STACK_MADE=""
echo "Done: the tenant was adopted, checked clean and destroyed."
