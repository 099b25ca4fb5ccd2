#!/usr/bin/env bash
# tests/cli/cli_mac.sh LIQUIDCL — the `mac` solver's first version end to end: still water
# in a closed tank stays still (VALIDATION.md's hydrostatic tank), a dam break writes
# its mesh, preview and stats with the pressure converged every frame, a resumed run
# ends where an uninterrupted one does, and a grid without nz is refused.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

echo "hydrostatic tank:"
"$LQ" run scenes/validation/mac_tank.yaml --out "$tmp/tank" --device ref --quiet || fail "tank run"
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
vmax = max(d["max_speed"] for d in L)
sweeps = L[-1]["pressure_iterations"] / max(L[-1]["steps"], 1)
print("%.3g %.1f" % (vmax, sweeps))
assert vmax <= 1.9e-4, vmax
assert all(d["pressure_residual"] < 1e-4 for d in L[1:])
assert sweeps <= 6, sweeps' "$tmp/tank/stats.jsonl" 2>&1) &&
    pass "at rest: max speed and sweeps per step: $out" || fail "tank" "$out"

echo "dam break:"
A=(--quiet --frames 6 --set "grid.size=[20,12,8]" --set grid.cell=0.06 --set output.checkpoint=3
   --set output.preview_width=160)
"$LQ" run scenes/mac_dam_break.yaml --out "$tmp/a" "${A[@]}" || fail "dam break run"
[[ -s $tmp/a/mesh/0006.ply && -s $tmp/a/preview/0006.png ]] && pass "mesh and preview written" ||
    fail "outputs missing" "$(ls -R "$tmp/a" | head)"
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
assert len(L) == 7
assert all(d["pressure_residual"] < 1e-4 for d in L[1:]), [d["pressure_residual"] for d in L]
assert L[-1]["max_speed"] > 0.5, L[-1]["max_speed"]
print(L[-1]["max_speed"])' "$tmp/a/stats.jsonl" 2>&1) &&
    pass "converged every frame, water moving ($out m/s)" || fail "stats" "$out"
strip() { sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }
"$LQ" run scenes/mac_dam_break.yaml --out "$tmp/b" "${A[@]}" --frames 3 || fail "first part"
"$LQ" run scenes/mac_dam_break.yaml --out "$tmp/b" "${A[@]}" --resume || fail "resume"
diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null &&
    pass "resumed run ends where the uninterrupted one does" ||
    fail "stats differ after resume" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -4)"

echo "bad input:"
"$LQ" run scenes/mac_dam_break.yaml --out "$tmp/c" --set "grid.size=[20,12]" 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 && ! -e $tmp/c ]] && grep -q "nx, ny, nz" "$tmp/err" && pass "a 2-number grid: exit 2" ||
    fail "grid [20,12]: exit $rc" "$(cat "$tmp/err")"

echo "cli_mac: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
