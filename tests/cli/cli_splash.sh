#!/usr/bin/env bash
# tests/cli/cli_splash.sh LIQUIDCL — `liquidcl run` on a splash scene writes what a user
# needs: stats with the spray and volume bookkeeping, spray as PLY points, objects.csv
# (one row per object per frame), object meshes and previews; a resumed run ends bit
# for bit where an uninterrupted one does (bodies, spray and all); `liquidcl diff`
# agrees between the reference and the OpenCL device, particles and objects included.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=scenes/ball_drop.yaml
# A coarser pool; the ball starts just above the water so it lands in frame 3.
A=(--quiet --set "grid.size=[48,48]" --set "grid.cell=0.03125"
   --set "objects.0.sphere.center=[0.75,0.42,0.75]" --set "objects.0.velocity=[0,-4,0]"
   --set output.checkpoint=4 --set output.preview_width=160 --set spray.threshold=0.5 --set spray.rate=3e5)
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }

echo "outputs of a splash run:"
"$LQ" run "$S" --out "$tmp/a" "${A[@]}" --device ref --frames 10 || fail "run"
ply_n() { grep -a -m1 '^element vertex' "$1" | awk '{print $3}'; }
n=$(python3 -c '
import json, sys
m = 0
for l in open(sys.argv[1]):
    d = json.loads(l); m = max(m, d["spray_emitted"])
    assert abs(d["volume_drift"]) < 1e-6, d
print(int(m))' "$tmp/a/stats.jsonl") && pass "stats.jsonl: volume drift below 1e-6 every frame" ||
    fail "stats.jsonl" "$n"
[[ ${n:-0} -gt 0 ]] && pass "spray emitted ($n particles)" || fail "no spray emitted"
found=0
for f in "$tmp"/a/particles/*.ply; do
    [[ $(ply_n "$f") -gt 0 ]] && found=1
done
[[ $found -eq 1 ]] && pass "particles/NNNN.ply hold spray points" || fail "no spray in particles/"
grep -aq "property float volume" "$tmp/a/particles/0005.ply" && pass "particles carry a volume property" ||
    fail "no volume property"
rows=$(($(wc -l <"$tmp/a/objects.csv") - 1))
[[ $rows -eq 11 ]] && pass "objects.csv: one row per frame 0..10" || fail "objects.csv has $rows rows"
head -1 "$tmp/a/objects.csv" | grep -q '^frame,time,object,x,y,z,qw,qx,qy,qz' && pass "objects.csv header" ||
    fail "objects.csv header" "$(head -1 "$tmp/a/objects.csv")"
[[ -s $tmp/a/mesh/objects_0010.ply && -s $tmp/a/mesh/0010.ply ]] && pass "water and object meshes" ||
    fail "meshes missing"
[[ -s $tmp/a/preview/0010.png ]] && pass "preview written" || fail "no preview"

echo "a resumed splash run equals an uninterrupted one:"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --device ref --frames 4 || fail "first part"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --device ref --frames 10 --resume || fail "resume"
if diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null; then
    pass "stats.jsonl identical but for wall_ms"
else
    fail "stats.jsonl differs" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -4)"
fi
check "objects.csv identical" cmp "$tmp/a/objects.csv" "$tmp/b/objects.csv"
check "particles/0010.ply bit-identical" cmp "$tmp/a/particles/0010.ply" "$tmp/b/particles/0010.ply"
check "mesh/0010.ply bit-identical" cmp "$tmp/a/mesh/0010.ply" "$tmp/b/mesh/0010.ply"

echo "reference and OpenCL agree:"
out=$("$LQ" diff "$S" --frames 8 "${A[@]}" 2>&1) && pass "liquidcl diff exits 0" ||
    fail "liquidcl diff" "$out"
for row in splash.h splash.objects splash.particles; do
    grep -q "^$row .* ok$" <<<"$out" && pass "$row compared: ok" || fail "$row row" "$out"
done

echo "cli_splash: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
