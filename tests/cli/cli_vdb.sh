#!/usr/bin/env bash
# tests/cli/cli_vdb.sh LIQUIDCL — OpenVDB output (output.vdb, host/io/vdb.h), read back with
# Debian's python3-openvdb (pyopenvdb, /usr/bin/python3):
#  1. pls (24 × 16 × 12 dam break, 3 frames): vdb/NNNN.vdb holds "surface" (class level
#     set, float, the cell grid's transform: voxel (0,0,0) at the first cell centre,
#     voxel size h), "vel" (vec3s) and "p" (fog); surface equals the VTK phi exactly at
#     every active voxel, the active voxels are those with |phi| < 3 h, an inactive voxel
#     reads ±3 h by phi's sign; vel is the mean of the VTK u, v, w faces of its cell
#     (within float round-off), active where phi < 3 h; p equals the VTK p in the liquid;
#  2. mac (the same dam break): surface's sign is the VTK phi's everywhere in its band, its
#     zero crossings lie within 0.5 h of phi's, and |surface| ≤ 3 h;
#  3. refused with exit 2 and nothing written: a field the solver lacks, and output.vdb in
#     a height-field scene.
# A build without OpenVDB (no libopenvdb-dev) must refuse output.vdb (exit 2) instead.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

PY=/usr/bin/python3
A=(--quiet --device opencl --frames 3 --set "grid.size=[24,16,12]" --set grid.cell=0.05
   --set output.preview=false --set output.mesh=false)

if ! "$LQ" check scenes/pls_dam_break.yaml --set "output.vdb=[surface]" > /dev/null \
        2> "$tmp/probe.err"; then
    if grep -q "built without OpenVDB" "$tmp/probe.err"; then
        pass "a build without OpenVDB refuses output.vdb: $(head -c 160 "$tmp/probe.err")"
        echo "$checks checks, $fails failed (OpenVDB not in this build: the rest skipped)"
        [ "$fails" -eq 0 ]
        exit
    fi
    fail "probe run" "$(cat "$tmp/probe.err")"
fi
if ! "$PY" -c "import pyopenvdb" 2> /dev/null; then
    fail "python3-openvdb (pyopenvdb for /usr/bin/python3) is missing: tools/packages.txt installs it"
    echo "$checks checks, $fails failed"
    exit 1
fi

check_run() { # NAME SCENE: the run, then the Python check of its frame 3
    local name=$1 scene=$2
    "$LQ" run "$scene" --out "$tmp/$name" "${A[@]}" --set "output.vdb=[surface,vel,p]" \
        --set "output.fields=[phi,u,v,w,p]" || { fail "$name: run"; return; }
    local out
    if out=$("$PY" - "$tmp/$name" "$name" 2>&1 <<'PYEOF'
import struct, sys
import pyopenvdb as vdb
d, solver = sys.argv[1], sys.argv[2]

def vtk(name):
    raw = open("%s/fields/%s_0003.vtk" % (d, name), "rb").read()
    head = raw.split(b"LOOKUP_TABLE default\n", 1)[0].decode().splitlines()
    dims = [int(x) for x in head[4].split()[1:]]
    org = [float(x) for x in head[5].split()[1:]]
    h = float(head[6].split()[1])
    pos = raw.index(b"LOOKUP_TABLE default\n") + len(b"LOOKUP_TABLE default\n")
    n = dims[0] * dims[1] * dims[2]
    return dims, org, h, struct.unpack(">%df" % n, raw[pos:pos + 4 * n])

dims, org, h, phi = vtk("phi")
nx, ny, nz = dims
at = lambda i, j, k: i + nx * (j + ny * k)
grids, meta = vdb.readAll("%s/vdb/0003.vdb" % d)
g = {x.name: x for x in grids}
assert sorted(g) == ["p", "surface", "vel"], sorted(g)
s = g["surface"]
assert s.gridClass == "level set" and s.valueTypeName == "float", (s.gridClass, s.valueTypeName)
assert abs(s.transform.voxelSize()[0] - h) < 1e-9, s.transform.voxelSize()
w0 = s.transform.indexToWorld((0, 0, 0))
assert all(abs(w0[a] - org[a]) < 1e-6 for a in range(3)), (w0, org)
band = 3 * h
acc = s.getConstAccessor()
worst = 0.0
for k in range(nz):
    for j in range(ny):
        for i in range(nx):
            f = phi[at(i, j, k)]
            v, on = acc.probeValue((i, j, k))
            if solver == "pls":
                if abs(f) < band:
                    assert on and v == f, ("surface", i, j, k, v, f, on)
                else:
                    want = band if f >= 0 else -band
                    assert not on and abs(v - want) < 1e-6, ("off band", i, j, k, v, f, on)
            else:
                assert (v < 0) == (f < 0), ("sign", i, j, k, v, f)
                assert abs(v) <= band + 1e-6, (i, j, k, v)
                # a crossing of phi along x: surface crosses within half a cell of it
                if i + 1 < nx and (f < 0) != (phi[at(i + 1, j, k)] < 0):
                    t_phi = f / (f - phi[at(i + 1, j, k)])
                    v1 = acc.probeValue((i + 1, j, k))[0]
                    t_s = v / (v - v1)
                    worst = max(worst, abs(t_phi - t_s))
if solver == "mac":
    assert worst <= 0.5, worst
_, _, _, u = vtk("u"); _, _, _, vv = vtk("v"); _, _, _, w = vtk("w")
uat = lambda i, j, k: i + (nx + 1) * (j + ny * k)
vat = lambda i, j, k: i + nx * (j + (ny + 1) * k)
vel = g["vel"].getConstAccessor()
nvel = 0
for k in range(nz):
    for j in range(ny):
        for i in range(nx):
            want = (0.5 * (u[uat(i, j, k)] + u[uat(i + 1, j, k)]),
                    0.5 * (vv[vat(i, j, k)] + vv[vat(i, j + 1, k)]),
                    0.5 * (w[at(i, j, k)] + w[at(i, j, k) + nx * ny]))
            got, on = vel.probeValue((i, j, k))
            near = acc.probeValue((i, j, k))[0] < band if solver == "mac" else phi[at(i, j, k)] < band
            assert on == near, ("vel active", i, j, k, on, near)
            if on:
                nvel += 1
                assert all(abs(got[a] - want[a]) <= 1e-6 * (1 + abs(want[a])) for a in range(3)), (i, j, k, got, want)
_, _, _, p = vtk("p")
pa = g["p"].getConstAccessor()
for k in range(nz):
    for j in range(ny):
        for i in range(nx):
            wet = (phi[at(i, j, k)] < 0) if solver == "pls" else (acc.probeValue((i, j, k))[0] < 0)
            got, on = pa.probeValue((i, j, k))
            assert on == wet and (not on or got == p[at(i, j, k)]), ("p", i, j, k, got, on, wet)
print("%d surface voxels active, %d velocity voxels, crossing offset %.3f cells" % (
    s.activeVoxelCount(), nvel, worst))
PYEOF
    ); then pass "$name: $out"; else fail "$name" "$out"; fi
}

check_run pls scenes/pls_dam_break.yaml
check_run mac scenes/mac_dam_break.yaml

refused() { # NAME WANT ARGS...: exit 2, WANT in the message, no vdb/ written
    local name=$1 want=$2
    shift 2
    local err rc
    err=$("$LQ" run "$@" --out "$tmp/bad_$name" --quiet 2>&1)
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "$want" <<< "$err" && [ ! -e "$tmp/bad_$name/vdb" ]; then
        pass "refused ($name): $err"
    else
        fail "not refused ($name): exit $rc" "$err"
    fi
}
refused field "output.vdb" scenes/pls_dam_break.yaml --set "output.vdb=[flags]"
refused hf "output.vdb" scenes/puddle.yaml --set "output.vdb=[surface]"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
