#!/usr/bin/env bash
# tests/cli/cli_pls_window.sh LIQUIDCL — the `pls` moving grid window (pls.window, §5.3)
# through the binary: a resumed run ends bit for bit where an uninterrupted one does (the
# window's offset in the checkpoint), the outputs are in world coordinates (the fields'
# ORIGIN is the window's origin in stats.jsonl), and bad windows are refused with one
# line at the key's FILE:LINE:COL and exit 2.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

cat >"$tmp/drop.yaml" <<'YAML'
solver: pls
grid: {size: [32, 40, 1], cell: 0.01, origin: [0.08, 0.88, 0]}
time: {frames: 6, fps: 20}
liquid:
  - sphere: {center: [0.24, 1.10, 0.005], radius: 0.06, velocity: [0.3, -0.5, 0]}
pls:
  window:
    margin: 6
    domain: {min: [0, 0, 0], max: [0.48, 1.28, 0.01]}
YAML
A=(--device ref --quiet --set "output.fields=[phi,u,v]" --set output.checkpoint=1
   --set output.preview=false --set output.mesh=false --set output.particles=true)
strip() { sed -E 's/"(wall_ms|output_ms)":[^,}]*,?//g' "$1"; }

echo "resumed window run equals an uninterrupted one:"
"$LQ" run "$tmp/drop.yaml" --out "$tmp/a" "${A[@]}" --frames 6 || fail "uninterrupted run"
"$LQ" run "$tmp/drop.yaml" --out "$tmp/b" "${A[@]}" --frames 3 || fail "first part"
"$LQ" run "$tmp/drop.yaml" --out "$tmp/b" "${A[@]}" --frames 6 --resume || fail "resumed run"
for f in phi_0006.vtk u_0006.vtk v_0006.vtk; do
    check "fields/$f bit-identical" cmp "$tmp/a/fields/$f" "$tmp/b/fields/$f"
done
check "particles/0006.ply bit-identical" cmp "$tmp/a/particles/0006.ply" "$tmp/b/particles/0006.ply"
if diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null; then
    pass "stats.jsonl identical but for wall_ms"
else
    fail "stats.jsonl differs" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -5)"
fi

echo "outputs in world coordinates:"
out=$(python3 - "$tmp/a" <<'PY'
import json, sys
d = sys.argv[1]
rows = [json.loads(l) for l in open(d + "/stats.jsonl")]
last = rows[-1]
ox, oy = last["window_origin_x"], last["window_origin_y"]
org = None
for line in open(d + "/fields/phi_0006.vtk", errors="replace"):
    if line.startswith("ORIGIN"):
        org = [float(v) for v in line.split()[1:]]
        break
moved = 0.88 - oy
ok = org and abs(org[0] - (ox + 0.005)) < 1e-6 and abs(org[1] - (oy + 0.005)) < 1e-6
print("ok" if ok and moved > 0.3 and last["window_out_volume"] == 0 else "bad",
      "window", ox, oy, "vtk origin", org, "moved", moved)
PY
)
[[ $out == ok* ]] && pass "phi's ORIGIN is the window's (${out#ok })" || fail "world coordinates" "$out"

echo "bad windows are refused (exit 2, FILE:LINE:COL):"
bad() { # NAME WHERE PATTERN SCENE-TEXT
    printf '%s\n' "$4" >"$tmp/bad.yaml"
    local err rc
    err=$("$LQ" run "$tmp/bad.yaml" --out "$tmp/bad" --device ref --quiet 2>&1)
    rc=$?
    if [[ $rc -eq 2 && $(printf '%s\n' "$err" | wc -l) -eq 1 && $err == *"$tmp/bad.yaml:$2: "* &&
          $err =~ $3 ]]; then
        pass "$1"
    else
        fail "$1 (exit $rc)" "$err"
    fi
}
base='solver: pls
grid: {size: [32, 40, 1], cell: 0.01, origin: [0.08, 0.88, 0]}
time: {frames: 1, fps: 20}
liquid: [{sphere: {center: [0.24, 1.10, 0.005], radius: 0.06}}]'
bad "window larger than the domain" "9:7" "larger than pls.window.domain" "$base
pls:
  window:
    margin: 6
    domain:
      min: [0, 0, 0]
      max: [0.48, 0.3, 0.01]"
bad "window not inside the domain at the start" "8:13" "not inside pls.window.domain" "$base
pls:
  window:
    margin: 6
    domain: {min: [0.1, 0, 0], max: [0.48, 1.28, 0.01]}"
bad "margin half the window" "7:13" "margin.*half the window" "$base
pls:
  window:
    margin: 16"
bad "texture particles" "6:11" "cannot yet carry pls.texture" "$base
pls:
  window: {margin: 4}
  texture: {}"

echo "$checks checks, $fails failed"
[[ $fails -eq 0 ]]
