#!/usr/bin/env bash
# tests/cli/cli_pls_grids_added.sh LIQUIDCL — `pls` grid sourcing (§5.4): a grid added
# downstream later runs from the stored bands without rerunning the grids above it (issue
# 16 item 5). A 2D stream runs from grid A into B (B names `outflow: x_max`, so it stores
# its shell there though nothing is downstream yet); then grid C is added downstream of B
# and run alone (`--grid C`) against the stored files. It must reproduce the C of running
# all three together: stats.jsonl identical once the timing fields (*_ms, *_s) are left
# out, and φ of the last frame byte for byte; A's and B's band files untouched; C holds
# liquid by its last frame. Changing an upstream grid's block, or a B that ran without
# outflow faces, is refused (exit 2, one line naming what to rerun).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

cat >"$tmp/two.yaml" <<'YAML'
solver: pls
grid: {size: [176, 32, 1], cell: 0.01}
time: {frames: 16, fps: 20}
sources:
  - inlet: {min: [0.0, 0.0, 0], max: [0.06, 0.08, 0.01], velocity: [1.0, 0, 0]}
output: {fields: [phi], preview: false, mesh: false}
grids:
  - grid: {name: A, size: [64, 32, 1], origin: [0, 0, 0]}
  - grid: {name: B, size: [64, 32, 1], origin: [0.56, 0, 0], upstream: A, outflow: x_max}
YAML
c='  - grid: {name: C, size: [64, 32, 1], origin: [1.12, 0, 0], upstream: B}'
{ cat "$tmp/two.yaml"; echo "$c"; } >"$tmp/three.yaml"

echo "grid C added after A and B ran reproduces running all three:"
check "A and B run" "$LQ" run "$tmp/two.yaml" --out "$tmp/later" --device ref --quiet
sums() { (cd "$tmp/later/bands" && find A B -name '*.band' | sort | xargs md5sum | md5sum); }
before=$(sums)
check "C runs alone from the stored bands" "$LQ" run "$tmp/three.yaml" --grid C \
    --out "$tmp/later" --device ref --quiet
[[ $(sums) == "$before" ]] && pass "A's and B's band files untouched" \
    || fail "A's and B's band files" "changed by --grid C"
check "A, B and C run together" "$LQ" run "$tmp/three.yaml" --out "$tmp/all" --device ref --quiet
out=$(python3 - "$tmp/later" "$tmp/all" <<'PY'
import json, re, sys
def load(p):
    return [{k: v for k, v in json.loads(l).items() if not re.search(r'(_ms|_s)$', k)}
            for l in open(p)]
later, together = sys.argv[1], sys.argv[2]
bad = []
for g in 'ABC':
    a, b = load('%s/%s/stats.jsonl' % (later, g)), load('%s/%s/stats.jsonl' % (together, g))
    if a != b: bad.append('%s: stats.jsonl differs' % g)
c = load('%s/C/stats.jsonl' % later)
if not c[-1]['liquid_volume'] > 0.002: bad.append('C holds %g m2' % c[-1]['liquid_volume'])
if open('%s/C/fields/phi_0016.vtk' % later, 'rb').read() != \
   open('%s/C/fields/phi_0016.vtk' % together, 'rb').read(): bad.append('C phi differs')
print('bad ' + '; '.join(bad) if bad else 'ok %d frames, C holds %.5f m2 at the end'
      % (len(c), c[-1]['liquid_volume']))
PY
)
[[ $out == ok* ]] && pass "same C, B and A (${out#ok })" || fail "against all three" "$out"

echo "stored bands of another upstream are refused (exit 2, one line):"
refuse() { # NAME PATTERN SCENE
    local msg rc
    rm -rf "$tmp/later/C"
    msg=$("$LQ" run "$3" --grid C --out "$tmp/later" --device ref --quiet --frames 2 2>&1)
    rc=$?
    if [[ $rc == 2 && $msg == *"$2"* && $(wc -l <<<"$msg") == 1 ]]; then pass "$1: $msg"
    else fail "$1" "exit $rc: $msg"; fi
}
sed 's/origin: \[0, 0, 0\]}/origin: [0, 0, 0], shell: 12}/' "$tmp/three.yaml" >"$tmp/changed.yaml"
refuse "A's block changed (B's identity with it)" "rerun grid B" "$tmp/changed.yaml"
sed 's/, outflow: x_max//' "$tmp/two.yaml" >"$tmp/closed.yaml"
"$LQ" run "$tmp/closed.yaml" --out "$tmp/later" --device ref --quiet >/dev/null 2>&1
{ cat "$tmp/closed.yaml"; echo "$c"; } >"$tmp/closed3.yaml"
refuse "B ran without outflow faces" "rerun grid B" "$tmp/closed3.yaml"

echo "$checks checks, $fails failed"
[[ $fails == 0 ]]
