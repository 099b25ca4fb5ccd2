#!/usr/bin/env bash
# tests/cli/blender_import.sh LIQUIDCL — the Blender loader (tools/blender/liquidcl_blender.py)
# imports a short pls run (meshes with velocity, particles, VDB volumes), y up and with
# output.up z (then not turned again), headless in Debian's blender, and
# tools/blender/check_import.py checks what it made (label `full`:
# Blender is not among tools/packages.txt's packages; the test fails, saying so, where it
# is missing, since a skipped check proves nothing).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

if ! command -v blender > /dev/null; then
    fail "blender is not installed (apt-get install --no-install-recommends blender)"
    exit 1
fi
for up in y z; do
    "$LQ" run scenes/pls_dam_break.yaml --out "$tmp/run_$up" --quiet --frames 3 \
        --set "grid.size=[24,16,12]" --set grid.cell=0.05 --set output.preview=false \
        --set "output.vdb=[surface,vel]" --set output.particles=true --set output.up=$up ||
        fail "run (output.up $up)"
    if out=$(blender -b --factory-startup --python-exit-code 1 \
            -P "$ROOT/tools/blender/check_import.py" -- "$tmp/run_$up" 2>&1); then
        pass "Blender $(blender --version 2>/dev/null | head -1 | cut -d' ' -f2) imports the run (output.up $up):"
        grep -E "^  (ok|FAIL)" <<< "$out"
    else
        fail "Blender import (output.up $up)" "$(tail -30 <<< "$out")"
    fi
done
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
