#!/usr/bin/env bash
# tests/cli/cli_version.sh LIQUIDCL — `liquidcl --version` (and `version`) prints one line,
# "liquidcl VERSION (...)", exit 0, nothing on stderr; VERSION is the project's version
# and the git commit the binary was built from when it was built in a git checkout
# (tools/version.cmake); stats.jsonl's first line carries the same VERSION, and only the
# first line.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

out=$("$LQ" --version 2> "$tmp/err")
rc=$?
ver=$(sed -n 's/^liquidcl \([^ ]*\) (.*)$/\1/p' <<< "$out")
if [ "$rc" -eq 0 ] && [ -n "$ver" ] && [ "$(wc -l <<< "$out")" -eq 1 ] && [ ! -s "$tmp/err" ]; then
    pass "--version: $out"
else
    fail "--version: exit $rc, '$out'" "$(cat "$tmp/err")"
fi
[ "$("$LQ" version)" = "$out" ] && pass "version = --version" || fail "version differs"
if git -C "$ROOT" rev-parse --short=10 HEAD > /dev/null 2>&1; then
    head=$(git -C "$ROOT" rev-parse --short=10 HEAD)
    [[ $ver == *"+g$head"* ]] && pass "names the commit $head" ||
        fail "version $ver does not name HEAD $head (a stale build?)"
fi
"$LQ" run scenes/beach.yaml --out "$tmp/run" --quiet --frames 2 --set output.preview=false \
    --set "grid.size=[48,24]" || fail "run"
first=$(head -1 "$tmp/run/stats.jsonl")
n=$(grep -c '"version"' "$tmp/run/stats.jsonl")
[[ $first == *"\"version\":\"$ver\""* && $n -eq 1 ]] && pass "stats.jsonl's first line: $ver" ||
    fail "stats.jsonl: $n lines with a version; first: $first"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
