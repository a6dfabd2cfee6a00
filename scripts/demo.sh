#!/usr/bin/env bash
# The demo command (README: `npm run demo`): toolchain, dependencies, build, then the quickstart
# (examples/quickstart) is deployed under the real Pulumi engine against the local API emulator,
# changed out of band as someone in the web console would, the drift is shown and reconciled,
# and everything is torn down. Nothing outside a temporary directory is kept: the emulator runs
# in memory, the Pulumi state lives in a throwaway file backend.
#
# The drift is shown with `pulumi-cdc drift` (dist/cli/index.js) when the build has it, else with
# `pulumi preview --refresh --diff` and the destination's drift output; CDC_DEMO_DRIFT=preview
# forces the second way.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/toolchain.sh
source scripts/toolchain.sh
cdc_toolchain
cdc_build

repo="$(pwd)"
program="$repo/examples/quickstart"
work="$(mktemp -d -t pulumi-cdc-demo.XXXXXX)"
# Unique per run: the stack's config file sits in the program folder while the demo runs.
stack="demo-$$"
stack_config="$program/Pulumi.$stack.yaml"
emulator_pid=""
started=$SECONDS
step_no=0
step_title="setup"
TOTAL_STEPS=11

# --- output helpers ---------------------------------------------------------------------------
# Colour only on a terminal (and never with NO_COLOR), so logs stay plain text.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
  B=$'\033[1m' G=$'\033[32m' R=$'\033[31m' N=$'\033[0m'
else
  B="" G="" R="" N=""
fi
step() {
  step_no=$((step_no + 1))
  step_title="$*"
  printf '\n%s[%d/%d] %s%s  (t+%ds)\n' "$B" "$step_no" "$TOTAL_STEPS" "$*" "$N" "$((SECONDS - started))"
}
say() { printf '  > %s\n' "$*"; }
ok() { printf '  %sok%s %s\n' "$G" "$N" "$*"; }
fail() {
  printf '  %sFAILED%s %s\n' "$R" "$N" "$*" >&2
  exit 1
}

# Runs a command, showing its output and keeping a copy in $work/last.log; its exit status goes
# to $rc instead of stopping the demo, for the steps that expect a failure.
rc=0
run_capture() {
  set +e
  "$@" 2>&1 | tee "$work/last.log"
  rc=${PIPESTATUS[0]}
  set -e
}

# --- clean-up, whatever happens ---------------------------------------------------------------
stop_emulator() {
  [ -n "$emulator_pid" ] || return 0
  if kill -0 "$emulator_pid" 2>/dev/null; then
    kill "$emulator_pid" 2>/dev/null || true
    # Bounded wait for a graceful stop (the emulator closes its server on SIGTERM).
    for _ in $(seq 1 50); do
      kill -0 "$emulator_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$emulator_pid" 2>/dev/null && kill -9 "$emulator_pid" 2>/dev/null || true
  fi
  wait "$emulator_pid" 2>/dev/null || true
  emulator_pid=""
}
cleanup() {
  local status=$?
  set +e
  stop_emulator
  # `pulumi stack rm` removes the stack's config file; after a failure it may still be there.
  rm -f "$stack_config"
  rm -rf "$work"
  if [ "$status" -ne 0 ]; then
    printf '\n%sdemo FAILED%s in step %d/%d (%s), exit status %d\n' "$R" "$N" "$step_no" "$TOTAL_STEPS" "$step_title" "$status" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- an offline Pulumi of our own -------------------------------------------------------------
# A throwaway file backend and Pulumi home: the demo never touches the user's stacks or the
# repository's .pulumi-state, and no stack selection leaks out of it.
mkdir -p "$work/state" "$work/home"
export PULUMI_BACKEND_URL="file://$work/state"
export PULUMI_HOME="$work/home"
unset PULUMI_CONFIG_PASSPHRASE_FILE
export PULUMI_CONFIG_PASSPHRASE="demo-passphrase-$$"
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
# Progress as plain lines (no terminal redraws), so the output reads the same in a log.
PULUMI_FLAGS=(--non-interactive --stack "$stack" --cwd "$program")

# Secrets of this run, random so that the check in step 4 means something.
rand() { od -An -N8 -tx1 /dev/urandom | tr -d ' \n'; }
client_id="demo-admin"
client_secret="demo-secret-$(rand)"
db_password="pg-$(rand)"
snowflake_key="MIIEvQIBADANBgkqhkiG9w0BAQEFAASC$(rand)"

# ==============================================================================================
step "Start the local API emulator (in memory, free port)"
node dist/emulator/cli.js --port 0 --client-id "$client_id" --client-secret "$client_secret" >"$work/emulator.log" 2>&1 &
emulator_pid=$!
api_url=""
for _ in $(seq 1 100); do
  api_url="$(sed -n 's/^listening on \(http[^ ]*\).*/\1/p' "$work/emulator.log" | head -n 1)"
  [ -n "$api_url" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; fail "the emulator exited during start-up"; }
  sleep 0.1
done
[ -n "$api_url" ] || { cat "$work/emulator.log" >&2; fail "the emulator did not report its address within 10 s"; }
ok "emulator pid $emulator_pid listening on $api_url (client id $client_id)"

# ==============================================================================================
step "Create a throwaway stack '$stack' for the quickstart and set its config"
say "backend: $PULUMI_BACKEND_URL"
pulumi stack init "$stack" --non-interactive --cwd "$program"
# The API connection (cdc:*) and the program's own settings (quickstart:*); everything secret
# goes in with --secret, so it is stored encrypted and shown as [secret].
pulumi config set "${PULUMI_FLAGS[@]}" cdc:apiUrl "$api_url"
pulumi config set "${PULUMI_FLAGS[@]}" cdc:clientId "$client_id"
pulumi config set "${PULUMI_FLAGS[@]}" --secret cdc:clientSecret "$client_secret"
pulumi config set "${PULUMI_FLAGS[@]}" --secret quickstart:dbPassword "$db_password"
pulumi config set "${PULUMI_FLAGS[@]}" --secret quickstart:snowflakePrivateKey "$snowflake_key"
pulumi config "${PULUMI_FLAGS[@]}"

# ==============================================================================================
step "pulumi preview: what the first pulumi up will create"
run_capture pulumi preview "${PULUMI_FLAGS[@]}"
[ "$rc" -eq 0 ] || fail "the first pulumi preview exited $rc"
grep -Eq 'create' "$work/last.log" || fail "the first pulumi preview planned no creates"
ok "the first pulumi preview plans the creates"

# ==============================================================================================
step "pulumi up: tags, a PostgreSQL source, a Snowflake destination, a client credential"
pulumi up --yes "${PULUMI_FLAGS[@]}"
destination_id="$(pulumi stack output destinationId "${PULUMI_FLAGS[@]}")"
destination_name="$(pulumi stack output destinationName "${PULUMI_FLAGS[@]}")"
ok "destination $destination_name has id $destination_id"

# ==============================================================================================
step "Check: no secret in plain text, and no changes right after the deployment"
pulumi stack export "${PULUMI_FLAGS[@]}" >"$work/state-export.json"
for value in "$client_secret" "$db_password" "$snowflake_key"; do
  if grep -rqF -- "$value" "$work/state" "$work/state-export.json" "$stack_config"; then
    fail "a secret value appears in plain text in the stack state or config"
  fi
done
ok "none of the 3 secret values appears in the state, the exported state or Pulumi.$stack.yaml"
run_capture pulumi preview --expect-no-changes "${PULUMI_FLAGS[@]}"
[ "$rc" -eq 0 ] || fail "pulumi preview --expect-no-changes right after pulumi up exited $rc (a perpetual diff)"
ok "pulumi preview --expect-no-changes passes: no perpetual diff"

# ==============================================================================================
step "Someone edits the destination in the web console (outside Pulumi)"
say "the console reads the destination (secrets masked) and saves the edited form back"
CDC_API_URL="$api_url" CDC_CLIENT_ID="$client_id" CDC_CLIENT_SECRET="$client_secret" \
  node scripts/demo/console-edit.js --destination "$destination_id" \
  --set snowflake.schema.name=RAW_HOTFIX --set snowflake.role.name=HOTFIX_ROLE

# ==============================================================================================
step "pulumi preview notices the drift (and --expect-no-changes fails, as CI would)"
run_capture pulumi preview "${PULUMI_FLAGS[@]}"
[ "$rc" -eq 0 ] || fail "pulumi preview exited $rc"
grep -Eq 'Destination +warehouse +update' "$work/last.log" || fail "pulumi preview did not plan an update of the drifted destination"
ok "plain pulumi preview plans '~ update' for the destination changed outside Pulumi"
say "pulumi preview --expect-no-changes (this one must FAIL now)"
run_capture pulumi preview --expect-no-changes "${PULUMI_FLAGS[@]}"
if [ "$rc" -eq 0 ]; then
  fail "pulumi preview --expect-no-changes passed: the drift was NOT detected"
elif [ "$rc" -ne 7 ] && ! grep -q 'no changes were expected' "$work/last.log"; then
  fail "pulumi preview --expect-no-changes failed for another reason than changes (exit $rc)"
fi
ok "pulumi preview --expect-no-changes failed with exit $rc: drift detected, CI would go red"

# ==============================================================================================
# The drift command is newer than some builds: use it when this build has it (CDC_DEMO_DRIFT=preview
# shows the other way, through pulumi preview --refresh, even when it exists).
if [ -f dist/cli/index.js ] && [ "${CDC_DEMO_DRIFT:-}" != preview ]; then
  step "What changed? pulumi-cdc drift (the API's masked diff; secrets never shown)"
  run_capture node dist/cli/index.js drift --stack "$stack" --cwd "$program"
  case "$rc" in
    2) ok "the drift command reports drift (exit 2)" ;;
    0) fail "the drift command reports no drift (exit 0): the out-of-band change was NOT detected" ;;
    *) fail "the drift command failed (exit $rc)" ;;
  esac
else
  step "What changed? pulumi preview --refresh --diff, then the destination's drift output"
  run_capture pulumi preview --refresh --diff "${PULUMI_FLAGS[@]}"
  [ "$rc" -eq 0 ] || fail "pulumi preview --refresh --diff exited $rc"
  say "the refreshed 'drift' output of each connector (the API's masked diff):"
  pulumi preview --refresh --json "${PULUMI_FLAGS[@]}" >"$work/preview.json" 2>"$work/preview.err" ||
    { cat "$work/preview.err" >&2; fail "pulumi preview --refresh --json failed"; }
  set +e
  node scripts/demo/show-drift.js "$work/preview.json"
  rc=$?
  set -e
  case "$rc" in
    0) ok "the destination's drift output reports the change, secrets masked" ;;
    3) fail "no drift in the refreshed outputs: the out-of-band change was NOT detected" ;;
    *) fail "could not read the drift report (exit $rc)" ;;
  esac
fi
if grep -qF -- "$snowflake_key" "$work/last.log"; then fail "the drift report shows a secret value"; fi

# ==============================================================================================
step "Reconcile: pulumi up puts the program's config back, then --expect-no-changes passes"
pulumi up --yes "${PULUMI_FLAGS[@]}"
say "pulumi stack output destinationDrift (recorded by this deployment):"
pulumi stack output destinationDrift --json "${PULUMI_FLAGS[@]}" | sed 's/^/    /'
run_capture pulumi preview --expect-no-changes "${PULUMI_FLAGS[@]}"
[ "$rc" -eq 0 ] || fail "pulumi preview --expect-no-changes still fails after pulumi up (exit $rc)"
ok "pulumi preview --expect-no-changes passes: the stack matches its program again"

# ==============================================================================================
step "Tear down: pulumi destroy and pulumi stack rm"
pulumi destroy --yes "${PULUMI_FLAGS[@]}"
pulumi stack rm --yes "${PULUMI_FLAGS[@]}"
[ ! -e "$stack_config" ] || fail "Pulumi.$stack.yaml is still in examples/quickstart"
ok "stack $stack removed"

# ==============================================================================================
step "Stop the emulator and remove the temporary files"
stop_emulator
ok "emulator stopped; $work is removed on exit"
printf '\n%sdemo finished%s in %ds: deployed, drift detected and shown, reconciled, destroyed.\n' "$B" "$N" "$((SECONDS - started))"
