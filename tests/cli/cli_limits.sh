#!/usr/bin/env bash
# tests/cli/cli_limits.sh LIQUIDCL — input at the edges of what liquidcl accepts
# (docs/RELIABILITY.md, "Refusals before allocation"): each case is refused early (exit
# 2, one line naming the file or key) or accepted as documented, and nothing is written
# for a refused one.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=$ROOT/scenes/rain_pond.yaml

S=$ROOT/scenes/rain_pond.yaml
M=$ROOT/scenes/mac_dam_break.yaml
P=$ROOT/scenes/pls_dam_break.yaml
OUT=$tmp/out

# refused NAME PATTERN CMD ARGS...: `liquidcl CMD ARGS... --out $OUT` (run) exits 2, one
# stderr line matching PATTERN, nothing at $OUT, nothing on stdout. No time is asserted
# (the time taken is printed): what used to be slow fails otherwise, by a different
# message or exit, by its peak memory (below), or by the 20 s hang guard that a FIFO read
# or the 41 s plan of issue 19 would meet (GUARD=S: another guard, for a cold kernel
# compile).
refused() {
    local name=$1 pattern=$2 cmd=$3 rc t0 ms out=()
    shift 3
    [[ $cmd == run ]] && out=(--out "$OUT")
    rm -rf "$OUT"
    t0=$(date +%s%N)
    timeout -k 2 "${GUARD:-20}" "$LQ" "$cmd" "$@" "${out[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [[ $rc -eq 2 && $(wc -l <"$tmp/stderr") -eq 1 ]] && grep -Eq -- "$pattern" "$tmp/stderr"; then
        pass "$name: exit 2 in $ms ms: $(cat "$tmp/stderr")"
    else
        fail "$name: exit $rc after $ms ms" "$(head -c 600 "$tmp/stderr")"
    fi
    [[ ! -e $OUT && ! -s $tmp/stdout ]] && pass "$name: nothing written" ||
        fail "$name: wrote" "$(ls "$OUT" 2>&1; head -c 200 "$tmp/stdout")"
}

echo "oversize grids are refused before anything is allocated:"
for sc in "$M" "$P"; do
    n=$(basename "$sc" .yaml)
    for cmd in check run; do
        refused "$n 65536^3 ($cmd)" "grid.size: 2.815e\+14 cells, more than" $cmd "$sc" \
            --set "grid.size=[65536,65536,65536]"
    done
    refused "$n 65536^3 (--plan)" "grid.size: 2.815e\+14 cells" run "$sc" --plan \
        --set "grid.size=[65536,65536,65536]"
    refused "$n 2048x2048x256 (check)" "needs at least [0-9.]+ GiB of (host|device) memory" \
        check "$sc" --set "grid.size=[2048,2048,256]"
done
# 1024 x 1024 x 512 pls: 41 s and 4.3 GB before the plan refused it (issue 19)
LIQUIDCL_DEVICE_MEMORY=8G refused "pls 1024x1024x512 --plan with 8G" \
    "solver 'pls' needs at least [0-9.]+ GiB of device memory but LIQUIDCL_DEVICE_MEMORY allows 8.0 GiB" \
    run "$P" --plan --device ref --set "grid.size=[1024,1024,512]"
LIQUIDCL_DEVICE_MEMORY=8G refused "mac 1024x1024x512 with 8G" \
    "solver 'mac' needs at least [0-9.]+ GiB" run "$M" --device ref --set "grid.size=[1024,1024,512]"

echo "image headers are checked before decoding, the file named:"
mkdir -p "$tmp/img"
python3 - "$tmp/img/huge.png" <<'PYEOF'
import struct, sys, zlib
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
w = h = 65535  # 4.3 G pixels declared; a few rows of data
raw = b''.join(b'\0' + b'\0' * w for _ in range(4))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
png += chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
open(sys.argv[1], 'wb').write(png)
PYEOF
sed 's|assets/river.png|huge.png|' "$ROOT/scenes/river.yaml" >"$tmp/img/river.yaml"
refused "a PNG declaring 65535 x 65535 pixels" \
    "huge.png: the image is 65535 x 65535 pixels, more than liquidcl reads" run "$tmp/img/river.yaml" \
    --device ref

echo "inputs must be regular files (a FIFO blocked forever):"
mkdir -p "$tmp/fifo/assets"
mkfifo "$tmp/fifo/scene.yaml" "$tmp/fifo/assets/river.png" "$tmp/fifo/assets/rock1.obj" \
    "$tmp/fifo/assets/dive.csv"
refused "a FIFO as the scene" "scene.yaml: cannot read the scene file: a FIFO" run \
    "$tmp/fifo/scene.yaml"
cp "$ROOT/scenes/river.yaml" "$ROOT/scenes/mac_moonlight_cove.yaml" "$ROOT/scenes/diver.yaml" "$tmp/fifo/"
cp "$ROOT/scenes/assets/rock2.obj" "$ROOT/scenes/assets/rock3.obj" "$tmp/fifo/assets/" 2>/dev/null
refused "a FIFO as a heightmap" "river.png'?: .*a FIFO, not a regular file" run "$tmp/fifo/river.yaml"
refused "a FIFO as an OBJ mesh" "rock1.obj'?: .*a FIFO, not a regular file" run \
    "$tmp/fifo/mac_moonlight_cove.yaml"
refused "a FIFO as a CSV path" "dive.csv'?: .*a FIFO, not a regular file" run "$tmp/fifo/diver.yaml"

echo "YAML depth and size are limited before libyaml parses deeply:"
python3 -c "print('solver: mac\ngrid: ' + '[' * 64000 + ']' * 64000)" >"$tmp/deep.yaml"
refused "64 000 nested [ (17 s before)" "deep.yaml:2:71: nesting deeper than 64 levels" check "$tmp/deep.yaml"
refused "64 000 nested [ in a --set" "nesting deeper than 64 levels" check "$M" \
    --set "gravity=$(python3 -c "print('[' * 64000 + ']' * 64000)")"
python3 -c "print('solver: shallow'); [print('# %0100d' % i) for i in range(50000)]" >"$tmp/big.yaml"
refused "a 5 MB scene" "larger than 4 MiB" check "$tmp/big.yaml"

echo "numbers that do not fit 32-bit floats are refused at check:"
refused "grid.cell: 1e300 (inf coordinates before)" "grid.cell: 1e300 does not fit a 32-bit float" \
    check "$S" --set grid.cell=1e300
refused "grid.cell: 1e-320 (failed after frame 0 before)" "grid.cell: 1e-320 is too small" \
    check "$S" --set grid.cell=1e-320
refused "a position of 1e39" "liquid.0.box.max.0: 1e39 does not fit a 32-bit float" \
    check "$M" --set "liquid.0.box.max=[1e39,0.5,0.56]"

echo "a scene with no liquid anywhere is refused unless it has a source:"
for cmd in check run; do
    refused "mac liquid outside the grid ($cmd)" "no liquid lies inside the grid" $cmd "$M" \
        --set "liquid.0.box.min=[5,5,5]" --set "liquid.0.box.max=[6,6,6]"
    refused "pls liquid outside the grid ($cmd)" "no liquid lies inside the grid" $cmd "$P" \
        --set "liquid.0.box.min=[5,5,5]" --set "liquid.0.box.max=[6,6,6]"
    refused "a liquid box with min > max ($cmd)" "liquid.0.box: min 0.5 is not below max 0 along y" \
        $cmd "$M" --set "liquid.0.box.min=[0,0.5,0]" --set "liquid.0.box.max=[0.4,0,0.56]"
    refused "an obstacle over everything ($cmd)" "no liquid in the grid at the start" $cmd "$M" \
        --set "obstacles.0.box.min=[-1,-1,-1]" --set "obstacles.0.box.max=[9,9,9]"
    refused "shallow water below the ground everywhere ($cmd)" "no liquid in the grid at the start" \
        $cmd "$ROOT/scenes/validation/lake_at_rest.yaml" --set "liquid.0.level=-5"
done
refused "pls: an obstacle over everything (run)" "no liquid in the grid at the start" run "$P" \
    --set "obstacles.0.box.min=[-1,-1,-1]" --set "obstacles.0.box.max=[9,9,9]"
"$LQ" check "$ROOT/scenes/mac_water_jet.yaml" --set "liquid=[]" >/dev/null 2>"$tmp/err" &&
    pass "a scene with no liquid but a source (an inlet) is accepted" ||
    fail "no liquid, an inlet: refused" "$(cat "$tmp/err")"

echo "extreme values run without undefined behaviour (float-to-int casts; the sanitizer"
echo "build, tools/test's second pass, aborts on one):"
# defined NAME SCENE ARGS...: exits 0, 1 or 2, never by a signal or a sanitizer report.
defined() {
    local name=$1 scene=$2 rc
    shift 2
    rm -rf "$OUT"
    "$LQ" run "$scene" --out "$OUT" --device ref --frames 2 --quiet "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    if [[ $rc -le 2 ]] && ! grep -q "runtime error\|Sanitizer" "$tmp/err"; then
        pass "$name: exit $rc"
    else
        fail "$name: exit $rc" "$(head -c 400 "$tmp/err")"
    fi
}
defined "a drop far outside the grid (shallow.c)" "$S" \
    --set "sources=[{drop: {center: [1e38, 1e38], radius: 0.1}}]"
defined "a drop of radius 1e38 (shallow.c)" "$S" --set "sources=[{drop: {center: [1, 1], radius: 1e38}}]"
defined "an inflow far outside the grid (shallow.c)" "$S" \
    --set "sources=[{inflow: {center: [1e38, 1e38], radius: 1e38, rate: 1}}]"
defined "a wavemaker 1e38 m wide (shallow.c)" "$ROOT/scenes/beach.yaml" \
    --set "sources=[{wavemaker: {wall: x_min, width: 1e38, amplitude: 0.1, period: 1}}]"
defined "an object far outside the grid (splash.c)" "$ROOT/scenes/ball_drop.yaml" \
    --set "objects.0.sphere.center=[1e38,1e38,1e38]"
defined "an object of radius 1e38 (splash.c)" "$ROOT/scenes/ball_drop.yaml" \
    --set "objects.0.sphere.radius=1e38"
defined "a pipe spanning +-3e38 m (splash.c)" "$ROOT/scenes/validation/splash_conservation.yaml" \
    --set "sources.0.pipe.span=[-3e38, 3e38]"
defined "terrain at -3e38 m under water at 3e38 m (shallow.c)" \
    "$ROOT/scenes/validation/lake_at_rest.yaml" --set "terrain=[{plane: {height: -3e38}}]" \
    --set "liquid.0.level=3e38"
cp "$ROOT/tests/data/scenes/heightmap.png" "$tmp/img/m.png"
cat >"$tmp/img/mask2d.yaml" <<'YEOF'
solver: mac
grid: {size: [16, 16, 1], cell: 0.05}
liquid:
  - box: {min: [0, 0, 0], max: [0.4, 0.3, 0.05]}
obstacles:
  - mask: {file: m.png, min: [0.5, 0, 0], max: [0.7, 0.4, 0]}
YEOF
defined "a 2D mask flat along z (0/0, voxel.c)" "$tmp/img/mask2d.yaml" --set output.preview=true

echo "an OpenCL compiler's warnings never come before a one-line error:"
if "$LQ" info 2>/dev/null | grep -q "device opencl:"; then
    cp -r "$ROOT/kernels" "$tmp/kernels"
    sed -i '1i #warning "a kernel warning for tests/cli/cli_limits.sh"' "$tmp/kernels/common/lq_shared.h"
    mkdir -p "$tmp/pocl" # a cold cache: PoCL compiles (and warns) again
    GUARD=300 POCL_CACHE_DIR=$tmp/pocl LIQUIDCL_KERNEL_DIR=$tmp/kernels refused \
        "a scene refused after its kernels were built (PoCL said \"N warnings generated.\")" \
        "no liquid in the grid at the start" run "$M" --device opencl \
        --set "obstacles.0.box.min=[-1,-1,-1]" --set "obstacles.0.box.max=[9,9,9]"
else
    echo "  skip no OpenCL device here"
fi

echo "any number of --set flags (the docs promise no limit):"
sets=()
for _ in $(seq 1 300); do sets+=(--set time.fps=30); done
"$LQ" check "$S" "${sets[@]}" >"$tmp/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && pass "300 --set flags: exit 0" || fail "300 --set flags: exit $rc" "$(cat "$tmp/out")"

echo "cli_limits: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
