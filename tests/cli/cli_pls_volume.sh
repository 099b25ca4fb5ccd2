#!/usr/bin/env bash
# tests/cli/cli_pls_volume.sh LIQUIDCL — the `pls` solver keeps the water of a splash
# (host/solvers/pls.c, step 3): a 2D column poured into a shallow pool
# (tests/data/scenes/pls_pour_2d.yaml, reference C, 30 frames) keeps its volume from φ
# within 5 % at every frame. Before the particles still escaped after both corrections
# were deleted, the air particles the splash pushed into the pool carved it away at each
# correction: -20.3 % at frame 30 (-3 % at 12, -15 % at 17); then -1.5 % to +1.7 % in the
# per-cell measure. volume_change is now the zero set's volume (host/ops/pls/plsforce.h),
# which reads -5.9 % for that code and -4.6 % with pls.reinit_keep's kept interface cells.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

echo "2D pour into a shallow pool (48 x 48, h = 0.025 m, CFL 3, reference C):"
"$LQ" run tests/data/scenes/pls_pour_2d.yaml --out "$tmp/p" --device ref --quiet ||
    fail "pour run"
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
dv = [d["volume_change"] for d in L]
print("volume change %+.2f %% to %+.2f %%, %+.2f %% at frame 30" % (100 * min(dv), 100 * max(dv), 100 * dv[-1]))
assert len(L) == 31
assert max(abs(x) for x in dv) <= 0.05, dv
assert L[-1]["particles"] > 0' "$tmp/p/stats.jsonl" 2>&1) &&
    pass "the pool keeps its water: $out" || fail "volume" "$out"

# The dam break at its default resolution (scenes/pls_dam_break.yaml, 64 x 40 x 28, 30
# frames, PoCL, ~15 s): the column's collapse, the splash over the block, the sheet up the
# far wall and its fall keep the zero set's volume within 1 % at every frame (issue 17's
# target). Measured: -0.67 % to +0.36 %; before the reinitialisation kept its interface
# cells (pls.reinit_keep 0) -1.84 % to +0.67 %, and the per-cell measure the stats had
# then read -0.41 % to +1.39 % for that code.
echo "dam break, 64 x 40 x 28, 30 frames (OpenCL):"
"$LQ" run scenes/pls_dam_break.yaml --out "$tmp/d" --quiet --set output.mesh=false \
    --set output.preview=false || fail "dam break run"
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
dv = [d["volume_change"] for d in L]
print("volume change %+.2f %% to %+.2f %%, %+.2f %% at frame 30" % (100 * min(dv), 100 * max(dv), 100 * dv[-1]))
assert len(L) == 31
assert max(abs(x) for x in dv) <= 0.01, dv' "$tmp/d/stats.jsonl" 2>&1) &&
    pass "the dam break keeps its water within 1 %: $out" || fail "dam break volume" "$out"

# The opt-in global correction (pls.volume_correction): the same 2D pour within 0.5 % at
# every frame (one Newton step a step: measured -0.25 % to +0.26 %), what it added reported
# per frame (+22.8 % of the initial volume over the run: the particles keep taking back
# part of what it adds); refused with sources.
echo "the opt-in global volume correction:"
"$LQ" run tests/data/scenes/pls_pour_2d.yaml --out "$tmp/c" --device ref --quiet \
    --set pls.volume_correction=true || fail "corrected pour run"
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
dv = [d["volume_change"] for d in L]
added = sum(d["volume_correction"] for d in L)
print("volume change %+.3f %% to %+.3f %%; the correction added %+.2f %% of the start" % (100 * min(dv), 100 * max(dv), 100 * added / L[0]["liquid_volume"]))
assert max(abs(x) for x in dv) <= 5e-3, dv
assert added > 0.01 * L[0]["liquid_volume"]' "$tmp/c/stats.jsonl" 2>&1) &&
    pass "corrected and reported: $out" || fail "volume correction" "$out"
out=$("$LQ" check tests/data/scenes/pls_pour_2d.yaml --set pls.volume_correction=true \
    --set 'sources=[{inlet: {min: [0.1, 0.9, 0], max: [0.2, 1.0, 0.025], velocity: [0, -1, 0]}}]' 2>&1)
[[ $? -eq 2 && $out == *"volume_correction cannot be used with sources"* ]] &&
    pass "refused with sources" || fail "refused with sources" "$out"

echo "$checks checks, $fails failed"
[[ $fails -eq 0 ]]
