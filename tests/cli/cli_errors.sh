#!/usr/bin/env bash
# tests/cli/cli_errors.sh LIQUIDCL — bad input (DESIGN.md, "Command line" and "Quality
# bar"): every broken scene, file, --set, flag, command and device gets exit code 2,
# exactly ONE line on stderr (beginning with FILE:LINE:COL where there is a scene
# position, or with the offending flag), nothing on stdout, and no output folder.
# Also `liquidcl check` (exit 0 on good scenes, 2 on bad ones, writes nothing) and a
# scene with a key its solver does not read. Run from the repository root (ctest does).
set -u
# shellcheck source=tests/cli/lib_cli.sh
source "$(dirname "$0")/lib_cli.sh" "$@"
OUT=$tmp/out # every run below writes here, and it must never appear

# one_line FILE: FILE holds exactly one non-empty, newline-terminated line.
one_line() {
    [[ $(wc -l <"$1") -eq 1 && $(awk 'END { print NR }' "$1") -eq 1 && -n $(head -n 1 "$1") ]]
}

# bad NAME PREFIX PATTERN CMD [ARGS...]: `liquidcl CMD --out $OUT ARGS...` must exit 2
# with one stderr line that starts with the literal PREFIX and matches the extended
# regex PATTERN, print nothing on stdout and create nothing at $OUT. The working
# directory is an empty folder, so a default out/ would show up there too.
bad() {
    local name=$1 prefix=$2 pattern=$3 cmd=$4 rc line
    shift 4
    echo "$name:"
    rm -rf "$OUT" "$tmp/cwd"
    mkdir "$tmp/cwd"
    (cd "$tmp/cwd" && exec "$LQ" "$cmd" --out "$OUT" "$@") >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 2 ]]; then pass "exit 2"; else fail "exit $rc, expected 2" "$(cat "$tmp/stderr")"; fi
    line=$(head -n 1 "$tmp/stderr")
    if ! one_line "$tmp/stderr"; then
        fail "one line on stderr (got $(wc -l <"$tmp/stderr"))" "$(cat "$tmp/stderr")"
    elif [[ "$line" != "$prefix"* ]]; then
        fail "the line starts with '$prefix'" "$line"
    elif ! grep -Eq -- "$pattern" <<<"$line"; then
        fail "the line matches /$pattern/" "$line"
    else
        pass "one line: $line"
    fi
    if [[ -e "$OUT" || -n "$(ls -A "$tmp/cwd")" ]]; then
        fail "nothing written" "$(cd "$tmp" && find out cwd 2>/dev/null | head)"
    else
        pass "no output folder created"
    fi
    if [[ -s "$tmp/stdout" ]]; then fail "stdout stays empty" "$(cat "$tmp/stdout")"; else pass "stdout stays empty"; fi
}

# --- scenes ---------------------------------------------------------------------------
S=$tmp/scenes
mkdir -p "$S"
cp "$ROOT/tests/data/scenes/heightmap.png" "$S/heightmap.png"
echo "not a PNG image" >"$S/corrupt.png"
# A good scene; the broken ones below differ from it in one place. Line numbers
# and columns (1-based) are spelled out in the expectations.
cat >"$S/good.yaml" <<'EOF'
solver: shallow
grid:
  size: [32, 16]
  cell: 0.05
time:
  frames: 2
liquid:
  - level: 0.5
terrain:
  - heightmap: {file: heightmap.png, max: 0.2}
output:
  preview_width: 64
EOF
# variant NAME SED-SCRIPT: S/NAME.yaml from good.yaml.
variant() { sed "$2" "$S/good.yaml" >"$S/$1.yaml"; }
variant unknown_key 's/^output:/outptu:/'                     # 11:1
variant wrong_type 's/frames: 2/frames: two/'                  # 6:11
variant out_of_range 's/cell: 0.05/cell: -1/'                  # 4:9
variant bad_enum "\$a walls: sticky"                            # 13:8
variant missing_file 's/heightmap.png/nope.png/'               # 10:23
variant yaml_syntax 's/size: \[32, 16\]/size: [32, 16/'        # flow sequence not closed
variant missing_key '/cell:/d'                                 # grid without cell
variant grid3 's/size: \[32, 16\]/size: [32, 16, 8]/'          # 3:9
variant corrupt_png 's/heightmap.png/corrupt.png/'             # a file that is not a PNG
variant not_for_solver '/level: 0.5/a\  - sphere: {center: [0.5, 0.1, 0.4], radius: 0.1}' # 9:5
variant no_solver '/^solver:/d'
variant bad_solver 's/^solver: shallow/solver: wave/'          # 1:9
variant duplicate "\$a time: {fps: 10}"                         # 13:1
variant mac_rain 's/^solver: shallow/solver: mac/; s/size: \[32, 16\]/size: [32, 16, 8]/'
printf 'sources:\n  - rain: {rate: 1, radius: 0.01}\n' >>"$S/mac_rain.yaml"
variant splash_rain 's/^solver: shallow/solver: splash/'
printf 'sources:\n  - rain: {rate: 1, radius: 0.01}\n' >>"$S/splash_rain.yaml" # 14:5
variant splash_path 's/^solver: shallow/solver: splash/'
printf 'objects:\n  - sphere: {center: [0.5, 0.6, 0.4], radius: 0.1}\n    path_file: dive.csv\n' \
    >>"$S/splash_path.yaml"
printf 't,x,y,z\n0,0,1,0\n0.5,0,oops,0\n' >"$S/dive.csv" # a bad number at 3:7
variant splash_substeps 's/^solver: shallow/solver: splash/'
variant splash_open_wall 's/^solver: shallow/solver: splash/'
printf 'walls: {x_max: open}\n' >>"$S/splash_open_wall.yaml" # 13:16
printf 'splash:\n  substeps: 1\n' >>"$S/splash_substeps.yaml" # 14:13: Courant 1.8 at one step
: >"$S/empty.yaml"

bad "unknown key, with a did-you-mean" "$S/unknown_key.yaml:11:1: " \
    "unknown key 'outptu'.*did you mean 'output'" run "$S/unknown_key.yaml"
bad "wrong type" "$S/wrong_type.yaml:6:11: " "time\.frames.*two" run "$S/wrong_type.yaml"
bad "out of range" "$S/out_of_range.yaml:4:9: " "grid\.cell.*range" run "$S/out_of_range.yaml"
bad "bad enum word" "$S/bad_enum.yaml:13:8: " "sticky.*free-slip" run "$S/bad_enum.yaml"
bad "missing heightmap file" "$S/missing_file.yaml:10:23: " "nope\.png" run "$S/missing_file.yaml"
bad "YAML syntax error" "$S/yaml_syntax.yaml:" "^[^:]+:[0-9]+:[0-9]+: .*(YAML|yaml|syntax)" \
    run "$S/yaml_syntax.yaml"
bad "missing required key" "$S/missing_key.yaml:" "^[^:]+:[0-9]+:[0-9]+: .*'cell'" \
    run "$S/missing_key.yaml"
bad "grid.size with 3 numbers for the shallow solver" "$S/grid3.yaml:3:9: " \
    "grid\.size|\[nx, nz\]" run "$S/grid3.yaml"
bad "grid.size with 3 numbers, reference path" "$S/grid3.yaml:3:9: " \
    "grid\.size|\[nx, nz\]" run "$S/grid3.yaml" --device ref
bad "heightmap file that is not a PNG" "" "corrupt\.png" run "$S/corrupt_png.yaml" --device ref
bad "a key the scene's solver does not read" "$S/not_for_solver.yaml:9:5: " "sphere.*shallow" \
    run "$S/not_for_solver.yaml"
bad "missing solver" "$S/no_solver.yaml:" "^[^:]+:[0-9]+:[0-9]+: .*solver" run "$S/no_solver.yaml"
bad "unknown solver" "$S/bad_solver.yaml:1:9: " "wave" run "$S/bad_solver.yaml"
bad "duplicate key" "$S/duplicate.yaml:13:1: " "duplicate" run "$S/duplicate.yaml"
bad "empty scene file" "$S/empty.yaml:" "^[^:]+:[0-9]+:[0-9]+: " run "$S/empty.yaml"
bad "nonexistent scene file" "$S/nonexistent.yaml: " "." run "$S/nonexistent.yaml"
bad "scene path is a folder" "$S: " "." run "$S"
bad "a shallow-only source in a mac scene" "$S/mac_rain.yaml:" "rain.*mac" run "$S/mac_rain.yaml"
bad "a shallow-only source in a splash scene" "$S/splash_rain.yaml:14:5: " "rain.*splash" \
    run "$S/splash_rain.yaml"
bad "a bad number in an object's path file" "$S/dive.csv:3:7: " "oops|number" \
    run "$S/splash_path.yaml"
bad "an open wall in a splash scene" "$S/splash_open_wall.yaml:13:16: " \
    "'open' walls are the shallow solver's" run "$S/splash_open_wall.yaml"
bad "splash.substeps below the stability bound" "$S/splash_substeps.yaml:14:13: " \
    "substeps 1 is below the stability bound of [0-9]+ steps per frame.*0\.866" \
    run "$S/splash_substeps.yaml"
bad "splash.substeps below the bound, checked" "$S/splash_substeps.yaml:14:13: " \
    "stability bound" check "$S/splash_substeps.yaml"

# --- --set ----------------------------------------------------------------------------
G=$S/good.yaml
bad "--set unknown key" "--set nope=1: " "unknown key 'nope'" run "$G" --set nope=1
bad "--set bad value" "--set time.frames=abc: " "time\.frames" run "$G" --set time.frames=abc
bad "--set out of range" "--set output.preview_width=10: " "range" run "$G" \
    --set output.preview_width=10
bad "--set without =" "--set time.frames: " "KEY=VALUE" run "$G" --set time.frames
bad "--set without a value at the end" "--set" "value" run "$G" --set
bad "--set list index past the end" "--set liquid.3.level=1: " "liquid" run "$G" \
    --set liquid.3.level=1
bad "--set a field the solver does not write" "--set output.fields=[h,p]: " "'p'" run "$G" \
    --set 'output.fields=[h,p]'
bad "--set grid.size with 3 numbers for the shallow solver" "--set grid.size=[32,16,8]: " \
    "grid\.size|\[nx, nz\]" run "$G" --set 'grid.size=[32,16,8]'

# --- flags, commands, devices ------------------------------------------------------------
bad "unknown flag between flags" "" "unknown flag --bogus" run "$G" --bogus --frames 1
bad "unknown flag last on the line" "" "unknown flag --bogus" run "$G" --bogus
bad "missing scene argument" "" "SCENE" run
bad "two scenes" "" "$G" run "$G" "$G"
bad "unknown command" "" "unknown command 'frobnicate'" frobnicate
bad "unknown command with a scene (a typo of run)" "" "unknown command 'rnu'" rnu "$G"
bad "--device opencl:9.9 (no such device)" "--device opencl:9.9: " "device" run "$G" \
    --device opencl:9.9
bad "--device bogus" "--device bogus: " "auto, ref, opencl" run "$G" --device bogus
# A grid the device cannot hold is refused before anything is allocated or written.
bad "a grid too big for the OpenCL device" "the height-field solver needs" \
    "MAX_MEM_ALLOC_SIZE|device memory" run "$G" --device opencl --set "grid.size=[20000,20000]"
bad "a grid too big for this machine" "the height-field solver needs" "memory" run "$G" \
    --device ref --set "grid.size=[30000,30000]"
bad "--frames 0" "--frames 0: " "integer" run "$G" --frames 0
bad "--frames abc" "--frames abc: " "integer" run "$G" --frames abc
bad "--frames without a value" "--frames" "value" run "$G" --frames
bad "diff on a bad scene" "$S/out_of_range.yaml:4:9: " "grid\.cell" diff "$S/out_of_range.yaml"
bad "diff --device ref (diff needs OpenCL)" "--device ref: " "." diff "$G" --device ref

echo "no command at all:"
"$LQ" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 2 ]]; then pass "exit 2"; else fail "exit $rc, expected 2"; fi
if grep -q 'missing command' <(head -n 1 "$tmp/stderr"); then
    pass "stderr begins with the error line"
else
    fail "stderr begins with the error line" "$(cat "$tmp/stderr")"
fi

# --out below a regular file is a bad flag (exit 2), and the file is left alone.
echo "--out below a regular file:"
echo "keep" >"$tmp/afile"
"$LQ" run "$G" --frames 1 --out "$tmp/afile/sub" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [[ $rc -eq 2 ]]; then pass "exit 2"; else fail "exit $rc, expected 2" "$(cat "$tmp/stderr")"; fi
if one_line "$tmp/stderr" && grep -q afile "$tmp/stderr"; then
    pass "one line naming the path: $(cat "$tmp/stderr")"
else
    fail "one line naming the path" "$(cat "$tmp/stderr")"
fi
if [[ -f "$tmp/afile" && $(cat "$tmp/afile") == keep ]]; then pass "the file is untouched"; else fail "the file is untouched"; fi

# --- liquidcl check ------------------------------------------------------------------------
echo "liquidcl check on good scenes (exit 0, 'ok' on stdout, nothing written):"
rm -rf "$tmp/cwd" && mkdir "$tmp/cwd"
for scene in "$G" "$ROOT"/scenes/*.yaml "$ROOT"/scenes/validation/*.yaml; do
    (cd "$tmp/cwd" && "$LQ" check "$scene") >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [[ $rc -eq 0 ]] && grep -q 'ok' "$tmp/stdout" && [[ ! -s "$tmp/stderr" ]]; then
        pass "check ${scene#"$ROOT"/}"
    else
        fail "check ${scene#"$ROOT"/}: exit $rc" "$(cat "$tmp/stdout" "$tmp/stderr")"
    fi
done
if [[ -z "$(ls -A "$tmp/cwd")" ]]; then pass "check wrote nothing"; else fail "check wrote nothing" "$(ls -A "$tmp/cwd")"; fi

bad "check on a bad scene" "$S/out_of_range.yaml:4:9: " "grid\.cell" check "$S/out_of_range.yaml"
bad "check with a bad --set" "--set time.frames=abc: " "time\.frames" check "$G" --set time.frames=abc
bad "check: grid.size with 3 numbers for the shallow solver (run rejects it)" "$S/grid3.yaml:3:9: " \
    "grid\.size|\[nx, nz\]" check "$S/grid3.yaml"
bad "check: a heightmap that is not a PNG (run rejects it)" "" "corrupt\.png" check \
    "$S/corrupt_png.yaml"

echo "cli_errors: $((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
