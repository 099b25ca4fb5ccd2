#!/usr/bin/env bash
# tests/cli/cli_preview_threads.sh LIQUIDCL — the previews render their rows on every host
# core (core/parallel.h), and a picture does not depend on how many: one thread and three
# give the same PNG bytes for a height field with objects and spray (three_balls, splash),
# a textured pls frame (the lazily shared rest coordinates, views/volview.c) and a mac
# frame; output.preview_every renders only every Nth frame's preview.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

same() { # NAME SCENE FRAMES ARGS...: previews of LIQUIDCL_THREADS=1 and =3 byte for byte
    local name=$1 scene=$2 frames=$3
    shift 3
    LIQUIDCL_THREADS=1 "$LQ" run "$scene" --out "$tmp/$name.1" --quiet --frames "$frames" \
        --set output.preview_width=200 "$@" || { fail "$name: run, 1 thread"; return; }
    LIQUIDCL_THREADS=3 "$LQ" run "$scene" --out "$tmp/$name.3" --quiet --frames "$frames" \
        --set output.preview_width=200 "$@" || { fail "$name: run, 3 threads"; return; }
    local n
    n=$(find "$tmp/$name.1/preview" -name '*.png' | wc -l)
    if [ "$n" -ge 2 ] && diff -r "$tmp/$name.1/preview" "$tmp/$name.3/preview" > /dev/null; then
        pass "$name: $n previews identical with 1 and 3 threads"
    else
        fail "$name: previews differ between 1 and 3 threads (or none: $n)"
    fi
}

same three_balls scenes/three_balls.yaml 3 --set "grid.size=[48,48]"
same textured scenes/pls_textured_dam_break.yaml 2 --set "grid.size=[32,20,14]" --set grid.cell=0.04
same mac scenes/mac_dam_break.yaml 2 --set "grid.size=[24,16,12]"
# output.preview_every: previews of frames 0, 3, 6 only; meshes of every frame
"$LQ" run scenes/beach.yaml --out "$tmp/every" --quiet --frames 6 --set "grid.size=[48,24]" \
    --set output.preview_every=3 --set output.preview_width=100 || fail "preview_every run"
p=$(cd "$tmp/every/preview" && ls | tr '\n' ' ')
m=$(ls "$tmp/every/mesh" | grep -c '^000[0-6].ply$')
[ "$p" = "0000.png 0003.png 0006.png " ] && [ "$m" -eq 7 ] &&
    pass "output.preview_every 3: previews $p, 7 meshes" || fail "preview_every: previews '$p', $m meshes"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
