#!/usr/bin/env bash
# tests/cli/cli_mac_surface_solve.sh LIQUIDCL — `mac.surface_solve` (on by default) end to end:
# whole 3D dam breaks with the surface relaxed, the air at the marker fill (ghost fluid,
# kernels/mac/pressure_cell.h: weighted surface faces, held cells, slab sweeps on a CPU
# device) and at the EMPTY cells' centres, give the reference path's fields bit for bit on
# OpenCL; left unset it gives way to the surface forcing (mac.forcing) and runs, while
# set to true with the forcing it is refused with exit 2.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

for ghost in fill empty; do
    check "dam break, surface_solve_ghost $ghost: bit for bit" \
        "$LQ" diff scenes/mac_dam_break.yaml --frames 6 --set "grid.size=[16,10,8]" \
        --set mac.surface_solve=true --set "mac.surface_solve_ghost=$ghost"
done

cat >"$tmp/forced.yaml" <<YAML
solver: mac
grid: {size: [20, 12, 1], cell: 0.05}
time: {frames: 2, fps: 20}
liquid:
  - level: 0.3
mac:
  forcing: {amplitude: 0.01, depth: 0.3, half_wavelength: 0.9, omega: 3}
output: {mesh: false, preview: false}
YAML
check "mac.forcing with mac.surface_solve unset: runs (the option off)" \
    "$LQ" run "$tmp/forced.yaml" --out "$tmp/forced" --quiet
"$LQ" run "$tmp/forced.yaml" --out "$tmp/forced2" --quiet --set mac.surface_solve=true \
    2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "mac.surface_solve" "$tmp/err" &&
    pass "mac.forcing with mac.surface_solve: true: exit 2, $(cat "$tmp/err")" ||
    fail "forcing with surface_solve: exit $rc" "$(cat "$tmp/err")"

echo "cli_mac_surface_solve: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
