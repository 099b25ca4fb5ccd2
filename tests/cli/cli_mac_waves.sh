#!/usr/bin/env bash
# tests/cli/cli_mac_waves.sh LIQUIDCL — a stationary crest behind a submerged obstacle in a
# steady current (the `mac` solver's inflow and outflow, §3.2.2, Foster & Metaxas 1996;
# the trailing wave of the sluice-gate example, §8, Fig. 11a). A 2D channel 3 m long
# (60 x 14 cells of 5 cm), water 0.30 m deep running at 1 m/s (Froude number
# 1/sqrt(9.81 * 0.30) = 0.58), held by an inlet over the whole depth at one end and
# let out by an outlet over the whole height at the other, over a block 0.30 m long
# rising 0.10 m above the floor. The block chokes the flow: the water upstream rises, the
# flow over the block goes supercritical down its lee (the trough behind it) and jumps
# back to the downstream depth in an undular jump whose first crest stands still. The
# surface height per column is read from the `phi` dumps (marker density; the surface
# where phi crosses 0) and, over the last 1.5 s: the downstream level must be steady
# (the outlet passes the inlet's flux), the crest must stand within 1 cell of its median
# position in at least 4 frames of 5, and it must rise visibly above the trough before it
# and above the level downstream. The same analysis must fail without the outlet (the
# channel fills: the level rises and the crest wanders), so it detects a wrong flow.
#
# Then the 3D case of scenes/mac_sluice_gate.yaml: its flume alone (17 x 10 x 28 cells
# of 10 cm), a bed raised 0.4 m that ends in a step down into a sump with a drain in its
# floor, water 0.35 m deep running at 1 m/s from an inlet, and the scene's submerged
# pyramid (1.0 m wide, 0.3 m tall) 0.8 m downstream. Water flows over and round the
# pyramid and the two streams meet behind it in a standing ridge on the centre line:
# per frame over the last 1.4 s, the ridge is the row behind the pyramid where the
# centre (3 columns) stands highest over the sides (4 columns); it must stay within one
# row of its median in 3 frames of 4 and stand at least 3 cm over the sides on average.
# The same flume without the pyramid must fail that analysis.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

channel() {
    cat <<YAML
solver: mac
grid: {size: [60, 14, 1], cell: 0.05}
time: {frames: 30, fps: 10}
liquid:
  - level: 0.35
  - box: {min: [0.05, 0.05, 0], max: [2.95, 0.35, 0.05], velocity: [1.0, 0, 0]}
obstacles:
  - box: {min: [1.0, 0, 0], max: [1.3, 0.15, 0.05]}
sources:
  - inlet: {min: [0, 0.05, 0], max: [0.05, 0.35, 0.05], velocity: [1.0, 0, 0]}
$1
output: {preview: false, mesh: false, fields: [phi], checkpoint: 0}
YAML
}

# $tmp/vtkphi.py: read_phi(PATH) -> nx, ny, nz, the spacing along y, the first cell
# centre's y, and the values of a liquidcl `phi` dump (legacy VTK, big-endian float32)
cat >"$tmp/vtkphi.py" <<'PY'
import struct
def read_phi(path):
    data = open(path, "rb").read()
    end = data.index(b"LOOKUP_TABLE default\n") + len(b"LOOKUP_TABLE default\n")
    head = dict((w.split()[0], w.split()[1:]) for w in data[:end].decode().split("\n") if w.split())
    nx, ny, nz = map(int, head["DIMENSIONS"])
    h, y0 = float(head["SPACING"][1]), float(head["ORIGIN"][1])
    phi = struct.unpack(">%df" % (nx * ny * nz), data[end:end + 4 * nx * ny * nz])
    return nx, ny, nz, h, y0, phi
PY

# analyse DIR: prints what it measured; exit status 0 when the crest is stationary
analyse() {
    python3 - "$1" "$tmp" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from vtkphi import read_phi
def surface(path):
    nx, ny, nz, h, y0, phi = read_phi(path)
    out = []
    for i in range(nx):
        col = [phi[i + nx * j] for j in range(ny)]
        top = max([j for j in range(ny) if col[j] < 0], default=None)
        if top is None or top + 1 >= ny:
            out.append(None)
            continue
        out.append(y0 + (top + 0.5) * h + h * col[top] / (col[top] - col[top + 1]))
    return out
rows, pos, amp, over, down = [], [], [], [], []
for f in range(15, 31):
    s = surface("%s/fields/phi_%04d.vtk" % (sys.argv[1], f))
    m = {i: (s[i - 1] + s[i] + s[i + 1]) / 3 for i in range(26, 56)}  # 3-cell mean
    crest = max(range(33, 53), key=lambda i: m[i])         # behind the block (i 20-25)
    trough = min(range(26, crest), key=lambda i: m[i])
    d = sum(s[53:58]) / 5                                  # the level downstream
    pos.append(crest); amp.append(m[crest] - m[trough]); over.append(m[crest] - d)
    down.append(d)
med = sorted(pos)[len(pos) // 2]
near = sum(abs(p - med) <= 1 for p in pos)
drift = abs(sum(down[8:]) / 8 - sum(down[:8]) / 8)
A, O = sum(amp) / len(amp), sum(over) / len(over)
print("crest at cell %d (x = %.3f m) in %d of %d frames (+-1 cell; all: %s), %.1f cm over "
      "the trough, %.1f cm over the level downstream, which drifts %.1f cm"
      % (med, (med + 0.5) * 0.05, near, len(pos), " ".join(map(str, pos)), 100 * A,
         100 * O, 100 * drift))
ok = near >= 0.8 * len(pos) and A >= 0.06 and O >= 0.015 and drift <= 0.02
sys.exit(0 if ok else 1)
PY
}

echo "steady current over a submerged block:"
channel "  - outlet: {min: [2.95, 0.05, 0], max: [3.0, 0.7, 0.05]}" >"$tmp/flow.yaml"
if "$LQ" run "$tmp/flow.yaml" --out "$tmp/flow" --quiet; then
    if out=$(analyse "$tmp/flow" 2>&1); then pass "stationary crest: $out"; else fail "crest" "$out"; fi
else
    fail "run"
fi

echo "the same without the outlet (the channel fills):"
channel "" >"$tmp/fill.yaml"
if "$LQ" run "$tmp/fill.yaml" --out "$tmp/fill" --quiet; then
    if out=$(analyse "$tmp/fill" 2>&1); then fail "analysis accepts a filling channel" "$out"; else pass "rejected: $out"; fi
else
    fail "run"
fi

flume() {
    cat <<YAML
solver: mac
grid: {size: [17, 10, 28], cell: 0.1}
time: {frames: 45, fps: 15}
liquid:
  - box: {min: [0.1, 0.4, 0], max: [1.6, 0.75, 2.4], velocity: [0, 0, 1.0]}
obstacles:
  - box: {min: [0, 0, 0], max: [1.7, 0.4, 2.4]}
$1
sources:
  - inlet: {min: [0.1, 0.4, 0], max: [1.6, 0.75, 0.1], velocity: [0, 0, 1.0]}
  - outlet: {min: [0.1, 0, 2.4], max: [1.6, 0.1, 2.7]}
output: {preview: false, mesh: false, fields: [phi], checkpoint: 0}
YAML
}

# ridge DIR: prints what it measured; exit status 0 when a ridge stands behind the pyramid
ridge() {
    python3 - "$1" "$tmp" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from vtkphi import read_phi
def surface(path):
    nx, ny, nz, h, y0, phi = read_phi(path)
    out = {}
    for k in range(nz):
        for i in range(nx):
            col = [phi[i + nx * (j + ny * k)] for j in range(ny)]
            # the lowest liquid-to-air crossing (spray above does not count)
            js = [j for j in range(1, ny) if col[j - 1] <= 0 < col[j]]
            if js:
                j = js[0] - 1
                out[i, k] = y0 + j * h + h * col[j] / (col[j] - col[j + 1])  # y0: 1st centre
    return out
pos, amp = [], []
for f in range(25, 46):
    s = surface("%s/fields/phi_%04d.vtk" % (sys.argv[1], f))
    def lift(k):
        centre = sum(s[i, k] for i in (7, 8, 9)) / 3
        sides = sum(s[i, k] for i in (3, 4, 12, 13)) / 4
        return centre - sides
    k = max(range(13, 21), key=lift)  # the rows behind the pyramid (its tail: row 13)
    pos.append(k)
    amp.append(lift(k))
med = sorted(pos)[len(pos) // 2]
near = sum(abs(p - med) <= 1 for p in pos)
A = sum(amp) / len(amp)
print("ridge at row %d (z = %.2f m) in %d of %d frames (+-1 row; all: %s), %.1f cm over "
      "the sides" % (med, (med + 0.5) * 0.1, near, len(pos), " ".join(map(str, pos)), 100 * A))
sys.exit(0 if near >= 0.75 * len(pos) and A >= 0.03 else 1)
PY
}

echo "3D flume over the sluice-gate scene's pyramid:"
flume "  - mesh: {file: $ROOT/scenes/assets/pyramid.obj, scale: [1.0, 0.3, 1.0], translate: [0.85, 0.4, 0.8]}" >"$tmp/wake.yaml"
if "$LQ" run "$tmp/wake.yaml" --out "$tmp/wake" --quiet; then
    if out=$(ridge "$tmp/wake" 2>&1); then pass "standing ridge: $out"; else fail "ridge" "$out"; fi
else
    fail "run"
fi

echo "the same flume without the pyramid:"
flume "" >"$tmp/bare.yaml"
if "$LQ" run "$tmp/bare.yaml" --out "$tmp/bare" --quiet; then
    if out=$(ridge "$tmp/bare" 2>&1); then fail "analysis finds a ridge without the pyramid" "$out"; else pass "rejected: $out"; fi
else
    fail "run"
fi

echo "cli_mac_waves: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
