#!/usr/bin/env bash
# tests/cli/cli_pls_grids_resume.sh LIQUIDCL — `pls` grid sourcing (§5.4) resumed (issue 16
# item 5: "a killed upstream grid resumed from its checkpoint continues its bands without a
# gap"). A 2D stream runs from grid A into B; the reference is one uninterrupted run. Then:
#   1. A and B run as two processes (--grid); A is killed (SIGTERM) after its first
#      checkpoint while B runs, and resumed with --resume; B completes;
#   2. A cut by --frames, resumed to the end, then B started after it;
#   3. B alone cut by --frames, then resumed from a scene with a grid C added downstream
#      (the checkpoint's identity is B's own, not the grids[] list);
#   4. the whole scene cut by --frames and resumed with a plain `run --resume`.
# Each must give A's and B's stats.jsonl of the uninterrupted run (without the timing
# fields *_ms, *_s) and B's last φ byte for byte. A checkpoint of a B whose block changed is
# refused.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

cat >"$tmp/two.yaml" <<'YAML'
solver: pls
grid: {size: [176, 32, 1], cell: 0.01}
time: {frames: 12, fps: 20}
sources:
  - inlet: {min: [0.0, 0.0, 0], max: [0.06, 0.08, 0.01], velocity: [1.0, 0, 0]}
output: {fields: [phi], preview: false, mesh: false, checkpoint: 2}
grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [64, 32, 1], origin: [0.56, 0, 0], upstream: A, outflow: x_max}
YAML
{ cat "$tmp/two.yaml"
  echo '  - grid: {name: C, size: [64, 32, 1], origin: [1.12, 0, 0], upstream: B}'; } >"$tmp/three.yaml"
run() { "$LQ" run "$@" --device ref --quiet; }

same() { # NAME DIR: A's and B's stats and B's last φ against the reference
    local out
    out=$(python3 - "$tmp/ref" "$2" <<'PY'
import json, re, sys
def load(p):
    return [{k: v for k, v in json.loads(l).items() if not re.search(r'(_ms|_s)$', k)}
            for l in open(p)]
ref, got = sys.argv[1], sys.argv[2]
bad = []
for g in 'AB':
    a, b = load('%s/%s/stats.jsonl' % (ref, g)), load('%s/%s/stats.jsonl' % (got, g))
    if a != b:
        d = [i for i in range(min(len(a), len(b))) if a[i] != b[i]]
        bad.append('%s: stats.jsonl differs (%d vs %d lines, first at %s)' % (g, len(a), len(b), d[:1]))
if open('%s/B/fields/phi_0012.vtk' % ref, 'rb').read() != \
   open('%s/B/fields/phi_0012.vtk' % got, 'rb').read(): bad.append('B phi differs')
b = load('%s/B/stats.jsonl' % got)
print('bad ' + '; '.join(bad) if bad else 'ok %d frames, B holds %.5f m2 at the end'
      % (len(b), b[-1]['liquid_volume']))
PY
)
    [[ $out == ok* ]] && pass "$1 (${out#ok })" || fail "$1" "$out"
}

echo "the uninterrupted run:"
check "A and B run" run "$tmp/two.yaml" --out "$tmp/ref"

echo "A killed while B runs, A resumed:"
d=$tmp/kill
"$LQ" run "$tmp/two.yaml" --grid A --out "$d" --device ref --quiet 2>"$tmp/a.err" & apid=$!
"$LQ" run "$tmp/two.yaml" --grid B --out "$d" --device ref --quiet 2>"$tmp/b.err" & bpid=$!
for _ in $(seq 1 2000); do [[ -e $d/A/checkpoint.lqc ]] && break; sleep 0.01; done
kill -TERM "$apid" 2>/dev/null
wait "$apid"; arc=$?
lines=$(wc -l <"$d/A/stats.jsonl")
if [[ $arc != 0 && $lines -lt 13 ]]; then pass "A stopped by SIGTERM after frame $((lines - 1))"
else fail "A stopped by SIGTERM" "exit $arc with $lines lines (it ran to the end first)"; fi
check "A resumed" run "$tmp/two.yaml" --grid A --out "$d" --resume
wait "$bpid" && pass "B, running all along, completes" || fail "B completes" "$(cat "$tmp/b.err")"
same "A and B equal the uninterrupted run" "$d"

echo "A cut by --frames, resumed, B started after:"
d=$tmp/cut
check "A runs 5 frames" run "$tmp/two.yaml" --grid A --out "$d" --frames 5
check "A resumed to the end" run "$tmp/two.yaml" --grid A --out "$d" --resume
check "B runs from A's bands" run "$tmp/two.yaml" --grid B --out "$d"
same "A and B equal the uninterrupted run" "$d"

echo "B alone cut and resumed, with grid C added to the scene meanwhile:"
d=$tmp/bcut
cp -r "$tmp/ref" "$d"
rm -rf "$d/B"
check "B runs 7 frames" run "$tmp/two.yaml" --grid B --out "$d" --frames 7
check "B resumed (grid C added)" run "$tmp/three.yaml" --grid B --out "$d" --resume
same "A and B equal the uninterrupted run" "$d"
sed 's/outflow: x_max}/outflow: x_max, shell: 12}/' "$tmp/two.yaml" >"$tmp/changed.yaml"
msg=$("$LQ" run "$tmp/changed.yaml" --grid B --out "$d" --device ref --quiet --resume 2>&1)
rc=$?
[[ $rc == 2 ]] && pass "a checkpoint of B with another block refused: $(head -1 <<<"$msg")" \
    || fail "B's changed block refused" "exit $rc: $msg"

echo "the whole scene cut and resumed with run --resume:"
d=$tmp/all
check "both grids run 5 frames" run "$tmp/two.yaml" --out "$d" --frames 5
check "run --resume" run "$tmp/two.yaml" --out "$d" --resume
same "A and B equal the uninterrupted run" "$d"
check "run --resume of finished grids: nothing to run" run "$tmp/two.yaml" --out "$d" --resume
same "and still equal" "$d"

echo "$checks checks, $fails failed"
[[ $fails == 0 ]]
