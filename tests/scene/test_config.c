/*
 * test_config.c — the typed scene (host/scene/config.h): every scene of the repository
 * decodes, and one scene per solver written from the key table itself, holding every
 * key and every list kind that solver reads, decodes with every row of the table read.
 * The decoder names its keys by dotted path and the getters stop the program on a path
 * the table does not declare (or a getter of the wrong type), so a misspelt path in
 * host/scene/config.c fails here, in every build type; so does a table whose enum
 * words or list kinds no longer match the decoder's order. Also: values and positions
 * of a full scene, and that a misused getter stops the program with a message.
 */
#define LQ_SCENE_GETTERS /* the positions are compared with the getters' */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/common.h"
#include "lib/check.h"
#include "scene/config.h"

#define FULL "tests/data/scenes/full_shallow.yaml"

static char tmpdir[64];

/* --- every scene of the repository ------------------------------------------------- */

static int decode_folder(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        bool yaml = (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) ||
                    (len > 4 && strcmp(e->d_name + len - 4, ".yml") == 0);
        if (!yaml) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        lq_error_clear();
        lq_config *c = lq_config_load(path, 0, NULL);
        CHECK_MSG(c != NULL, "%s: %s", path, lq_error_message());
        if (c) CHECK_MSG(c->grid.cell > 0 && c->time.fps > 0, "%s: grid and time decoded", path);
        lq_config_free(c);
        n++;
    }
    closedir(d);
    return n;
}

static void test_repository_scenes(void)
{
    int n = decode_folder("scenes") + decode_folder("scenes/validation") +
            decode_folder("tests/data/scenes");
    fprintf(stderr, "  %d repository scenes decoded\n", n);
    CHECK(n > 40);
}

/* --- one scene per solver with every key it reads ---------------------------------- */

typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int w = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (w < 0) return;
        if (t->p && t->n + (size_t)w < t->cap) {
            t->n += (size_t)w;
            return;
        }
        t->cap = 2 * (t->cap + (size_t)w + 64);
        t->p = realloc(t->p, t->cap);
        if (!t->p) abort();
    }
}

/* True when row k sits directly under table path `parent` ("" for the top level). */
static bool is_child(const lq_key *k, const char *parent)
{
    size_t n = strlen(parent);
    const char *rest = k->path;
    if (n) {
        if (strncmp(k->path, parent, n) != 0 || k->path[n] != '.') return false;
        rest = k->path + n + 1;
    }
    return !strchr(rest, '.') && !strchr(rest, '[');
}

static const char *name_of(const lq_key *k)
{
    const char *dot = strrchr(k->path, '.');
    return dot ? dot + 1 : k->path;
}

/* A number inside the row's range. */
static double in_range(const lq_key *k)
{
    double lo = k->min, hi = k->max;
    bool lo_open = (k->flags & LQ_KEY_MIN_OPEN) != 0;
    if (isfinite(lo) && isfinite(hi)) return lo_open ? 0.5 * (lo + hi) : lo;
    if (isfinite(lo)) return lo_open ? lo + 1 : lo;
    if (isfinite(hi)) return hi - 1;
    return 1;
}

static void put_value(text *t, const lq_key *k, const char *solver)
{
    bool integer = k->type == LQ_KEY_INT || k->type == LQ_KEY_INTS;
    double x = in_range(k);
    if (integer) x = ceil(x);
    switch (k->type) {
    case LQ_KEY_ENUM:
        if (strcmp(k->path, "solver") == 0) {
            put(t, "%s", solver);
            return;
        }
        put(t, "%.*s", (int)strcspn(k->enums, "|"), k->enums);
        return;
    case LQ_KEY_ENUMS:
        put(t, "[%.*s]", (int)strcspn(k->enums, "|"), k->enums);
        return;
    case LQ_KEY_BOOL:
        put(t, "true");
        return;
    case LQ_KEY_STRING: /* grids[]: one grid, a folder's name, no upstream (not itself),
                           one outflow face */
        put(t, "%s",
            strcmp(k->path, "grids[].grid.name") == 0       ? "G"
            : strcmp(k->path, "grids[].grid.upstream") == 0 ? "''"
            : strcmp(k->path, "grids[].grid.outflow") == 0  ? "x_max"
                                                            : "any.png");
        return;
    case LQ_KEY_FILE:
        put(t, "any.png");
        return;
    case LQ_KEY_FLOATS:
    case LQ_KEY_INTS:
        put(t, "[");
        for (int i = 0; i < LQ_MAX(k->len_min, 1); i++) put(t, "%s%.17g", i ? ", " : "", x);
        put(t, "]");
        return;
    default:
        put(t, "%.17g", x);
        return;
    }
}

static void put_map(text *t, const char *tpath, unsigned mask, const char *solver);

/* One row under its parent: `name: value` (a mapping, list or FACES key in full). */
static void put_row(text *t, const lq_key *k, unsigned mask, const char *solver)
{
    put(t, "%s: ", name_of(k));
    if (k->type == LQ_KEY_MAP || (k->flags & LQ_KEY_FACES)) {
        put_map(t, k->path, mask, solver);
    } else if (k->type == LQ_KEY_LIST) {
        /* one item per kind, each with every attribute of the list's items */
        char item[128];
        snprintf(item, sizeof item, "%s[]", k->path);
        put(t, "[");
        int n = 0;
        for (const lq_key *kind = lq_scene_keys; kind->path; kind++) {
            if (!(kind->flags & LQ_KEY_KIND) || !(kind->solvers & mask) || !is_child(kind, item))
                continue;
            put(t, "%s{", n++ ? ", " : "");
            put_row(t, kind, mask, solver);
            for (const lq_key *a = lq_scene_keys; a->path; a++)
                if (!(a->flags & LQ_KEY_KIND) && (a->solvers & mask) && is_child(a, item)) {
                    put(t, ", ");
                    put_row(t, a, mask, solver);
                }
            put(t, "}");
        }
        put(t, "]");
    } else {
        put_value(t, k, solver);
    }
}

static void put_map(text *t, const char *tpath, unsigned mask, const char *solver)
{
    int n = 0;
    put(t, "{");
    for (const lq_key *k = lq_scene_keys; k->path; k++) {
        if (!(k->solvers & mask) || !is_child(k, tpath) || (k->flags & LQ_KEY_KIND)) continue;
        put(t, "%s", n++ ? ", " : "");
        put_row(t, k, mask, solver);
    }
    put(t, "}");
}

static void test_every_key(void)
{
    static const struct {
        const char *name;
        unsigned mask;
    } solvers[] = {{"shallow", LQ_SOLVER_SHALLOW},
                   {"splash", LQ_SOLVER_SPLASH},
                   {"mac", LQ_SOLVER_MAC},
                   {"pls", LQ_SOLVER_PLS}};
    int nrows = 0;
    while (lq_scene_keys[nrows].path) nrows++;
    bool *read = calloc((size_t)nrows, sizeof *read);
    char path[128], any[128];
    snprintf(any, sizeof any, "%s/any.png", tmpdir);
    FILE *f = fopen(any, "wb");
    CHECK(f != NULL);
    if (f) fclose(f);
    for (size_t i = 0; i < LQ_COUNT(solvers); i++) {
        text t = {0};
        put_map(&t, "", solvers[i].mask, solvers[i].name);
        put(&t, "\n");
        snprintf(path, sizeof path, "%s/%s.yaml", tmpdir, solvers[i].name);
        f = fopen(path, "wb");
        if (f) {
            fputs(t.p, f);
            fclose(f);
        }
        lq_error_clear();
        lq_config *c = lq_config_load(path, 0, NULL);
        CHECK_MSG(c != NULL, "the generated %s scene: %s\n%s", solvers[i].name, lq_error_message(),
                  t.p);
        for (int r = 0; c && r < nrows; r++) read[r] |= lq_scene_row_read(c->scene, r);
        if (c) {
            CHECK(c->nliquid > 0 && c->nobstacles > 0);
            CHECK_MSG(strcmp(c->solver, solvers[i].name) == 0, "%s", c->solver);
        }
        lq_config_free(c);
        if (getenv("LQ_SHOW")) fputs(t.p, stderr);
        remove(path);
        free(t.p);
    }
    /* every value row is decoded (mappings and lists are read through their keys) */
    for (int r = 0; r < nrows; r++) {
        const lq_key *k = &lq_scene_keys[r];
        if (k->type == LQ_KEY_MAP || k->type == LQ_KEY_LIST || (k->flags & LQ_KEY_FACES)) continue;
        CHECK_MSG(read[r], "host/scene/config.c does not decode '%s'", k->path);
    }
    remove(any);
    free(read);
}

/* --- values and positions of a full scene ------------------------------------------ */

static void test_full_scene(void)
{
    lq_error_clear();
    lq_config *c = lq_config_load(FULL, 0, NULL);
    CHECK_MSG(c != NULL, "%s", lq_error_message());
    if (!c) return;
    CHECK(strcmp(c->solver, "shallow") == 0 && strcmp(c->name, "beach") == 0);
    CHECK(c->grid.nsize == 2 && c->grid.size[0] == 64 && c->grid.size[1] == 32);
    CHECK(c->grid.norigin == 3 && c->grid.origin[0] == -1.0 && c->grid.origin[2] == 0.5);
    CHECK(c->time.frames == 48 && c->time.fps == 24 && c->time.cfl == 0.5);
    CHECK(c->gravity[1] == -9.8);
    CHECK(c->wall_noslip[0] && !c->wall_noslip[1] && !c->wall_noslip[2] && c->wall_noslip[5]);
    CHECK(c->nliquid == 6 && c->liquid[0].kind == LQ_CONFIG_LIQUID_LEVEL);
    CHECK(c->liquid[0].level == 0.2);
    CHECK(c->liquid[1].kind == LQ_CONFIG_LIQUID_BOX && c->liquid[1].box.max[1] == 0.3);
    CHECK(c->liquid[1].box.velocity[0] == 0.1);
    CHECK(c->liquid[3].wave.mode == 2 && c->liquid[3].wave.axis == 2);
    CHECK(c->liquid[4].tilt.slope[0] == 0.01 && !c->liquid[4].tilt.has_center);
    CHECK(c->nobstacles == 2 && !c->obstacles[0].noslip && c->obstacles[1].noslip);
    CHECK(c->obstacles[1].kind == LQ_CONFIG_OBSTACLE_SPHERE);
    CHECK(c->obstacles[1].sphere.radius == 0.15);
    CHECK(c->nterrain == 6 && c->terrain[1].kind == LQ_CONFIG_TERRAIN_RAMP);
    CHECK(c->terrain[1].ramp.height[1] == 0.4 && !c->terrain[1].add && c->terrain[3].add);
    CHECK(c->terrain[4].bowl.axis == LQ_CONFIG_BOWL_X && c->terrain[4].bowl.depth == 0.3);
    CHECK(strcmp(c->terrain[5].heightmap.file, "tests/data/scenes/heightmap.png") == 0);
    CHECK(c->terrain[5].heightmap.has_size && c->terrain[5].heightmap.size[0] == 3.2);
    CHECK(c->nsources == 4 && c->sources[0].rain.seed == 7);
    CHECK(c->sources[0].rain.has_region_max && c->sources[0].rain.region_max[0] == 2);
    CHECK(c->sources[3].kind == LQ_CONFIG_SOURCE_DRAIN && c->sources[3].drain.stop == 1e30);
    CHECK(c->shallow.damping == 0.02 && c->shallow.substeps == 4);
    CHECK(c->shallow.dry_epsilon == 1e-4 && !c->shallow.volume_correction);
    CHECK(c->output.every == 2 && c->output.nfields == 3);
    CHECK(strcmp(c->output.fields[2], "depth") == 0);
    CHECK(!c->output.mesh && c->output.particles && c->output.preview_width == 640);
    CHECK(c->mac.epsilon == 1e-4 && c->pls.tolerance == 1e-4); /* the table's defaults */

    /* positions: where lq_scene_error would report the same path */
    static const struct {
        const char *path;
        int item;
    } at[] = {{"liquid.1.box.velocity", 0},
              {"liquid.2", 1},
              {"liquid.3.wave.axis", 2},
              {"terrain.1.ramp.to", 3},
              {"grid.size", 4},
              {"obstacles", 5},
              {"gravity", 6},
              {"output.particles", 7}};
    const lq_scene_node *nodes[] = {c->liquid[1].box.at_velocity,
                                    c->liquid[2].at,
                                    c->liquid[3].wave.at_axis,
                                    c->terrain[1].ramp.at_to,
                                    c->grid.at_size,
                                    c->at_obstacles,
                                    c->at_gravity,
                                    c->output.at_particles};
    for (size_t i = 0; i < LQ_COUNT(at); i++) {
        char want[512];
        lq_error_clear();
        lq_scene_error(c->scene, at[i].path, "here");
        snprintf(want, sizeof want, "%s", lq_error_message());
        lq_error_clear();
        CHECK(lq_config_error(c, nodes[at[i].item], "here") == LQ_EINPUT);
        CHECK_MSG(strcmp(lq_error_message(), want) == 0, "%s: '%s', not '%s'", at[i].path,
                  lq_error_message(), want);
    }
    lq_error_clear();
    lq_config_error(c, c->liquid[2].at, "too %s", "tall");
    CHECK_MSG(strcmp(lq_error_message(), FULL ":19:5: too tall") == 0, "%s", lq_error_message());
    lq_error_clear();
    lq_config_free(c);
}

/* --- a misused getter stops the program --------------------------------------------- */

/* Runs lq_scene_<getter>(path) on a child process; true when it aborted with a message
 * naming the path. */
static bool stops(const lq_scene *s, const char *getter, const char *path)
{
    char log[128];
    snprintf(log, sizeof log, "%s/stderr", tmpdir);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(log, "w", stderr)) _exit(3);
        if (strcmp(getter, "float") == 0) (void)lq_scene_float(s, path);
        if (strcmp(getter, "int") == 0) (void)lq_scene_int(s, path);
        if (strcmp(getter, "has") == 0) (void)lq_scene_has(s, path);
        if (strcmp(getter, "count") == 0) (void)lq_scene_count(s, path);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char msg[512] = "";
    FILE *f = fopen(log, "r");
    if (f) {
        if (!fgets(msg, sizeof msg, f)) msg[0] = '\0';
        fclose(f);
    }
    remove(log);
    bool aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
    CHECK_MSG(aborted && strstr(msg, path), "lq_scene_%s(\"%s\"): status %d, '%s'", getter, path,
              status, msg);
    return aborted;
}

static void test_misuse(void)
{
    lq_config *c = lq_config_load(FULL, 0, NULL);
    if (!c) return;
    CHECK(stops(c->scene, "float", "pls.tolerence"));   /* misspelt */
    CHECK(stops(c->scene, "float", "liquid.1.box.mn")); /* misspelt in an item */
    CHECK(stops(c->scene, "int", "pls.tolerance"));     /* a number read as an integer */
    CHECK(stops(c->scene, "has", "shallow.dampng"));    /* presence of a misspelt key */
    CHECK(stops(c->scene, "count", "grid.size"));       /* not a list */
    lq_config_free(c);
}

/* --- mac.preset: the paper's four switches in one key, explicit keys win ------------- */

static lq_config *load_mac(const char *extra, int nsets, const char *const *sets)
{
    char path[128];
    snprintf(path, sizeof path, "%s/preset.yaml", tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return NULL;
    fprintf(f,
            "solver: mac\ngrid: {size: [8, 8, 1], cell: 0.1}\ntime: {frames: 1, fps: 30}\n"
            "liquid: [{level: 0.3}]\nmac:\n  particles: 4\n%s",
            extra);
    fclose(f);
    lq_error_clear();
    lq_config *c = lq_config_load(path, nsets, sets);
    CHECK_MSG(c != NULL, "%s", lq_error_message());
    unlink(path);
    return c;
}

static void test_mac_preset(void)
{
    /* no preset and preset liquidcl: each switch's own default */
    const char *liq[] = {"", "  preset: liquidcl\n"};
    for (int q = 0; q < 2; q++) {
        lq_config *c = load_mac(liq[q], 0, NULL);
        if (!c) return;
        CHECK(!c->mac.preset_paper && c->mac.upwind == 1 && c->mac.surface_pressure_fill);
        CHECK(c->mac.surface_solve && !c->mac.has_surface_solve && c->mac.fill_cavities);
        lq_config_free(c);
    }
    /* paper: all four the paper's */
    lq_config *c = load_mac("  preset: paper\n", 0, NULL);
    if (!c) return;
    CHECK(c->mac.preset_paper && c->mac.upwind == 0 && !c->mac.surface_pressure_fill);
    CHECK(!c->mac.surface_solve && !c->mac.fill_cavities);
    lq_config_free(c);
    /* paper with two switches written in the scene and one by --set: those win */
    const char *sets[] = {"mac.surface_solve=true"};
    c = load_mac("  preset: paper\n  upwind: 0.5\n  fill_cavities: true\n", 1, sets);
    if (!c) return;
    CHECK(c->mac.upwind == 0.5 && c->mac.fill_cavities && c->mac.surface_solve);
    CHECK(!c->mac.surface_pressure_fill); /* still the preset's */
    lq_config_free(c);
    /* liquidcl with an explicit paper switch: that one only */
    c = load_mac("  preset: liquidcl\n  surface_pressure: centre\n", 0, NULL);
    if (!c) return;
    CHECK(!c->mac.surface_pressure_fill && c->mac.upwind == 1 && c->mac.fill_cavities);
    lq_config_free(c);
    fprintf(stderr, "mac.preset: liquidcl and paper set the four switches, explicit keys win\n");
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lq_config_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_repository_scenes();
    test_every_key();
    test_full_scene();
    test_mac_preset();
    test_misuse();
    rmdir(tmpdir);
    lq_error_clear();
    CHECK_DONE();
}
