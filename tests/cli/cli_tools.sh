#!/usr/bin/env bash
# tests/cli/cli_tools.sh LIQUIDCL — the commands around `run` (DESIGN.md, "Command line"):
# `info` (devices and the one --device auto picks), `bench --json` (valid JSON, one
# object per kernel with ms, gb_per_s, copy_fraction, ...), `docs` (== docs/SCENE.md),
# `--help`, and `tools/run` without arguments (usage, exit 2), run against the build
# that holds LIQUIDCL. Run from the repository root (ctest does).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"
exit_is() { # exit_is WANT GOT WHAT
    if [[ $2 -eq $1 ]]; then pass "$3: exit $1"; else fail "$3: exit $2, expected $1" "$(cat "$tmp/stderr")"; fi
}

# --- info -----------------------------------------------------------------------------
echo "liquidcl info:"
"$LQ" info >"$tmp/stdout" 2>"$tmp/stderr"
exit_is 0 $? "info"
check "lists an OpenCL device (opencl:P.D) or says there is none" \
    grep -Eq '^  device opencl:[0-9]+\.[0-9]+ |^no OpenCL platform or device found' "$tmp/stdout"
check "says which device --device auto picks" grep -q '^--device auto picks: ' "$tmp/stdout"
pick=$(sed -n 's/^--device auto picks: opencl:\([0-9]*\.[0-9]*\) .*/\1/p' "$tmp/stdout")
if [[ -n "$pick" ]]; then
    check "the picked device opencl:$pick is one of those listed" \
        grep -q "^  device opencl:$pick " "$tmp/stdout"
elif grep -q '^--device auto picks: the reference C path' "$tmp/stdout"; then
    check "the reference path is picked only when no device is listed" \
        bash -c "! grep -q '^  device opencl:' '$tmp/stdout'"
else
    fail "--device auto picks an opencl:P.D device or the reference C path" "$(cat "$tmp/stdout")"
fi

# --- bench ----------------------------------------------------------------------------
cat >"$tmp/bench.py" <<'EOF'
import json, math, sys
def strict(x):
    sys.exit("non-JSON constant %s" % x)
size = int(sys.argv[2])
try:
    rows = json.loads(open(sys.argv[1]).read(), parse_constant=strict)
except ValueError as e:
    sys.exit("not JSON: %s" % e)
if not isinstance(rows, list) or not rows:
    sys.exit("not a non-empty JSON array")
ops = set()
for i, r in enumerate(rows):
    if not isinstance(r, dict):
        sys.exit("item %d is not an object" % i)
    for k in ("device", "op", "size", "ms", "gb_per_s", "copy_fraction", "mcells_per_s", "bytes_per_cell"):
        if k not in r:
            sys.exit("item %d (%s) lacks %s" % (i, r.get("op"), k))
    for k in ("ms", "gb_per_s", "copy_fraction", "mcells_per_s"):
        v = r[k]
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            sys.exit("item %d (%s): %s = %r" % (i, r["op"], k, v))
    if r["ms"] <= 0:
        sys.exit("item %d (%s): ms = %r" % (i, r["op"], r["ms"]))
    if r["size"] != size:
        sys.exit("item %d (%s): size %r, expected %d" % (i, r["op"], r["size"], size))
    ops.add((r["device"], r["op"]))
for want in sys.argv[3:]:
    if not any(op == want for _, op in ops):
        sys.exit("no row for %s (ops: %s)" % (want, sorted(o for _, o in ops)))
devices = sorted({d for d, _ in ops})
if len(ops) != len(rows):
    sys.exit("a (device, op) pair appears twice")
print("devices: %s" % devices)
EOF
echo "liquidcl bench --size 64 --reps 2 --json:"
"$LQ" bench --size 64 --reps 2 --json >"$tmp/stdout" 2>"$tmp/stderr"
exit_is 0 $? "bench --json"
check "stdout is a JSON array of per-kernel objects (ms, gb_per_s, copy_fraction, ...) with hf_adi_x and the parallel line solve's rows" \
    python3 "$tmp/bench.py" "$tmp/stdout" 64 hf_adi_x hf_pcr_x hf_pcr_z shallow_step_pcr
"$LQ" bench --device ref --size 64 --reps 2 --json >"$tmp/stdout" 2>"$tmp/stderr"
exit_is 0 $? "bench --device ref --json"
check "--device ref: valid JSON, hf_adi_x, only the reference device" \
    bash -c "python3 '$tmp/bench.py' '$tmp/stdout' 64 hf_adi_x | grep -qx \"devices: \\['reference C'\\]\""
"$LQ" bench --device ref --size 64 --reps 2 >"$tmp/stdout" 2>"$tmp/stderr"
exit_is 0 $? "bench --device ref (table)"
check "the table has a row for hf_adi_x" grep -Eq '^hf_adi_x +64' "$tmp/stdout"
for args in "--size 8" "--reps 0" "--device bogus" "--device opencl:9.9"; do
    # shellcheck disable=SC2086 # the words of $args are the flags
    "$LQ" bench $args --json >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$tmp/stderr") -eq 1 && ! -s "$tmp/stdout" ]]; then
        pass "bench $args: exit 2, one line on stderr, nothing on stdout"
    else
        fail "bench $args: exit $rc (expected 2, one stderr line, empty stdout)" \
            "$(cat "$tmp/stdout" "$tmp/stderr")"
    fi
done

# --- docs, --help ---------------------------------------------------------------------
echo "liquidcl docs:"
"$LQ" docs >"$tmp/stdout" 2>"$tmp/stderr"
exit_is 0 $? "docs"
check "prints docs/SCENE.md byte for byte" cmp "$tmp/stdout" "$ROOT/docs/SCENE.md"

echo "liquidcl --help:"
for args in "--help" "run --help" "help"; do
    # shellcheck disable=SC2086
    "$LQ" $args >"$tmp/stdout" 2>"$tmp/stderr"
    exit_is 0 $? "liquidcl $args"
    check "liquidcl $args prints the usage on stdout, nothing on stderr" \
        bash -c "grep -q '^usage:' '$tmp/stdout' && grep -q 'liquidcl run ' '$tmp/stdout' && grep -q 'liquidcl bench' '$tmp/stdout' && test ! -s '$tmp/stderr'"
done

# --- tools/run ------------------------------------------------------------------------
# tools/setup.sh installs missing Debian packages and builds $LQ_BUILD when stale.
# The test must never install anything: it runs only when every package of
# tools/packages.txt is installed and $LQ_BUILD is a configured build folder.
echo "tools/run without arguments:"
build=$(dirname "$LQ")
missing=()
if command -v dpkg-query >/dev/null; then
    while read -r pkg; do
        [[ -z "$pkg" || "$pkg" == \#* ]] && continue
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$pkg")
    done <"$ROOT/tools/packages.txt"
else
    missing=("(no dpkg-query)")
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "  SKIP tools/run: it would try to install missing packages: ${missing[*]}"
elif [[ ! -f "$build/CMakeCache.txt" ]]; then
    echo "  SKIP tools/run: $build (the folder of $LQ) is not a CMake build folder"
else
    LQ_BUILD=$build bash "$ROOT/tools/run" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
    exit_is 2 $? "tools/run (LQ_BUILD=$build)"
    check "prints its usage on stderr" grep -q '^usage: tools/run SCENE' "$tmp/stderr"
    check "installs nothing" bash -c "! grep -q 'liquidcl: installing' '$tmp/stderr'"
    check "stdout stays empty" test ! -s "$tmp/stdout"
fi

echo "cli_tools: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
