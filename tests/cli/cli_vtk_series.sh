#!/usr/bin/env bash
# tests/cli/cli_vtk_series.sh LIQUIDCL — fields as VTK XML and the series that carry each
# frame's simulated time (host/io/vtkxml.h):
#  1. output.fields_format: vti writes fields/NAME_NNNN.vti (ImageData, one named Float32
#     array, zlib blocks with a UInt64 header, raw appended), decoded here by its own
#     layout to exactly the values of the legacy .vtk of the same run (extent, origin,
#     spacing too), and fields/NAME.pvd lists every written frame with time = frame / fps;
#  2. with output.every 2 the series hold frames 0, 2, 4 only, at 0, 2/fps, 4/fps;
#  3. legacy fields get fields/NAME.vtk.series and meshes mesh/mesh.ply.series (ParaView's
#     JSON file series), with the same times, and the files they name exist;
#  4. where VTK's Python module is present (python3-vtk9, not required: 71 packages with Qt
#     and MPI), vtkXMLImageDataReader reads a .vti and every file the .pvd names.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

A=(--quiet --device opencl --set "grid.size=[24,16,12]" --set grid.cell=0.05
   --set output.preview=false --set "output.fields=[phi,u]")
S=scenes/pls_dam_break.yaml
"$LQ" run "$S" --out "$tmp/xml" "${A[@]}" --frames 4 --set output.fields_format=vti ||
    fail "run (vti)"
"$LQ" run "$S" --out "$tmp/leg" "${A[@]}" --frames 4 || fail "run (vtk)"
"$LQ" run "$S" --out "$tmp/ev2" "${A[@]}" --frames 4 --set output.fields_format=vti \
    --set output.every=2 || fail "run (every 2)"

out=$(python3 - "$tmp" <<'PYEOF' 2>&1
import json, re, struct, sys, zlib
t = sys.argv[1]
FPS = 30.0

def legacy(path):
    raw = open(path, "rb").read()
    key = b"LOOKUP_TABLE default\n"
    head = raw.split(key, 1)[0].decode().splitlines()
    dims = [int(x) for x in head[4].split()[1:]]
    org = [float(x) for x in head[5].split()[1:]]
    sp = [float(x) for x in head[6].split()[1:]]
    pos = raw.index(key) + len(key)
    n = dims[0] * dims[1] * dims[2]
    return dims, org, sp, struct.unpack(">%df" % n, raw[pos:pos + 4 * n])

def vti(path):
    raw = open(path, "rb").read()
    text = raw.split(b"<AppendedData", 1)[0].decode()
    assert 'type="ImageData"' in text and 'compressor="vtkZLibDataCompressor"' in text
    assert 'header_type="UInt64"' in text and 'byte_order="LittleEndian"' in text
    ext = [int(x) for x in re.search(r'WholeExtent="([^"]*)"', text).group(1).split()]
    org = [float(x) for x in re.search(r'Origin="([^"]*)"', text).group(1).split()]
    sp = [float(x) for x in re.search(r'Spacing="([^"]*)"', text).group(1).split()]
    name = re.search(r'DataArray type="Float32" Name="([^"]*)"', text).group(1)
    pos = raw.index(b"encoding=\"raw\">") + len(b"encoding=\"raw\">")
    pos = raw.index(b"_", pos) + 1
    nb, bs, last = struct.unpack("<3Q", raw[pos:pos + 24])
    sizes = struct.unpack("<%dQ" % nb, raw[pos + 24:pos + 24 + 8 * nb])
    p = pos + 24 + 8 * nb
    data = b""
    for i, c in enumerate(sizes):
        block = zlib.decompress(raw[p:p + c])
        assert len(block) == (last if i == nb - 1 else bs), (i, len(block))
        data += block
        p += c
    dims = [ext[1] - ext[0] + 1, ext[3] - ext[2] + 1, ext[5] - ext[4] + 1]
    return name, dims, org, sp, struct.unpack("<%df" % (len(data) // 4), data)

for f in range(5):
    for nm in ("phi", "u"):
        a = legacy("%s/leg/fields/%s_%04d.vtk" % (t, nm, f))
        name, *b = vti("%s/xml/fields/%s_%04d.vti" % (t, nm, f))
        assert name == nm, name
        assert a[0] == b[0] and a[1] == b[1] and a[2] == b[2], (nm, f, a[:3], b[:3])
        assert a[3] == b[3], (nm, f, "values differ")

def pvd(path):
    return [(float(m.group(1)), m.group(2)) for m in
            re.finditer(r'<DataSet timestep="([^"]*)" part="0" file="([^"]*)"/>', open(path).read())]

def series(path):
    j = json.load(open(path))
    assert j["file-series-version"] == "1.0"
    return [(e["time"], e["name"]) for e in j["files"]]

import os
want = [(f / FPS, "phi_%04d.vti" % f) for f in range(5)]
assert pvd(t + "/xml/fields/phi.pvd") == want, pvd(t + "/xml/fields/phi.pvd")
assert pvd(t + "/ev2/fields/u.pvd") == [(f / FPS, "u_%04d.vti" % f) for f in (0, 2, 4)]
assert series(t + "/leg/fields/u.vtk.series") == [(f / FPS, "u_%04d.vtk" % f) for f in range(5)]
ms = series(t + "/leg/mesh/mesh.ply.series")
assert ms == [(f / FPS, "%04d.ply" % f) for f in range(5)], ms
assert all(os.path.exists(t + "/leg/mesh/" + n) for _, n in ms)
print("5 frames of phi and u: vti values = legacy values; pvd and series times = frame / fps")
PYEOF
) && pass "$out" || fail "vti and series" "$out"

if /usr/bin/python3 -c "import vtk" 2> /dev/null; then
    out=$(/usr/bin/python3 - "$tmp" <<'PYEOF' 2>&1
import sys, vtk
from vtk.util.numpy_support import vtk_to_numpy
t = sys.argv[1]
r = vtk.vtkXMLImageDataReader()
r.SetFileName(t + "/xml/fields/phi_0003.vti")
r.Update()
img = r.GetOutput()
arr = vtk_to_numpy(img.GetPointData().GetArray("phi"))
assert img.GetDimensions() == (24, 16, 12), img.GetDimensions()
import xml.etree.ElementTree as ET
times = []
for ds in ET.parse(t + "/xml/fields/phi.pvd").getroot().iter("DataSet"):
    q = vtk.vtkXMLImageDataReader()
    q.SetFileName(t + "/xml/fields/" + ds.get("file"))
    q.Update()
    assert q.GetOutput().GetPointData().GetArray("phi").GetNumberOfTuples() == 24 * 16 * 12
    times.append(float(ds.get("timestep")))
assert len(times) == 5 and abs(times[3] - 0.1) < 1e-12, times
print("VTK %s reads the .vti (%d values, min %.4g) and every file the .pvd names (times %s)" % (
    vtk.vtkVersion.GetVTKVersion(), arr.size, arr.min(), [round(x, 4) for x in times]))
PYEOF
) && pass "$out" || fail "VTK's reader" "$out"
else
    echo "  (VTK's Python module is not installed: the check with vtkXMLImageDataReader is skipped)"
fi
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
