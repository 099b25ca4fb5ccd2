#!/usr/bin/env bash
# tests/cli/cli_pls_control.sh LIQUIDCL — control particles in scenes (Rasmussen et al.
# 2004 §4, `control:`): a small 2D scene with every kind of control particle (velocity
# soft and hard, viscosity, level set, divergence, an eraser; generators, a keyframed
# track file, keys over time, a path) runs on the reference path and on OpenCL with the
# same results (`liquidcl diff`, every field bit for bit), reports its control counts in
# stats.jsonl, resumes from a checkpoint bit for bit; and broken control input (an axis of
# zero, keys not in pairs or not increasing, a bad track file, a path on tracks) gets exit
# 2 and one line naming the place. Run from the repository root (ctest does).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

S=$tmp/scenes
mkdir -p "$S"
cat >"$S/tracks.csv" <<'EOF'
# two particles: one sweeping right, one still with a keyed strength
id, t, x, y, z, strength
1, 0, 0.1, 0.12, 0.01, 1
1, 0.1, 0.2, 0.14, 0.01, 1
1, 0.3, 0.4, 0.12, 0.01, 0.5
2, 0, 0.5, 0.2, 0.01, 0
2, 0.2, 0.5, 0.2, 0.01, 1
EOF
cat >"$S/path.csv" <<'EOF'
t, x, y, z
0, 0.3, 0.3, 0.01
0.3, 0.4, 0.32, 0.01
EOF
cat >"$S/all.yaml" <<'EOF'
solver: pls
grid: {size: [32, 24, 1], cell: 0.02}
time: {frames: 4, fps: 30}
liquid:
  - level: 0.2
  - sphere: {center: [0.3, 0.3, 0.01], radius: 0.06}
control:
  - box: {min: [0.05, 0.05, 0], max: [0.2, 0.12, 0.02]}
    velocity: [0.4, 0, 0]
    strength: 0.5
  - sphere: {center: [0.3, 0.3, 0.01], radius: 0.05}
    velocity: [0, 0.1, 0]
    falloff: box
    path_file: path.csv
  - tracks: {file: tracks.csv}
    velocity: [0, 0.5, 0]
    falloff: hat
    radius: 0.04
  - box: {min: [0.42, 0.02, 0], max: [0.6, 0.1, 0.02]}
    property: viscosity
    value_keys: [0, 20, 0.1, 20, 0.12, 0.01]
  - point: {position: [0.3, 0.22, 0.01]}
    property: phi
    shape: cylinder
    axis: [0, 1, 0]
    radius: 0.03
  - point: {position: [0.1, 0.15, 0.01]}
    property: divergence
    value: 1
    radius: 0.04
  - point: {position: [0.55, 0.2, 0.01]}
    property: eraser
    radius: 0.05
    strength_keys: [0, 0, 0.05, 1]
output: {preview: false, mesh: false, checkpoint: 2, fields: [phi, u]}
EOF

echo "every kind of control particle (2D 32 x 24, 4 frames):"
"$LQ" run "$S/all.yaml" --out "$tmp/all" --device opencl --quiet 2>"$tmp/err" &&
    pass "runs on OpenCL" || fail "runs on OpenCL" "$(cat "$tmp/err")"
out=$(python3 -c '
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
d = L[-1]
print("control particles %d, hard cells %d, moved cells %d, viscosity iterations %d" % (
    d["control_particles"], d["control_hard_cells"], d["control_moved_cells"],
    sum(x.get("viscosity_iterations", 0) for x in L)))
assert d["control_particles"] > 20 and d["control_hard_cells"] > 0 and d["control_moved_cells"] > 0
assert sum(x.get("viscosity_iterations", 0) for x in L) > 0' "$tmp/all/stats.jsonl" 2>&1) &&
    pass "stats: $out" || fail "stats count the control" "$out"
check "reference and OpenCL agree (liquidcl diff)" "$LQ" diff "$S/all.yaml" --frames 3
# resume: frames 3-4 from the checkpoint of frame 2 equal the straight run's
if "$LQ" run "$S/all.yaml" --out "$tmp/res" --device opencl --quiet --frames 2 2>"$tmp/err" &&
    "$LQ" run "$S/all.yaml" --out "$tmp/res" --device opencl --quiet --resume 2>>"$tmp/err" &&
    cmp -s <(sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$tmp/all/stats.jsonl") \
        <(sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$tmp/res/stats.jsonl") &&
    cmp -s "$tmp/all/fields/phi_0004.vtk" "$tmp/res/fields/phi_0004.vtk" &&
    cmp -s "$tmp/all/fields/u_0004.vtk" "$tmp/res/fields/u_0004.vtk"; then
    pass "resumes bit for bit (stats, phi and u of frame 4)"
else
    fail "resumes bit for bit" "$(cat "$tmp/err")" "$(diff <(sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$tmp/all/stats.jsonl") <(sed 's/"wall_ms":[^,]*,//; s/"output_ms":[^,]*,//' "$tmp/res/stats.jsonl") | head -5)"
fi

# bad NAME PATTERN SCENE: exit 2, one line on stderr matching PATTERN, nothing written.
bad() {
    local name=$1 pattern=$2 scene=$3 rc
    rm -rf "$tmp/bad"
    "$LQ" run "$scene" --out "$tmp/bad" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 2 && $(wc -l <"$tmp/stderr") -eq 1 ]] && grep -Eq -- "$pattern" "$tmp/stderr" &&
        [[ ! -e "$tmp/bad" ]]; then
        pass "$name: $(cat "$tmp/stderr")"
    else
        fail "$name (exit $rc)" "$(cat "$tmp/stderr")"
    fi
}
variant() { sed "$2" "$S/all.yaml" >"$S/$1.yaml"; }
variant axis 's/axis: \[0, 1, 0\]/axis: [0, 0, 0]/'
variant keys_odd 's/value_keys: \[0, 20, 0.1, 20, 0.12, 0.01\]/value_keys: [0, 20, 0.1]/'
variant keys_back 's/strength_keys: \[0, 0, 0.05, 1\]/strength_keys: [0, 0, 0, 1]/'
variant path_on_tracks 's/  - tracks: {file: tracks.csv}/  - tracks: {file: tracks.csv}\n    path_file: path.csv/'
sed 's/^1, 0.3, 0.4/1, 0.05, 0.4/' "$S/tracks.csv" >"$S/tracks_back.csv"
variant track_back 's/tracks.csv/tracks_back.csv/'
echo "broken control input:"
bad "an axis of zero" "^$S/axis.yaml:[0-9]+:[0-9]+: control\[\]\.axis must not be zero" "$S/axis.yaml"
bad "value keys not in pairs" "^$S/keys_odd.yaml:[0-9]+:[0-9]+: control\[\]\.value_keys: keys come in pairs" "$S/keys_odd.yaml"
bad "strength keys going back" "^$S/keys_back.yaml:[0-9]+:[0-9]+: control\[\]\.strength_keys: key 2" "$S/keys_back.yaml"
bad "a path on tracks" "^$S/path_on_tracks.yaml:[0-9]+:[0-9]+: control\[\]\.path_file" "$S/path_on_tracks.yaml"
bad "a track going back in time" "^$S/tracks_back.csv:5:4: track 1: t = 0.05" "$S/track_back.yaml"

echo "cli_pls_control: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
