#!/usr/bin/env bash
# tests/cli/cli_outdir.sh LIQUIDCL — the output folder (docs/RELIABILITY.md, "Output
# folders"): an empty, root, home, too long or foreign --out is refused (exit 2, one
# line, nothing made); a second run into a folder that a run is writing is refused at
# once, naming the first run's process, and leaves the first run's files whole; what a
# killed run left (its lock file, temporary files) is removed and reported by the next
# run; the lock file is gone after a run ends.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=$ROOT/scenes/rain_pond.yaml
A=(--device ref --frames 1 --set "grid.size=[32,32]" --set output.preview=false)

# refused NAME PATTERN ARGS...: `liquidcl run S ARGS...` exits 2 with one stderr line
# matching PATTERN.
refused() {
    local name=$1 pattern=$2 rc
    shift 2
    "$LQ" run "$S" "${A[@]}" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$tmp/stderr") -eq 1 ]] && grep -Eq -- "$pattern" "$tmp/stderr"; then
        pass "$name: $(cat "$tmp/stderr")"
    else
        fail "$name: exit $rc" "$(cat "$tmp/stderr")"
    fi
}

echo "unsafe --out values are refused before anything is made:"
# --resume first: a binary without the check then only looks for /checkpoint.lqc and
# writes nothing, so the test never lets it write into the root.
refused "--out '' with --resume" "^--out '': .*empty" --out '' --resume
if grep -q "empty" "$tmp/stderr"; then
    before=$(ls -A /)
    refused "--out ''" "^--out '': .*empty" --out ''
    [[ "$(ls -A /)" == "$before" ]] && pass "nothing made in /" ||
        fail "made in /" "$(diff <(echo "$before") <(ls -A /))"
fi
refused "--out /" "root of the file system" --out /
refused "--out /tmp/.." "root of the file system" --out /tmp/..
refused "--out to a folder still to be made, then .." "root of the file system" \
    --out "/liquidcl-no-such-folder-$$/.."
[[ ! -e /liquidcl-no-such-folder-$$ ]] && pass "the folder before .. was not made" ||
    fail "made /liquidcl-no-such-folder-$$"
mkdir -p "$tmp/home/user"
HOME=$tmp/home/user refused "--out \$HOME" "your home folder" --out "$tmp/home/user"
HOME=$tmp/home/user refused "--out above \$HOME" "holds your home folder" --out "$tmp/home"
mkdir -p "$tmp/project" && echo keep >"$tmp/project/README"
refused "--out a folder of other files" "other things than a liquidcl run.*README" \
    --out "$tmp/project"
[[ $(ls "$tmp/project") == README ]] && pass "the foreign folder is untouched" ||
    fail "the foreign folder changed" "$(ls "$tmp/project")"
long=$tmp/long
for _ in $(seq 1 2500); do long=$long/a; done
refused "--out of 5000 characters" "at most 3840" --out "$long"
[[ ! -e $tmp/long ]] && pass "no nested folders made" || fail "nested folders made"
refused "--out with a 300-character folder name" "at most 255" --out "$tmp/$(printf 'b%.0s' $(seq 1 300))"

echo "a second run into a folder in use is refused, naming the first:"
B=(--device ref --quiet --set "grid.size=[192,192]" --set output.preview=false --set output.checkpoint=5)
"$LQ" run "$S" --out "$tmp/busy" "${B[@]}" --frames 100000 2>/dev/null &
first=$!
for _ in $(seq 1 600); do [[ -s $tmp/busy/stats.jsonl ]] && break; sleep 0.1; done
t0=$(date +%s%N)
"$LQ" run "$S" --out "$tmp/busy" "${A[@]}" --quiet 2>"$tmp/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [[ $rc -eq 2 ]] && grep -q "another liquidcl run is writing there (pid $first," "$tmp/err"; then
    pass "second run: exit 2 in $ms ms: $(cat "$tmp/err")"
else
    fail "second run: exit $rc" "$(cat "$tmp/err")"
fi
"$LQ" run "$S" --out "$tmp/busy" "${B[@]}" --frames 100000 --resume 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "pid $first" "$tmp/err" && pass "a --resume into it too" ||
    fail "--resume into a busy folder: exit $rc" "$(cat "$tmp/err")"
kill -INT "$first"
wait "$first"
rc=$?
[[ $rc -eq 1 ]] && pass "the first run stops on SIGINT (exit 1)" || fail "first run exit $rc"
if python3 - "$tmp/busy/stats.jsonl" <<'EOF'; then
import json, sys
frames = [json.loads(l)["frame"] for l in open(sys.argv[1])]
sys.exit(0 if frames == list(range(len(frames))) else 1)
EOF
    pass "its stats.jsonl is whole: frames 0..n, one line each"
else
    fail "stats.jsonl mixed" "$(cut -c1-40 "$tmp/busy/stats.jsonl" | head)"
fi
[[ ! -e $tmp/busy/liquidcl.lock ]] && pass "no lock file after the run" || fail "lock file left"

echo "what a killed run leaves is removed and reported by the next one:"
"$LQ" run "$S" --out "$tmp/killed" "${B[@]}" --frames 100000 &
victim=$!
for _ in $(seq 1 200); do [[ -s $tmp/killed/checkpoint.lqc ]] && break; sleep 0.1; done
kill -KILL "$victim"
wait "$victim" 2>/dev/null
[[ -e $tmp/killed/liquidcl.lock ]] && pass "kill -9 leaves the lock file" || fail "no lock file after kill -9"
# a partial checkpoint and frame file as kill -9 during their writing leaves them
head -c 100000 /dev/urandom >"$tmp/killed/checkpoint.lqc.tmp.$victim"
head -c 1000 /dev/urandom >"$tmp/killed/mesh/0007.ply.tmp.$victim"
"$LQ" run "$S" --out "$tmp/killed" "${B[@]}" --resume --frames 100000 >/dev/null 2>"$tmp/err" &
resumed=$!
for _ in $(seq 1 100); do grep -q "did not finish" "$tmp/err" && break; sleep 0.1; done
# interrupt it once it steps (a frame more in stats.jsonl): before its frame loop a
# background job's SIGINT is still ignored (no job control), so an early one is lost
n0=$(wc -l <"$tmp/killed/stats.jsonl")
for _ in $(seq 1 600); do (($(wc -l <"$tmp/killed/stats.jsonl") > n0)) && break; sleep 0.1; done
kill -INT "$resumed"
wait "$resumed"
# (the two planted here, and any the kill itself cut short: the writer thread may be
# writing a frame's file while the checkpoint is written)
if grep -qE "the last run here \(pid $victim, .*did not finish; removed ([2-9]|[1-9][0-9]+) partial files" "$tmp/err"; then
    pass "reported: $(grep 'did not finish' "$tmp/err")"
else
    fail "no report of the killed run" "$(cat "$tmp/err")"
fi
left=$(find "$tmp/killed" -name '*.tmp.*')
[[ -z $left ]] && pass "no temporary files remain" || fail "temporary files remain" "$left"

echo "cli_outdir: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
