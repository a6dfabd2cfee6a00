#!/usr/bin/env bash
# check-drift.sh - fail a CI job when a pulumi-cdc stack no longer matches its program.
#
#   check-drift.sh --stack <name> [--cwd <program dir>] [--refresh]
#
# Two checks, both read-only (nothing is changed, no state is written):
#   1. the pulumi-cdc drift command (when the installed pulumi-cdc has one): which objects were
#      changed outside Pulumi, with the API's masked diff (secrets shown as ********);
#   2. `pulumi preview --expect-no-changes`: the gate. It fails on drift (the provider asks the
#      API during the diff) and also on program or config changes that were never deployed.
#
# Exit status: 0 clean, 2 drift or pending changes, 1 the check itself failed (bad credentials,
# API down, unknown stack, ...). CI treats any non-zero as failure; a wrapper can tell them apart.
#
# Environment: the stack's backend and passphrase as for any pulumi command
# (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE); the API
# credentials come from the stack config (cdc:apiUrl, cdc:clientId, cdc:clientSecret) or from
# CDC_API_URL, CDC_CLIENT_ID, CDC_CLIENT_SECRET. A read-only credential (role_viewer) is enough.
# Optional: PULUMI_STACK instead of --stack; CDC_DRIFT_COMMAND to name the drift command
# explicitly (e.g. "node /opt/pulumi-cdc/dist/cli/index.js"). With GITHUB_STEP_SUMMARY set (GitHub
# Actions sets it), the job summary gets the drift command's Markdown report (a table per drifted
# resource: kind, name, what changed with secrets masked, the fix; `--summary-file`) and the verdict.

# Not -e: this script inspects the exit status of each check itself.
set -uo pipefail

usage() {
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
}

die() {
  printf 'check-drift: %s\n' "$*" >&2
  exit 1
}

stack="${PULUMI_STACK:-}"
# By default the program is the folder this script sits in (copy it next to your Pulumi.yaml).
cwd="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
refresh=false
while [ $# -gt 0 ]; do
  case "$1" in
    --stack) [ $# -ge 2 ] || die "--stack needs a value"; stack="$2"; shift 2 ;;
    --cwd) [ $# -ge 2 ] || die "--cwd needs a value"; cwd="$2"; shift 2 ;;
    --refresh) refresh=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
[ -n "$stack" ] || die "name the stack: --stack <name> (or set PULUMI_STACK)"
[ -f "$cwd/Pulumi.yaml" ] || die "no Pulumi.yaml in $cwd (use --cwd <program dir>)"
command -v pulumi >/dev/null 2>&1 || die "the Pulumi CLI is not on PATH"
command -v node >/dev/null 2>&1 || die "Node.js is not on PATH"

# Non-interactive, no update check: a CI log should hold the preview and nothing else.
export PULUMI_SKIP_UPDATE_CHECK=true
if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  printf 'check-drift: note: PULUMI_CONFIG_PASSPHRASE is not set; stacks with a passphrase secrets provider will fail to decrypt\n' >&2
fi

summary() {
  # GitHub-style job summary when the runner provides one; harmless elsewhere.
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '%s\n' "$*" >>"$GITHUB_STEP_SUMMARY"; fi
}

section() { printf '\n=== %s\n' "$*"; }

# --- 1. the drift command -------------------------------------------------------------------
# Found as CDC_DRIFT_COMMAND, else as the installed pulumi-cdc package's CLI (resolved from the
# program's folder, the same way the program resolves the package).
drift_cmd=()
if [ -n "${CDC_DRIFT_COMMAND:-}" ]; then
  read -r -a drift_cmd <<<"$CDC_DRIFT_COMMAND"
else
  pkg_json="$(cd "$cwd" && node -p 'require.resolve("pulumi-cdc/package.json", { paths: [process.cwd()] })' 2>/dev/null || true)"
  if [ -n "$pkg_json" ] && [ -f "$(dirname "$pkg_json")/dist/cli/index.js" ]; then
    drift_cmd=(node "$(dirname "$pkg_json")/dist/cli/index.js")
  fi
fi

summary "### CDC drift check: stack \`$stack\`"
summary ""

drift_status=skipped
if [ "${#drift_cmd[@]}" -gt 0 ]; then
  drift_args=(drift --stack "$stack" --cwd "$cwd")
  # The human report in the log; the Markdown one appended to the job summary (never truncated).
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then drift_args+=(--summary-file "$GITHUB_STEP_SUMMARY"); fi
  section "drift report: ${drift_cmd[*]} ${drift_args[*]}"
  "${drift_cmd[@]}" "${drift_args[@]}"
  case $? in
    0) drift_status=clean ;;
    2) drift_status=drift ;;
    *) drift_status=error ;;
  esac
else
  section "drift report: skipped (this pulumi-cdc has no drift command; the preview below still detects drift)"
fi

# --- 2. the gate: pulumi preview --expect-no-changes ----------------------------------------
preview_args=(preview --expect-no-changes --diff --non-interactive --stack "$stack" --cwd "$cwd")
if [ "$refresh" = true ]; then preview_args+=(--refresh); fi
section "pulumi ${preview_args[*]}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
pulumi "${preview_args[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ]; then
  preview_status=clean
elif [ "$rc" -eq 7 ] || grep -q 'no changes were expected' "$log"; then
  # Pulumi >= 3.226 exits 7 when --expect-no-changes sees changes; older CLIs exit 255 for
  # every failure, so the message tells changes apart from errors there.
  preview_status=drift
else
  preview_status=error
fi

# --- verdict ---------------------------------------------------------------------------------
section "result for stack $stack: drift report $drift_status, preview $preview_status"
summary ""
summary "| check | result |"
summary "|---|---|"
summary "| drift report | $drift_status |"
summary "| pulumi preview --expect-no-changes | $preview_status |"

if [ "$drift_status" = error ] || [ "$preview_status" = error ]; then
  printf 'check-drift: the check could not run to the end (see the errors above)\n' >&2
  exit 1
fi
if [ "$drift_status" = drift ] || [ "$preview_status" = drift ]; then
  printf 'check-drift: stack %s differs from its program. Either run `pulumi up` to put the program'"'"'s config back,\n' "$stack" >&2
  printf '             or copy the change made outside Pulumi into the program and deploy it.\n' >&2
  exit 2
fi
printf 'check-drift: stack %s matches its program\n' "$stack"
