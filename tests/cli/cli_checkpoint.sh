#!/usr/bin/env bash
# tests/cli/cli_checkpoint.sh LIQUIDCL — checkpoints that --resume can trust
# (docs/RELIABILITY.md, "Checkpoints"): a damaged, forged, foreign or mismatched
# checkpoint is refused with exit 2 and one line saying what differs, the folder left as
# it was; the counts a solver reads from it are range-checked even when the checksums
# are forged to match (tests/lib/lqckpt.py); a resumed run never writes below the
# checkpoint's frame; a checkpoint of an earlier run in the same folder is never taken
# up; an asset changed since the checkpoint is named.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"
T="python3 $ROOT/tests/lib/lqckpt.py"

# sums DIR: a checksum of every file but the checkpoint (the folder's frames and stats)
sums() { (cd "$1" && find . -type f ! -name checkpoint.lqc -print0 | sort -z | xargs -0 md5sum); }

# refused NAME PATTERN DIR ARGS...: `liquidcl run ARGS... --resume` exits 2 with one line
# matching PATTERN and leaves DIR's files as they were.
refused() {
    local name=$1 pattern=$2 dir=$3 rc before
    shift 3
    before=$(sums "$dir")
    "$LQ" run "$@" --resume >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$tmp/stderr") -eq 1 ]] && grep -Eq -- "$pattern" "$tmp/stderr"; then
        pass "$name: $(cat "$tmp/stderr")"
    else
        fail "$name: exit $rc" "$(cat "$tmp/stderr")"
    fi
    [[ "$(sums "$dir")" == "$before" ]] && pass "$name: the folder is unchanged" ||
        fail "$name: the folder changed" "$(diff <(echo "$before") <(sums "$dir") | head -5)"
}

M=$ROOT/scenes/mac_dam_break.yaml
A=(--device ref --quiet --set output.checkpoint=2 --set output.preview=false)
"$LQ" run "$M" --out "$tmp/m" "${A[@]}" --frames 4 || fail "mac run"
cp "$tmp/m/checkpoint.lqc" "$tmp/good.lqc"
put() { cp "$tmp/good.lqc" "$tmp/m/checkpoint.lqc"; }

echo "damaged checkpoints are refused by their checksums:"
put && $T flip "$tmp/m/checkpoint.lqc" 20
refused "a byte of the header" "header is damaged" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
hb=$($T info "$tmp/good.lqc" | python3 -c 'import json,sys; print(json.load(sys.stdin)["header_bytes"])')
put && $T flip "$tmp/m/checkpoint.lqc" $((hb + 1000))
refused "a byte of the payload" "payload's checksum" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
put && truncate -s -1 "$tmp/m/checkpoint.lqc"
refused "one byte short" "truncated or damaged" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
put && printf 'x' >>"$tmp/m/checkpoint.lqc"
refused "one byte too many" "truncated or damaged" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
: >"$tmp/m/checkpoint.lqc"
refused "an empty file" "not a liquidcl checkpoint" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
put && printf 'LQCKPT01' | dd of="$tmp/m/checkpoint.lqc" conv=notrunc status=none
refused "an older format" "format 01" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6

echo "forged checksums do not get past the range checks:"
put && $T int32 "$tmp/m/checkpoint.lqc" 20 -5 --fix # lq_mac_scalars.npart
refused "a marker count of -5" "marker count is -5" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
put && $T int32 "$tmp/m/checkpoint.lqc" 20 2000000000 --fix
refused "a marker count of 2e9" "marker count is 2000000000" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
put && $T frame "$tmp/m/checkpoint.lqc" -3 --fix
refused "a frame of -3" "frame -3 is out of range" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6
[[ ! -e $tmp/m/mesh/-001.ply ]] && pass "no mesh/-001.ply" || fail "mesh/-001.ply written"
put && $T int32 "$tmp/m/checkpoint.lqc" 24 999 --fix # lq_mac_scalars.nx
refused "another grid" "grid" "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6

echo "a checkpoint of another run is named as such:"
put
refused "another --set" "another scene or other --set flags \(mac.viscosity: 0.001 is set now" \
    "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6 --set mac.viscosity=0.001
refused "another value" "grid.cell is 0.05 now, 0.04 in the checkpoint" \
    "$tmp/m" "$M" --out "$tmp/m" "${A[@]}" --frames 6 --set grid.cell=0.05
refused "another solver" "written by solver 'mac'" "$tmp/m" "$ROOT/scenes/rain_pond.yaml" \
    --out "$tmp/m" "${A[@]}" --frames 6
"$LQ" run "$M" --out "$tmp/m" "${A[@]}" --frames 6 --resume --set time.frames=99 >/dev/null 2>&1 &&
    pass "time.frames is not part of the scene's identity (--frames may grow)" ||
    fail "time.frames changed: refused"

echo "a resumed run writes nothing below the checkpoint's frame:"
"$LQ" run "$M" --out "$tmp/w" "${A[@]}" --frames 4 || fail "run"
low=$(cd "$tmp/w" && find mesh fields particles -type f -name '*000[0-4]*' -print0 | sort -z | xargs -0 md5sum)
stamp=$(cd "$tmp/w" && find mesh fields particles -type f -name '*000[0-4]*' -printf '%T@ %p\n' | sort)
"$LQ" run "$M" --out "$tmp/w" "${A[@]}" --frames 7 --resume || fail "resume"
[[ "$(cd "$tmp/w" && find mesh fields particles -type f -name '*000[0-4]*' -printf '%T@ %p\n' | sort)" == "$stamp" &&
   "$(cd "$tmp/w" && find mesh fields particles -type f -name '*000[0-4]*' -print0 | sort -z | xargs -0 md5sum)" == "$low" ]] &&
    pass "frames 0..4 untouched (same bytes, same times)" || fail "frames 0..4 rewritten"

echo "a checkpoint left by an earlier run in the folder is never taken up:"
R=$ROOT/scenes/rain_pond.yaml
B=(--device ref --quiet --set "grid.size=[48,48]" --set output.checkpoint=10 --set output.preview=false)
"$LQ" run "$R" --out "$tmp/f" "${B[@]}" --frames 25 || fail "run A"
"$LQ" run "$R" --out "$tmp/f" "${B[@]}" --frames 2 || fail "run B"
[[ ! -e $tmp/f/checkpoint.lqc ]] && pass "run B removed run A's checkpoint" || fail "run A's checkpoint kept"
refused "resume after run B" "no checkpoint" "$tmp/f" "$R" --out "$tmp/f" "${B[@]}" --frames 25
"$LQ" run "$R" --out "$tmp/g" "${B[@]}" --frames 25 || fail "run C"
cp "$tmp/g/checkpoint.lqc" "$tmp/f/checkpoint.lqc"
refused "a checkpoint copied in from another folder" "frame 20, but stats.jsonl holds frames 0..2" \
    "$tmp/f" "$R" --out "$tmp/f" "${B[@]}" --frames 25

echo "an asset changed since the checkpoint is named:"
mkdir -p "$tmp/river/assets"
cp "$ROOT/scenes/river.yaml" "$tmp/river/"
cp "$ROOT/scenes/assets/river.png" "$tmp/river/assets/"
printf 'AAAAAAAA' >>"$tmp/river/assets/river.png" # after IEND: libpng reads the same image
V=(--device ref --quiet --set "grid.size=[96,48]" --set output.checkpoint=2 --set output.preview=false)
"$LQ" run "$tmp/river/river.yaml" --out "$tmp/rv" "${V[@]}" --frames 2 || fail "river run"
printf 'AAAA' >>"$tmp/river/assets/river.png"
refused "a heightmap that grew" "assets/river.png changed since the checkpoint \([0-9]+ bytes then, [0-9]+ now\)" \
    "$tmp/rv" "$tmp/river/river.yaml" --out "$tmp/rv" "${V[@]}" --frames 4
truncate -s -12 "$tmp/river/assets/river.png" && printf 'BBBBBBBB' >>"$tmp/river/assets/river.png"
refused "a heightmap of the same size, other bytes" "river.png changed since the checkpoint \(same size" \
    "$tmp/rv" "$tmp/river/river.yaml" --out "$tmp/rv" "${V[@]}" --frames 4
truncate -s -8 "$tmp/river/assets/river.png" && printf 'AAAAAAAA' >>"$tmp/river/assets/river.png"
"$LQ" run "$tmp/river/river.yaml" --out "$tmp/rv" "${V[@]}" --frames 4 --resume &&
    pass "the same bytes again: resumed" || fail "resume with the asset restored"

echo "cli_checkpoint: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
