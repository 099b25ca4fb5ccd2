#!/usr/bin/env bash
# tests/fault/fault_suite.sh LIQUIDCL [quick|full] — the fault suite (docs/RELIABILITY.md):
# liquidcl run as a hostile world would run it, every promise checked after each fault.
#
#   A. kill -9 at random points and during checkpoint writes (tests/fault/chaos.py), then
#      resume until done: every file bit for bit as an uninterrupted run's, every solver
#   B. corrupted checkpoints: random byte flips, truncations and extensions are refused
#      (exit 2, the folder unchanged); the same with forged checksums end in exit 0, 1 or
#      2, never a signal, and never write below the checkpoint's frame
#   C. foreign checkpoints: each solver's checkpoint in each other solver's folder, and
#      one of another scene, refused
#   D. a full disk: a 3 MB tmpfs when root may mount one (else skipped, saying so), and
#      always a file-size limit (RLIMIT_FSIZE): exit 1 naming the file, whole files only,
#      then a resume to the end once there is room
#   E. a read-only folder (as `nobody` when root: root writes anywhere): exit 2 before, or
#      exit 1 naming the file when it turns read-only during the run; whole files
#   F. concurrent runs into one folder: one runs, the others are refused at once
#   G. SIGTERM and Ctrl-C inside a long frame
#   H. each failure of issue 19 as its one-line reproduction
#
# `quick` (ctest label quick, in tools/test) runs each part small, every solver; `full`
# (label full) runs more kills (two seeds) and corruptions. The last lines are the figures
# ("fault: PART: N cases, M failed, T s"), also written to $LQ_FAULT_FIGURES when set.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/../cli/lib_cli.sh" "$1"
MODE=${2:-quick}
trap 'mountpoint -q "$tmp/tmpfs" 2>/dev/null && umount "$tmp/tmpfs"; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
CHAOS="python3 $ROOT/tests/fault/chaos.py"
T="python3 $ROOT/tests/lib/lqckpt.py"
figures=()
part_start=0 part_checks=0 part_fails=0 part_name= part_note=
part() {
    [[ -n $part_name ]] && part_end
    part_name=$1 part_start=$(date +%s%N) part_checks=$checks part_fails=$fails
    echo "== $1"
}
part_end() {
    local ms=$((($(date +%s%N) - part_start) / 1000000))
    figures+=("fault: $part_name: $((checks - part_checks)) cases, $((fails - part_fails)) failed, $((ms / 1000)).$((ms % 1000 / 100)) s$part_note")
    part_name= part_note=
}
strip() { sed -E 's/"wall_ms":[^,}]*,?//; s/"output_ms":[^,}]*,?//' "$1"; }
# same_dirs A B: every file of A and B equal (stats.jsonl without wall_ms); prints the first
# differences.
same_dirs() {
    local a=$1 b=$2 f
    if ! diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort) >/dev/null; then
        diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort) | head -5
        return 1
    fi
    while IFS= read -r f; do
        if [[ $f == ./stats.jsonl ]]; then
            cmp -s <(strip "$a/$f") <(strip "$b/$f") || { echo "differs: $f"; return 1; }
        else
            cmp -s "$a/$f" "$b/$f" || { echo "differs: $f"; return 1; }
        fi
    done < <(cd "$a" && find . -type f | sort)
}
sums() { (cd "$1" && find . -type f ! -name checkpoint.lqc -print0 | sort -z | xargs -0 md5sum); }

# The solvers' small scenes: NAME|SCENE|FRAMES|--set flags (no previews: their fading
# wet-ground map restarts on resume, docs: README). pls runs with texture particles and an
# inlet that opens and shuts, so its checkpoints hold every section they can. splash's
# spray room is cut to 20 000 particles (636 fly at most): a checkpoint holds the whole
# room, 31 MB at the default million.
COMMON="--set output.preview=false"
P="--set output.particles=true"
SOLVERS=(
    "shallow|scenes/rain_pond.yaml|48|--set grid.size=[160,160] --set output.fields=[h,u,w] --set output.checkpoint=3"
    "splash|scenes/ball_drop.yaml|16|--set grid.size=[48,48] --set spray.max_particles=20000 --set output.fields=[h,u,w] --set output.checkpoint=3 $P"
    "mac|scenes/mac_dam_break.yaml|16|--set output.fields=[p,u,v,w] --set output.checkpoint=3 $P"
    "pls|tests/fault/pls_texture_sources.yaml|8|--set output.checkpoint=2 $P"
)
declare -A SCENE FRAMES SETS
for s in "${SOLVERS[@]}"; do
    IFS='|' read -r n sc fr st <<<"$s"
    SCENE[$n]=$ROOT/$sc FRAMES[$n]=$fr SETS[$n]="$st $COMMON"
done
names=()
for s in "${SOLVERS[@]}"; do names+=("${s%%|*}"); done
# run_ref NAME: the uninterrupted run every fault is compared with, in $tmp/ref_NAME
# (and its time in s, 90 % of which is when random kills come: ${SPAN[NAME]})
declare -A SPAN
run_ref() {
    local n=$1 t0
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$LQ" run "${SCENE[$n]}" --out "$tmp/ref_$n" --device ref --quiet --frames "${FRAMES[$n]}" \
        ${SETS[$n]} || fail "$n: the reference run"
    SPAN[$n]=$(python3 -c "print(max(0.1, 0.9 * ($(date +%s%N) - $t0) / 1e9))")
}

# --- A. kill -9 -------------------------------------------------------------------------
part "A. kill -9 at random points and during checkpoint writes, then resume: bit for bit"
kills=3 ckills=2
nkills=0 nhits=0 nruns=0
[[ $MODE == full ]] && kills=8 ckills=6
for n in "${names[@]}"; do
    run_ref "$n"
    for mode in random checkpoint; do
        k=$kills
        [[ $mode == checkpoint ]] && k=$ckills
        for seed in 1 2; do
            [[ $MODE == quick && $seed == 2 ]] && continue
            d=$tmp/kill_${n}_${mode}_$seed
            # shellcheck disable=SC2086
            res=$($CHAOS --bin "$LQ" --out "$d" --kills "$k" --seed "$seed" --mode "$mode" \
                --max-wait "${SPAN[$n]}" -- "${SCENE[$n]}" --device ref --frames "${FRAMES[$n]}" ${SETS[$n]})
            rc=$?
            read -r k1 h1 r1 < <(python3 -c 'import json,sys
try: j = json.loads(sys.argv[1]); print(j["kills"], j["checkpoint_hits"], j["runs"])
except Exception: print(0, 0, 0)' "$res")
            nkills=$((nkills + k1)) nhits=$((nhits + h1)) nruns=$((nruns + r1))
            why=$(same_dirs "$tmp/ref_$n" "$d")
            if [[ $rc -eq 0 && -z $why ]] && [[ -z $(find "$d" -name '*.tmp.*' -o -name liquidcl.lock) ]]; then
                pass "$n, $mode kills (seed $seed): identical to the uninterrupted run: $res"
            else
                fail "$n, $mode kills (seed $seed)" "$res" "$why"
            fi
        done
    done
done

part_note=" ($nkills kills, $nhits of them during a checkpoint write, $nruns runs)"

# --- B. corrupted checkpoints -------------------------------------------------------------
part "B. corrupted checkpoints"
nrefused=0 forged_exits=(0 0 0)
ncorrupt=4 # one of each kind: extended, flipped, flipped and forged, truncated
[[ $MODE == full ]] && ncorrupt=60
for n in "${names[@]}"; do
    good=$tmp/ref_$n/checkpoint.lqc
    size=$(stat -c %s "$good")
    last=$(tail -n 1 "$tmp/ref_$n/stats.jsonl" | sed -E 's/^\{"frame":([0-9]+).*/\1/')
    for i in $(seq 1 "$ncorrupt"); do
        d=$tmp/corrupt_$n
        rm -rf "$d" && cp -r "$tmp/ref_$n" "$d"
        c=$d/checkpoint.lqc
        forged=$((i % 3 == 0))
        case $((i % 4)) in
        0) truncate -s $((RANDOM * 7 % size)) "$c"; forged=0 ;;
        1) head -c $((RANDOM % 64 + 1)) /dev/urandom >>"$c"; forged=0 ;;
        *) for _ in $(seq 1 $((RANDOM % 4 + 1))); do
               $T flip "$c" $(((RANDOM * 32768 + RANDOM) % size))
           done ;;
        esac
        [[ $forged == 1 ]] && $T fix "$c"
        # the frame the (possibly changed) checkpoint says it holds: nothing at or below it
        # may be rewritten
        cf=$($T info "$c" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["frame"])' 2>/dev/null)
        [[ $cf =~ ^[0-9]+$ ]] || cf=$last
        before=$(sums "$d")
        # shellcheck disable=SC2086
        timeout -k 5 60 "$LQ" run "${SCENE[$n]}" --out "$d" --device ref --quiet --resume \
            --frames $((last + 2)) ${SETS[$n]} >/dev/null 2>"$tmp/err"
        rc=$?
        below=$(diff <(echo "$before") <(sums "$d") | grep '^[<>]' | grep -oE '[0-9]{4}\.(ply|vtk|png)' |
            sed 's/\..*//' | while read -r fr; do [[ $((10#$fr)) -le $cf ]] && echo "frame $fr"; done | head -3)
        if [[ $forged == 0 ]]; then
            if [[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 && "$(sums "$d")" == "$before" ]]; then
                pass "$n #$i: refused: $(cat "$tmp/err")"
            nrefused=$((nrefused + 1))
            else
                fail "$n #$i (checksums as damaged): exit $rc" "$(head -c 300 "$tmp/err")"
            fi
        elif [[ $rc -le 2 && -z $below ]] && ! grep -q "Sanitizer\|runtime error" "$tmp/err"; then
            pass "$n #$i (checksums forged): exit $rc, nothing at or below frame $cf rewritten"
            forged_exits[rc]=$((forged_exits[rc] + 1))
        else
            fail "$n #$i (checksums forged): exit $rc" "$(head -c 300 "$tmp/err")" "$below"
        fi
    done
done

part_note=" ($nrefused damaged ones refused; with forged checksums: ${forged_exits[0]} resumed, ${forged_exits[1]} exit 1, ${forged_exits[2]} refused)"

# --- C. foreign checkpoints ------------------------------------------------------------------
part "C. foreign checkpoints"
for n in "${names[@]}"; do
    for m in "${names[@]}"; do
        [[ $n == "$m" ]] && continue
        d=$tmp/foreign_${n}_$m
        rm -rf "$d" && cp -r "$tmp/ref_$n" "$d"
        cp "$tmp/ref_$m/checkpoint.lqc" "$d/checkpoint.lqc"
        before=$(sums "$d")
        # shellcheck disable=SC2086
        "$LQ" run "${SCENE[$n]}" --out "$d" --device ref --quiet --resume --frames 99 ${SETS[$n]} \
            2>"$tmp/err"
        rc=$?
        [[ $rc -eq 2 && "$(sums "$d")" == "$before" ]] && grep -q "written by solver '$m'" "$tmp/err" &&
            pass "$m's checkpoint in a $n folder: $(cat "$tmp/err")" ||
            fail "$m's checkpoint in a $n folder: exit $rc" "$(cat "$tmp/err")"
    done
    d=$tmp/foreign_$n
    rm -rf "$d" && cp -r "$tmp/ref_$n" "$d"
    # shellcheck disable=SC2086
    "$LQ" run "${SCENE[$n]}" --out "$d" --device ref --quiet --resume --frames 99 ${SETS[$n]} \
        --set time.fps=31 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 2 ]] && grep -q "time.fps is 31 now, 30 in the checkpoint" "$tmp/err" &&
        pass "$n: another scene's checkpoint: $(cat "$tmp/err")" ||
        fail "$n: another scene's checkpoint: exit $rc" "$(cat "$tmp/err")"
done

# --- D. a full disk ----------------------------------------------------------------------------
part "D. a full disk"
n=${names[0]}
whole_files() { # DIR: no temporary files, every stats line whole JSON
    [[ -z $(find "$1" -name '*.tmp.*') ]] &&
        python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$1/stats.jsonl"
}
disk_case() { # NAME DIR PREFIX...: the run on a full disk, then the resume with room
    local name=$1 d=$2 rc
    shift 2
    # shellcheck disable=SC2086
    "$@" "$LQ" run "${SCENE[$n]}" --out "$d" --device ref --quiet --frames "${FRAMES[$n]}" \
        ${SETS[$n]} 2>"$tmp/err"
    rc=$?
    if [[ $rc -eq 1 ]] && grep -Eq "No space left|File too large|cannot write" "$tmp/err" && whole_files "$d"; then
        pass "$name: exit 1, whole files only: $(tail -n 1 "$tmp/err")"
    else
        fail "$name: exit $rc" "$(tail -n 2 "$tmp/err")"
    fi
}
if [[ $(id -u) -eq 0 ]] && mkdir -p "$tmp/tmpfs" && mount -t tmpfs -o size=3m tmpfs "$tmp/tmpfs" 2>/dev/null; then
    disk_case "a 3 MB tmpfs" "$tmp/tmpfs/out"
    mkdir -p "$tmp/room" && cp -r "$tmp/tmpfs/out" "$tmp/room/" && umount "$tmp/tmpfs"
    # shellcheck disable=SC2086
    if "$LQ" run "${SCENE[$n]}" --out "$tmp/room/out" --device ref --quiet --frames "${FRAMES[$n]}" \
        ${SETS[$n]} --resume 2>"$tmp/err" || grep -q "no checkpoint" "$tmp/err"; then
        pass "the folder moved to a disk with room: resumed (or nothing to resume)"
    else
        fail "resume after the full disk" "$(cat "$tmp/err")"
    fi
else
    echo "  skip a full tmpfs: mounting one needs root with CAP_SYS_ADMIN (not here)"
fi
# RLIMIT_FSIZE: a write past 400 KB fails (EFBIG) as on a full disk; SIGXFSZ ignored
disk_case "a 400 KB file-size limit" "$tmp/fsize" bash -c 'trap "" XFSZ; ulimit -f 400; exec "$@"' _
# shellcheck disable=SC2086
"$LQ" run "${SCENE[$n]}" --out "$tmp/fsize" --device ref --quiet --frames "${FRAMES[$n]}" \
    ${SETS[$n]} --resume 2>"$tmp/err" || grep -q "no checkpoint" "$tmp/err" &&
    pass "with room again: resumed to the end" || fail "resume after the limit" "$(cat "$tmp/err")"

# --- E. a read-only folder -----------------------------------------------------------------------
part "E. a read-only folder"
as=()
if [[ $(id -u) -eq 0 ]]; then
    if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    fi
fi
if [[ $(id -u) -ne 0 || ${#as[@]} -gt 0 ]]; then
    chmod 755 "$tmp" # nobody reaches the folders below it
    # the scene (and the files it names) where nobody may read it: a checkout's own folders
    # need not be (fresh-ci's clone is not)
    cp -r "$(dirname "${SCENE[$n]}")" "$tmp/escenes" && chmod -R a+rX "$tmp/escenes"
    ESCENE=$tmp/escenes/$(basename "${SCENE[$n]}")
    # under the sanitizer pass (tools/test), LeakSanitizer's suppressions must be readable
    # by nobody too, or the run ends with exit 1 for the file it could not read
    if [[ ${#as[@]} -gt 0 && ${LSAN_OPTIONS:-} == *suppressions=* ]]; then
        supp=$(sed -E 's/^(.*:)?suppressions=([^:]*).*/\2/' <<<"$LSAN_OPTIONS")
        cp "$supp" "$tmp/escenes/lsan.supp" && chmod a+r "$tmp/escenes/lsan.supp"
        as+=(env "LSAN_OPTIONS=${LSAN_OPTIONS/$supp/$tmp/escenes/lsan.supp}")
    fi
    # and the binary, where nobody may run it (a checkout's build folder need not allow it)
    cp "$LQ" "$tmp/escenes/liquidcl" && chmod a+rx "$tmp/escenes/liquidcl"
    ELQ=$tmp/escenes/liquidcl
    # shellcheck disable=SC2086
    mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
    "${as[@]}" "$ELQ" run "$ESCENE" --out "$tmp/ro/out" --device ref --quiet --frames 2 \
        ${SETS[$n]} 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 2 && ! -e $tmp/ro/out ]] && grep -q "Permission denied" "$tmp/err" &&
        pass "under a read-only folder: exit 2: $(cat "$tmp/err")" ||
        fail "under a read-only folder: exit $rc" "$(cat "$tmp/err")"
    mkdir -p "$tmp/rw" && chmod 777 "$tmp/rw"
    # shellcheck disable=SC2086
    "${as[@]}" "$ELQ" run "$ESCENE" --out "$tmp/rw/out" --device ref --quiet --frames 100000 \
        ${SETS[$n]} 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 1 600); do [[ -s $tmp/rw/out/stats.jsonl ]] && break; sleep 0.1; done
    sleep 0.3
    chmod 555 "$tmp/rw/out" "$tmp/rw/out"/*/ 2>/dev/null
    wait "$pid"
    rc=$?
    # a temporary file it could neither rename nor remove stays: the next run clears it
    python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/rw/out/stats.jsonl"
    whole=$?
    [[ $rc -eq 1 && $whole -eq 0 ]] && grep -q "Permission denied" "$tmp/err" &&
        pass "turned read-only during the run: exit 1, whole stats: $(tail -n 1 "$tmp/err")" ||
        fail "turned read-only during the run: exit $rc" "$(tail -n 2 "$tmp/err")"
    chmod -R a+w "$tmp/rw"
    # shellcheck disable=SC2086
    "${as[@]}" "$ELQ" run "$ESCENE" --out "$tmp/rw/out" --device ref --quiet --frames 2 \
        ${SETS[$n]} 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 0 ]] && whole_files "$tmp/rw/out" &&
        pass "writable again: the next run clears what was left: $(head -n 1 "$tmp/err")" ||
        fail "writable again: exit $rc" "$(cat "$tmp/err")"
else
    echo "  skip a read-only folder: root writes anywhere, and setpriv cannot drop to nobody here"
fi

# --- F. concurrent runs -------------------------------------------------------------------------
part "F. concurrent runs into one folder"
pids=()
for i in 1 2 3 4; do
    # shellcheck disable=SC2086
    "$LQ" run "${SCENE[$n]}" --out "$tmp/conc" --device ref --quiet --frames "${FRAMES[$n]}" \
        ${SETS[$n]} 2>"$tmp/conc_err_$i" &
    pids+=($!)
done
ok=0 refused=0
for i in 1 2 3 4; do
    wait "${pids[$((i - 1))]}"
    case $? in
    0) ok=$((ok + 1)) ;;
    2) grep -q "another liquidcl run is writing there (pid" "$tmp/conc_err_$i" && refused=$((refused + 1)) ;;
    esac
done
[[ $ok -ge 1 && $((ok + refused)) -eq 4 ]] && pass "4 at once: $ok ran, $refused refused naming the running one" ||
    fail "4 at once: $ok ran, $refused refused" "$(cat "$tmp"/conc_err_*)"
if [[ $ok -eq 1 ]]; then
    check "the folder holds one whole run" same_dirs "$tmp/ref_$n" "$tmp/conc"
fi

# --- G. signals inside a long frame ---------------------------------------------------------------
part "G. SIGTERM and Ctrl-C inside a long frame"
# frame 1 of this run is 1000 s of simulated time (tens of thousands of steps, hours
# here): it ends only by the signal. The signal goes once frame 0 is in stats.jsonl, so
# inside frame 1 by construction; a run that ignored it would hit the 120 s hang guard,
# be killed and fail (exit 137, no message). SIGTERM takes the grace (the frame may still
# end, core/interrupt.h), Ctrl-C pressed twice abandons the frame at once.
for sigs in TERM "INT INT"; do
    sig=${sigs%% *}
    "$LQ" run "$ROOT/scenes/mac_dam_break.yaml" --out "$tmp/sig_$sig" --device ref --quiet \
        --set time.fps=0.001 --set time.max_steps=1000000000 --set output.preview=false \
        --set output.checkpoint=1 --frames 2 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 1 600); do [[ -s $tmp/sig_$sig/stats.jsonl ]] && break; sleep 0.1; done
    for s1 in $sigs; do
        kill -"$s1" "$pid"
        sleep 0.2
    done
    for _ in $(seq 1 1200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    if [[ $rc -eq 1 && $(wc -l <"$tmp/sig_$sig/stats.jsonl") -eq 1 ]] &&
        grep -q "interrupted by SIG$sig during frame 1 at step [0-9]" "$tmp/err" &&
        [[ -z $(find "$tmp/sig_$sig" -name '*.tmp.*' -o -name liquidcl.lock) ]]; then
        pass "SIG$sigs: exit 1, frame 0 whole, no partial file: $(tail -n 1 "$tmp/err")"
    else
        fail "SIG$sigs: exit $rc" "$(cat "$tmp/err")"
    fi
done

# --- H. issue 19, case by case ---------------------------------------------------------------------
part "H. issue 19's failures, each reproduced"
M=$ROOT/scenes/mac_dam_break.yaml
S=$ROOT/scenes/rain_pond.yaml
P=$ROOT/scenes/pls_dam_break.yaml
# case19 NAME EXPECTED_EXIT PATTERN CMD...: CMD exits EXPECTED_EXIT (within a 60 s hang
# guard), stderr matching PATTERN; for exit 2 (bad input) also one stderr line and no
# partial output: the --out folder not made, or, when it existed, unchanged.
case19() {
    local name=$1 want=$2 pattern=$3 rc out="" a prev="" before="" why=""
    shift 3
    for a in "$@"; do
        [[ $prev == --out ]] && out=$a
        prev=$a
    done
    [[ $out == "$tmp"/* && -d $out ]] && before=$(sums "$out")
    [[ -e $out/liquidcl.lock ]] && before=busy # another run writes there: not compared
    timeout -k 5 60 "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    if [[ $want -eq 2 && $rc -eq 2 ]]; then
        [[ $(wc -l <"$tmp/err") -eq 1 ]] || why="more than one line on stderr"
        if [[ $before == busy ]]; then
            :
        elif [[ -n $before ]]; then
            [[ "$(sums "$out")" == "$before" ]] || why="the folder changed"
        elif [[ $out == "$tmp"/* && -e $out ]]; then
            why="$out was made"
        fi
    fi
    if [[ $rc -eq $want && -z $why ]] && { [[ -z $pattern ]] || grep -Eq -- "$pattern" "$tmp/err"; }; then
        pass "$name: exit $rc: $(tail -n 1 "$tmp/err" | cut -c1-160)"
    else
        fail "$name: exit $rc (want $want) $why" "$(head -c 300 "$tmp/err")"
    fi
}
before_root=$(ls -A /)
case19 "1. --out ''" 2 "empty folder name" "$LQ" run "$S" --out '' --device ref --frames 1
case19 "1. --out '' --resume" 2 "empty folder name" "$LQ" run "$S" --out '' --resume
case19 "1. --out /" 2 "" "$LQ" run "$S" --out / --device ref --frames 1
[[ "$(ls -A /)" == "$before_root" ]] && pass "1. nothing made in /" || fail "1. made in /" "$(diff <(echo "$before_root") <(ls -A /))"
R=(--device ref --quiet --set output.preview=false --set output.checkpoint=2)
"$LQ" run "$M" --out "$tmp/i2" "${R[@]}" --frames 4
$T int32 "$tmp/i2/checkpoint.lqc" 20 -5 --fix
case19 "2. a mac checkpoint with -5 markers (SIGSEGV before)" 2 "marker count is -5" "$LQ" run "$M" --out "$tmp/i2" "${R[@]}" --frames 6 --resume
"$LQ" run "$M" --out "$tmp/i2" "${R[@]}" --frames 4
$T frame "$tmp/i2/checkpoint.lqc" -3 --fix
case19 "2. a checkpoint of frame -3 (wrote mesh/-001.ply before)" 2 "frame -3 is out of range" "$LQ" run "$M" --out "$tmp/i2" "${R[@]}" --frames 6 --resume
# pls's own sections, with the checksums forged: the texture particles' count (after the
# scalars (64 bytes), u v w p phi of the 24 x 16 x 12 grid (95 616 bytes) and 16 bytes a
# marker particle) and the inlet's state (16 bytes before the payload's end)
PF=$ROOT/tests/fault/pls_texture_sources.yaml
"$LQ" run "$PF" --out "$tmp/i2p" --device ref --quiet --frames 4
cp -r "$tmp/i2p" "$tmp/i2q"
live=$($T read32 "$tmp/i2p/checkpoint.lqc" 60)
$T int32 "$tmp/i2p/checkpoint.lqc" $((64 + 95616 + live * 16)) -5 --fix
case19 "2. a pls checkpoint with -5 texture particles" 2 "texture particle count is -5" "$LQ" run "$PF" --out "$tmp/i2p" --device ref --quiet --frames 6 --resume
$T int32 "$tmp/i2q/checkpoint.lqc" -16 7 --fix
case19 "2. a pls checkpoint with an inlet in state 7" 2 "source state is 7, outside 0 .. 2" "$LQ" run "$PF" --out "$tmp/i2q" --device ref --quiet --frames 6 --resume
# a checkpoint of another run of the same scene copied into the folder
B=(--device ref --quiet --set "grid.size=[48,48]" --set output.checkpoint=10 --set output.preview=false)
"$LQ" run "$S" --out "$tmp/i2a" "${B[@]}" --frames 2
"$LQ" run "$S" --out "$tmp/i2b" "${B[@]}" --frames 20
cp "$tmp/i2b/checkpoint.lqc" "$tmp/i2a/checkpoint.lqc"
case19 "2. another run's checkpoint in the folder" 2 "frame 20, but stats.jsonl holds frames 0..2" "$LQ" run "$S" --out "$tmp/i2a" "${B[@]}" --frames 25 --resume
# the river's heightmap changed between run and resume (bytes after IEND: the same image)
mkdir -p "$tmp/river/assets"
cp "$ROOT/scenes/river.yaml" "$tmp/river/"
cp "$ROOT/scenes/assets/river.png" "$tmp/river/assets/"
V=(--device ref --quiet --set "grid.size=[96,48]" --set output.checkpoint=2 --set output.preview=false)
"$LQ" run "$tmp/river/river.yaml" --out "$tmp/rv" "${V[@]}" --frames 2
printf 'AAAA' >>"$tmp/river/assets/river.png"
case19 "2. an asset changed since the checkpoint" 2 "assets/river.png changed since the checkpoint" "$LQ" run "$tmp/river/river.yaml" --out "$tmp/rv" "${V[@]}" --frames 4 --resume
G=(--set "gravity=[0,-1e30,0]")
case19 "3. mac, gravity 1e30 (never finished frame 1)" 1 "^frame 1: .*at step [0-9]+.*field v" "$LQ" run "$M" --out "$tmp/i3" "${R[@]}" --frames 2 "${G[@]}"
case19 "3. pls, gravity 1e30 (no step, no field named)" 1 "^frame 1: .*at step [0-9]+.*field v" "$LQ" run "$P" --out "$tmp/i3p" "${R[@]}" --frames 2 "${G[@]}"
case19 "3. splash, gravity 1e30 (exit 0 at 8.6e27 m/s)" 1 "^frame 1: .*at step [0-9]+.*time.max_steps" "$LQ" run "$ROOT/scenes/ball_drop.yaml" --out "$tmp/i3s" "${R[@]}" --frames 2 "${G[@]}"
case19 "4. a 65536^3 grid, check" 2 "cells, more than" "$LQ" check "$M" --set "grid.size=[65536,65536,65536]"
case19 "4. a 65536^3 grid, run" 2 "cells, more than" "$LQ" run "$M" --out "$tmp/i4" --set "grid.size=[65536,65536,65536]"
case19 "4. pls 1024x1024x512 --plan (41 s, 4.3 GB before)" 2 "needs at least [0-9.]+ GiB of device memory" \
    env LIQUIDCL_DEVICE_MEMORY=8G "$LQ" run "$P" --out "$tmp/i4p" --plan --device ref --set "grid.size=[1024,1024,512]"
# refused before allocating: the largest resident set of that run stays under 1 GiB
rss=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' env LIQUIDCL_DEVICE_MEMORY=8G \
    "$LQ" run "$P" --out "$tmp/i4p" --plan --device ref --set "grid.size=[1024,1024,512]")
[[ $rss -lt 1048576 ]] && pass "4. that refusal peaked at $((rss / 1024)) MiB resident" ||
    fail "4. that refusal peaked at $((rss / 1024)) MiB resident (1 GiB at most)"
python3 - "$tmp/huge.png" <<'PYEOF'
import struct, sys, zlib
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
w = h = 65535  # 4.3 G pixels declared, a few rows of data
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
png += chunk(b'IDAT', zlib.compress(b'\0' * (4 * (w + 1)), 9)) + chunk(b'IEND', b'')
open(sys.argv[1], 'wb').write(png)
PYEOF
sed 's|assets/river.png|huge.png|' "$ROOT/scenes/river.yaml" >"$tmp/huge.yaml"
case19 "4. a PNG declaring 65535^2 pixels (decoded whole, no file named)" 2 "huge.png: the image is 65535 x 65535 pixels" "$LQ" run "$tmp/huge.yaml" --out "$tmp/i4i" --device ref
python3 -c "print('solver: mac\ngrid: ' + '[' * 64000 + ']' * 64000)" >"$tmp/deep.yaml"
case19 "4. 64 000 nested [ (17 s in libyaml)" 2 "nesting deeper than 64" "$LQ" check "$tmp/deep.yaml"
mkfifo "$tmp/fifo.yaml"
case19 "4. a FIFO as the scene (blocked forever)" 2 "a FIFO, not a regular file" "$LQ" check "$tmp/fifo.yaml"
mkdir -p "$tmp/fifo/assets" && mkfifo "$tmp/fifo/assets/river.png" && cp "$ROOT/scenes/river.yaml" "$tmp/fifo/"
case19 "4. a FIFO as a heightmap" 2 "river.png'?: .*a FIFO, not a regular file" "$LQ" run "$tmp/fifo/river.yaml" --out "$tmp/i4f" --device ref
"$LQ" run "$S" --out "$tmp/i5" --device ref --quiet --frames 100000 --set "grid.size=[128,128]" &
pid=$!
for _ in $(seq 1 600); do [[ -s $tmp/i5/stats.jsonl ]] && break; sleep 0.1; done
case19 "5. a second run into a folder in use" 2 "another liquidcl run is writing there \(pid $pid" "$LQ" run "$S" --out "$tmp/i5" --device ref --frames 2
kill -KILL "$pid"
wait "$pid" 2>/dev/null
touch "$tmp/i5/checkpoint.lqc.tmp.$pid"
case19 "6. leftovers of kill -9 removed and reported" 0 "did not finish; removed [0-9]+ partial file" "$LQ" run "$S" --out "$tmp/i5" --device ref --frames 1 --quiet
[[ -z $(find "$tmp/i5" -name '*.tmp.*') ]] && pass "6. no *.tmp.* file left" || fail "6. *.tmp.* files left" "$(find "$tmp/i5" -name '*.tmp.*')"
case19 "6. grid.cell: 1e300 (inf coordinates)" 2 "does not fit a 32-bit float" "$LQ" check "$S" --set grid.cell=1e300
case19 "6. grid.cell: 1e-320 (failed after frame 0)" 2 "too small for a 32-bit float" "$LQ" run "$S" --out "$tmp/i6" --set grid.cell=1e-320
# float-to-int casts: exit 0, 1 or 2, and (in the sanitizer build) no report
"$LQ" run "$S" --out "$tmp/i6d" --device ref --frames 2 --quiet \
    --set "sources=[{drop: {center: [1e38, 1e38], radius: 0.1}}]" >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc -le 2 ]] && ! grep -q "runtime error\|Sanitizer" "$tmp/err" &&
    pass "6. a drop at 1e38 m (an undefined cast): exit $rc" || fail "6. a drop at 1e38 m: exit $rc" "$(head -c 300 "$tmp/err")"
case19 "6. liquid outside the grid" 2 "no liquid lies inside the grid" "$LQ" run "$M" --out "$tmp/i6l" --set "liquid.0.box.min=[5,5,5]" --set "liquid.0.box.max=[6,6,6]"
case19 "6. a liquid box with min > max" 2 "min 0.5 is not below max 0 along y" "$LQ" check "$M" --set "liquid.0.box.min=[0,0.5,0]" --set "liquid.0.box.max=[0.4,0,0.56]"
case19 "6. an obstacle over everything" 2 "no liquid in the grid at the start" "$LQ" run "$M" --out "$tmp/i6o" --device ref --set "obstacles.0.box.min=[-1,-1,-1]" --set "obstacles.0.box.max=[9,9,9]"
long=$tmp/long
for _ in $(seq 1 2500); do long=$long/a; done
case19 "6. a 5000-character --out (21 nested folders)" 2 "at most 3840" "$LQ" run "$S" --out "$long"
[[ ! -e $tmp/long ]] && pass "6. no nested folders made" || fail "6. nested folders made"
sets=()
for _ in $(seq 1 300); do sets+=(--set time.fps=30); done
case19 "6. 300 --set flags (refused above 256)" 0 "" "$LQ" check "$S" "${sets[@]}"
if [[ $MODE == full ]] && "$LQ" info 2>/dev/null | grep -q "device opencl:"; then
    # a kernel warning into a cold PoCL cache: 'N warnings generated.' came before the line
    cp -r "$ROOT/kernels" "$tmp/kernels"
    sed -i '1i #warning "a kernel warning for the fault suite"' "$tmp/kernels/common/lq_shared.h"
    mkdir -p "$tmp/pocl"
    POCL_CACHE_DIR=$tmp/pocl LIQUIDCL_KERNEL_DIR=$tmp/kernels case19 \
        "6. an exit-2 line after a kernel compiler's warnings" 2 "no liquid in the grid at the start" \
        "$LQ" run "$M" --out "$tmp/i6w" --device opencl \
        --set "obstacles.0.box.min=[-1,-1,-1]" --set "obstacles.0.box.max=[9,9,9]"
else
    echo "  skip the kernel compiler's warnings (full only, with an OpenCL device; cli_limits has it)"
fi

part_end
echo "fault suite ($MODE): $((checks - fails))/$checks checks passed"
for f in "${figures[@]}"; do echo "$f"; done
if [[ -n ${LQ_FAULT_FIGURES:-} ]]; then
    {
        echo "fault suite ($MODE), $(date -u +%Y-%m-%d), $((checks - fails))/$checks checks passed"
        printf '%s\n' "${figures[@]}"
    } >"$LQ_FAULT_FIGURES"
fi
[[ $fails -eq 0 ]]
