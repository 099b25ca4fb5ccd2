#!/usr/bin/env bash
# tests/cli/cli_pls_grids.sh LIQUIDCL — `pls` grid sourcing (grids:, Rasmussen et al. §5.4)
# through the binary: a 2D stream from an inlet runs from grid A into grid B downstream (8
# cells of overlap) and is compared with one grid covering both: the front in B within 3
# cells of the single grid's while it runs (frames 6-10), the liquid area beyond the band
# (x > 0.595 m) within 12 % from frame 8 (measured: at most 1 cell, 5 cells at frame 11 where
# the front reaches the far wall; areas within 8 %); the run is pipelined (B's first frame
# is written before A's last band); bad graphs and bad band files are refused (exit 2).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

cat >"$tmp/one.yaml" <<'YAML'
solver: pls
grid: {size: [120, 32, 1], cell: 0.01}
time: {frames: 20, fps: 20}
sources:
  - inlet: {min: [0.0, 0.0, 0], max: [0.06, 0.08, 0.01], velocity: [1.0, 0, 0]}
output: {fields: [phi], preview: false, mesh: false}
YAML
grids='grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [64, 32, 1], origin: [0.56, 0, 0], upstream: A}'
{ cat "$tmp/one.yaml"; echo "$grids"; } >"$tmp/two.yaml"

echo "a stream from grid A into grid B agrees with one grid:"
check "single grid runs" "$LQ" run "$tmp/one.yaml" --out "$tmp/one" --device ref --quiet
check "two grids run (one process each)" "$LQ" run "$tmp/two.yaml" --out "$tmp/two" --device ref --quiet
out=$(python3 - "$tmp/one" "$tmp/two" <<'PY'
import os, struct, sys
def load(path):
    data = open(path, 'rb').read()
    end = data.index(b'LOOKUP_TABLE default\n') + len(b'LOOKUP_TABLE default\n')
    dims = org = sp = None
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
            x = org[0] + i * h
            if x >= xmin and v[i + dims[0] * j] <= 0:
                area += h * h
                front = max(front, x)
    return area, front
one, two = sys.argv[1], sys.argv[2]
bad, worst_f, worst_v = [], 0.0, 0.0
for f in range(6, 21):
    a1, f1 = measure('%s/fields/phi_%04d.vtk' % (one, f))
    a2, f2 = measure('%s/B/fields/phi_%04d.vtk' % (two, f))
    if f <= 10:
        worst_f = max(worst_f, abs(f1 - f2))
        if abs(f1 - f2) > 0.0301: bad.append('frame %d front %.3f vs %.3f' % (f, f2, f1))
    if f >= 8:
        worst_v = max(worst_v, abs(a2 - a1) / a1)
        if abs(a2 - a1) > 0.12 * a1: bad.append('frame %d area %.5f vs %.5f' % (f, a2, a1))
b1 = os.stat('%s/B/fields/phi_0001.vtk' % two).st_mtime_ns
last = max(os.stat(os.path.join(two, 'bands/A', n)).st_mtime_ns
           for n in os.listdir(two + "/bands/A"))
if not b1 < last: bad.append('not pipelined: B frame 1 %d, A last band %d' % (b1, last))
print('bad' if bad else 'ok', '; '.join(bad), 'front %.3f m, area %.1f %%, B frame 1 %.3f s before A last band'
      % (worst_f, 100 * worst_v, (last - b1) * 1e-9))
PY
)
[[ $out == ok* ]] && pass "front, area and overlap (${out#ok })" || fail "against one grid" "$out"

echo "band files that are truncated, foreign or missing are refused (exit 2):"
band="$tmp/two/bands/A"
refuse() { # NAME PATTERN: grid B run alone against the changed bands
    local name=$1 pat=$2 msg rc
    msg=$("$LQ" run "$tmp/two.yaml" --grid B --out "$tmp/two" --device ref --quiet --frames 2 2>&1)
    rc=$?
    if [[ $rc == 2 && $msg == *"$pat"* && $(wc -l <<<"$msg") == 1 ]]; then pass "$name: $msg"
    else fail "$name" "exit $rc: $msg"; fi
}
rm -rf "$tmp/two/B"
cp "$band/00000003.band" "$tmp/keep.band"
head -c 200 "$tmp/keep.band" >"$band/00000003.band"
refuse "truncated" "is truncated"
cp "$tmp/keep.band" "$band/00000003.band"
"$LQ" run "$tmp/two.yaml" --grid A --out "$tmp/other" --device ref --quiet --frames 1 \
    --set time.fps=21 >/dev/null 2>&1
cp "$tmp/other/bands/A/00000002.band" "$band/00000002.band"
refuse "another scene" "from another scene"
cp "$tmp/other/bands/A/00000002.band" /dev/null
rm -rf "$tmp/two/bands/A" && mkdir -p "$tmp/two/bands/A"
cp "$tmp/keep.band" "$band/00000003.band" 2>/dev/null
echo "0 0" >"$tmp/two/bands/A.done"
refuse "missing" "is missing"

echo "bad graphs are refused (exit 2, FILE:LINE:COL):"
bad() { # NAME PATTERN GRIDS
    { cat "$tmp/one.yaml"; echo "$3"; } >"$tmp/bad.yaml"
    local msg rc
    msg=$("$LQ" check "$tmp/bad.yaml" 2>&1)
    rc=$?
    if [[ $rc == 2 && $msg == *"$2"* && $msg =~ bad.yaml:[0-9]+:[0-9]+: ]]; then pass "$1: $msg"
    else fail "$1" "exit $rc: $msg"; fi
}
bad "unknown upstream" "no grid named 'C'" 'grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [64, 32, 1], origin: [0.56, 0, 0], upstream: C}'
bad "cycle" "a cycle" 'grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0], upstream: B}
  - grid: {name: B, size: [64, 32, 1], origin: [0.56, 0, 0], upstream: A}'
bad "overlap under 3 cells" "by 2 cells across its x_min face" 'grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [64, 32, 1], origin: [0.62, 0, 0], upstream: A}'
bad "no overlap" "does not overlap" 'grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [64, 32, 1], origin: [0.70, 0, 0], upstream: A}'

echo "$checks checks, $fails failed"
[[ $fails == 0 ]]
