#!/usr/bin/env bash
# tests/cli/cli_pls_sources.sh LIQUIDCL — `pls` inlets and outlets through the command line
# (host/ops/pls/plssource.h): a 2D scene with every kind (a box inlet pouring sideways, an
# OBJ-mesh inlet opening later, a ball outlet in the pool's corner opening later, a level
# outlet trimming the pool once the inlets have closed) runs the same on the reference path and on OpenCL (stats bit for bit but for
# wall_ms), a run cut short while the inlets are open and resumed after they close ends
# bit for bit where an uninterrupted run does (their state is in the checkpoint), the
# stats carry source_volume, sink_volume and volume_drift, and bad sources get one line
# with FILE:LINE:COL and exit 2.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=$tmp/sources.yaml
cat >"$S" <<EOF
solver: pls
grid: {size: [32, 32, 1], cell: 0.03125}
time: {frames: 24, fps: 30}
liquid: [{level: 0.2}]
sources:
  - inlet:
      min: [0.0, 0.5, 0]
      max: [0.125, 0.625, 0.03125]
      velocity: [1, -0.5, 0]
      flow: 0.04
      profile: table
      table: [0, 1, 0.3, 2]
      stop: 0.5
  - inlet:
      mesh: {file: $ROOT/scenes/assets/pyramid.obj, scale: [0.15], translate: [0.7, 0.7, 0.015625]}
      velocity: [0, -1, 0]
      start: 0.2
      stop: 0.6
  - outlet:
      sphere: {center: [1.0, 0.0, 0.015625], radius: 0.15}
      start: 0.3
  - outlet: {level: 0.28, start: 0.65}
pls: {cfl: 3}
output: {mesh: false, preview: false, checkpoint: 3, fields: [phi, u, v]}
EOF
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }

echo "reference and OpenCL agree:"
"$LQ" run "$S" --out "$tmp/ref" --device ref --quiet || fail "reference run"
"$LQ" run "$S" --out "$tmp/cl" --device opencl --quiet || fail "OpenCL run"
if diff <(strip "$tmp/ref/stats.jsonl") <(strip "$tmp/cl/stats.jsonl") >/dev/null; then
    pass "stats.jsonl identical but for wall_ms"
else
    fail "stats differ" "$(diff <(strip "$tmp/ref/stats.jsonl") <(strip "$tmp/cl/stats.jsonl") | head -4)"
fi
check "fields/phi_0024.vtk bit-identical" cmp "$tmp/ref/fields/phi_0024.vtk" "$tmp/cl/fields/phi_0024.vtk"

out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
d = L[-1]
print("source %.5f m², sink %.5f m², drift %+.4f" % (d["source_volume"], d["sink_volume"], d["volume_drift"]))
assert len(L) == 25 and d["source_volume"] > 0.02 and d["sink_volume"] > 0
assert all(abs(x["volume_drift"]) < 0.05 for x in L), [x["volume_drift"] for x in L]
assert L[5]["sink_volume"] == 0 and L[12]["sink_volume"] > 0  # the ball outlet opens at 0.3 s
' "$tmp/ref/stats.jsonl" 2>&1) && pass "stats account the sources: $out" || fail "stats" "$out"

echo "a resumed run ends where an uninterrupted one does:"
"$LQ" run "$S" --out "$tmp/b" --device ref --quiet --frames 9 || fail "first part"
"$LQ" run "$S" --out "$tmp/b" --device ref --quiet --frames 24 --resume || fail "resume"
if diff <(strip "$tmp/ref/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null; then
    pass "stats.jsonl identical after a resume at frame 9 (inlets open, outlet closed)"
else
    fail "resumed stats differ" "$(diff <(strip "$tmp/ref/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -4)"
fi
for f in phi_0024.vtk u_0024.vtk; do
    check "fields/$f bit-identical after the resume" cmp "$tmp/ref/fields/$f" "$tmp/b/fields/$f"
done

echo "bad sources: one line, FILE:LINE:COL, exit 2:"
bad() { # NAME EXPECTED-TEXT SOURCES-YAML
    printf 'solver: pls\ngrid: {size: [16, 16, 16], cell: 0.0625}\nliquid: [{level: 0.2}]\nsources:\n%s\n' "$3" >"$tmp/bad.yaml"
    "$LQ" check "$tmp/bad.yaml" 2>"$tmp/err" >/dev/null
    local rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -q "^$tmp/bad.yaml:[0-9]*:[0-9]*: .*$2" "$tmp/err"; then
        pass "$1"
    else
        fail "$1: exit $rc" "$(cat "$tmp/err")"
    fi
}
bad "two shapes" "takes one shape" "  - inlet: {min: [0.4, 0.6, 0.4], max: [0.6, 0.7, 0.6], sphere: {center: [0.5, 0.5, 0.5], radius: 0.1}, velocity: [0, -1, 0]}"
bad "no cell" "holds no cell centre" "  - inlet: {min: [2, 2, 2], max: [3, 3, 3], velocity: [0, -1, 0]}"
bad "half a box" "needs both" "  - outlet: {min: [0.4, 0.6, 0.4]}"
bad "zero velocity" "nonzero velocity" "  - inlet: {min: [0.4, 0.6, 0.4], max: [0.6, 0.7, 0.6], velocity: [0, 0, 0]}"
bad "no open face" "no open face" "  - inlet: {min: [0.4, 0, 0.4], max: [0.6, 0.05, 0.6], velocity: [0, -1, 0]}"
bad "window" "is not after its start" "  - outlet: {level: 0.5, start: 2, stop: 1}"
bad "a height-field source" "not used by solver 'pls'" "  - rain: {rate: 1, radius: 0.01}"
bad "a missing mesh" "cannot read file" "  - outlet: {mesh: {file: nothere.obj}}"
printf 'solver: mac\ngrid: {size: [16, 16, 16], cell: 0.0625}\nliquid: [{level: 0.2}]\nsources:\n  - outlet: {max: [0.6, 0.7, 0.6]}\n' >"$tmp/mac.yaml"
"$LQ" check "$tmp/mac.yaml" 2>"$tmp/err" >/dev/null
rc=$?
[[ $rc -eq 2 ]] && grep -q "mac.yaml:5:.*solver 'mac' takes a box outlet" "$tmp/err" &&
    pass "mac: a box needs min and max" || fail "mac box: exit $rc" "$(cat "$tmp/err")"

echo "$checks checks, $fails failed"
[[ $fails -eq 0 ]]
