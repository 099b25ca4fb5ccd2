/*
 * test_scene.c — the scene format (host/scene/scene.c, host/scene/scene_keys.c): a full shallow
 * scene read back through every getter, defaults, `--set` overrides, per-face walls,
 * one reject case (exact FILE:LINE:COL prefix + message fragment) for every error
 * class, the key table's well-formedness, and docs/SCENE.md against the generator.
 *
 * Runs with the repository root as the working directory (ctest does this). Reject
 * cases write their YAML to a fresh temporary folder, so the positions they assert
 * are visible right here in the test text. LQ_REGENERATE=1 rewrites docs/SCENE.md.
 */
#define LQ_SCENE_GETTERS /* the getters by path are what this file tests */
#include "lib/check.h"
#include "core/common.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FULL    "tests/data/scenes/full_shallow.yaml"
#define MINIMAL "tests/data/scenes/minimal.yml"
#define DOCS    "docs/SCENE.md"

static char tmpdir[64];
static char casefile[128];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* Loads `yaml` (written to the case file) with overrides and expects a failure whose
 * message starts with `prefix` and contains `fragment`, on one line. */
static void reject(int at, const char *yaml, int nsets, const char *const *sets, const char *prefix,
                   const char *fragment)
{
    write_text(casefile, yaml);
    lq_error_clear();
    lq_scene *s = lq_scene_load(casefile, nsets, sets);
    const char *msg = lq_error_message();
    CHECK_MSG(s == NULL, "case at line %d loaded; expected an error", at);
    CHECK_MSG(strncmp(msg, prefix, strlen(prefix)) == 0,
              "case at line %d: message '%s' does not start with '%s'", at, msg, prefix);
    CHECK_MSG(strstr(msg, fragment) != NULL, "case at line %d: message '%s' does not contain '%s'",
              at, msg, fragment);
    CHECK_MSG(strchr(msg, '\n') == NULL, "case at line %d: message is not one line", at);
    lq_scene_free(s);
}

/* A reject case positioned in the case file. */
static void reject_at(int at, const char *yaml, int line, int col, const char *fragment)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s:%d:%d: ", casefile, line, col);
    reject(at, yaml, 0, NULL, prefix, fragment);
}

/* A reject case caused by the override `set`. */
static void reject_set(int at, const char *yaml, const char *set, const char *fragment)
{
    char prefix[512];
    snprintf(prefix, sizeof prefix, "--set %s: ", set);
    reject(at, yaml, 1, &set, prefix, fragment);
}

#define REJECT(yaml, line, col, frag) reject_at(__LINE__, yaml, line, col, frag)
#define REJECT_SET(yaml, set, frag)   reject_set(__LINE__, yaml, set, frag)
#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *lq_sa_ = (a), *lq_sb_ = (b);                                                   \
        CHECK_MSG(lq_sa_ &&lq_sb_ &&strcmp(lq_sa_, lq_sb_) == 0, "'%s' != '%s'",                   \
                  lq_sa_ ? lq_sa_ : "(null)", lq_sb_ ? lq_sb_ : "(null)");                         \
    } while (0)

/* A shallow scene's first four lines; cases add theirs from line 5. */
#define HEAD "solver: shallow\ngrid:\n  size: [16, 16]\n  cell: 0.1\n"

static lq_scene *load(const char *path, int nsets, const char *const *sets)
{
    lq_error_clear();
    lq_scene *s = lq_scene_load(path, nsets, sets);
    CHECK_MSG(s != NULL, "%s: %s", path, lq_error_message());
    return s;
}

static void test_full_scene(void)
{
    lq_scene *s = load(FULL, 0, NULL);
    double v[4];
    int n[4];
    const char *w[8];
    if (!s) return;
    CHECK_STR(lq_scene_file(s), FULL);
    CHECK_STR(lq_scene_solver(s), "shallow");
    CHECK_STR(lq_scene_name(s), "beach");
    CHECK(lq_scene_ints(s, "grid.size", n, 4) == 2 && n[0] == 64 && n[1] == 32);
    CHECK(lq_scene_floats(s, "grid.size", v, 4) == 2 && v[0] == 64 && v[1] == 32);
    CHECK_NEAR(lq_scene_float(s, "grid.cell"), 0.05, 0);
    CHECK(lq_scene_floats(s, "grid.origin", v, 4) == 3 && v[0] == -1.0 && v[2] == 0.5);
    CHECK(lq_scene_int(s, "time.frames") == 48);
    CHECK_NEAR(lq_scene_float(s, "time.frames"), 48, 0); /* INT read as a number */
    CHECK_NEAR(lq_scene_float(s, "time.fps"), 24, 0);
    CHECK_NEAR(lq_scene_float(s, "time.cfl"), 0.5, 0);
    CHECK(lq_scene_floats(s, "gravity", v, 4) == 3 && v[1] == -9.8);

    /* walls as a mapping: named faces, the others default, no common word */
    CHECK_STR(lq_scene_enum(s, "walls.x_min"), "no-slip");
    CHECK_STR(lq_scene_enum(s, "walls.x_max"), "free-slip");
    CHECK_STR(lq_scene_enum(s, "walls.z_max"), "no-slip");
    CHECK(lq_scene_enum(s, "walls") == NULL);
    CHECK(lq_scene_has(s, "walls.x_min") && !lq_scene_has(s, "walls.y_min"));

    static const char *const liquid[] = {"level", "box", "hump", "wave", "tilt", "paraboloid"};
    CHECK(lq_scene_count(s, "liquid") == 6);
    for (int i = 0; i < 6; i++) CHECK_STR(lq_scene_kind(s, "liquid", i), liquid[i]);
    CHECK_NEAR(lq_scene_float(s, "liquid.0.level"), 0.2, 0);
    CHECK(lq_scene_floats(s, "liquid.1.box.max", v, 4) == 3 && v[1] == 0.3);
    CHECK(lq_scene_floats(s, "liquid.1.box.velocity", v, 4) == 3 && v[0] == 0.1);
    CHECK_NEAR(lq_scene_float(s, "liquid.2.hump.sigma"), 0.1, 0);
    CHECK(lq_scene_int(s, "liquid.3.wave.mode") == 2);
    CHECK_STR(lq_scene_enum(s, "liquid.3.wave.axis"), "z");
    CHECK(lq_scene_floats(s, "liquid.4.tilt.slope", v, 4) == 2 && v[0] == 0.01);
    CHECK(!lq_scene_has(s, "liquid.4.tilt.center")); /* no default: the grid centre */
    CHECK(lq_scene_floats(s, "liquid.4.tilt.center", v, 4) == 0);
    CHECK_NEAR(lq_scene_float(s, "liquid.5.paraboloid.curvature"), -0.02, 0);

    CHECK(lq_scene_count(s, "obstacles") == 2);
    CHECK_STR(lq_scene_kind(s, "obstacles", 1), "sphere");
    CHECK_STR(lq_scene_enum(s, "obstacles.0.boundary"), "free-slip");
    CHECK_STR(lq_scene_enum(s, "obstacles.1.boundary"), "no-slip");
    CHECK_NEAR(lq_scene_float(s, "obstacles.1.sphere.radius"), 0.15, 0);

    static const char *const terrain[] = {"plane", "ramp", "box", "gaussian", "bowl", "heightmap"};
    CHECK(lq_scene_count(s, "terrain") == 6);
    for (int i = 0; i < 6; i++) CHECK_STR(lq_scene_kind(s, "terrain", i), terrain[i]);
    CHECK_NEAR(lq_scene_float(s, "terrain.0.plane.height"), -0.1, 0);
    CHECK(lq_scene_floats(s, "terrain.1.ramp.height", v, 4) == 2 && v[1] == 0.4);
    CHECK_STR(lq_scene_enum(s, "terrain.1.combine"), "max");
    CHECK_STR(lq_scene_enum(s, "terrain.3.combine"), "add");
    CHECK_STR(lq_scene_enum(s, "terrain.0.combine"), "max");
    CHECK_NEAR(lq_scene_float(s, "terrain.4.bowl.depth"), 0.3, 0);
    CHECK_STR(lq_scene_enum(s, "terrain.4.bowl.axis"), "x");
    CHECK_STR(lq_scene_file_path(s, "terrain.5.heightmap.file"), "tests/data/scenes/heightmap.png");
    CHECK_NEAR(lq_scene_float(s, "terrain.5.heightmap.min"), -0.05, 0);
    CHECK(lq_scene_floats(s, "terrain.5.heightmap.size", v, 4) == 2 && v[0] == 3.2);

    static const char *const sources[] = {"rain", "drop", "inflow", "drain"};
    CHECK(lq_scene_count(s, "sources") == 4);
    for (int i = 0; i < 4; i++) CHECK_STR(lq_scene_kind(s, "sources", i), sources[i]);
    CHECK_NEAR(lq_scene_float(s, "sources.0.rain.rate"), 40, 0);
    CHECK(lq_scene_int(s, "sources.0.rain.seed") == 7);
    CHECK(lq_scene_floats(s, "sources.0.rain.region_max", v, 4) == 2 && v[0] == 2);
    CHECK_NEAR(lq_scene_float(s, "sources.1.drop.time"), 0.5, 0);
    CHECK_NEAR(lq_scene_float(s, "sources.2.inflow.stop"), 2, 0);
    CHECK_NEAR(lq_scene_float(s, "sources.3.drain.stop"), 1e30, 0);
    CHECK(!lq_scene_has(s, "sources.3.drain.stop"));

    CHECK_NEAR(lq_scene_float(s, "shallow.damping"), 0.02, 0);
    CHECK(lq_scene_int(s, "shallow.substeps") == 4);
    CHECK_NEAR(lq_scene_float(s, "shallow.dry_epsilon"), 1e-4, 0);
    CHECK(!lq_scene_bool(s, "shallow.volume_correction"));

    CHECK(lq_scene_int(s, "output.every") == 2);
    CHECK(lq_scene_enums(s, "output.fields", w, 8) == 3);
    CHECK_STR(w[0], "h");
    CHECK_STR(w[2], "depth");
    CHECK(!lq_scene_bool(s, "output.mesh") && lq_scene_bool(s, "output.particles"));
    CHECK(lq_scene_int(s, "output.preview_width") == 640);

    /* solver-side checks report at a key's node, or at the file when it is absent */
    lq_error_clear();
    CHECK(lq_scene_error(s, "liquid.1.box.max", "outside the grid") == LQ_EINPUT);
    CHECK_STR(lq_error_message(), FULL ":18:32: outside the grid");
    lq_error_clear();
    lq_scene_error(s, "walls.y_min", "a floor needs %s", "no-slip");
    CHECK_STR(lq_error_message(), FULL ": a floor needs no-slip");
    lq_error_clear();
    lq_scene_error(s, "liquid.2", "too tall");
    CHECK_STR(lq_error_message(), FULL ":19:5: too tall");
    lq_scene_free(s);
}

static void test_defaults(void)
{
    lq_scene *s = load(MINIMAL, 0, NULL);
    double v[4];
    const char *w[8];
    if (!s) return;
    CHECK_STR(lq_scene_name(s), "minimal");
    CHECK_STR(lq_scene_solver(s), "pls");
    CHECK(lq_scene_int(s, "time.frames") == 120);
    CHECK_NEAR(lq_scene_float(s, "time.fps"), 30, 0);
    CHECK_NEAR(lq_scene_float(s, "time.cfl"), 1.0, 0);
    CHECK(lq_scene_floats(s, "gravity", v, 4) == 3 && v[0] == 0 && v[1] == -9.81 && v[2] == 0);
    CHECK(lq_scene_floats(s, "grid.origin", v, 4) == 3 && v[0] == 0);
    CHECK_STR(lq_scene_enum(s, "walls"), "free-slip");
    CHECK_STR(lq_scene_enum(s, "walls.y_min"), "free-slip");
    CHECK(lq_scene_int(s, "output.every") == 1);
    CHECK(lq_scene_enums(s, "output.fields", w, 8) == 0);
    CHECK(lq_scene_bool(s, "output.mesh") && !lq_scene_bool(s, "output.particles"));
    CHECK(lq_scene_bool(s, "output.preview"));
    CHECK(lq_scene_int(s, "output.preview_width") == 960);
    CHECK(lq_scene_count(s, "liquid") == 0 && lq_scene_count(s, "obstacles") == 0);
    CHECK(!lq_scene_has(s, "time.fps") && lq_scene_has(s, "grid.cell"));
    CHECK(lq_scene_enum(s, "name") == NULL);
    lq_scene_free(s);
}

static void test_overrides(void)
{
    double v[4];
    int n[4];
    static const char *const full_sets[] = {
        "time.fps=60",                                            /* a scalar */
        "grid.size=[128, 64]",                                    /* a vector */
        "liquid.1.box.max=[0.6, 0.4, 1.6]",                       /* a list item's field */
        "liquid.4.tilt.center=[1, 1]",                            /* a new key in an item */
        "shallow.damping=0.5",                                    /* a mapping's existing key */
        "walls.y_min=no-slip",                                    /* a face in the walls mapping */
        "obstacles.0={sphere: {center: [1, 0, 1], radius: 0.2}}", /* a whole item */
    };
    lq_scene *s = load(FULL, (int)LQ_COUNT(full_sets), full_sets);
    if (s) {
        CHECK_NEAR(lq_scene_float(s, "time.fps"), 60, 0);
        CHECK(lq_scene_ints(s, "grid.size", n, 4) == 2 && n[0] == 128 && n[1] == 64);
        CHECK(lq_scene_floats(s, "liquid.1.box.max", v, 4) == 3 && v[0] == 0.6);
        CHECK(lq_scene_floats(s, "liquid.4.tilt.center", v, 4) == 2 && v[1] == 1);
        CHECK_NEAR(lq_scene_float(s, "shallow.damping"), 0.5, 0);
        CHECK_STR(lq_scene_enum(s, "walls.y_min"), "no-slip");
        CHECK_STR(lq_scene_enum(s, "walls.x_min"), "no-slip");
        CHECK_STR(lq_scene_enum(s, "walls.x_max"), "free-slip");
        CHECK_STR(lq_scene_kind(s, "obstacles", 0), "sphere");
        CHECK_STR(lq_scene_enum(s, "obstacles.0.boundary"), "no-slip");
        /* a solver check at an overridden value names the override */
        lq_error_clear();
        lq_scene_error(s, "time.fps", "too fast");
        CHECK_STR(lq_error_message(), "--set time.fps=60: too fast");
        lq_scene_free(s);
    }

    /* new mappings created on the path; a later --set wins */
    static const char *const new_sets[] = {"time.frames=10", "output.fields=[phi, p]",
                                           "name=renamed", "time.frames=12",
                                           "liquid=[{sphere: {center: [0, 0, 0], radius: 1}}]"};
    s = load(MINIMAL, (int)LQ_COUNT(new_sets), new_sets);
    if (s) {
        const char *w[4];
        CHECK(lq_scene_int(s, "time.frames") == 12 && lq_scene_has(s, "time.frames"));
        CHECK_NEAR(lq_scene_float(s, "time.fps"), 30, 0);
        CHECK(lq_scene_enums(s, "output.fields", w, 4) == 2);
        CHECK_STR(w[1], "p");
        CHECK_STR(lq_scene_name(s), "renamed");
        CHECK(lq_scene_count(s, "liquid") == 1);
        CHECK_NEAR(lq_scene_float(s, "liquid.0.sphere.radius"), 1, 0);
        lq_scene_free(s);
    }

    /* a face set below a one-word walls keeps the word for the other faces */
    static const char *const face_sets[] = {"walls=no-slip", "walls.x_max=free-slip"};
    s = load(MINIMAL, 2, face_sets);
    if (s) {
        CHECK_STR(lq_scene_enum(s, "walls.x_min"), "no-slip");
        CHECK_STR(lq_scene_enum(s, "walls.z_max"), "no-slip");
        CHECK_STR(lq_scene_enum(s, "walls.x_max"), "free-slip");
        CHECK(lq_scene_enum(s, "walls") == NULL);
        lq_scene_free(s);
    }
    static const char *const walls_new[] = {"walls.y_min=no-slip"};
    s = load(MINIMAL, 1, walls_new);
    if (s) {
        CHECK_STR(lq_scene_enum(s, "walls.y_min"), "no-slip");
        CHECK_STR(lq_scene_enum(s, "walls.y_max"), "free-slip");
        lq_scene_free(s);
    }
}

static void test_walls(void)
{
    static const char *const faces[] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
    char path[32];
    write_text(casefile, "solver: mac\ngrid: {size: [4, 4, 4], cell: 1}\nwalls: no-slip\n");
    lq_scene *s = load(casefile, 0, NULL);
    if (s) {
        CHECK_STR(lq_scene_enum(s, "walls"), "no-slip");
        for (int i = 0; i < 6; i++) {
            snprintf(path, sizeof path, "walls.%s", faces[i]);
            CHECK_STR(lq_scene_enum(s, path), "no-slip");
            CHECK(lq_scene_has(s, path));
        }
        lq_scene_free(s);
    }
    write_text(casefile, "solver: mac\ngrid: {size: [4, 4, 4], cell: 1}\n"
                         "walls: {x_min: no-slip, x_max: no-slip, y_min: no-slip,\n"
                         "        y_max: no-slip, z_min: no-slip, z_max: no-slip}\n");
    s = load(casefile, 0, NULL);
    if (s) {
        CHECK_STR(lq_scene_enum(s, "walls"), "no-slip"); /* all faces agree */
        lq_scene_free(s);
    }
    /* anchors and aliases are plain YAML: the alias reads as a copy */
    write_text(casefile, "solver: pls\ngrid: {size: [4, 4, 4], cell: 1}\n"
                         "liquid:\n  - box: {min: &o [0, 0, 0], max: [1, 1, 1]}\n"
                         "  - sphere: {center: *o, radius: 0.5}\n");
    s = load(casefile, 0, NULL);
    if (s) {
        double v[3];
        CHECK(lq_scene_floats(s, "liquid.1.sphere.center", v, 3) == 3 && v[2] == 0);
        lq_scene_free(s);
    }
}

/* One case per error class, each at its exact position. */
static void test_rejects(void)
{
    char path[256], frag[300];

    /* the file itself */
    snprintf(path, sizeof path, "%s/absent.yaml", tmpdir);
    lq_error_clear();
    CHECK(lq_scene_load(path, 0, NULL) == NULL);
    snprintf(frag, sizeof frag, "%s: cannot read the scene file: No such file", path);
    CHECK_MSG(strncmp(lq_error_message(), frag, strlen(frag)) == 0, "%s", lq_error_message());
    lq_error_clear();
    CHECK(lq_scene_load(tmpdir, 0, NULL) == NULL);
    snprintf(frag, sizeof frag, "%s: cannot read the scene file: Is a directory", tmpdir);
    CHECK_MSG(strcmp(lq_error_message(), frag) == 0, "%s", lq_error_message());
    REJECT("", 1, 1, "empty scene");
    REJECT("# only a comment\n", 1, 1, "empty scene");
    REJECT("- solver\n- grid\n", 1, 1, "a scene must be a mapping of keys");
    REJECT("just words\n", 1, 1, "a scene must be a mapping of keys");
    REJECT(HEAD "---\nsolver: pls\n", 6, 1, "a second YAML document");

    /* YAML syntax, with libyaml's problem and mark */
    REJECT("solver: shallow\ngrid: [1, 2\n", 3, 1,
           "YAML syntax error: did not find expected ',' or ']'");
    REJECT("solver: shallow\n  grid: 1\n", 2, 7, "YAML syntax error: mapping values are not");
    REJECT("solver: shallow\ngrid: *nowhere\n", 2, 7, "found undefined alias");
    REJECT("a: &x [*x]\n", 1, 4, "nesting deeper than 64 levels");
    {
        /* 64 000 levels cost libyaml's loader 17 s (quadratic): refused from its events,
         * after the first 66 levels, in no time */
        static char deep[2 * 64000 + 64];
        size_t o = (size_t)sprintf(deep, "solver: shallow\ngrid: ");
        for (int i = 0; i < 64000; i++) deep[o++] = '[';
        for (int i = 0; i < 64000; i++) deep[o++] = ']';
        deep[o++] = '\n';
        deep[o] = '\0';
        double t0 = lq_now();
        REJECT(deep, 2, 71, "nesting deeper than 64 levels");
        CHECK_MSG(lq_now() - t0 < 0.5, "64 000 levels took %.2f s to refuse", lq_now() - t0);
    }

    /* the solver is read first */
    REJECT("grid: {size: [4, 4], cell: 1}\n", 1, 1,
           "missing required key 'solver' (one of shallow");
    REJECT("solver: shalow\n", 1, 9,
           "solver: 'shalow' is not one of shallow, splash, mac, pls "
           "(did you mean 'shallow'?)");
    REJECT("grid: 1\nsolver: [pls]\n", 2, 9, "solver: expected one of shallow");

    /* unknown keys, with a suggestion among the siblings */
    REJECT("solver: shallow\ngrid:\n  sise: [16, 16]\n  cell: 0.1\n", 3, 3,
           "grid.sise: unknown key 'sise' (did you mean 'size'?)");
    REJECT(HEAD "gravty: [0, -1, 0]\n", 5, 1,
           "gravty: unknown key 'gravty' (did you mean 'gravity'?)");
    REJECT(HEAD "colour: blue\n", 5, 1, "colour: unknown key 'colour' (known keys: solver, name,");
    REJECT(HEAD "liquid:\n  - bx: {min: [0, 0, 0], max: [1, 1, 1]}\n", 6, 5,
           "liquid.0.bx: unknown key 'bx' (did you mean 'box'?)");
    REJECT(HEAD "walls: {x_mn: no-slip}\n", 5, 9,
           "walls.x_mn: unknown key 'x_mn' (did you mean 'x_min'?)");
    REJECT(HEAD "time:\n  [1]: 2\n", 6, 3, "time: expected a key name, got a sequence");

    /* wrong types */
    REJECT(HEAD "time:\n  fps: abc\n", 6, 8, "time.fps: expected a number, got 'abc'");
    REJECT(HEAD "time:\n  fps: \"30\"\n", 6, 8,
           "time.fps: expected a number, got quoted text '30'");
    REJECT(HEAD "time:\n  frames: 1.5\n", 6, 11, "time.frames: expected an integer, got '1.5'");
    REJECT(HEAD "time:\n  frames: 99999999999\n", 6, 11, "time.frames: 99999999999 is too large");
    REJECT(HEAD "time: {fps: 1e999}\n", 5, 13, "time.fps: 1e999 is too large");
    REJECT(HEAD "time:\n  fps:\n", 6, 7, "time.fps: expected a number, got nothing");
    REJECT("solver: shallow\ngrid:\n  size: 64\n  cell: 0.1\n", 3, 9,
           "grid.size: expected a sequence of 2 to 3 integers, got '64'");
    REJECT("solver: shallow\ngrid:\n  size: [1, 2, 3, 4]\n  cell: 0.1\n", 3, 9,
           "grid.size: expected a sequence of 2 to 3 integers, got 4 items");
    REJECT("solver: shallow\ngrid:\n  size: [16, 1.5]\n  cell: 0.1\n", 3, 14,
           "grid.size.1: expected an integer, got '1.5'");
    REJECT(HEAD "gravity: {y: -9.81}\n", 5, 10,
           "gravity: expected a sequence of 3 numbers, got a mapping");
    REJECT(HEAD "output: {mesh: yes}\n", 5, 16, "output.mesh: expected true or false, got 'yes'");
    REJECT(HEAD "time: 5\n", 5, 7, "time: expected a mapping, got '5'");
    REJECT(HEAD "liquid: {level: 1}\n", 5, 9,
           "liquid: expected a list of items (each one of box, sphere");
    REJECT(HEAD "liquid: [0.5]\n", 5, 10, "liquid.0: expected a mapping with one of box, sphere");
    REJECT(HEAD "name: [a, b]\n", 5, 7, "name: expected text, got a sequence");
    REJECT(
        HEAD "walls: [no-slip]\n", 5, 8,
        "walls: expected one of free-slip, no-slip, open, absorbing or a mapping of faces, got a "
        "sequence");

    /* out of range: the range and units from the table */
    REJECT(HEAD "time:\n  fps: 0\n", 6, 8, "time.fps: 0 is out of range (0, 1000000] 1/s");
    REJECT(HEAD "output:\n  preview_width: 10\n", 6, 18,
           "output.preview_width: 10 is out of range [64, 8192] px");
    REJECT("solver: shallow\ngrid:\n  size: [16, 0]\n  cell: 0.1\n", 3, 14,
           "grid.size.1: 0 is out of range [1, 65536] cells");
    REJECT("solver: shallow\ngrid:\n  size: [16, 16]\n  cell: -0.1\n", 4, 9,
           "grid.cell: -0.1 is out of range [1e-06, 10000] m");
    /* numbers the solvers' 32-bit floats cannot hold (issue 19: a cell of 1e300 passed and
     * wrote inf coordinates; 1e-320 failed only after frame 0 was written) */
    REJECT(HEAD "gravity: [0, -1e300, 0]\n", 5, 14,
           "gravity.1: -1e300 does not fit a 32-bit float (at most 3.4e+38)");
    REJECT(HEAD "gravity: [0, -1e-320, 0]\n", 5, 14,
           "gravity.1: -1e-320 is too small for a 32-bit float");
    REJECT("solver: shallow\ngrid:\n  size: [16, 16]\n  cell: 1e300\n", 4, 9,
           "grid.cell: 1e300 does not fit a 32-bit float");
    REJECT("solver: shallow\ngrid:\n  size: [16, 16]\n  cell: 1e-320\n", 4, 9,
           "grid.cell: 1e-320 is too small for a 32-bit float");
    REJECT(HEAD "shallow: {damping: 1.5}\n", 5, 20, "shallow.damping: 1.5 is out of range [0, 1]");

    /* enum words: the allowed list, and a suggestion when close */
    REJECT(HEAD "walls: no-slp\n", 5, 8,
           "walls: 'no-slp' is not one of free-slip, no-slip, open, absorbing (did you mean "
           "'no-slip'?)");
    REJECT(HEAD "walls: sticky\n", 5, 8,
           "walls: 'sticky' is not one of free-slip, no-slip, open, absorbing");
    REJECT(HEAD "walls:\n  z_max: noslip\n", 6, 10,
           "walls.z_max: 'noslip' is not one of free-slip, no-slip, open, absorbing (did you "
           "mean 'no-slip'?)");
    REJECT(HEAD "output: {fields: [h, vel]}\n", 5, 22,
           "output.fields.1: 'vel' is not one of h, b, depth, u, v, w, p, phi");

    /* keys the scene's solver does not read */
    REJECT("solver: pls\ngrid: {size: [4, 4, 4], cell: 1}\nshallow:\n  damping: 0.1\n", 3, 1,
           "shallow: not used by solver 'pls' (read by shallow)");
    REJECT(HEAD "liquid:\n  - sphere: {center: [0, 0, 0], radius: 1}\n", 6, 5,
           "liquid.0.sphere: not used by solver 'shallow' (read by splash, mac, pls)");
    REJECT("solver: pls\ngrid: {size: [4, 4, 4], cell: 1}\nterrain: []\n", 3, 1,
           "terrain: not used by solver 'pls'");

    /* missing required keys, at the parent's position */
    REJECT("solver: shallow\ngrid:\n  size: [16, 16]\n", 3, 3, "grid: missing required key 'cell'");
    REJECT("solver: shallow\n", 1, 1, "missing required key 'grid'");
    REJECT(HEAD "liquid:\n  - box: {min: [0, 0, 0]}\n", 6, 10,
           "liquid.0.box: missing required key 'max'");
    REJECT(HEAD "terrain:\n  - heightmap:\n      max: 1\n", 7, 7,
           "terrain.0.heightmap: missing required key 'file'");

    /* files named by FILE keys, resolved against the scene's folder */
    snprintf(frag, sizeof frag,
             "terrain.0.heightmap.file: cannot read file '%s/nope.png': No such file", tmpdir);
    REJECT(HEAD "terrain:\n  - heightmap: {file: nope.png, max: 1}\n", 6, 23, frag);
    snprintf(path, sizeof path, "%s/sub", tmpdir);
    mkdir(path, 0700);
    snprintf(frag, sizeof frag, "cannot read file '%s/sub': it is a folder", tmpdir);
    REJECT(HEAD "terrain:\n  - heightmap: {file: sub, max: 1}\n", 6, 23, frag);
    REJECT(HEAD "terrain:\n  - heightmap: {file: '', max: 1}\n", 6, 23,
           "terrain.0.heightmap.file: expected a file name");

    /* duplicate keys */
    REJECT("solver: shallow\ngrid:\n  size: [16, 16]\n  cell: 0.1\n  size: [8, 8]\n", 5, 3,
           "grid.size: duplicate key 'size' (first at line 3, column 3)");
    REJECT(HEAD "solver: pls\n", 5, 1,
           "solver: duplicate key 'solver' (first at line 1, column 1)");

    /* list items need exactly one kind */
    REJECT(HEAD "obstacles:\n  - boundary: no-slip\n", 6, 5,
           "obstacles.0: an item needs exactly one of box, sphere");
    REJECT(
        HEAD "liquid:\n  - level: 0.1\n  - {}\n", 7, 5,
        "liquid.1: an item needs exactly one of box, sphere, level, hump, wave, tilt, paraboloid");
    REJECT(HEAD "liquid:\n  - level: 0.1\n    wave: {amplitude: 0.1}\n", 7, 5,
           "liquid.0: an item needs exactly one of box, sphere, level, hump, wave, tilt, "
           "paraboloid (got 'level' and 'wave')");
}

static void test_override_rejects(void)
{
    static const char *const scene =
        HEAD "liquid:\n  - level: 0.1\n  - box: {min: [0, 0, 0], max: [1, 1, 1]}\n"
             "terrain:\n  - plane: {}\n";
    static const char *const pls = "solver: pls\ngrid: {size: [4, 4, 4], cell: 1}\n"
                                   "liquid:\n  - box: {min: [0, 0, 0], max: [1, 1, 1]}\n";
    char frag[300];
    REJECT_SET(scene, "liquid.3.box.max=[1, 1, 1]", "liquid has 2 items");
    REJECT_SET(pls, "obstacles.0.box.min=[0, 0, 0]", "obstacles has 0 items");
    REJECT_SET(scene, "liquid.first.level=1",
               "liquid is a list: address an item by index (liquid.0)");
    REJECT_SET(scene, "time.fps", "expected KEY=VALUE");
    REJECT_SET(scene, "=1", "expected KEY=VALUE");
    REJECT_SET(scene, "time..fps=1", "empty key part");
    REJECT_SET(scene, "time.fps=[1,", "cannot read the value: YAML syntax error");
    REJECT_SET(scene, "grid.sise=[4, 4]", "grid.sise: unknown key 'sise' (did you mean 'size'?)");
    REJECT_SET(scene, "time.fps=abc", "time.fps: expected a number, got 'abc'");
    REJECT_SET(scene, "time.fps=0", "time.fps: 0 is out of range (0, 1000000]");
    REJECT_SET(scene, "grid.size=[4]",
               "grid.size: expected a sequence of 2 to 3 integers, got 1 item");
    REJECT_SET(scene, "walls=no-slp",
               "walls: 'no-slp' is not one of free-slip, no-slip, open, absorbing (did you mean");
    REJECT_SET(scene, "time.fps.x=1", "time.fps: expected a number, got a mapping");
    REJECT_SET(scene, "solver=foo", "solver: 'foo' is not one of shallow, splash, mac, pls");
    REJECT_SET(pls, "shallow.damping=0.1", "shallow: not used by solver 'pls'");
    REJECT_SET(pls, "liquid.0.sphere={center: [0, 0, 0], radius: 1}",
               "liquid.0: an item needs exactly one of box, sphere");
    REJECT_SET(scene, "liquid.1.box={min: [0, 0, 0]}", "liquid.1.box: missing required key 'max'");
    REJECT_SET(scene, "grid={size: [4, 4], size: [4, 4], cell: 1}",
               "grid.size: duplicate key 'size'");
    REJECT_SET(scene, "liquid=[{}]", "liquid.0: an item needs exactly one of box");
    snprintf(frag, sizeof frag, "terrain.0.heightmap.file: cannot read file '%s/gone.png'", tmpdir);
    REJECT_SET(scene, "terrain.0={heightmap: {file: gone.png, max: 1}}", frag);

    /* the first bad override wins, and file errors still come first */
    static const char *const two[] = {"time.fps=-1", "time.frames=0"};
    reject(__LINE__, scene, 2, two, "--set time.fps=-1: ", "out of range");
}

/* The shipped table is well formed; malformed rows are caught. */
static void test_table(void)
{
    lq_error_clear();
    CHECK_OK(lq_scene_check_keys(lq_scene_keys));

    static const struct {
        lq_key rows[4];
        const char *fragment;
    } bad[] = {
        {{{.path = "a",
           .type = LQ_KEY_INT,
           .solvers = 1,
           .min = 1,
           .max = 10,
           .def = "0",
           .units = "",
           .doc = "d"}},
         "'a': default: 0 is out of range [1, 10]"},
        {{{.path = "a",
           .type = LQ_KEY_FLOAT,
           .solvers = 1,
           .min = 0,
           .max = 1,
           .def = "x",
           .units = "",
           .doc = "d"}},
         "expected a number"},
        {{{.path = "a", .type = LQ_KEY_ENUM, .solvers = 1, .enums = "", .units = "", .doc = "d"}},
         "enums need non-empty"},
        {{{.path = "a",
           .type = LQ_KEY_ENUM,
           .solvers = 1,
           .enums = "x||y",
           .units = "",
           .doc = "d"}},
         "enums need non-empty"},
        {{{.path = "a.b", .type = LQ_KEY_BOOL, .solvers = 1, .units = "", .doc = "d"}},
         "parent row is missing"},
        {{{.path = "m", .type = LQ_KEY_MAP, .solvers = 1, .units = "", .doc = "d"},
          {.path = "m.k",
           .type = LQ_KEY_BOOL,
           .flags = LQ_KEY_KIND,
           .solvers = 1,
           .units = "",
           .doc = "d"}},
         "a kind row must sit directly under 'list[]'"},
        {{{.path = "l", .type = LQ_KEY_LIST, .solvers = 1, .units = "", .doc = "d"}},
         "a list has no kind rows"},
        {{{.path = "a",
           .type = LQ_KEY_INT,
           .flags = LQ_KEY_REQUIRED,
           .solvers = 1,
           .min = 0,
           .max = 1,
           .def = "1",
           .units = "",
           .doc = "d"}},
         "a required key cannot have a default"},
        {{{.path = "m", .type = LQ_KEY_MAP, .solvers = 1, .units = "", .doc = "d"},
          {.path = "m.k", .type = LQ_KEY_BOOL, .solvers = 3, .units = "", .doc = "d"}},
         "read by a solver its parent is not"},
        {{{.path = "a",
           .type = LQ_KEY_FLOATS,
           .solvers = 1,
           .min = 0,
           .max = 1,
           .len_min = 3,
           .len_max = 3,
           .def = "[0, 0]",
           .units = "",
           .doc = "d"}},
         "expected a sequence of 3 numbers, got 2 items"},
        {{{.path = "Bad", .type = LQ_KEY_BOOL, .solvers = 1, .units = "", .doc = "d"}},
         "lower_snake"},
        {{{.path = "a",
           .type = LQ_KEY_FLOAT,
           .solvers = 1,
           .min = 2,
           .max = 1,
           .units = "",
           .doc = "d"}},
         "min > max"},
    };
    for (size_t i = 0; i < LQ_COUNT(bad); i++) {
        lq_error_clear();
        CHECK_MSG(lq_scene_check_keys(bad[i].rows) == LQ_EINPUT, "bad table %zu passed", i);
        CHECK_MSG(strstr(lq_error_message(), bad[i].fragment) != NULL,
                  "bad table %zu: '%s' lacks '%s'", i, lq_error_message(), bad[i].fragment);
    }
}

/* docs/SCENE.md is exactly the generator's output. */
static void test_docs(void)
{
    char *text = NULL, *file = NULL;
    size_t len = 0, flen = 0;
    FILE *mem = open_memstream(&text, &len);
    CHECK(mem != NULL);
    if (!mem) return;
    lq_scene_write_docs(mem);
    fclose(mem);

    const char *regen = getenv("LQ_REGENERATE");
    if (regen && strcmp(regen, "1") == 0) {
        mkdir("docs", 0755);
        write_text(DOCS, text);
        fprintf(stderr, "rewrote %s\n", DOCS);
    }
    FILE *f = fopen(DOCS, "rb");
    if (f) {
        mem = open_memstream(&file, &flen);
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, got, mem);
        fclose(mem);
        fclose(f);
    }
    bool same = file && flen == len && memcmp(file, text, len) == 0;
    CHECK_MSG(same,
              "%s differs from lq_scene_write_docs(); regenerate it from the repository "
              "root with LQ_REGENERATE=1 build/test_scene",
              DOCS);
    free(text);
    free(file);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lq_scene_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(casefile, sizeof casefile, "%s/case.yaml", tmpdir);

    test_full_scene();
    test_defaults();
    test_overrides();
    test_walls();
    test_rejects();
    test_override_rejects();
    test_table();
    test_docs();

    char path[128];
    remove(casefile);
    snprintf(path, sizeof path, "%s/sub", tmpdir);
    rmdir(path);
    rmdir(tmpdir);
    lq_error_clear();
    CHECK_DONE();
}
