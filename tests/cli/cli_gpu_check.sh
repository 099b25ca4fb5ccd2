#!/usr/bin/env bash
# tests/cli/cli_gpu_check.sh LIQUIDCL — the plan of tools/gpu-check, the one script a lent
# GPU runs (docs/PERFORMANCE.md), so that it is never first tried on the day: --plan
# lists every step (build, info, the ops twin tests, a diff per solver, the whole steps
# of every solver at GPU sizes and --small sizes, the per-kernel bench, the report)
# and exits 0 without building; an unknown flag is exit 2; the script parses (bash -n).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"
G=$ROOT/tools/gpu-check
check "bash -n" bash -n "$G"
out=$(bash "$G" --plan "$tmp/out" 2>&1) || fail "--plan exit" "$out"
for want in "ctest -R ops" "diff-shallow" "diff-splash" "diff-mac" "diff-pls" \
    "whole-3d-128" "whole-3d-256" "whole-hf-2048" "whole-hf-4096" "bench-ops" \
    "$tmp/out/report.md"; do
    grep -qF -- "$want" <<< "$out" && pass "plan: $want" || fail "plan lacks $want" "$out"
done
out=$(bash "$G" --plan --small --device opencl:0.0 2>&1)
grep -q "whole-3d-32" <<< "$out" && grep -q "device opencl:0.0" <<< "$out" &&
    ! grep -q "whole-3d-256" <<< "$out" && pass "--small --device: 32³, the device named" ||
    fail "--small plan" "$out"
[ ! -e "$tmp/out" ] && pass "--plan writes nothing" || fail "--plan made $tmp/out"
bash "$G" --bogus > /dev/null 2>&1
[ $? -eq 2 ] && pass "unknown flag: exit 2" || fail "unknown flag not exit 2"
echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
