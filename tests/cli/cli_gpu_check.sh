#!/usr/bin/env bash
# tests/cli/cli_gpu_check.sh LIQUIDCL — the plan of tools/gpu-check, the one script a lent
# GPU runs (docs/PERFORMANCE.md), so that it is never first tried on the day: --plan
# lists every step (build, info, the ops twin tests, a diff per solver, the whole steps
# of every solver at GPU sizes and --small sizes, mac's 4× scenes, the per-kernel bench,
# the report and its packed logs; --3d and --tests narrow it)
# and exits 0 without building; an unknown flag is exit 2; the script parses (bash -n).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"
G=$ROOT/tools/gpu-check
check "bash -n" bash -n "$G"
out=$(bash "$G" --plan "$tmp/out" 2>&1) || fail "--plan exit" "$out"
for want in "ctest -R 'ops|line_solve'" "diff-shallow" "diff-splash" "diff-mac" "diff-pls" \
    "diff-mac_mgpcg" "whole-3d-256" "whole-3d-384" "mac_step_red_black" "mac-scenes" \
    "gpu-river" "whole-hf-2048" "whole-hf-4096" "bench-ops" "$tmp/out/report.md" "$tmp/out/logs.tgz"; do
    grep -qF -- "$want" <<< "$out" && pass "plan: $want" || fail "plan lacks $want" "$out"
done
out=$(bash "$G" --plan --small --device opencl:0.0 2>&1)
grep -q "whole-3d-32" <<< "$out" && grep -q "device opencl:0.0" <<< "$out" &&
    ! grep -q "whole-3d-256" <<< "$out" && grep -q "gpu-river.*grid.size" <<< "$out" && pass "--small --device: 32³, the device named" ||
    fail "--small plan" "$out"
out=$(bash "$G" --plan --3d --tests pressure 2>&1)
grep -q "ctest -R 'pressure'" <<< "$out" && grep -q "whole-3d-384" <<< "$out" &&
    ! grep -q "whole-hf-2048" <<< "$out" && ! grep -q "bench-ops" <<< "$out" &&
    pass "--3d --tests: the 3D rows and the tests named only" || fail "--3d plan" "$out"
[ ! -e "$tmp/out" ] && pass "--plan writes nothing" || fail "--plan made $tmp/out"
bash "$G" --bogus > /dev/null 2>&1
[ $? -eq 2 ] && pass "unknown flag: exit 2" || fail "unknown flag not exit 2"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
