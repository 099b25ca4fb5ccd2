#!/usr/bin/env bash
# tests/cli/cli_pls_texture.sh LIQUIDCL — texture particles end to end (Rasmussen et al.
# 2004 §6, pls.texture; scenes/pls_textured_dam_break.yaml at 32 x 20 x 14): the mesh PLY
# carries rest_x rest_y rest_z s t per vertex, read back (frame 0: the rest coordinate is
# the vertex's own position on the free surface, s t that rest coordinate across the
# domain); with output.particles the texture particles are written as
# particles/texture_NNNN.ply (x y z rest_x rest_y rest_z), their rest coordinates those of
# frame 0; a run cut short and resumed ends bit for bit where an uninterrupted run does
# (meshes with their attributes, texture particles, stats); the textured run's stats
# equal the untextured run's but for texture_particles and device_bytes (the texture
# changes nothing else); a scene without pls.texture writes the mesh without them (x y z
# nx ny nz vx vy vz); an image that is not a PNG is refused with nothing written.
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=scenes/pls_textured_dam_break.yaml
A=(--quiet --device opencl --set "grid.size=[32,20,14]" --set grid.cell=0.04
   --set output.checkpoint=3 --set output.preview_width=160 --set output.particles=true)
strip() { sed -e 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$1"; }

echo "textured dam break (32 x 20 x 14, h = 0.04 m):"
"$LQ" run "$S" --out "$tmp/a" "${A[@]}" --frames 6 || fail "run"
out=$(python3 - "$tmp/a" <<'EOF' 2>&1
import struct, sys
d = sys.argv[1]

def ply(path):
    data = open(path, "rb").read()
    head, body = data.split(b"end_header\n", 1)
    names, nv = [], 0
    for line in head.decode().splitlines():
        w = line.split()
        if w[:2] == ["element", "vertex"]:
            nv = int(w[2])
        if w[:2] == ["property", "float"]:
            names.append(w[2])
    cols = list(zip(*struct.iter_unpack("<%df" % len(names), body[: 4 * len(names) * nv])))
    return names, nv, cols

names, nv, c = ply(d + "/mesh/0000.ply")
assert names == ["x", "y", "z", "nx", "ny", "nz", "vx", "vy", "vz", "rest_x", "rest_y", "rest_z", "s",
                 "t"], names
c = c[:6] + c[9:]  # the rest coordinate's columns as 6..10 (velocity: test_meshout)
h, top = 0.04, 0.5
# frame 0: on the free surface (the column's top, away from the walls' closing faces)
# the rest coordinate is the vertex itself
worst, n = 0.0, 0
for v in range(nv):
    x, y, z = c[0][v], c[1][v], c[2][v]
    if abs(y - top) < 0.25 * h and 1.5 * h < x < 0.4 - 1.5 * h and 1.5 * h < z < 0.56 - 1.5 * h:
        n += 1
        worst = max(worst, abs(c[6][v] - x), abs(c[7][v] - y), abs(c[8][v] - z))
        assert abs(c[9][v] - c[6][v] / 1.28) < 1e-5 and abs(c[10][v] - c[7][v] / 0.8) < 1e-5
assert n > 50 and worst < 0.05 * h, (n, worst / h)
names6, nv6, c6 = ply(d + "/mesh/0006.ply")
assert names6 == names and nv6 > 0
assert all(v == v for col in c6 for v in col), "NaN in the mesh"
tn, tp, t0 = ply(d + "/particles/texture_0000.ply")
tn6, tp6, t6 = ply(d + "/particles/texture_0006.ply")
assert tn == ["x", "y", "z", "rest_x", "rest_y", "rest_z"] and tp == tp6 and tp > 1000, (tn, tp, tp6)
assert t0[3:] == t6[3:], "rest coordinates changed"
assert t0[:3] == t0[3:], "frame 0: rest = position"
moved = max(abs(a - b) for a, b in zip(t0[0], t6[0]))
assert moved > 2 * h, moved
print("frame 0: %d top vertices, rest = position within %.2g h; %d particles, rest kept to "
      "frame 6, moved up to %.1f cells" % (n, worst / h, tp, moved / h))
EOF
) && pass "mesh attributes and texture particles: $out" || fail "mesh attributes" "$out"

echo "resumed run equals an uninterrupted one:"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --frames 3 || fail "first part"
"$LQ" run "$S" --out "$tmp/b" "${A[@]}" --frames 6 --resume || fail "resume"
for f in mesh/0006.ply mesh/0005.ply particles/texture_0006.ply particles/0006.ply; do
    check "$f bit-identical" cmp "$tmp/a/$f" "$tmp/b/$f"
done
if diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") >/dev/null; then
    pass "stats.jsonl identical but for wall_ms"
else
    fail "stats.jsonl differs" "$(diff <(strip "$tmp/a/stats.jsonl") <(strip "$tmp/b/stats.jsonl") | head -5)"
fi

echo "the texture changes nothing else:"
# the same scene without its pls.texture block
awk '/^  texture:/ {skip = 1; next} skip && /^    / {next} {skip = 0; print}' "$S" >"$tmp/plain.yaml"
"$LQ" run "$tmp/plain.yaml" --out "$tmp/p" "${A[@]}" --frames 6 || fail "plain run"
out=$(python3 - "$tmp/a/stats.jsonl" "$tmp/p/stats.jsonl" <<'EOF' 2>&1
import json, sys
A = [json.loads(l) for l in open(sys.argv[1])]
B = [json.loads(l) for l in open(sys.argv[2])]
skip = {"wall_ms", "output_ms", "device_bytes", "texture_particles"}
bad = [(a["frame"], k) for a, b in zip(A, B) for k in b if k not in skip and a[k] != b[k]]
assert len(A) == len(B) == 7 and not bad, bad[:5]
assert all("texture_particles" in a for a in A) and not any("texture_particles" in b for b in B)
print("7 frames, every stat equal")
EOF
) && pass "$out" || fail "stats differ from the untextured run" "$out"
head -c 300 "$tmp/p/mesh/0006.ply" | grep -q "property float rest_x" &&
    fail "the untextured mesh has rest_x" || pass "untextured mesh: no texture attributes"
[[ ! -e $tmp/p/particles/texture_0000.ply ]] && pass "untextured: no texture particles" ||
    fail "untextured run wrote texture particles"

echo "a texture image that is not a PNG:"
printf 'not a png' >"$tmp/bad.png"
sed "s|    checker: 0.1|    image: $tmp/bad.png|" "$S" >"$tmp/bad.yaml"
"$LQ" run "$tmp/bad.yaml" --out "$tmp/bad" "${A[@]}" --frames 1 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 && ! -e $tmp/bad ]] && grep -q "bad.png" "$tmp/err" &&
    pass "exit 2, nothing written: $(head -c 120 "$tmp/err")" ||
    fail "bad image: exit $rc" "$(cat "$tmp/err")"

echo "cli_pls_texture: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
