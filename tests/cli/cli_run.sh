#!/usr/bin/env bash
# tests/cli/cli_run.sh LIQUIDCL — `liquidcl run` end to end on tiny grids (DESIGN.md,
# "Command line" and "Outputs"): the files of a run (stats.jsonl, meshes, previews,
# VTK fields) on the reference path and on the default device, the stats contract,
# --frames/--out/default folder, re-runs leaving no stale frames, output.every,
# progress on stderr and --quiet, a blow-up (exit 1, frame/step/field named), and
# `liquidcl diff`. Run from the repository root (ctest does).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"

# A tiny beach: 32 x 16 cells, previews 64 px wide, VTK fields h and depth.
TINY=(--set 'grid.size=[32,16]' --set output.preview_width=64 --set 'output.fields=[h,depth]')
SCENE=$ROOT/scenes/beach.yaml
FPS=24 # time.fps of scenes/beach.yaml
NX=32
NZ=16

# --- helpers: validate output files with python ------------------------------------
cat >"$tmp/validate.py" <<'EOF'
import json, math, os, struct, sys

def die(msg):
    print(msg)
    sys.exit(1)

def strict(x):
    die("non-JSON constant %s" % x)

def stats(path, frames, fps):
    keys = ["frame", "time", "steps", "dt_min", "liquid_volume", "max_speed",
            "pressure_iterations", "pressure_residual", "wall_ms", "volume_drift",
            "wet_cells"]
    with open(path, "rb") as f:
        data = f.read().decode("utf-8")
    if not data.endswith("\n"):
        die("%s: does not end with a newline" % path)
    lines = data.split("\n")[:-1]
    if len(lines) != frames + 1:
        die("%s: %d lines, expected %d (frames 0..%d)" % (path, len(lines), frames + 1, frames))
    for i, line in enumerate(lines):
        try:
            o = json.loads(line, parse_constant=strict)
        except ValueError as e:
            die("%s:%d: not JSON: %s" % (path, i + 1, e))
        if not isinstance(o, dict):
            die("%s:%d: not a JSON object" % (path, i + 1))
        missing = [k for k in keys if k not in o]
        if missing:
            die("%s:%d: missing keys %s" % (path, i + 1, missing))
        if o["frame"] != i:
            die("%s:%d: frame %r, expected %d" % (path, i + 1, o["frame"], i))
        if abs(o["time"] - i / fps) > 1e-9:
            die("%s:%d: time %r, expected %r (frame / fps)" % (path, i + 1, o["time"], i / fps))
        if not isinstance(o["steps"], int) or o["steps"] < (1 if i else 0):
            die("%s:%d: steps %r" % (path, i + 1, o["steps"]))
        if i and not (isinstance(o["dt_min"], (int, float)) and 0 < o["dt_min"] <= 1.0 / fps + 1e-12):
            die("%s:%d: dt_min %r not in (0, 1/fps]" % (path, i + 1, o["dt_min"]))
        v = o["liquid_volume"]
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            die("%s:%d: liquid_volume %r" % (path, i + 1, v))
        d = o["volume_drift"]
        if not (isinstance(d, (int, float)) and abs(d) < 1e-5):
            die("%s:%d: volume_drift %r, expected |drift| < 1e-5" % (path, i + 1, d))
        if not (isinstance(o["wall_ms"], (int, float)) and o["wall_ms"] >= 0):
            die("%s:%d: wall_ms %r" % (path, i + 1, o["wall_ms"]))

def png(path, width):
    with open(path, "rb") as f:
        b = f.read()
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        die("%s: no PNG signature" % path)
    if b[12:16] != b"IHDR":
        die("%s: first chunk is not IHDR" % path)
    w, h = struct.unpack(">II", b[16:24])
    if w != width or h < 1:
        die("%s: %dx%d, expected width %d" % (path, w, h, width))
    if b[-8:-4] != b"IEND":
        die("%s: does not end with IEND (truncated?)" % path)

def ply(path):
    with open(path, "rb") as f:
        b = f.read()
    end = b.find(b"end_header\n")
    if not b.startswith(b"ply\n") or end < 0:
        die("%s: not a PLY file" % path)
    head = b[:end].decode("ascii").split("\n")
    if "format binary_little_endian 1.0" not in head:
        die("%s: not binary little-endian PLY" % path)
    nv = nf = None
    vprops = 0
    elem = None
    for line in head:
        w = line.split()
        if w[:1] == ["element"]:
            elem = w[1]
            if elem == "vertex": nv = int(w[2])
            if elem == "face": nf = int(w[2])
        elif w[:1] == ["property"] and elem == "vertex":
            if w[1] != "float": die("%s: vertex property %s is not float" % (path, w[-1]))
            vprops += 1
        elif w[:1] == ["property"] and elem == "face":
            if w[1:4] not in (["list", "uchar", "uint"], ["list", "uchar", "int"]):
                die("%s: face property %s" % (path, line))
    if not nv or nf is None or vprops < 3:
        die("%s: vertex %r face %r properties %d" % (path, nv, nf, vprops))
    pos = end + len(b"end_header\n") + nv * vprops * 4
    for i in range(nf):
        if pos >= len(b):
            die("%s: truncated at face %d of %d" % (path, i, nf))
        n = b[pos]
        if pos + 1 + 4 * n > len(b):
            die("%s: truncated in face %d of %d" % (path, i, nf))
        idx = struct.unpack_from("<%dI" % n, b, pos + 1)
        if n != 3 or max(idx) >= nv:
            die("%s: face %d: %r" % (path, i, idx))
        pos += 1 + 4 * n
    if pos != len(b):
        die("%s: %d bytes after the last face" % (path, len(b) - pos))

def vtk(path, name, nx, nz):
    with open(path, "rb") as f:
        b = f.read()
    key = b"LOOKUP_TABLE default\n"
    end = b.find(key)
    if end < 0:
        die("%s: no LOOKUP_TABLE line" % path)
    head = b[:end].decode("ascii").split("\n")
    want = ["# vtk DataFile Version 3.0", "BINARY", "DATASET STRUCTURED_POINTS",
            "DIMENSIONS %d 1 %d" % (nx, nz), "POINT_DATA %d" % (nx * nz),
            "SCALARS %s float 1" % name]
    for w in want:
        if w not in head:
            die("%s: header lacks '%s': %r" % (path, w, head))
    data = len(b) - end - len(key)
    if data not in (4 * nx * nz, 4 * nx * nz + 1):
        die("%s: %d data bytes, expected %d" % (path, data, 4 * nx * nz))
    vals = struct.unpack(">%df" % (nx * nz), b[end + len(key):end + len(key) + 4 * nx * nz])
    if not all(math.isfinite(v) for v in vals):
        die("%s: non-finite values" % path)

what = sys.argv[1]
if what == "stats": stats(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
elif what == "png": [png(p, int(sys.argv[2])) for p in sys.argv[3:]]
elif what == "ply": [ply(p) for p in sys.argv[2:]]
elif what == "vtk": [vtk(p, os.path.basename(p).rsplit("_", 1)[0], int(sys.argv[2]), int(sys.argv[3])) for p in sys.argv[4:]]
else: die("validate.py: unknown check " + what)
EOF
validate() { python3 "$tmp/validate.py" "$@"; }

# expected_files FRAMES EVERY FIELDS...: the sorted file list of a run folder (with the
# time series of the meshes and of each field, host/io/vtkxml.h).
expected_files() {
    local frames=$1 every=$2 f name
    shift 2
    {
        echo "./mesh/terrain.ply"
        echo "./mesh/mesh.ply.series"
        echo "./stats.jsonl"
        for name in "$@"; do printf './fields/%s.vtk.series\n' "$name"; done
        for ((f = 0; f <= frames; f++)); do
            ((f % every == 0)) || continue
            printf './mesh/%04d.ply\n./preview/%04d.png\n' "$f" "$f"
            for name in "$@"; do printf './fields/%s_%04d.vtk\n' "$name" "$f"; done
        done
    } | LC_ALL=C sort
}
# same_files DIR FRAMES EVERY FIELDS...: DIR holds exactly the files of such a run
# (no stale frames from an earlier run, no *.tmp.* leftovers, nothing else).
same_files() {
    local dir=$1 got want
    shift
    got=$(cd "$dir" && find . -type f | LC_ALL=C sort)
    want=$(expected_files "$@")
    if [[ "$got" == "$want" ]]; then return 0; fi
    echo "files differ from frames 0..$1 every $2 (fields ${*:3}):"
    diff <(echo "$want") <(echo "$got")
    return 1
}
no_tmp_files() {
    local left
    left=$(find "$1" -name '*.tmp.*')
    [[ -z "$left" ]] || { echo "left behind: $left"; return 1; }
}
# progress_lines FILE N: one plain line "frame k/N ..." per frame k = 1..N, no \r.
progress_lines() {
    local file=$1 n=$2 k c
    if grep -q $'\r' "$file"; then echo "carriage return in non-terminal progress"; return 1; fi
    for ((k = 1; k <= n; k++)); do
        c=$(grep -c "^frame $k/$n " "$file")
        [[ $c -eq 1 ]] || { echo "frame $k/$n: $c progress lines, expected 1"; cat "$file"; return 1; }
    done
    c=$(grep -c '^frame ' "$file")
    [[ $c -eq $n ]] || { echo "$c progress lines, expected $n"; cat "$file"; return 1; }
}

# --- 1. tiny runs on the reference path and on the default device --------------------
for dev in ref default; do
    echo "run scenes/beach.yaml, 3 frames, device $dev:"
    out=$tmp/run_$dev
    devflag=()
    [[ $dev == ref ]] && devflag=(--device ref)
    "$LQ" run "$SCENE" --out "$out" "${devflag[@]}" "${TINY[@]}" --set time.frames=3 \
        >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stderr")"; fi
    check "writes exactly frames 0..3: stats, meshes, previews, fields h and depth" \
        same_files "$out" 3 1 depth h
    check "stats.jsonl: one JSON object per frame with the DESIGN keys, time = frame/fps, |volume_drift| < 1e-5" \
        validate stats "$out/stats.jsonl" 3 $FPS
    check "previews are whole PNGs 64 px wide" validate png 64 "$out"/preview/*.png
    check "meshes (and terrain) are whole binary PLY triangle meshes" validate ply "$out"/mesh/*.ply
    check "fields are legacy VTK STRUCTURED_POINTS ${NX}x1x${NZ}, finite" \
        validate vtk $NX $NZ "$out"/fields/*.vtk
    check "no *.tmp.* files remain" no_tmp_files "$out"
    check "progress: one plain line per frame on stderr (not a terminal)" \
        progress_lines "$tmp/stderr" 3
    check "stdout stays empty" test ! -s "$tmp/stdout"
    if [[ $dev == default ]]; then
        check "the chosen device is named on stderr" grep -q '^liquidcl: device ' "$tmp/stderr"
    fi
done

# --- 2. --frames, --out, the default folder ---------------------------------------------
echo "--frames overrides time.frames; --out is honoured:"
out=$tmp/frames_flag
"$LQ" run "$SCENE" --device ref --out "$out" "${TINY[@]}" --set time.frames=5 --frames 2 --quiet \
    >/dev/null 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stderr")"; fi
check "--frames 2 beats time.frames=5: frames 0..2 only" same_files "$out" 2 1 depth h
check "stats.jsonl has frames 0..2" validate stats "$out/stats.jsonl" 2 $FPS
"$LQ" run "$SCENE" --device ref "--out=$tmp/eq form" "${TINY[@]}" --frames=1 --quiet >/dev/null 2>&1
check "--out=DIR and --frames=N forms (and a folder name with a space)" \
    same_files "$tmp/eq form" 1 1 depth h

echo "default output folder out/<scene name>/ (relative to the working directory):"
mkdir -p "$tmp/cwd"
(cd "$tmp/cwd" && "$LQ" run "$SCENE" --device ref "${TINY[@]}" --frames 1 --quiet) >/dev/null 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stderr")"; fi
check "writes out/beach/ (the file name without .yaml)" same_files "$tmp/cwd/out/beach" 1 1 depth h
check "writes nothing else in the working directory" \
    test "$(cd "$tmp/cwd" && find . -maxdepth 2 | LC_ALL=C sort | tr '\n' ' ')" = ". ./out ./out/beach "
(cd "$tmp/cwd" && "$LQ" run "$SCENE" --device ref "${TINY[@]}" --set name=shore --frames 1 --quiet) \
    >/dev/null 2>&1
check "name: in the scene picks the folder (out/shore/)" same_files "$tmp/cwd/out/shore" 1 1 depth h
cp "$SCENE" "$tmp/cwd/cove.yml"
(cd "$tmp/cwd" && "$LQ" run cove.yml --device ref "${TINY[@]}" --frames 1 --quiet) >/dev/null 2>&1
check "a .yml scene writes out/cove/" same_files "$tmp/cwd/out/cove" 1 1 depth h

# --- 3. re-running into the same folder ---------------------------------------------------
echo "re-running into the same folder with fewer frames:"
out=$tmp/rerun
"$LQ" run "$SCENE" --device ref --out "$out" "${TINY[@]}" --frames 4 --quiet >/dev/null 2>&1
check "first run: frames 0..4" same_files "$out" 4 1 depth h
"$LQ" run "$SCENE" --device ref --out "$out" "${TINY[@]}" --frames 2 --quiet >/dev/null 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stderr")"; fi
check "second run: frames 0..2 only, no stale frames 3..4" same_files "$out" 2 1 depth h
check "stats.jsonl is rewritten, not appended" validate stats "$out/stats.jsonl" 2 $FPS
"$LQ" run "$SCENE" --device ref --out "$out" "${TINY[@]}" --set 'output.fields=[h]' --frames 1 \
    --quiet >/dev/null 2>&1
check "third run without field depth: no stale depth_*.vtk" same_files "$out" 1 1 h

# --- 4. output.every ----------------------------------------------------------------------
echo "output.every=2:"
out=$tmp/every
"$LQ" run "$SCENE" --device ref --out "$out" "${TINY[@]}" --set output.every=2 --frames 5 --quiet \
    >/dev/null 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stderr")"; fi
check "meshes, previews and fields only for frames 0, 2, 4" same_files "$out" 5 2 depth h
check "stats.jsonl still has every frame 0..5" validate stats "$out/stats.jsonl" 5 $FPS

# --- 5. --quiet ---------------------------------------------------------------------------
echo "--quiet:"
out=$tmp/quiet
"$LQ" run "$SCENE" --out "$out" "${TINY[@]}" --frames 2 --quiet >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stderr")"; fi
check "stderr is empty" test ! -s "$tmp/stderr"
check "stdout is empty" test ! -s "$tmp/stdout"
check "the files are still written" same_files "$out" 2 1 depth h

# --- 6. a blow-up -------------------------------------------------------------------------
# Gravity of 1e30 m/s² with one step per frame makes h non-finite within a few frames.
for dev in ref default; do
    echo "a simulation that blows up (device $dev):"
    out=$tmp/blowup_$dev
    devflag=()
    [[ $dev == ref ]] && devflag=(--device ref)
    "$LQ" run "$SCENE" --out "$out" "${devflag[@]}" "${TINY[@]}" --frames 5 \
        --set 'gravity=[0,-1e30,0]' --set shallow.substeps=1 >/dev/null 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 1 ]]; then pass "exit 1"; else fail "exit $rc, expected 1" "$(cat "$tmp/stderr")"; fi
    msg=$(tail -n 1 "$tmp/stderr")
    bad=$(sed -n 's/^frame \([0-9][0-9]*\): .*/\1/p' <<<"$msg")
    if [[ -n "$bad" ]] && grep -Eq 'step [0-9]+' <<<"$msg" && grep -q 'field h' <<<"$msg" &&
        grep -q 'blew up' <<<"$msg"; then
        pass "the last stderr line names the frame, the step and the field: $msg"
    else
        fail "the last stderr line should name the frame, the step and the field" "$msg"
    fi
    check "the frame is named once, the message is not garbled (got: $msg)" \
        test "$(grep -o 'frame [0-9]*' <<<"$msg" | wc -l)" -eq 1 -a \
        "$(grep -c 'simulation blew up' <<<"$msg")" -eq 1
    if [[ -n "$bad" && "$bad" -ge 1 ]]; then
        check "frames 0..$((bad - 1)) (the good ones) are complete, nothing after" \
            same_files "$out" $((bad - 1)) 1 depth h
        check "stats.jsonl ends at the last good frame" \
            validate stats "$out/stats.jsonl" $((bad - 1)) $FPS
    else
        fail "blown-up frame number not found in '$msg'"
    fi
    check "no *.tmp.* files remain" no_tmp_files "$out"
done

# --- 7. liquidcl diff ---------------------------------------------------------------------
echo "liquidcl diff scenes/beach.yaml --frames 3:"
(cd "$tmp/cwd" && rm -rf out && "$LQ" diff "$SCENE" --frames 3) >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 0 ]]; then pass "exit 0"; else fail "exit $rc, expected 0" "$(cat "$tmp/stdout" "$tmp/stderr")"; fi
check "prints a table header (field, max abs, max rel, verdict)" \
    grep -Eq '^field +max abs +max rel .*verdict' "$tmp/stdout"
check "a row for shallow.h and for shallow.volume, all ok" \
    bash -c "grep -Eq '^shallow\.h .* ok\$' '$tmp/stdout' && grep -Eq '^shallow\.volume .* ok\$' '$tmp/stdout' && ! grep -q FAIL '$tmp/stdout'"
check "diff writes no output folder" test ! -e "$tmp/cwd/out"

echo "cli_run: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
