#!/usr/bin/env bash
# tests/cli/cli_output_rates.sh LIQUIDCL — each kind of output at its own rate
# (output.mesh_every, fields_every, particles_every, vdb_every; output.every their default):
#  1. a pls dam break of 6 frames with mesh every 2, fields every 3, particles every 4, vdb
#     every 5 and previews every 3 writes exactly frames {0,2,4,6}, {0,3,6}, {0,4}, {0,5} and
#     {0,3,6} of each kind, and nothing else;
#  2. mesh.ply.series and the fields' .vtk.series / .pvd list exactly the frames written,
#     each at frame / fps; stats.jsonl still has every frame;
#  3. with output.every 2 and no per-kind key, every kind follows output.every;
#  4. a height-field scene (splash, ball_drop) takes the same keys: objects' PLYs with the
#     mesh, the terrain once, objects.csv every frame.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

A=(--quiet --device opencl --frames 6 --set "grid.size=[24,16,12]" --set grid.cell=0.05)
S=scenes/pls_dam_break.yaml
VDB=()
if "$LQ" check "$S" --set "output.vdb=[surface]" > /dev/null 2>&1; then
    VDB=(--set "output.vdb=[surface]" --set output.vdb_every=5)
fi
"$LQ" run "$S" --out "$tmp/r" "${A[@]}" --set "output.fields=[phi,u]" --set output.particles=true \
    --set output.mesh_every=2 --set output.fields_every=3 --set output.particles_every=4 \
    --set output.preview_every=3 "${VDB[@]}" || fail "run (rates)"
"$LQ" run "$S" --out "$tmp/x" "${A[@]}" --set "output.fields=[phi]" --set output.fields_format=vti \
    --set output.fields_every=4 --set output.mesh=false --set output.preview=false ||
    fail "run (vti every 4)"
"$LQ" run "$S" --out "$tmp/e" "${A[@]}" --set "output.fields=[phi]" --set output.particles=true \
    --set output.every=2 || fail "run (every 2)"
# the preview's rate is its own too: every 3 frames although output.every is 2
"$LQ" run "$S" --out "$tmp/p" "${A[@]}" --set output.every=2 --set output.preview_every=3 \
    --set output.mesh=false || fail "run (every 2, previews 3)"

files() { (cd "$1" && find . -type f ! -name '*.series' ! -name '*.pvd' | sort | tr '\n' ' '); }
want=""
for f in 0 3 6; do want+="./fields/phi_000$f.vtk ./fields/u_000$f.vtk "; done
for f in 0 2 4 6; do want+="./mesh/000$f.ply "; done
for f in 0 4; do want+="./particles/000$f.ply "; done
for f in 0 3 6; do want+="./preview/000$f.png "; done
want+="./stats.jsonl "
[ ${#VDB[@]} -gt 0 ] && want+="./vdb/0000.vdb ./vdb/0005.vdb "
want=$(tr ' ' '\n' <<< "$want" | sed '/^$/d' | sort | tr '\n' ' ')
got=$(files "$tmp/r")
[ "$got" = "$want" ] && pass "rates 2/3/4/5, previews 3: exactly the frames due" ||
    fail "file set (rates)" "got:  $got" "want: $want"
want="./fields/phi_0000.vtk ./fields/phi_0002.vtk ./fields/phi_0004.vtk ./fields/phi_0006.vtk "
want+="./mesh/0000.ply ./mesh/0002.ply ./mesh/0004.ply ./mesh/0006.ply "
want+="./particles/0000.ply ./particles/0002.ply ./particles/0004.ply ./particles/0006.ply "
want+="./preview/0000.png ./preview/0002.png ./preview/0004.png ./preview/0006.png ./stats.jsonl "
got=$(files "$tmp/e")
[ "$got" = "$want" ] && pass "output.every 2: every kind every 2 frames" ||
    fail "file set (every 2)" "got:  $got" "want: $want"
got=$(files "$tmp/p")
want="./preview/0000.png ./preview/0003.png ./preview/0006.png ./stats.jsonl "
[ "$got" = "$want" ] && pass "output.every 2, preview_every 3: previews 0 3 6" ||
    fail "file set (every 2, previews 3)" "got:  $got" "want: $want"

out=$(python3 - "$tmp" <<'PYEOF' 2>&1
import json, re, sys
t = sys.argv[1]
FPS = 30.0
def series(p):
    return [(e["time"], e["name"]) for e in json.load(open(p))["files"]]
def pvd(p):
    return [(float(m.group(1)), m.group(2)) for m in
            re.finditer(r'<DataSet timestep="([^"]*)" part="0" file="([^"]*)"/>', open(p).read())]
s = series(t + "/r/mesh/mesh.ply.series")
assert s == [(f / FPS, "%04d.ply" % f) for f in (0, 2, 4, 6)], s
for nm in ("phi", "u"):
    s = series(t + "/r/fields/%s.vtk.series" % nm)
    assert s == [(f / FPS, "%s_%04d.vtk" % (nm, f)) for f in (0, 3, 6)], s
s = pvd(t + "/x/fields/phi.pvd")
assert s == [(f / FPS, "phi_%04d.vti" % f) for f in (0, 4)], s
s = series(t + "/e/fields/phi.vtk.series")
assert s == [(f / FPS, "phi_%04d.vtk" % f) for f in (0, 2, 4, 6)], s
rows = [json.loads(l) for l in open(t + "/r/stats.jsonl")]
assert [r["frame"] for r in rows] == list(range(7)), rows
print("series list the frames written at frame / fps (mesh 0 2 4 6, fields 0 3 6, pvd 0 4); "
      "stats every frame")
PYEOF
) && pass "$out" || fail "series" "$out"

# a height-field solver takes the same keys (ball_drop: objects ride with the mesh; the
# terrain once; objects.csv every frame)
"$LQ" run scenes/ball_drop.yaml --out "$tmp/h" --quiet --device ref --frames 4 \
    --set output.mesh_every=2 --set output.preview=false --set "output.fields=[h]" \
    --set output.fields_every=3 --set output.particles_every=3 || fail "run (splash)"
got=$(files "$tmp/h")
want="./fields/h_0000.vtk ./fields/h_0003.vtk ./mesh/0000.ply ./mesh/0002.ply ./mesh/0004.ply "
want+="./mesh/objects_0000.ply ./mesh/objects_0002.ply ./mesh/objects_0004.ply "
want+="./mesh/terrain.ply ./objects.csv ./particles/0000.ply ./particles/0003.ply ./stats.jsonl "
[ "$got" = "$want" ] && pass "splash: mesh and objects every 2, fields and particles every 3" ||
    fail "file set (splash)" "got:  $got" "want: $want"
[ "$(wc -l < "$tmp/h/objects.csv")" -eq 6 ] && pass "objects.csv: a line each frame" ||
    fail "objects.csv lines" "$(wc -l < "$tmp/h/objects.csv")"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
