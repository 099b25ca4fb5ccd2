#!/usr/bin/env bash
# tests/cli/cli_pls_objects.sh LIQUIDCL — moving obstacles of the `pls` solver (Rasmussen et
# al. 2004 §5.5; host/ops/pls/plsobject.h): a ball moving back and forth in a closed tank keeps
# the liquid's volume within 1 % with §5.5.2 separation on (the default) and has no speed
# spikes, the water under the rising paddle separates from it (pls.object_separation),
# the paddle scene and a 3D scene with a moving mesh and
# box agree bit for bit between reference and OpenCL (`liquidcl diff`), a resumed run ends where an uninterrupted one does (the
# pose is a function of time: nothing new in the checkpoint), a ball given keys that do
# not move it behaves as the same ball static (both go through §5.5's object path), a still
# pool round static objects piercing its surface stays still, and bad motion keys are
# refused with exit 2 and the key's file:line:col.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

cat >"$tmp/tank.yaml" <<'YAML'
solver: pls
grid:
  size: [40, 40, 1]
  cell: 0.02
time:
  frames: 20
  fps: 30
liquid:
  - level: 0.5
obstacles:
  - sphere: {center: [0.25, 0.25, 0.01], radius: 0.08}
    motion:
      interpolate: smooth
      keys: [0.0, 0, 0, 0, 0, 0, 0,
             0.35, 0.3, 0.05, 0, 0, 0, 0,
             0.67, 0, 0, 0, 0, 0, 0]
output:
  preview: false
YAML

echo "ball moving in a closed tank (40 x 40, 20 frames, separation on):"
"$LQ" run "$tmp/tank.yaml" --out "$tmp/tank" --quiet || fail "tank run"
# bound: |volume change| <= 1 % (measured 0.33 % worst in 20 frames; 1.3 % at h = 0.025
# with a ball of 4 cells' radius: the solid cells, which the volume leaves out, change in
# number as the ball crosses the grid; with the separation of before this test, the
# inequality of §5.5.1 at closed faces: +8 % and speeds of 23 m/s); the ball moves (its
# speed peaks at 1.3 m/s; bound 4 m/s, below twice that plus the free-fall speed over the
# tank, 3.1 m/s; measured 1.5), the pressure converges
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
assert len(L) == 21
dv = max(abs(d["volume_change"]) for d in L)
vmax = max(d["max_speed"] for d in L)
assert dv <= 0.01, [d["volume_change"] for d in L]
assert 1.0 < vmax < 4.0, vmax
assert all(d["pressure_unconverged"] == 0 for d in L)
print("worst volume change %.2f %%, max speed %.2f m/s" % (100 * dv, vmax))' \
    "$tmp/tank/stats.jsonl" 2>&1) && pass "$out" || fail "tank stats" "$out"

echo "paddle (96 x 64, 24 frames): the water under it lets go (§5.5.2):"
"$LQ" run scenes/pls_paddle.yaml --out "$tmp/sep" --quiet --frames 24 --set "output.fields=[phi]" \
    --set output.preview=false --set output.mesh=false || fail "paddle separation run"
# the band 1-2 cells under the paddle's middle (±0.15 m), in its frame: liquid in 100 % of
# it at frame 14 in both modes; at frame 24 measured 5 % (with pls.object_separation
# false 55 %: a skirt of water pulled up under it); bound 25 %
out=$(python3 -c '
import math, struct, sys
nx, ny, h = 96, 64, 0.01
def load(fn):
    b = open(fn, "rb").read()
    i = b.index(b"LOOKUP_TABLE default\n") + 21
    return struct.unpack(">%df" % (nx * ny), b[i:i + nx * ny * 4])
def wet(f):
    phi = load("%s/fields/phi_%04d.vtk" % (sys.argv[1], f))
    s = min(max((f / 30 - 0.2) / 0.7, 0), 1)
    s = 3 * s * s - 2 * s ** 3 # the smooth keys: 0.24 m up, 20 degrees
    cx, cy, a = 0.48, 0.155 + 0.24 * s, math.radians(20 * s)
    n = w = 0
    for q in range(-15, 16):
        for ly in (-0.025, -0.035):
            lx = q * 0.01
            x = cx + math.cos(a) * lx - math.sin(a) * ly
            y = cy + math.sin(a) * lx + math.cos(a) * ly
            n += 1
            w += phi[int(x / h) + nx * int(y / h)] < 0
    return w / n
w14, w24 = wet(14), wet(24)
assert w14 > 0.9 and w24 <= 0.25, (w14, w24)
print("liquid under the paddle: %.0f %% at frame 14, %.0f %% at frame 24" % (100 * w14, 100 * w24))' \
    "$tmp/sep" 2>&1) && pass "$out" || fail "paddle separation" "$out"

echo "paddle (48 x 32, 20 frames: separation included), reference vs OpenCL:"
S=(--set "grid.size=[48,32,1]" --set grid.cell=0.02)
check "bit for bit" "$LQ" diff scenes/pls_paddle.yaml --frames 20 "${S[@]}"

echo "a moving mesh and box, 3D (16 x 12 x 16, 4 frames), reference vs OpenCL:"
cat >"$tmp/mesh.yaml" <<YAML
solver: pls
grid:
  size: [16, 12, 16]
  cell: 0.05
time:
  frames: 4
  fps: 30
liquid:
  - level: 0.3
obstacles:
  - mesh: {file: $ROOT/scenes/assets/pyramid.obj, scale: [0.3], translate: [0.4, 0.2, 0.4]}
    motion:
      keys: [0, 0, 0, 0, 0, 0, 0, 0.2, 0.1, 0.1, 0, 0, 45, 0]
  - box: {min: [0.1, 0.1, 0.1], max: [0.25, 0.15, 0.25]}
    motion:
      keys: [0, 0, 0, 0, 0, 0, 0, 0.2, 0, 0, 0.1, 0, 0, 30]
YAML
check "bit for bit" "$LQ" diff "$tmp/mesh.yaml"

echo "paddle resumed:"
A=(--quiet --device opencl --frames 12 "${S[@]}" --set output.checkpoint=6
   --set output.preview=false --set output.particles=true)
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }
"$LQ" run scenes/pls_paddle.yaml --out "$tmp/a" "${A[@]}" || fail "paddle run"
"$LQ" run scenes/pls_paddle.yaml --out "$tmp/b" "${A[@]}" --frames 6 || fail "first part"
"$LQ" run scenes/pls_paddle.yaml --out "$tmp/b" "${A[@]}" --resume || fail "resume"
diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null &&
    cmp -s "$tmp/a/particles/0012.ply" "$tmp/b/particles/0012.ply" &&
    pass "resumed run ends bit for bit where the uninterrupted one does" ||
    fail "resume differs" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -4)"

echo "a ball at rest under a falling column (32^3, 6 frames): keys that do not move it vs static:"
for mode in static moving; do
    {
        cat <<'YAML'
solver: pls
grid:
  size: [32, 32, 32]
  cell: 0.0375
time:
  frames: 6
  fps: 30
liquid:
  - level: 0.08
  - box: {min: [0.45, 0.66, 0.45], max: [0.75, 1.16, 0.75]}
obstacles:
  - sphere: {center: [0.6, 0.37, 0.6], radius: 0.2}
YAML
        [[ $mode == moving ]] && printf '    motion:\n      keys: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]\n'
        printf 'pls:\n  cfl: 3\n  particles_per_cell: 8\noutput:\n  preview: false\n  mesh: false\n'
    } >"$tmp/rest_$mode.yaml"
    "$LQ" run "$tmp/rest_$mode.yaml" --out "$tmp/rest_$mode" --quiet || fail "resting ball $mode run"
done
# bound: max speed < 5 m/s (the column's top falls 0.6 m: 3.4 m/s; measured 2.6 both ways;
# before the fixes the moving path had 14 m/s at the impact, the §5.2 band's Neumann
# islands); the volume of the two runs within 0.1 % (measured equal, -2.2 % both: the coarse
# falling column)
out=$(python3 -c '
import json, sys
S = [json.loads(l) for l in open(sys.argv[1])]
M = [json.loads(l) for l in open(sys.argv[2])]
vs, vm = max(d["max_speed"] for d in S), max(d["max_speed"] for d in M)
assert vs < 5.0 and vm < 5.0, (vs, vm)
dd = max(abs(a["volume_change"] - b["volume_change"]) for a, b in zip(S, M))
assert dd <= 1e-3, [(a["volume_change"], b["volume_change"]) for a, b in zip(S, M)]
print("max speed %.2f (static) %.2f (at rest, moving path) m/s; volumes within %.2g" % (vs, vm, dd))' \
    "$tmp/rest_static/stats.jsonl" "$tmp/rest_moving/stats.jsonl" 2>&1) && pass "$out" ||
    fail "resting ball" "$out"

echo "a still pool round a static ball and box piercing its surface (24^3, 15 frames):"
cat >"$tmp/still.yaml" <<'YAML'
solver: pls
grid:
  size: [24, 24, 24]
  cell: 0.05
time:
  frames: 15
  fps: 30
liquid:
  - level: 0.5
obstacles:
  - sphere: {center: [0.6, 0.37, 0.6], radius: 0.2}
  - box: {min: [0.2, 0, 0.2], max: [0.35, 0.6, 0.35]}
output:
  preview: false
  mesh: false
YAML
"$LQ" run "$tmp/still.yaml" --out "$tmp/still" --quiet || fail "still pool run"
# bound: max speed < 1e-3 m/s, |volume change| < 1e-4 (measured 4.6e-5 m/s and 1.8e-6;
# with φ extrapolated into the objects as the neighbours' mean: 0.01 m/s and 3.7e-4)
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
vmax = max(d["max_speed"] for d in L)
dv = max(abs(d["volume_change"]) for d in L)
assert vmax < 1e-3 and dv < 1e-4, (vmax, dv)
print("max speed %.2g m/s, volume change %.2g" % (vmax, dv))' "$tmp/still/stats.jsonl" 2>&1) &&
    pass "$out" || fail "still pool" "$out"

echo "bad motion keys:"
bad() { # NAME KEYS GREP
    sed "s/keys: \[0.0, 0, 0, 0, 0, 0, 0,/keys: $2 #/" "$tmp/tank.yaml" |
        sed '/^             0.35, 0.3/d; /^             0.67, 0, 0/d' >"$tmp/bad.yaml"
    "$LQ" run "$tmp/bad.yaml" --out "$tmp/bad" --frames 1 --quiet 2>"$tmp/err"
    local rc=$?
    [[ $rc -eq 2 && ! -e $tmp/bad ]] && grep -q "bad.yaml:[0-9]*:[0-9]*: .*$3" "$tmp/err" &&
        pass "$1: exit 2 at the key" || fail "$1: exit $rc" "$(cat "$tmp/err")"
}
bad "times not increasing" "[0, 0, 0, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0.4, 0, 0, 0, 0, 0, 0]" \
    "times must increase"
bad "a row of 6" "[0, 0, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0]" "7 numbers each"
bad "a turn about x in 2D" "[0, 0, 0, 0, 10, 0, 0]" "about z only"

echo "cli_pls_objects: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
