#!/usr/bin/env bash
# tests/cli/cli_pls_grids_fine.sh LIQUIDCL — `pls` grid sourcing (§5.4) into a finer grid:
# a 2D stream from an inlet runs from a coarse grid A (cell 0.01 m) into B, twice as fine
# (grids[].grid.cell 0.005 m), whose band is resampled trilinearly from A's stored shell.
# Compared with one fine grid (0.005 m) covering both, with the liquid beyond B's band
# (x > 0.595 m): the front within 0.09 m while it runs (frames 6-10) and on average closer
# to the fine grid's than one coarse grid's is (the coarse upstream is the error; measured:
# at most 0.080 m, mean 0.059 m against the coarse grid's 0.125 m and 0.073 m), and the area
# within 5 % from frame 9 on (measured: at most 2.1 %).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

head='time: {frames: 20, fps: 20}
sources:
  - inlet: {min: [0.0, 0.0, 0], max: [0.06, 0.08, 0.01], velocity: [1.0, 0, 0]}
output: {fields: [phi], preview: false, mesh: false}'
printf 'solver: pls\ngrid: {size: [240, 64, 1], cell: 0.005}\n%s\n' "$head" >"$tmp/fine.yaml"
printf 'solver: pls\ngrid: {size: [120, 32, 1], cell: 0.01}\n%s\n' "$head" >"$tmp/coarse.yaml"
{ cat "$tmp/coarse.yaml"; cat <<'YAML'; } >"$tmp/two.yaml"
grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [128, 64, 1], origin: [0.56, 0, 0], cell: 0.005, upstream: A}
YAML

echo "a stream from a coarse grid A into a 2x finer grid B agrees with one fine grid:"
check "one fine grid runs" "$LQ" run "$tmp/fine.yaml" --out "$tmp/fine" --device ref --quiet
check "one coarse grid runs" "$LQ" run "$tmp/coarse.yaml" --out "$tmp/coarse" --device ref --quiet
check "coarse A into fine B runs" "$LQ" run "$tmp/two.yaml" --out "$tmp/two" --device ref --quiet
out=$(python3 - "$tmp" <<'PY'
import struct, sys
def load(path):
    data = open(path, 'rb').read()
    end = data.index(b'LOOKUP_TABLE default\n') + len(b'LOOKUP_TABLE default\n')
    for l in data[:end].decode('latin1').split('\n'):
        if l.startswith('DIMENSIONS'): dims = [int(x) for x in l.split()[1:]]
        if l.startswith('ORIGIN'): org = [float(x) for x in l.split()[1:]]
        if l.startswith('SPACING'): sp = [float(x) for x in l.split()[1:]]
    n = dims[0] * dims[1] * dims[2]
    return dims, org, sp[0], struct.unpack('>%df' % n, data[end:end + 4 * n])
def measure(path, xmin=0.595):
    dims, org, h, v = load(path)
    area, front = 0.0, -1.0
    for j in range(dims[1]):
        for i in range(dims[0]):
            x = org[0] + (i + 0.5) * h
            if x >= xmin and v[i + dims[0] * j] <= 0:
                area += h * h
                front = max(front, x)
    return area, front
t = sys.argv[1]
bad, fronts, coarse, worst_v = [], [], [], 0.0
for f in range(6, 21):
    a1, f1 = measure('%s/fine/fields/phi_%04d.vtk' % (t, f))
    a2, f2 = measure('%s/two/B/fields/phi_%04d.vtk' % (t, f))
    a3, f3 = measure('%s/coarse/fields/phi_%04d.vtk' % (t, f))
    if f <= 10:
        fronts.append(abs(f2 - f1))
        coarse.append(abs(f3 - f1))
        if abs(f2 - f1) > 0.09: bad.append('frame %d front %.3f vs %.3f' % (f, f2, f1))
    if f >= 9:
        worst_v = max(worst_v, abs(a2 - a1) / a1)
        if abs(a2 - a1) > 0.05 * a1: bad.append('frame %d area %.5f vs %.5f' % (f, a2, a1))
m2, m3 = sum(fronts) / len(fronts), sum(coarse) / len(coarse)
if not m2 < m3: bad.append('mean front error %.3f m, one coarse grid %.3f m' % (m2, m3))
print('bad ' + '; '.join(bad) if bad else
      'ok front at most %.3f m (mean %.3f, one coarse grid %.3f), area %.1f %%'
      % (max(fronts), m2, m3, 100 * worst_v))
PY
)
[[ $out == ok* ]] && pass "front and area (${out#ok })" || fail "against one fine grid" "$out"

echo "a finer band outside the upstream shell is refused (exit 2, FILE:LINE:COL):"
sed 's/origin: \[0, 0, 0\]}/origin: [0, 0, 0], shell: 8}/' "$tmp/two.yaml" >"$tmp/bad.yaml"
msg=$("$LQ" check "$tmp/bad.yaml" 2>&1)
rc=$?
if [[ $rc == 2 && $msg == *"beyond what 'A' stores"* && $msg =~ bad.yaml:[0-9]+:[0-9]+: ]]; then
    pass "shell too shallow: $msg"
else fail "shell too shallow" "exit $rc: $msg"; fi
sed 's/cell: 0.005, upstream/cell: 0.003, upstream/' "$tmp/two.yaml" >"$tmp/bad.yaml"
msg=$("$LQ" check "$tmp/bad.yaml" 2>&1)
rc=$?
if [[ $rc == 2 && $msg == *"divided by a whole number"* ]]; then pass "cell not grid.cell / n: $msg"
else fail "cell not grid.cell / n" "exit $rc: $msg"; fi

echo "$checks checks, $fails failed"
[[ $fails == 0 ]]
