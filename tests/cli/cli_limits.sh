#!/usr/bin/env bash
# tests/cli/cli_limits.sh LIQUIDCL — input at the edges of what liquidcl accepts
# (docs/RELIABILITY.md, "Refusals before allocation"): each case is refused early (exit
# 2, one line naming the file or key) or accepted as documented, and nothing is written
# for a refused one.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=$ROOT/scenes/rain_pond.yaml

echo "any number of --set flags (the docs promise no limit):"
sets=()
for _ in $(seq 1 300); do sets+=(--set time.fps=30); done
"$LQ" check "$S" "${sets[@]}" >"$tmp/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && pass "300 --set flags: exit 0" || fail "300 --set flags: exit $rc" "$(cat "$tmp/out")"

echo "cli_limits: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
