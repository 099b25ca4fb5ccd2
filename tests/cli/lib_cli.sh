# tests/cli/lib_cli.sh — sourced by the tests/cli/cli_*.sh scripts: the binary under test ($LQ,
# their first argument), the repository root ($ROOT), a temporary folder ($tmp,
# removed on exit) and the pass/fail/check counters they report with.
# shellcheck shell=bash
LQ=${1:?usage: tests/cli_NAME.sh /abs/path/to/liquidcl}
ROOT=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

pass() { checks=$((checks + 1)); echo "  ok   $1"; }
fail() {
    checks=$((checks + 1)); fails=$((fails + 1)); echo "  FAIL $1"
    shift
    local line
    for line in "$@"; do echo "       $line"; done
}
# check NAME CMD...: CMD's exit status decides; its output is shown on failure.
check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}
