#!/usr/bin/env bash
# tests/cli/cli_mesh_position.sh LIQUIDCL — the liquid's PLY mesh lies where φ puts the
# surface: a still pool (level 0.3 m) and a box of liquid in a `pls` tank (16 x 24 x 8,
# h = 0.02 m; φ is exact at the cell centres there). The mesh's top must be the level,
# the pool's sides the domain faces (0 and 0.32 m), the box's faces its faces. The
# mesh was written with the first cell centre as the grid's corner: ½ h (0.01 m) high,
# right and deep on every axis.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

cat >"$tmp/pool.yaml" <<'YAML'
solver: pls
grid:
  size: [16, 24, 8]
  cell: 0.02
time:
  frames: 1
  fps: 30
liquid:
  - level: 0.3
output:
  preview: false
YAML
cat >"$tmp/box.yaml" <<'YAML'
solver: pls
grid:
  size: [16, 24, 8]
  cell: 0.02
time:
  frames: 1
  fps: 30
gravity: [0, 0, 0]
liquid:
  - box: {min: [0.1, 0.1, 0.04], max: [0.2, 0.3, 0.12]}
output:
  preview: false
YAML

bounds() {
    python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
e = d.index(b"end_header\n") + 11
head = d[:e].decode().split("\n")
nv = int([l for l in head if l.startswith("element vertex")][0].split()[2])
stride = 4 * sum(1 for l in head if l.startswith("property float"))
lo = [1e9] * 3
hi = [-1e9] * 3
for i in range(nv):
    v = struct.unpack_from("<3f", d, e + stride * i)
    for a in range(3):
        lo[a] = min(lo[a], v[a])
        hi[a] = max(hi[a], v[a])
print(" ".join("%.5f" % x for x in lo + hi))' "$1"
}
# near A B...: each pair within 1e-3 m (a tenth of the old ½ h error)
near() {
    python3 -c '
import sys
got = [float(x) for x in sys.argv[1].split()]
want = [float(x) for x in sys.argv[2].split()]
assert all(abs(g - w) <= 1e-3 for g, w in zip(got, want)), (got, want)' "$1" "$2"
}

echo "mesh position (pls, 16 x 24 x 8, h = 0.02 m):"
"$LQ" run "$tmp/pool.yaml" --out "$tmp/pool" --quiet --device ref || fail "pool run"
b=$(bounds "$tmp/pool/mesh/0000.ply" 2>&1)
near "$b" "0 0 0 0.32 0.3 0.16" 2>/dev/null && pass "pool: x 0-0.32, y 0-0.3, z 0-0.16 ($b)" ||
    fail "pool mesh bounds (lo xyz, hi xyz)" "$b" "want 0 0 0 0.32 0.3 0.16"
"$LQ" run "$tmp/box.yaml" --out "$tmp/box" --quiet --device ref || fail "box run"
b=$(bounds "$tmp/box/mesh/0000.ply" 2>&1)
near "$b" "0.1 0.1 0.04 0.2 0.3 0.12" 2>/dev/null && pass "box: its faces ($b)" ||
    fail "box mesh bounds (lo xyz, hi xyz)" "$b" "want 0.1 0.1 0.04 0.2 0.3 0.12"

echo "cli_mesh_position: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
