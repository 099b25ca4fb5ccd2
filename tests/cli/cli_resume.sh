#!/usr/bin/env bash
# tests/cli/cli_resume.sh LIQUIDCL — checkpoints and `run --resume`: a run cut short and
# resumed ends bit for bit where an uninterrupted run does (fields and stats, rain and
# all), an interrupted run (SIGINT) leaves a checkpoint of its last frame, and a
# checkpoint is refused for another scene, other --set flags or when missing.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=scenes/rain_pond.yaml
A=(--device ref --quiet --set "grid.size=[64,64]" --set "output.fields=[h,u]"
   --set output.checkpoint=2 --set output.preview=false --set output.mesh=false)
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }

echo "resumed run equals an uninterrupted one:"
"$LQ" run "$S" --out "$tmp/a" "${A[@]}" --frames 40 || fail "uninterrupted run"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --frames 25 || fail "first part"
[[ -f $tmp/b/checkpoint.lqc ]] && pass "checkpoint written" || fail "no checkpoint.lqc"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --frames 40 --resume
rc=$?
[[ $rc -eq 0 ]] && pass "resume exits 0" || fail "resume exit $rc"
for f in h_0040.vtk u_0040.vtk h_0025.vtk; do
    check "fields/$f bit-identical" cmp "$tmp/a/fields/$f" "$tmp/b/fields/$f"
done
if diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null; then
    pass "stats.jsonl identical but for wall_ms (one line per frame 0..40)"
else
    fail "stats.jsonl differs" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -5)"
fi
[[ $(ls "$tmp/b/fields" | wc -l) -eq $(ls "$tmp/a/fields" | wc -l) ]] &&
    pass "same field files" || fail "field files differ in number"

echo "an interrupted run leaves a checkpoint of its last frame:"
"$LQ" run "$S" --out "$tmp/c" "${A[@]}" --set "grid.size=[256,256]" --frames 400 --set output.checkpoint=1000 &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
rc=$?
[[ $rc -eq 1 ]] && pass "interrupted run exits 1" || fail "interrupted run exit $rc"
[[ -f $tmp/c/checkpoint.lqc ]] && pass "checkpoint written on interrupt" || fail "no checkpoint after SIGINT"
last=$(tail -n 1 "$tmp/c/stats.jsonl" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["frame"])')
"$LQ" run "$S" --out "$tmp/c" "${A[@]}" --set "grid.size=[256,256]" --frames $((last + 2)) \
    --set output.checkpoint=1000 --resume
rc=$?
[[ $rc -eq 0 ]] && pass "resumed after frame $last" || fail "resume after interrupt exit $rc"
n=$(wc -l <"$tmp/c/stats.jsonl")
[[ $n -eq $((last + 3)) ]] && pass "stats has frames 0..$((last + 2))" || fail "stats has $n lines"

echo "a checkpoint is refused when it does not belong to the run:"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --frames 50 --resume --set shallow.damping=0.01 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "another scene or other --set" "$tmp/err" && pass "other --set: exit 2" ||
    fail "other --set: exit $rc" "$(cat "$tmp/err")"
"$LQ" run "$S" --out "$tmp/none" "${A[@]}" --frames 5 --resume 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 && ! -e $tmp/none ]] && grep -q "no checkpoint" "$tmp/err" &&
    pass "no checkpoint: exit 2, nothing written" || fail "no checkpoint: exit $rc" "$(cat "$tmp/err")"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --frames 40 --resume 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "ask for more --frames" "$tmp/err" && pass "nothing left to do: exit 2" ||
    fail "resume past the end: exit $rc" "$(cat "$tmp/err")"

echo "cli_resume: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
