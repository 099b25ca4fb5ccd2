#!/usr/bin/env bash
# tests/cli/cli_pls_nu.sh LIQUIDCL — viscosity per liquid region (`liquid[].viscosity`,
# Rasmussen et al. 2004 §5.1 variable viscosity): two equal 0.24 m square blocks released
# at the two ends of a 2D tank (64 x 24, h = 0.02 m, pls.viscosity 0), the left one with
# ν = 0.5 m²/s. The liquid carries its ν (advected with φ), so after 4 frames (0.13 s) the
# viscous block's bottom front has moved far less than the inviscid one's and its half of
# the tank is slower (measured on ref: front 0.025 m vs 0.136 m, max |u| 0.30 vs 2.08 m/s).
# The mirror (pls.viscosity 0.5, the right block's region ν = 0) gives the same split
# (measured: 0.025 m vs 0.114 m; the front cells the ν = 0 liquid moves into take some of
# the air's ν₀ = 0.5 by the advection's interpolation, so it is a little slower than 0.136).
# Reference and OpenCL agree bit for bit; a scene without region viscosity allocates no
# advected ν (the plan has no nun; its stats were byte-identical to main's before).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

scene() { # $1: left block's item line, $2: right block's, $3: pls.viscosity
    cat <<YAML
solver: pls
grid:
  size: [64, 24, 1]
  cell: 0.02
time:
  frames: 4
  fps: 30
liquid:
  - box: {min: [0, 0, 0], max: [0.24, 0.24, 0.02]}
$1
  - box: {min: [1.04, 0, 0], max: [1.28, 0.24, 0.02]}
$2
pls:
  cfl: 2
  viscosity: $3
output:
  preview: false
  mesh: false
  fields: [phi, u]
YAML
}
scene "    viscosity: 0.5" "" 0 >"$tmp/two.yaml"
scene "" "    viscosity: 0" 0.5 >"$tmp/mirror.yaml"

# the bottom row's fronts (φ's zero crossing) and the largest |u| in each half
fronts() {
    python3 - "$1" <<'PY'
import struct, sys
d = sys.argv[1]; NX, NY, h = 64, 24, 0.02
def read(name):
    raw = open("%s/fields/%s_0004.vtk" % (d, name), "rb").read()
    pos = 0
    for _ in range(10): pos = raw.index(b"\n", pos) + 1
    n = (len(raw) - pos - 1) // 4
    return struct.unpack(">%df" % n, raw[pos:pos + 4 * n])
phi, u = read("phi"), read("u")
def front(i, s):
    while not (phi[i] <= 0 < phi[i + s]): i += s
    return (i + 0.5 + s * phi[i] / (phi[i] - phi[i + s])) * h
uL = max(abs(u[j * (NX + 1) + i]) for j in range(NY) for i in range(NX // 2 + 1))
uR = max(abs(u[j * (NX + 1) + i]) for j in range(NY) for i in range(NX // 2, NX + 1))
print("%.4f %.4f %.4f %.4f" % (front(0, 1) - 0.24, 1.04 - front(NX - 1, -1), uL, uR))
PY
}

echo "two blocks, the left one nu = 0.5 m2/s, the right inviscid (reference C):"
"$LQ" run "$tmp/two.yaml" --out "$tmp/two" --device ref --quiet || fail "run"
read -r fl fr ul ur <<<"$(fronts "$tmp/two")"
python3 -c "import sys; fl, fr, ul, ur = map(float, sys.argv[1:]); assert fr > 0.06 and fl < 0.4 * fr and ul < 0.4 * ur" \
    "$fl" "$fr" "$ul" "$ur" &&
    pass "viscous front moved $fl m (max |u| $ul m/s), inviscid $fr m ($ur m/s)" ||
    fail "viscous block not slower: fronts $fl $fr, max |u| $ul $ur"

echo "mirror: pls.viscosity 0.5, the right block's region nu = 0:"
"$LQ" run "$tmp/mirror.yaml" --out "$tmp/mirror" --device ref --quiet || fail "run"
read -r fl fr ul ur <<<"$(fronts "$tmp/mirror")"
python3 -c "import sys; fl, fr, ul, ur = map(float, sys.argv[1:]); assert fr > 0.06 and fl < 0.4 * fr and ul < 0.4 * ur" \
    "$fl" "$fr" "$ul" "$ur" &&
    pass "left (pls.viscosity) front moved $fl m (max |u| $ul m/s), right (nu 0) $fr m ($ur m/s)" ||
    fail "region nu = 0 not inviscid: fronts $fl $fr, max |u| $ul $ur"

echo "reference vs OpenCL:"
check "two blocks, 2 frames: bit for bit" "$LQ" diff "$tmp/two.yaml" --frames 2

echo "memory: the advected nu only with region viscosity:"
out=$("$LQ" run "$tmp/two.yaml" --plan 2>&1)
grep -q "viscosity solve, nu and nun" <<<"$out" && pass "region viscosity: nu and nun planned" ||
    fail "no nun in the plan" "$out"
out=$("$LQ" run "$tmp/two.yaml" --plan --set pls.viscosity=0.1 --set 'liquid=[{box: {min: [0, 0, 0], max: [0.24, 0.24, 0.02]}}]' 2>&1)
grep -q "viscosity solve and nu$" <<<"$out" && ! grep -q nun <<<"$out" &&
    pass "pls.viscosity alone: nu only" || fail "pls.viscosity alone plans more" "$out"

echo "cli_pls_nu: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
