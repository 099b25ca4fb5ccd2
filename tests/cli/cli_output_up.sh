#!/usr/bin/env bash
# tests/cli/cli_output_up.sh LIQUIDCL — output.up z (io.h): the files turned +90° about x,
# (x, y, z) → (x, −z, y), against a y-up run of the same scene, exactly:
#  1. pls dam break (3 frames): each mesh's vertices, normals and velocities are the y-up
#     run's turned (copies and sign flips: bit for bit), its triangles the same; particles
#     likewise; the header says "comment up z"; stats.jsonl's first line has "up": "z";
#  2. its fields (legacy VTK): phi, p transposed to the turned axes (dims, origin, spacing:
#     every sample at the turned place of the y-up sample), u v w the velocity along the
#     turned axes (u = u, v = −w, w = v of the y-up run), value for value;
#  3. where the build has OpenVDB (and python3-openvdb): "surface" and "vel" hold the y-up
#     values (vel turned) and every voxel's world position is the y-up one turned;
#  4. splash ball drop: terrain and surface PLYs turned (the height field's u w become u v,
#     v = −w), objects' PLYs turned, objects.csv's position, velocity and angular velocity
#     turned and its quaternion the turn after the y-up orientation;
#  5. a height-field scene asking for field w with output.up z is refused (exit 2): w is
#     the z-up files' vertical velocity, which it does not have.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

A=(--quiet --device opencl --frames 3 --set "grid.size=[24,16,12]" --set grid.cell=0.05
   --set output.preview=false --set output.particles=true --set "output.fields=[phi,p,u,v,w]")
S=scenes/pls_dam_break.yaml
VDB=()
if "$LQ" check "$S" --set "output.vdb=[surface]" > /dev/null 2>&1 &&
        /usr/bin/python3 -c "import pyopenvdb" 2> /dev/null; then
    VDB=(--set "output.vdb=[surface,vel]")
fi
"$LQ" run "$S" --out "$tmp/y" "${A[@]}" "${VDB[@]}" || fail "run (y up)"
"$LQ" run "$S" --out "$tmp/z" "${A[@]}" "${VDB[@]}" --set output.up=z || fail "run (z up)"
H=(--quiet --device ref --frames 3 --set output.preview=false --set "output.fields=[h,u]")
"$LQ" run scenes/ball_drop.yaml --out "$tmp/hy" "${H[@]}" || fail "run (splash y up)"
"$LQ" run scenes/ball_drop.yaml --out "$tmp/hz" "${H[@]}" --set output.up=z ||
    fail "run (splash z up)"

out=$(/usr/bin/python3 - "$tmp" "${#VDB[@]}" <<'PYEOF' 2>&1
import csv, json, math, struct, sys
t, use_vdb = sys.argv[1], int(sys.argv[2]) > 0

def ply(path):
    raw = open(path, "rb").read()
    head, body = raw.split(b"end_header\n", 1)
    lines = head.decode().splitlines()
    names = [l.split()[2] for l in lines if l.startswith("property float")]
    nv = int([l for l in lines if l.startswith("element vertex")][0].split()[2])
    vals = struct.unpack("<%df" % (nv * len(names)), body[:4 * nv * len(names)])
    cols = {n: vals[i::len(names)] for i, n in enumerate(names)}
    return lines, names, cols, body[4 * nv * len(names):]

def neg(c):
    return tuple(-v for v in c)

def same_turned(py, pz, what):
    ly, ny_, cy, fy = ply(py)
    lz, nz_, cz, fz = ply(pz)
    assert "comment up z" in lz and "comment up z" not in ly, what
    assert fy == fz, what + ": triangles differ"
    n = 0
    for name in ny_:
        if name.endswith("y") and name[:-1] + "x" in cy and name[:-1] + "z" in cy:
            p = name[:-1]
            assert cz[p + "x"] == cy[p + "x"], (what, p + "x")
            assert cz[p + "y"] == neg(cy[p + "z"]), (what, p + "y")
            assert cz[p + "z"] == cy[p + "y"], (what, p + "z")
            n += 1
    if "u" in cy and "w" in cy and "v" not in cy:
        assert cz["u"] == cy["u"] and cz["v"] == neg(cy["w"]) and "w" not in cz, what
    return n, len(cy["x"])

for f in range(4):
    n, nv = same_turned("%s/y/mesh/%04d.ply" % (t, f), "%s/z/mesh/%04d.ply" % (t, f), "mesh")
    assert n == 3 and nv > 0, (n, nv)
    same_turned("%s/y/particles/%04d.ply" % (t, f), "%s/z/particles/%04d.ply" % (t, f), "particles")
assert json.loads(open(t + "/z/stats.jsonl").readline())["up"] == "z"
assert "up" not in json.loads(open(t + "/y/stats.jsonl").readline())

def vtk(path):
    raw = open(path, "rb").read()
    key = b"LOOKUP_TABLE default\n"
    head = raw.split(key, 1)[0].decode().splitlines()
    dims = [int(x) for x in head[4].split()[1:]]
    org = [float(x) for x in head[5].split()[1:]]
    sp = [float(x) for x in head[6].split()[1:]]
    pos = raw.index(key) + len(key)
    n = dims[0] * dims[1] * dims[2]
    return dims, org, sp, struct.unpack(">%df" % n, raw[pos:pos + 4 * n])

for name, src, sign in (("phi", "phi", 1), ("p", "p", 1), ("u", "u", 1), ("v", "w", -1),
                        ("w", "v", 1)):
    dy, oy, sy, ay = vtk("%s/y/fields/%s_0003.vtk" % (t, src))
    dz, oz, sz, az = vtk("%s/z/fields/%s_0003.vtk" % (t, name))
    assert dz == [dy[0], dy[2], dy[1]], (name, dy, dz)
    n0, n1, n2 = dy
    for k in range(n2):
        for j in range(n1):
            for i in range(n0):
                v = ay[i + n0 * (j + n1 * k)]
                jz, kz = n2 - 1 - k, j
                assert az[i + n0 * (jz + n2 * kz)] == (v if sign > 0 else -v), (name, i, j, k)
    for (i, j, k) in ((0, 0, 0), (n0 - 1, n1 - 1, n2 - 1), (3, 1, 2)):
        p = [oy[a] + (i, j, k)[a] * sy[a] for a in range(3)]
        want = (p[0], -p[2], p[1])
        q = [oz[a] + (i, n2 - 1 - k, j)[a] * sz[a] for a in range(3)]
        assert all(abs(q[a] - want[a]) < 1e-6 for a in range(3)), (name, q, want)
msg = "pls: 4 meshes (x y z, normals, velocity) and particles turned bit for bit; " \
      "phi p u v w transposed, v = -w and w = v of y up"

if use_vdb:
    import pyopenvdb as vdb
    for name in ("surface", "vel"):
        a = vdb.read(t + "/y/vdb/0003.vdb", name)
        b = vdb.read(t + "/z/vdb/0003.vdb", name)
        cnt = 0
        for it in a.citerOnValues():
            ijk = it.min
            vb = b.getConstAccessor().getValue(ijk)
            wa = a.transform.indexToWorld(ijk)
            wb = b.transform.indexToWorld(ijk)
            assert abs(wb[0] - wa[0]) < 1e-9 and abs(wb[1] + wa[2]) < 1e-9 and \
                abs(wb[2] - wa[1]) < 1e-9, (name, ijk, wa, wb)
            if name == "vel":
                assert tuple(vb) == (it.value[0], -it.value[2], it.value[1]), (ijk, it.value, vb)
            else:
                assert vb == it.value
            cnt += 1
        assert cnt > 0 and b.activeVoxelCount() == a.activeVoxelCount(), name
    msg += "; VDB surface and vel: voxels at the turned places, vel turned"

for f in range(4):
    same_turned("%s/hy/mesh/%04d.ply" % (t, f), "%s/hz/mesh/%04d.ply" % (t, f), "hf surface")
    same_turned("%s/hy/mesh/objects_%04d.ply" % (t, f), "%s/hz/mesh/objects_%04d.ply" % (t, f),
                "objects")
same_turned(t + "/hy/mesh/terrain.ply", t + "/hz/mesh/terrain.ply", "terrain")
ry = list(csv.DictReader(open(t + "/hy/objects.csv")))
rz = list(csv.DictReader(open(t + "/hz/objects.csv")))
assert len(ry) == len(rz) == 4
def rot(q, v):
    w, x, y, z = q
    m = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    return [sum(m[r][c] * v[c] for c in range(3)) for r in range(3)]
for a, b in zip(ry, rz):
    for p in ("", "v", "w"):
        ya = [float(a[p + c if p else c]) for c in "xyz"]
        zb = [float(b[p + c if p else c]) for c in "xyz"]
        assert max(abs(zb[0] - ya[0]), abs(zb[1] + ya[2]), abs(zb[2] - ya[1])) < 1e-7, (p, ya, zb)
    qy = [float(a[k]) for k in ("qw", "qx", "qy", "qz")]
    qz = [float(b[k]) for k in ("qw", "qx", "qy", "qz")]
    for body in ((1, 0, 0), (0, 1, 0), (0.3, -0.2, 0.7)):
        py, pz = rot(qy, body), rot(qz, body)
        assert max(abs(pz[0] - py[0]), abs(pz[1] + py[2]), abs(pz[2] - py[1])) < 1e-7, (qy, qz)
print(msg + "; splash: surface (u v = -w), terrain, objects' PLYs turned, objects.csv turned")
PYEOF
) && pass "$out" || fail "z up against y up" "$out"

err=$("$LQ" check scenes/ball_drop.yaml --set output.up=z --set "output.fields=[h,w]" 2>&1)
rc=$?
[ "$rc" -eq 2 ] && grep -q "has no field 'w'.*u v w along the z-up file" <<< "$err" &&
    pass "splash, output.up z, field w: exit 2: $err" || fail "refusal (rc $rc)" "$err"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
