#!/usr/bin/env bash
# tests/cli/cli_rebake.sh LIQUIDCL — re-baking from an earlier frame (output.checkpoint_keep,
# run --resume-from FRAME), on a splash scene (objects and spray: every kind of state):
#  1. with checkpoint 3 and keep 3, a 12-frame run keeps checkpoints/0006, 0009 and 0012.lqc
#     (0003 dropped), and checkpoint.lqc is frame 12's;
#  2. --resume-from 6 re-bakes frames 7..12: every file equals the uninterrupted run's, byte
#     for byte (stats.jsonl and objects.csv but for wall and output times), and the kept
#     checkpoints are 6, 9 and 12 again;
#  3. the re-bake interrupted after its first checkpoint and resumed with --resume ends
#     equal too (checkpoint.lqc follows the re-bake, not the old run);
#  4. --resume-from a frame not kept: exit 2, one line naming the frames kept, nothing
#     changed.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"
S=scenes/three_balls.yaml
A=(--quiet --device opencl --frames 12 --set "grid.size=[32,32]" --set output.preview=false
   --set output.checkpoint=3 --set output.checkpoint_keep=3 --set output.particles=true)
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }
same_run() { # DIR: equal to $tmp/a but for times
    local f bad=0
    for f in $(cd "$tmp/a" && find . -type f ! -name '*.lock' | sort); do
        case $f in
        ./stats.jsonl) cmp -s <(strip "$tmp/a/$f") <(strip "$1/$f") || { echo "differs: $f"; bad=1; } ;;
        ./checkpoints/* | ./checkpoint.lqc) ;;
        *) cmp -s "$tmp/a/$f" "$1/$f" || { echo "differs: $f"; bad=1; } ;;
        esac
    done
    return $bad
}
"$LQ" run "$S" --out "$tmp/a" "${A[@]}" || fail "the whole run"
kept=$(cd "$tmp/a/checkpoints" && ls | tr '\n' ' ')
[ "$kept" = "0006.lqc 0009.lqc 0012.lqc " ] && pass "kept: $kept" || fail "kept: $kept"
cp -r "$tmp/a" "$tmp/b"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --resume-from 6 2>"$tmp/err" || fail "--resume-from 6" "$(cat "$tmp/err")"
check "re-baked from frame 6: every file as the whole run's" same_run "$tmp/b"
kept=$(cd "$tmp/b/checkpoints" && ls | tr '\n' ' ')
[ "$kept" = "0006.lqc 0009.lqc 0012.lqc " ] && pass "kept after the re-bake: $kept" || fail "kept: $kept"
# an interrupted re-bake: stop it at its first checkpoint (frame 9), then --resume
cp -r "$tmp/a" "$tmp/c"
"$LQ" run "$S" --out "$tmp/c" "${A[@]}" --frames 9 --resume-from 6 2>"$tmp/err" ||
    fail "re-bake to 9" "$(cat "$tmp/err")"
"$LQ" run "$S" --out "$tmp/c" "${A[@]}" --resume 2>"$tmp/err" || fail "--resume" "$(cat "$tmp/err")"
check "an interrupted re-bake resumed: as the whole run" same_run "$tmp/c"
before=$(cd "$tmp/a" && find . -type f | sort | xargs md5sum)
err=$("$LQ" run "$S" --out "$tmp/a" "${A[@]}" --resume-from 3 2>&1)
rc=$?
after=$(cd "$tmp/a" && find . -type f | sort | xargs md5sum)
[[ $rc -eq 2 && $err == *"no checkpoint of frame 3 (kept: "* && "$before" == "$after" ]] &&
    pass "--resume-from 3: exit 2, nothing changed: $err" || fail "--resume-from 3: exit $rc" "$err"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
