#!/usr/bin/env bash
# tests/cli/cli_pls.sh LIQUIDCL — the `pls` solver's first version end to end (Rasmussen et
# al. 2004 §3): still water in a closed tank stays still and keeps its volume
# (VALIDATION.md's hydrostatic tank), a small dam break runs with its pressure solved
# every step and a bounded volume change, a resumed run ends bit for bit where an
# uninterrupted one does, reference and OpenCL agree exactly (`liquidcl diff`), the
# bench's pls rows run (a 16³ smoke run, valid JSON), a grid without nz is refused
# with nothing written, the VTK fields (phi, p, u, v, w, solid) have the grid's layout,
# and a 256³ dam break plans at most 3 GiB (`--plan`, LIQUIDCL_DEVICE_MEMORY; never
# allocated).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

echo "hydrostatic tank:"
"$LQ" run scenes/validation/pls_tank.yaml --out "$tmp/tank" --device ref --quiet || fail "tank run"
# bounds: max |u| <= 1e-4 sqrt(g D) = 2e-4 m/s (D = 0.4 m; measured 3.6e-5 with the
# default pls.tolerance 1e-4), volume from phi within 1e-5 of the start (measured
# 1.9e-6: the surface lies half way between cell centres, where the linear Heaviside is
# exact; what is left is the projection's residual moving it)
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
vmax = max(d["max_speed"] for d in L)
dv = max(abs(d["volume_change"]) for d in L)
print("max speed %.3g m/s, volume change %.3g" % (vmax, dv))
assert len(L) == 21
assert vmax <= 2e-4, vmax
assert dv <= 1e-5, dv
assert abs(L[0]["liquid_volume"] - 0.4 * 0.6 * 0.5) < 1e-6, L[0]["liquid_volume"]
assert all(d["pressure_unconverged"] == 0 for d in L)' "$tmp/tank/stats.jsonl" 2>&1) &&
    pass "at rest: $out" || fail "tank" "$out"

echo "dam break (32 x 20 x 14, h = 0.04 m, CFL 3, reference C):"
A=(--quiet --device ref --frames 12 --set "grid.size=[32,20,14]" --set grid.cell=0.04
   --set output.checkpoint=6 --set output.preview_width=160 --set output.particles=true)
"$LQ" run scenes/pls_dam_break.yaml --out "$tmp/a" "${A[@]}" || fail "dam break run"
[[ -s $tmp/a/mesh/0012.ply && -s $tmp/a/preview/0012.png && -s $tmp/a/particles/0012.ply ]] &&
    pass "mesh, preview and particles written" ||
    fail "outputs missing" "$(ls -R "$tmp/a" | head)"
# bound: |volume change| <= 2.5 % over 12 frames at this coarse grid (measured 0.31 %
# worst; 8 cells across the falling front, about a frame per step)
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
assert len(L) == 13
assert all(d["pressure_residual"] <= 1e-4 for d in L[1:]), [d["pressure_residual"] for d in L]
assert L[-1]["max_speed"] > 1.0, L[-1]["max_speed"]
dv = max(abs(d["volume_change"]) for d in L)
assert dv <= 0.025, [d["volume_change"] for d in L]
assert L[-1]["particles"] > 0 and L[-1]["device_bytes"] > 0
print("max speed %.2f m/s, worst volume change %.2f %%" % (L[-1]["max_speed"], 100 * dv))' \
    "$tmp/a/stats.jsonl" 2>&1) &&
    pass "pressure solved every frame, water moving, $out" || fail "stats" "$out"
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }
"$LQ" run scenes/pls_dam_break.yaml --out "$tmp/b" "${A[@]}" --frames 6 || fail "first part"
"$LQ" run scenes/pls_dam_break.yaml --out "$tmp/b" "${A[@]}" --resume || fail "resume"
diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null &&
    cmp -s "$tmp/a/particles/0012.ply" "$tmp/b/particles/0012.ply" &&
    pass "resumed run ends bit for bit where the uninterrupted one does" ||
    fail "resume differs" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -4)"

echo "VTK fields (legacy STRUCTURED_POINTS, as ParaView reads them):"
"$LQ" run scenes/pls_dam_break.yaml --out "$tmp/v" --quiet --device ref --frames 3 \
    --set "grid.size=[32,20,14]" --set grid.cell=0.04 --set "output.fields=[phi,p,u,v,w,solid]" \
    --set output.preview=false --set output.mesh=false || fail "run with output.fields"
# header, dims (u, v, w one more along their axis), origin (cell centres; faces at i h),
# spacing, the byte count; phi both signs; solid exactly the obstacle box's cells; the
# wall faces 0; the largest |u|, |v|, |w| is the stats' max_speed; p 0 in the air
out=$(python3 - "$tmp/v" 3 2>&1 <<'PY'
import json, struct, sys
d, frame = sys.argv[1], int(sys.argv[2])
N = (32, 20, 14); h = 0.04
def read(name):
    raw = open("%s/fields/%s_%04d.vtk" % (d, name, frame), "rb").read()
    lines, pos = [], 0
    for _ in range(10):
        e = raw.index(b"\n", pos); lines.append(raw[pos:e].decode()); pos = e + 1
    assert lines[0] == "# vtk DataFile Version 3.0" and lines[2] == "BINARY", lines[:3]
    assert lines[3] == "DATASET STRUCTURED_POINTS", lines[3]
    dims = tuple(int(x) for x in lines[4].split()[1:]); org = [float(x) for x in lines[5].split()[1:]]
    sp = [float(x) for x in lines[6].split()[1:]]; n = int(lines[7].split()[1])
    assert lines[8] == "SCALARS %s float 1" % name and lines[9] == "LOOKUP_TABLE default", lines[8:]
    assert n == dims[0] * dims[1] * dims[2] and len(raw) == pos + 4 * n + 1, (n, len(raw) - pos)
    assert all(abs(s - h) < 1e-12 for s in sp), sp
    return dims, org, struct.unpack(">%df" % n, raw[pos:pos + 4 * n])
out = {}
for name, ax in (("phi", -1), ("p", -1), ("solid", -1), ("u", 0), ("v", 1), ("w", 2)):
    dims, org, val = read(name)
    want = [N[a] + (a == ax) for a in range(3)]
    assert list(dims) == want, (name, dims, want)
    for a in range(3):  # cell centres; faces on the normal axis at i h
        assert abs(org[a] - (0 if a == ax else h / 2)) < 1e-12, (name, org)
    out[name] = (dims, val)
phi, p, solid = out["phi"][1], out["p"][1], out["solid"][1]
assert min(phi) < 0 < max(phi), (min(phi), max(phi))
assert set(solid) == {0.0, 1.0}
# the obstacle box [0.8, 0.9] x [0, 0.25] x [0.2, 0.36]: its solid cells' centres inside it
for c, s in enumerate(solid):
    i, j, k = c % 32, c // 32 % 20, c // 640
    x, y, z = (i + .5) * h, (j + .5) * h, (k + .5) * h
    inside = 0.8 - 1e-6 <= x <= 0.9 + 1e-6 and y <= 0.25 + 1e-6 and 0.2 - 1e-6 <= z <= 0.36 + 1e-6
    assert (s == 1.0) == inside, (i, j, k, s)
# walls: the faces on the domain edge carry no flow; the largest |u| is the stats' max_speed
vmax = 0
for name, ax in (("u", 0), ("v", 1), ("w", 2)):
    dims, val = out[name]
    for c, x in enumerate(val):
        i = (c % dims[0], c // dims[0] % dims[1], c // (dims[0] * dims[1]))[ax]
        if i == 0 or i == dims[ax] - 1: assert x == 0.0, (name, c, x)
        vmax = max(vmax, abs(x))
L = [json.loads(l) for l in open(d + "/stats.jsonl")]
assert vmax == L[frame]["max_speed"], (vmax, L[frame]["max_speed"])
# pressure: 0 in the air (phi > 0), positive somewhere in the liquid (hydrostatic)
assert all(pp == 0.0 for pp, f in zip(p, phi) if f > 0), "p in the air"
assert max(p) > 0
print("6 fields, dims/origin/spacing as the grid, walls 0, max |u| %.3f m/s = stats" % vmax)
PY
) && pass "$out" || fail "VTK fields" "$out"

echo "reference vs OpenCL:"
check "dam break 16 x 10 x 8, 4 frames: bit for bit" "$LQ" diff scenes/pls_dam_break.yaml \
    --frames 4 --set "grid.size=[16,10,8]" --set grid.cell=0.08

echo "bench (the pls rows, 16³ smoke run):"
out=$(LIQUIDCL_BENCH=pls "$LQ" bench --device ref --size 16 --reps 1 --json 2>"$tmp/err" | python3 -c '
import json, math, sys
rows = json.load(sys.stdin)
ops = [r["op"] for r in rows]
want = ["sl_velocity", "sl_velocity_maccormack", "sl_velocity_bfecc", "sl_phi", "reinit",
        "pt_adv_correct", "ps_sor_colour", "ps_jacobi", "ps_pcg_mg", "ps_pcg_jacobi", "pls_step",
        "pls_step_maccormack", "pls_step_bfecc", "pc_control_10k", "pc_control_100k", "pk_find",
        "pk_pockets"]
assert ops == want, ops
assert all(r["size"] == 16 and r["ms"] > 0 and math.isfinite(r["copy_fraction"]) for r in rows)
print("%d rows, step %.0f ms" % (len(rows), rows[ops.index("pls_step")]["ms"]))' 2>&1) &&
    pass "$out" || fail "bench pls rows" "$out"

echo "bad input:"
"$LQ" run scenes/pls_dam_break.yaml --out "$tmp/c" --set "grid.size=[20,12]" 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 && ! -e $tmp/c ]] && grep -q "nx, ny, nz" "$tmp/err" && pass "a 2-number grid: exit 2" ||
    fail "grid [20,12]: exit $rc" "$(cat "$tmp/err")"

echo "device memory (a 256³ dam break, h = 5 mm, planned, never allocated):"
B=(--device ref --set "grid.size=[256,256,256]" --set grid.cell=0.005)
out=$(LIQUIDCL_DEVICE_MEMORY=3G "$LQ" run scenes/pls_dam_break.yaml --out "$tmp/p" "${B[@]}" \
    --plan 2>"$tmp/err")
rc=$?
bytes=$(sed -n 's/^device_bytes //p' <<<"$out")
[[ $rc -eq 0 && ! -e $tmp/p && -n $bytes && $bytes -le 3221225472 ]] &&
    pass "--plan with LIQUIDCL_DEVICE_MEMORY=3G: exit 0, $bytes bytes <= 3 GiB, nothing written" ||
    fail "--plan: exit $rc, $bytes bytes" "$out $(cat "$tmp/err")"
LIQUIDCL_DEVICE_MEMORY=2G "$LQ" run scenes/pls_dam_break.yaml --out "$tmp/p" "${B[@]}" --quiet \
    2>"$tmp/err"
rc=$?
[[ $rc -eq 2 && ! -e $tmp/p ]] && grep -q "needs .* ($bytes bytes) .*allows 2048.0 MiB" "$tmp/err" &&
    pass "LIQUIDCL_DEVICE_MEMORY=2G: refused before the run (exit 2), naming the $bytes bytes" ||
    fail "2G: exit $rc" "$(cat "$tmp/err")"
out=$("$LQ" check scenes/pls_dam_break.yaml --set "grid.size=[256,256,256]" --set grid.cell=0.005 \
    2>&1)
rc=$?
[[ $rc -eq 0 ]] && grep -q "ok (solver pls, $(python3 -c "print('%.1f' % ($bytes / 1048576))") MiB" <<<"$out" &&
    pass "check stops after the plan: $out" || fail "check 256³: exit $rc" "$out"
"$LQ" run scenes/validation/mac_tank.yaml --out "$tmp/p" --device ref --plan 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 && ! -e $tmp/p ]] && grep -q "not as one plan" "$tmp/err" &&
    pass "--plan on a solver without a whole plan (mac): exit 2" ||
    fail "--plan mac: exit $rc" "$(cat "$tmp/err")"

echo "cli_pls: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
