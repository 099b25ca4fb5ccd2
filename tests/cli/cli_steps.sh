#!/usr/bin/env bash
# tests/cli/cli_steps.sh LIQUIDCL — bounded, interruptible steps (docs/RELIABILITY.md,
# "Signals" and "Blow-ups"): a frame that would need more than time.max_steps steps, or
# whose step underflows, stops the run at once with exit 1 naming the frame, the step,
# the field and its value (gravity of 1e30 m/s² for each solver: mac used to never
# finish frame 1, splash overflowed its step count and exited 0); a failed stage is
# named with its field; SIGTERM and Ctrl-C inside a frame that would take hours end the
# run within the grace (core/interrupt.h), and a second Ctrl-C at once, even inside a
# pressure iteration of a million sweeps; the frames before stay whole.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

M=$ROOT/scenes/mac_dam_break.yaml
Q=(--device ref --quiet --set output.preview=false)

# blowup NAME PATTERN SCENE ARGS...: exit 1 within 20 s, the last stderr line names
# frame 1, a step and matches PATTERN.
blowup() {
    local name=$1 pattern=$2 scene=$3 rc msg t0 s
    shift 3
    t0=$(date +%s)
    timeout -k 5 20 "$LQ" run "$scene" --out "$tmp/$name" "${Q[@]}" --frames 3 "$@" 2>"$tmp/err"
    rc=$?
    s=$(($(date +%s) - t0))
    msg=$(tail -n 1 "$tmp/err")
    if [[ $rc -eq 1 ]] && grep -Eq "^frame 1: .*at step [0-9]+ \(t = " <<<"$msg" &&
        grep -Eq -- "$pattern" <<<"$msg"; then
        pass "$name: exit 1 in ${s} s: $msg"
    else
        fail "$name: exit $rc after ${s} s" "$msg"
    fi
}

echo "a step that collapses is a blow-up named at once:"
G=(--set "gravity=[0,-1e30,0]")
blowup mac "field v: max speed [^ ]+ m/s, gravity 1e\+30.*more than time.max_steps \(10000\)" "$M" "${G[@]}"
blowup pls "field v: max speed [^ ]+ m/s, gravity 1e\+30.*time.max_steps" \
    "$ROOT/scenes/pls_dam_break.yaml" "${G[@]}"
blowup splash "objects: speed [0-9.e+]+ m/s.*time.max_steps" "$ROOT/scenes/ball_drop.yaml" "${G[@]}"
blowup splash_no_objects "field d: deepest water [0-9.e+]+ m.*time.max_steps" \
    "$ROOT/scenes/validation/splash_lake_at_rest.yaml" "${G[@]}" --set splash.substeps=0
blowup shallow "field h: deepest water [0-9.e+]+ m.*time.max_steps" "$ROOT/scenes/beach.yaml" "${G[@]}"
blowup max_steps "frame needs [0-9.e+]+ steps, more than time.max_steps \(2\)" "$M" \
    --set time.max_steps=2
blowup stage "in stage 'pressure iteration' \(field p\): pressure iteration diverged" "$M" \
    --set mac.pressure=jacobi --set mac.beta0=1.99
if [[ -f $tmp/splash/stats.jsonl ]] && [[ $(wc -l <"$tmp/splash/stats.jsonl") -eq 1 ]]; then
    pass "splash: stats.jsonl holds frame 0 only (no nonsense frames)"
else
    fail "splash: stats.jsonl" "$(cut -c1-60 "$tmp/splash/stats.jsonl" 2>/dev/null)"
fi

echo "signals inside a frame that would take hours:"
LONG=(--set time.fps=0.001 --set time.max_steps=1000000000 --set output.checkpoint=1)
# stopped NAME SIGNALS...: a long run stopped by the signals (the first once frame 0 is in
# stats.jsonl, so inside frame 1; the next 0.5 s apart) exits 1 naming the signal and
# frame 1, frame 0 whole. No time is asserted (it is printed): each run below would take
# hours if the signal were not honoured where it must be, and meets the 120 s hang guard.
stopped() {
    local name=$1 pid rc t0 s sig
    shift
    "$LQ" run "$M" --out "$tmp/$name" "${Q[@]}" "${LONG[@]}" --frames 2 "${EXTRA[@]}" 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 1 600); do [[ -s $tmp/$name/stats.jsonl ]] && break; sleep 0.1; done
    t0=$(date +%s%N)
    for sig in "$@"; do
        kill -"$sig" "$pid" 2>/dev/null
        sleep 0.5
    done
    for _ in $(seq 1 1200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    s=$((($(date +%s%N) - t0) / 1000000))
    local msg
    msg=$(tail -n 1 "$tmp/err")
    if [[ $rc -eq 1 ]] &&
        grep -Eq "^interrupted by SIG$1 during frame 1 at step [0-9]+ .*frames 0..0 are complete" <<<"$msg"; then
        pass "$name: exit 1 ${s} ms after the signal: $msg"
    else
        fail "$name: exit $rc ${s} ms after the signal" "$msg"
    fi
    [[ $(wc -l <"$tmp/$name/stats.jsonl") -eq 1 ]] && pass "$name: stats.jsonl holds frame 0" ||
        fail "$name: stats.jsonl" "$(cut -c1-40 "$tmp/$name/stats.jsonl")"
    [[ -z $(find "$tmp/$name" -name '*.tmp.*' -o -name liquidcl.lock) ]] &&
        pass "$name: no temporary or lock file left" || fail "$name: files left" "$(ls -R "$tmp/$name")"
}
EXTRA=()
stopped sigterm TERM # grace 5 s, then the frame is abandoned between steps
stopped sigint INT
stopped sigint_twice INT INT
# every step a Jacobi pressure iteration of a million sweeps on 573 440 cells that does
# not reach its ε (hours a step here): only the check inside the iteration stops it
EXTRA=(--set "grid.size=[128,80,56]" --set mac.pressure=jacobi --set mac.max_sweeps=1000000
    --set mac.epsilon=1e-12)
stopped sigint_twice_in_iteration INT INT
stopped sigterm_in_iteration TERM

echo "cli_steps: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
