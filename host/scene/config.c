/*
 * config.c — the scene decoded once into C structs (config.h).
 *
 * Method. After lq_scene_load() has validated the scene against the key table, this
 * file reads every key with the getters by path (scene.h), each value through the
 * table's default when the scene does not hold it, and stores it typed. It is the one
 * place in the program that names dotted paths; the getters stop the program on a path
 * the table does not declare or a getter of the wrong type, and tests/scene/
 * test_config.c decodes every scene of the repository and one scene per solver holding
 * every key the table declares, so a misspelt path here fails the tests.
 *
 * Invariants.
 * - Decoding never fails on input (validation is done); only memory can run out.
 * - Every key of every list item is decoded whatever the solver (rows a solver does not
 *   read hold their defaults), so what a solver reads does not depend on this file.
 * - Enum words map to C values in the order the caller names them, checked against the
 *   table's own order (lq_config_word, lq_config_kind).
 */
#define LQ_SCENE_GETTERS /* the decoder is the getters' one reader */
#include "scene/config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bandgeom.h"
#include "core/common.h"

#define LQ_CONFIG_PATH_MAX 160

/* ---------------------------------------------------------------------------------
 * Getters with printf-style paths ("liquid.%d.box.min").
 */

#define LQ_CONFIG_FORMAT(buf, fmt)                                                                 \
    char buf[LQ_CONFIG_PATH_MAX];                                                                  \
    do {                                                                                           \
        va_list ap_;                                                                               \
        va_start(ap_, fmt);                                                                        \
        vsnprintf(buf, sizeof buf, fmt, ap_);                                                      \
        va_end(ap_);                                                                               \
    } while (0)

static double lq_config_float(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static double lq_config_float(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_float(s, path);
}

static int lq_config_int(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static int lq_config_int(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_int(s, path);
}

/* STRING (NULL when absent and without a default). */
static const char *lq_config_text(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static const char *lq_config_text(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_enum(s, path);
}

/* FILE: resolved against the scene's folder; NULL when absent. */
static const char *lq_config_file(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static const char *lq_config_file(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_file_path(s, path);
}

/* FLOATS into out[cap] (zero-filled first); returns how many the value has. */
static int lq_config_floats(const lq_scene *s, double *out, int cap, const char *fmt, ...)
    LQ_PRINTF(4, 5);
static int lq_config_floats(const lq_scene *s, double *out, int cap, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    for (int i = 0; i < cap; i++) out[i] = 0;
    return lq_scene_floats(s, path, out, cap);
}

static bool lq_config_bool(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static bool lq_config_bool(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_bool(s, path);
}

static bool lq_config_has(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static bool lq_config_has(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_has(s, path);
}

static const lq_scene_node *lq_config_at(const lq_scene *s, const char *fmt, ...) LQ_PRINTF(2, 3);
static const lq_scene_node *lq_config_at(const lq_scene *s, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    return lq_scene_at(s, path);
}

/* Stops on a decoder that disagrees with the table (a programmer error). */
static _Noreturn void lq_config_mismatch(const char *path, const char *table, const char *here)
{
    fprintf(stderr,
            "liquidcl: internal error: scene key '%s' has the words '%s' in the key table, "
            "host/scene/config.c decodes '%s'\n",
            path, table, here);
    fflush(stderr);
    abort();
}

/* Index of "a|b|c" word `w` (-1 when absent). */
static int lq_config_index(const char *words, const char *w)
{
    size_t n = strlen(w);
    int i = 0;
    for (const char *p = words; p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, w, n) == 0) return i;
        p = bar ? bar + 1 : NULL;
        i++;
    }
    return -1;
}

/* ENUM: the index of the scene's word in `words`, which must be the row's words in
 * the table's order. */
static int lq_config_word(const lq_scene *s, const char *words, const char *fmt, ...)
    LQ_PRINTF(3, 4);
static int lq_config_word(const lq_scene *s, const char *words, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    const char *table = lq_scene_words(s, path);
    if (strcmp(table, words) != 0) lq_config_mismatch(path, table, words);
    const char *w = lq_scene_enum(s, path);
    return w ? lq_config_index(words, w) : 0;
}

/* The kind of item i of `list` as an index in `kinds`, which must be the list's kind
 * rows in the table's order ("box|sphere|level"); *word gets the kind's word. */
static int lq_config_kind(const lq_scene *s, const char *list, int i, const char *kinds,
                          const char **word)
{
    char table[256], prefix[64];
    size_t o = 0, plen = (size_t)snprintf(prefix, sizeof prefix, "%s[].", list);
    table[0] = '\0';
    for (const lq_key *k = lq_scene_keys; k->path; k++)
        if ((k->flags & LQ_KEY_KIND) && strncmp(k->path, prefix, plen) == 0 &&
            !strchr(k->path + plen, '.') && o < sizeof table)
            o +=
                (size_t)snprintf(table + o, sizeof table - o, "%s%s", o ? "|" : "", k->path + plen);
    if (strcmp(table, kinds) != 0) lq_config_mismatch(list, table, kinds);
    *word = lq_scene_kind(s, list, i);
    return lq_config_index(kinds, *word);
}

/* A sequence of any length, copied into memory the config owns (NULL when empty). */
static int lq_config_numbers(const lq_scene *s, const double **out, int *n, const char *fmt, ...)
    LQ_PRINTF(4, 5);
static int lq_config_numbers(const lq_scene *s, const double **out, int *n, const char *fmt, ...)
{
    LQ_CONFIG_FORMAT(path, fmt);
    *out = NULL;
    *n = lq_scene_floats(s, path, NULL, 0);
    if (*n == 0) return LQ_OK;
    double *v = lq_alloc((size_t)*n * sizeof *v);
    if (!v) return LQ_ESIM;
    lq_scene_floats(s, path, v, *n);
    *out = v;
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * The parts.
 */

static void lq_config_grid_time(const lq_scene *s, lq_config *c)
{
    c->grid.nsize = lq_scene_ints(s, "grid.size", c->grid.size, 3);
    c->grid.cell = lq_scene_float(s, "grid.cell");
    c->grid.norigin = lq_config_floats(s, c->grid.origin, 3, "grid.origin");
    c->grid.at_size = lq_scene_at(s, "grid.size");
    c->time.frames = lq_scene_int(s, "time.frames");
    c->time.fps = lq_scene_float(s, "time.fps");
    c->time.max_steps = lq_scene_int(s, "time.max_steps");
    c->time.cfl = lq_scene_float(s, "time.cfl");
    c->time.at_cfl = lq_scene_at(s, "time.cfl");
    lq_config_floats(s, c->gravity, 3, "gravity");
    c->at_gravity = lq_scene_at(s, "gravity");
    static const char *const faces[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
    for (int f = 0; f < 6; f++) {
        c->wall[f] = lq_config_word(s, "free-slip|no-slip|open|absorbing", "walls.%s", faces[f]);
        c->wall_noslip[f] = c->wall[f] == LQ_CONFIG_WALL_NO_SLIP;
        c->at_wall[f] = lq_config_at(s, "walls.%s", faces[f]);
    }
}

/* `open` and `absorbing` walls are the shallow solver's (issue 18); the others' walls
 * are closed. */
static int lq_config_check_walls(lq_config *c)
{
    static const char *const faces[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
    for (int f = 0; f < 6; f++)
        if (c->wall[f] >= LQ_CONFIG_WALL_OPEN && strcmp(c->solver, "shallow") != 0)
            return lq_config_error(
                c, c->at_wall[f] ? c->at_wall[f] : lq_scene_at(c->scene, "walls"),
                "walls.%s: '%s' walls are the shallow solver's; solver '%s' has free-slip and "
                "no-slip walls",
                faces[f], c->wall[f] == LQ_CONFIG_WALL_OPEN ? "open" : "absorbing", c->solver);
    return LQ_OK;
}

static void lq_config_liquid_item(const lq_scene *s, int i, lq_config_liquid *q)
{
    q->kind =
        lq_config_kind(s, "liquid", i, "box|sphere|level|hump|wave|tilt|paraboloid", &q->kind_word);
    q->at = lq_config_at(s, "liquid.%d", i);
    q->at_kind = lq_config_at(s, "liquid.%d.%s", i, q->kind_word);
    q->has_viscosity = lq_config_has(s, "liquid.%d.viscosity", i);
    q->viscosity = lq_config_float(s, "liquid.%d.viscosity", i);
    switch (q->kind) {
    case LQ_CONFIG_LIQUID_BOX:
        lq_config_floats(s, q->box.min, 3, "liquid.%d.box.min", i);
        lq_config_floats(s, q->box.max, 3, "liquid.%d.box.max", i);
        lq_config_floats(s, q->box.velocity, 3, "liquid.%d.box.velocity", i);
        q->box.at_velocity = lq_config_at(s, "liquid.%d.box.velocity", i);
        break;
    case LQ_CONFIG_LIQUID_SPHERE:
        lq_config_floats(s, q->sphere.center, 3, "liquid.%d.sphere.center", i);
        q->sphere.radius = lq_config_float(s, "liquid.%d.sphere.radius", i);
        lq_config_floats(s, q->sphere.velocity, 3, "liquid.%d.sphere.velocity", i);
        break;
    case LQ_CONFIG_LIQUID_LEVEL:
        q->level = lq_config_float(s, "liquid.%d.level", i);
        break;
    case LQ_CONFIG_LIQUID_HUMP:
        lq_config_floats(s, q->hump.center, 2, "liquid.%d.hump.center", i);
        q->hump.sigma = lq_config_float(s, "liquid.%d.hump.sigma", i);
        q->hump.height = lq_config_float(s, "liquid.%d.hump.height", i);
        break;
    case LQ_CONFIG_LIQUID_WAVE:
        q->wave.amplitude = lq_config_float(s, "liquid.%d.wave.amplitude", i);
        q->wave.mode = lq_config_int(s, "liquid.%d.wave.mode", i);
        q->wave.axis = 2 * lq_config_word(s, "x|z", "liquid.%d.wave.axis", i);
        q->wave.at_axis = lq_config_at(s, "liquid.%d.wave.axis", i);
        break;
    case LQ_CONFIG_LIQUID_TILT:
        lq_config_floats(s, q->tilt.slope, 2, "liquid.%d.tilt.slope", i);
        q->tilt.has_center = lq_config_has(s, "liquid.%d.tilt.center", i);
        lq_config_floats(s, q->tilt.center, 2, "liquid.%d.tilt.center", i);
        break;
    case LQ_CONFIG_LIQUID_PARABOLOID:
        lq_config_floats(s, q->paraboloid.center, 2, "liquid.%d.paraboloid.center", i);
        q->paraboloid.curvature = lq_config_float(s, "liquid.%d.paraboloid.curvature", i);
        break;
    }
}

static void lq_config_obstacle_shape(const lq_scene *s, int i, lq_config_obstacle *q)
{
    switch (q->kind) {
    case LQ_CONFIG_OBSTACLE_BOX:
        lq_config_floats(s, q->box.min, 3, "obstacles.%d.box.min", i);
        lq_config_floats(s, q->box.max, 3, "obstacles.%d.box.max", i);
        q->box.at_max = lq_config_at(s, "obstacles.%d.box.max", i);
        break;
    case LQ_CONFIG_OBSTACLE_SPHERE:
        lq_config_floats(s, q->sphere.center, 3, "obstacles.%d.sphere.center", i);
        q->sphere.radius = lq_config_float(s, "obstacles.%d.sphere.radius", i);
        break;
    case LQ_CONFIG_OBSTACLE_CYLINDER:
        lq_config_floats(s, q->cylinder.center, 3, "obstacles.%d.cylinder.center", i);
        q->cylinder.radius = lq_config_float(s, "obstacles.%d.cylinder.radius", i);
        q->cylinder.height = lq_config_float(s, "obstacles.%d.cylinder.height", i);
        q->cylinder.axis = lq_config_word(s, "x|y|z", "obstacles.%d.cylinder.axis", i);
        break;
    case LQ_CONFIG_OBSTACLE_MASK:
        q->mask.file = lq_config_text(s, "obstacles.%d.mask.file", i);
        q->mask.has_count = lq_config_has(s, "obstacles.%d.mask.count", i);
        q->mask.count = lq_config_int(s, "obstacles.%d.mask.count", i);
        q->mask.first = lq_config_int(s, "obstacles.%d.mask.first", i);
        lq_config_floats(s, q->mask.min, 3, "obstacles.%d.mask.min", i);
        lq_config_floats(s, q->mask.max, 3, "obstacles.%d.mask.max", i);
        q->mask.at_file = lq_config_at(s, "obstacles.%d.mask.file", i);
        q->mask.at_count = lq_config_at(s, "obstacles.%d.mask.count", i);
        q->mask.at_max = lq_config_at(s, "obstacles.%d.mask.max", i);
        break;
    case LQ_CONFIG_OBSTACLE_MESH:
        q->mesh.file = lq_config_file(s, "obstacles.%d.mesh.file", i);
        q->mesh.nscale = lq_config_floats(s, q->mesh.scale, 3, "obstacles.%d.mesh.scale", i);
        lq_config_floats(s, q->mesh.rotate, 3, "obstacles.%d.mesh.rotate", i);
        lq_config_floats(s, q->mesh.translate, 3, "obstacles.%d.mesh.translate", i);
        q->mesh.at_scale = lq_config_at(s, "obstacles.%d.mesh.scale", i);
        break;
    }
}

static int lq_config_obstacle_item(const lq_scene *s, int i, lq_config_obstacle *q)
{
    q->kind = lq_config_kind(s, "obstacles", i, "box|sphere|cylinder|mask|mesh", &q->kind_word);
    q->at = lq_config_at(s, "obstacles.%d", i);
    q->at_kind = lq_config_at(s, "obstacles.%d.%s", i, q->kind_word);
    lq_config_obstacle_shape(s, i, q);
    q->noslip = lq_config_word(s, "no-slip|free-slip", "obstacles.%d.boundary", i) == 0;
    q->has_motion = lq_config_has(s, "obstacles.%d.motion", i);
    q->motion.at = lq_config_at(s, "obstacles.%d.motion", i);
    q->motion.at_keys = lq_config_at(s, "obstacles.%d.motion.keys", i);
    q->motion.smooth =
        lq_config_word(s, "linear|smooth", "obstacles.%d.motion.interpolate", i) == 1;
    return lq_config_numbers(s, &q->motion.keys, &q->motion.nkeys, "obstacles.%d.motion.keys", i);
}

static void lq_config_terrain_item(const lq_scene *s, int i, lq_config_terrain *q)
{
    q->kind =
        lq_config_kind(s, "terrain", i, "plane|ramp|box|gaussian|bowl|heightmap", &q->kind_word);
    switch (q->kind) {
    case LQ_CONFIG_TERRAIN_PLANE:
        q->plane.height = lq_config_float(s, "terrain.%d.plane.height", i);
        lq_config_floats(s, q->plane.slope, 2, "terrain.%d.plane.slope", i);
        break;
    case LQ_CONFIG_TERRAIN_RAMP:
        lq_config_floats(s, q->ramp.from, 2, "terrain.%d.ramp.from", i);
        lq_config_floats(s, q->ramp.to, 2, "terrain.%d.ramp.to", i);
        lq_config_floats(s, q->ramp.height, 2, "terrain.%d.ramp.height", i);
        q->ramp.at_to = lq_config_at(s, "terrain.%d.ramp.to", i);
        break;
    case LQ_CONFIG_TERRAIN_BOX:
        lq_config_floats(s, q->box.min, 3, "terrain.%d.box.min", i);
        lq_config_floats(s, q->box.max, 3, "terrain.%d.box.max", i);
        break;
    case LQ_CONFIG_TERRAIN_GAUSSIAN:
        lq_config_floats(s, q->gaussian.center, 2, "terrain.%d.gaussian.center", i);
        q->gaussian.sigma = lq_config_float(s, "terrain.%d.gaussian.sigma", i);
        q->gaussian.height = lq_config_float(s, "terrain.%d.gaussian.height", i);
        break;
    case LQ_CONFIG_TERRAIN_BOWL:
        lq_config_floats(s, q->bowl.center, 2, "terrain.%d.bowl.center", i);
        q->bowl.radius = lq_config_float(s, "terrain.%d.bowl.radius", i);
        q->bowl.depth = lq_config_float(s, "terrain.%d.bowl.depth", i);
        q->bowl.axis = lq_config_word(s, "radial|x|z", "terrain.%d.bowl.axis", i);
        break;
    case LQ_CONFIG_TERRAIN_HEIGHTMAP:
        q->heightmap.file = lq_config_file(s, "terrain.%d.heightmap.file", i);
        q->heightmap.min = lq_config_float(s, "terrain.%d.heightmap.min", i);
        q->heightmap.max = lq_config_float(s, "terrain.%d.heightmap.max", i);
        q->heightmap.has_origin = lq_config_has(s, "terrain.%d.heightmap.origin", i);
        lq_config_floats(s, q->heightmap.origin, 2, "terrain.%d.heightmap.origin", i);
        q->heightmap.has_size = lq_config_has(s, "terrain.%d.heightmap.size", i);
        lq_config_floats(s, q->heightmap.size, 2, "terrain.%d.heightmap.size", i);
        q->heightmap.at_file = lq_config_at(s, "terrain.%d.heightmap.file", i);
        q->heightmap.at_size = lq_config_at(s, "terrain.%d.heightmap.size", i);
        break;
    }
    q->add = lq_config_word(s, "max|add", "terrain.%d.combine", i) == 1;
    q->noslip = lq_config_word(s, "free-slip|no-slip", "terrain.%d.boundary", i) == 1;
}

/* A value over time under mapping `prefix` (sources.N.inlet, pls.viscosity_change). */
static int lq_config_profile_of(const lq_scene *s, const char *prefix, lq_config_profile *f)
{
    f->profile = lq_config_word(s, "constant|decay|wave|table", "%s.profile", prefix);
    f->rate = lq_config_float(s, "%s.rate", prefix);
    f->amplitude = lq_config_float(s, "%s.amplitude", prefix);
    f->omega = lq_config_float(s, "%s.omega", prefix);
    f->has_table = lq_config_has(s, "%s.table", prefix);
    f->at = lq_config_at(s, "%s", prefix);
    f->at_table = lq_config_at(s, "%s.table", prefix);
    return lq_config_numbers(s, &f->table, &f->ntable, "%s.table", prefix);
}

/* Rain, drops, inflows, drains and wavemakers (shallow). */
static void lq_config_source_shallow(const lq_scene *s, int i, lq_config_source *q)
{
    q->rain.rate = lq_config_float(s, "sources.%d.rain.rate", i);
    q->rain.radius = lq_config_float(s, "sources.%d.rain.radius", i);
    q->rain.has_region_min = lq_config_has(s, "sources.%d.rain.region_min", i);
    lq_config_floats(s, q->rain.region_min, 2, "sources.%d.rain.region_min", i);
    q->rain.has_region_max = lq_config_has(s, "sources.%d.rain.region_max", i);
    lq_config_floats(s, q->rain.region_max, 2, "sources.%d.rain.region_max", i);
    q->rain.start = lq_config_float(s, "sources.%d.rain.start", i);
    q->rain.stop = lq_config_float(s, "sources.%d.rain.stop", i);
    q->rain.seed = lq_config_int(s, "sources.%d.rain.seed", i);
    lq_config_floats(s, q->drop.center, 2, "sources.%d.drop.center", i);
    q->drop.radius = lq_config_float(s, "sources.%d.drop.radius", i);
    q->drop.time = lq_config_float(s, "sources.%d.drop.time", i);
    static const char *const discs[2] = {"inflow", "drain"};
    for (int d = 0; d < 2; d++) {
        lq_config_disc *disc = d ? &q->drain : &q->inflow;
        lq_config_floats(s, disc->center, 2, "sources.%d.%s.center", i, discs[d]);
        disc->radius = lq_config_float(s, "sources.%d.%s.radius", i, discs[d]);
        disc->rate = lq_config_float(s, "sources.%d.%s.rate", i, discs[d]);
        disc->start = lq_config_float(s, "sources.%d.%s.start", i, discs[d]);
        disc->stop = lq_config_float(s, "sources.%d.%s.stop", i, discs[d]);
    }
    const char *walls = "x_min|x_max|z_min|z_max";
    q->wavemaker.wall = lq_config_word(s, walls, "sources.%d.wavemaker.wall", i);
    q->wavemaker.width = lq_config_float(s, "sources.%d.wavemaker.width", i);
    q->wavemaker.amplitude = lq_config_float(s, "sources.%d.wavemaker.amplitude", i);
    q->wavemaker.period = lq_config_float(s, "sources.%d.wavemaker.period", i);
    q->wavemaker.start = lq_config_float(s, "sources.%d.wavemaker.start", i);
    q->wavemaker.stop = lq_config_float(s, "sources.%d.wavemaker.stop", i);
}

/* The region of sources.I.W (W: inlet or outlet): its shape keys as an obstacle's. */
static void lq_config_region_of(const lq_scene *s, int i, const char *w, lq_config_region *r)
{
    lq_config_obstacle *q = &r->shape;
    r->has_min = lq_config_has(s, "sources.%d.%s.min", i, w);
    r->has_max = lq_config_has(s, "sources.%d.%s.max", i, w);
    lq_config_floats(s, q->box.min, 3, "sources.%d.%s.min", i, w);
    lq_config_floats(s, q->box.max, 3, "sources.%d.%s.max", i, w);
    q->box.at_max = lq_config_at(s, "sources.%d.%s.max", i, w);
    lq_config_floats(s, q->sphere.center, 3, "sources.%d.%s.sphere.center", i, w);
    q->sphere.radius = lq_config_float(s, "sources.%d.%s.sphere.radius", i, w);
    lq_config_floats(s, q->cylinder.center, 3, "sources.%d.%s.cylinder.center", i, w);
    q->cylinder.radius = lq_config_float(s, "sources.%d.%s.cylinder.radius", i, w);
    q->cylinder.height = lq_config_float(s, "sources.%d.%s.cylinder.height", i, w);
    q->cylinder.axis = lq_config_word(s, "x|y|z", "sources.%d.%s.cylinder.axis", i, w);
    q->mesh.file = lq_config_file(s, "sources.%d.%s.mesh.file", i, w);
    q->mesh.nscale = lq_config_floats(s, q->mesh.scale, 3, "sources.%d.%s.mesh.scale", i, w);
    lq_config_floats(s, q->mesh.rotate, 3, "sources.%d.%s.mesh.rotate", i, w);
    lq_config_floats(s, q->mesh.translate, 3, "sources.%d.%s.mesh.translate", i, w);
    q->mesh.at_scale = lq_config_at(s, "sources.%d.%s.mesh.scale", i, w);
    static const char *const words[3] = {"sphere", "cylinder", "mesh"};
    static const lq_config_obstacle_kind kinds[3] = {
        LQ_CONFIG_OBSTACLE_SPHERE, LQ_CONFIG_OBSTACLE_CYLINDER, LQ_CONFIG_OBSTACLE_MESH};
    q->kind = LQ_CONFIG_OBSTACLE_BOX;
    q->kind_word = "box";
    q->at = lq_config_at(s, "sources.%d.%s", i, w);
    q->at_kind = r->has_min ? lq_config_at(s, "sources.%d.%s.min", i, w) : q->box.at_max;
    r->nshapes = r->has_min || r->has_max;
    for (int k = 0; k < 3; k++)
        if (lq_config_has(s, "sources.%d.%s.%s", i, w, words[k])) {
            r->nshapes++;
            q->kind = kinds[k];
            q->kind_word = words[k];
            q->at_kind = lq_config_at(s, "sources.%d.%s.%s", i, w, words[k]);
        }
}

/* Pipes (splash), inlets and outlets (mac, pls). */
static int lq_config_source_flow(const lq_scene *s, int i, lq_config_source *q)
{
    q->pipe.wall = lq_config_word(s, "x_min|x_max|z_min|z_max", "sources.%d.pipe.wall", i);
    q->pipe.wall_word = lq_config_text(s, "sources.%d.pipe.wall", i);
    q->pipe.has_span = lq_config_has(s, "sources.%d.pipe.span", i);
    lq_config_floats(s, q->pipe.span, 2, "sources.%d.pipe.span", i);
    q->pipe.rate = lq_config_float(s, "sources.%d.pipe.rate", i);
    q->pipe.amplitude = lq_config_float(s, "sources.%d.pipe.amplitude", i);
    q->pipe.period = lq_config_float(s, "sources.%d.pipe.period", i);
    q->pipe.start = lq_config_float(s, "sources.%d.pipe.start", i);
    q->pipe.stop = lq_config_float(s, "sources.%d.pipe.stop", i);
    q->pipe.at_span = lq_config_at(s, "sources.%d.pipe.span", i);
    lq_config_floats(s, q->inlet.min, 3, "sources.%d.inlet.min", i);
    lq_config_floats(s, q->inlet.max, 3, "sources.%d.inlet.max", i);
    lq_config_floats(s, q->inlet.velocity, 3, "sources.%d.inlet.velocity", i);
    q->inlet.has_particles = lq_config_has(s, "sources.%d.inlet.particles", i);
    q->inlet.particles = lq_config_float(s, "sources.%d.inlet.particles", i);
    q->inlet.start = lq_config_float(s, "sources.%d.inlet.start", i);
    q->inlet.stop = lq_config_float(s, "sources.%d.inlet.stop", i);
    q->inlet.then_outflow = lq_config_word(s, "wall|outflow", "sources.%d.inlet.then", i) == 1;
    q->inlet.at_velocity = lq_config_at(s, "sources.%d.inlet.velocity", i);
    q->inlet.has_flow = lq_config_has(s, "sources.%d.inlet.flow", i);
    q->inlet.flow = lq_config_float(s, "sources.%d.inlet.flow", i);
    lq_config_region_of(s, i, "inlet", &q->inlet.region);
    lq_config_floats(s, q->outlet.min, 3, "sources.%d.outlet.min", i);
    lq_config_floats(s, q->outlet.max, 3, "sources.%d.outlet.max", i);
    lq_config_region_of(s, i, "outlet", &q->outlet.region);
    lq_config_region *lv = &q->outlet.region;
    lv->has_level = lq_config_has(s, "sources.%d.outlet.level", i);
    lv->level = lq_config_float(s, "sources.%d.outlet.level", i);
    lv->at_level = lq_config_at(s, "sources.%d.outlet.level", i);
    lv->nshapes += lv->has_level;
    q->outlet.start = lq_config_float(s, "sources.%d.outlet.start", i);
    q->outlet.stop = lq_config_float(s, "sources.%d.outlet.stop", i);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "sources.%d.inlet", i);
    return lq_config_profile_of(s, prefix, &q->inlet.speed);
}

static int lq_config_source_item(const lq_scene *s, int i, lq_config_source *q)
{
    q->kind = lq_config_kind(s, "sources", i, "rain|drop|inflow|drain|wavemaker|pipe|inlet|outlet",
                             &q->kind_word);
    q->at = lq_config_at(s, "sources.%d", i);
    q->at_kind = lq_config_at(s, "sources.%d.%s", i, q->kind_word);
    lq_config_source_shallow(s, i, q);
    return lq_config_source_flow(s, i, q);
}

static void lq_config_object_item(const lq_scene *s, int i, lq_config_object *q)
{
    q->kind = lq_config_kind(s, "objects", i, "sphere|ellipsoid|box|cylinder", &q->kind_word);
    q->at_kind = lq_config_at(s, "objects.%d.%s", i, q->kind_word);
    lq_config_floats(s, q->center, 3, "objects.%d.%s.center", i, q->kind_word);
    switch (q->kind) {
    case LQ_CONFIG_OBJECT_SPHERE:
        q->radius = lq_config_float(s, "objects.%d.sphere.radius", i);
        break;
    case LQ_CONFIG_OBJECT_ELLIPSOID:
        lq_config_floats(s, q->radii, 3, "objects.%d.ellipsoid.radii", i);
        break;
    case LQ_CONFIG_OBJECT_BOX:
        lq_config_floats(s, q->size, 3, "objects.%d.box.size", i);
        break;
    case LQ_CONFIG_OBJECT_CYLINDER:
        q->radius = lq_config_float(s, "objects.%d.cylinder.radius", i);
        q->height = lq_config_float(s, "objects.%d.cylinder.height", i);
        break;
    }
    q->name = lq_config_text(s, "objects.%d.name", i);
    q->density = lq_config_float(s, "objects.%d.density", i);
    lq_config_floats(s, q->velocity, 3, "objects.%d.velocity", i);
    lq_config_floats(s, q->rotation, 3, "objects.%d.rotation", i);
    lq_config_floats(s, q->spin, 3, "objects.%d.spin", i);
    q->release = lq_config_float(s, "objects.%d.release", i);
    q->drag = lq_config_float(s, "objects.%d.drag", i);
    q->restitution = lq_config_float(s, "objects.%d.restitution", i);
    q->two_way = lq_config_word(s, "one-way|two-way", "objects.%d.coupling", i) == 1;
    q->path_file = lq_config_file(s, "objects.%d.path_file", i);
    q->at_path_file = lq_config_at(s, "objects.%d.path_file", i);
    lq_config_floats(s, q->color, 3, "objects.%d.color", i);
}

static void lq_config_control_shape(const lq_scene *s, int i, lq_config_control *q)
{
    switch (q->kind) {
    case LQ_CONFIG_CONTROL_BOX:
        lq_config_floats(s, q->box.min, 3, "control.%d.box.min", i);
        lq_config_floats(s, q->box.max, 3, "control.%d.box.max", i);
        q->box.at_max = lq_config_at(s, "control.%d.box.max", i);
        break;
    case LQ_CONFIG_CONTROL_SPHERE:
        lq_config_floats(s, q->sphere.center, 3, "control.%d.sphere.center", i);
        q->sphere.radius = lq_config_float(s, "control.%d.sphere.radius", i);
        break;
    case LQ_CONFIG_CONTROL_MESH:
        q->mesh.file = lq_config_file(s, "control.%d.mesh.file", i);
        q->mesh.inside = lq_config_word(s, "surface|inside", "control.%d.mesh.fill", i) == 1;
        q->mesh.nscale = lq_config_floats(s, q->mesh.scale, 3, "control.%d.mesh.scale", i);
        lq_config_floats(s, q->mesh.rotate, 3, "control.%d.mesh.rotate", i);
        lq_config_floats(s, q->mesh.translate, 3, "control.%d.mesh.translate", i);
        q->at_mesh_file = lq_config_at(s, "control.%d.mesh.file", i);
        break;
    case LQ_CONFIG_CONTROL_POINT:
        lq_config_floats(s, q->position, 3, "control.%d.point.position", i);
        break;
    case LQ_CONFIG_CONTROL_TRACKS:
        q->tracks = lq_config_file(s, "control.%d.tracks.file", i);
        q->at_tracks = lq_config_at(s, "control.%d.tracks.file", i);
        break;
    case LQ_CONFIG_CONTROL_CURVE:
        q->curve = lq_config_file(s, "control.%d.curve.file", i);
        break;
    }
}

static int lq_config_control_item(const lq_scene *s, int i, lq_config_control *q)
{
    q->kind = lq_config_kind(s, "control", i, "box|sphere|mesh|point|tracks|curve", &q->kind_word);
    q->at = lq_config_at(s, "control.%d", i);
    q->at_kind = lq_config_at(s, "control.%d.%s", i, q->kind_word);
    lq_config_control_shape(s, i, q);
    q->property =
        lq_config_word(s, "velocity|viscosity|phi|divergence|eraser", "control.%d.property", i);
    q->shape = lq_config_word(s, "sphere|cylinder", "control.%d.shape", i);
    q->falloff = lq_config_word(s, "smooth|hat|box", "control.%d.falloff", i);
    q->has_radius = lq_config_has(s, "control.%d.radius", i);
    q->radius = lq_config_float(s, "control.%d.radius", i);
    q->has_length = lq_config_has(s, "control.%d.length", i);
    q->length = lq_config_float(s, "control.%d.length", i);
    q->has_spacing = lq_config_has(s, "control.%d.spacing", i);
    q->spacing = lq_config_float(s, "control.%d.spacing", i);
    lq_config_floats(s, q->axis, 3, "control.%d.axis", i);
    lq_config_floats(s, q->velocity, 3, "control.%d.velocity", i);
    q->follow = lq_config_bool(s, "control.%d.follow", i);
    q->value = lq_config_float(s, "control.%d.value", i);
    q->strength = lq_config_float(s, "control.%d.strength", i);
    q->path_file = lq_config_file(s, "control.%d.path_file", i);
    q->at_axis = lq_config_at(s, "control.%d.axis", i);
    q->at_value = lq_config_at(s, "control.%d.value", i);
    q->at_value_keys = lq_config_at(s, "control.%d.value_keys", i);
    q->at_strength_keys = lq_config_at(s, "control.%d.strength_keys", i);
    q->at_path_file = lq_config_at(s, "control.%d.path_file", i);
    int rc = lq_config_numbers(s, &q->value_keys, &q->nvalue_keys, "control.%d.value_keys", i);
    if (!rc)
        rc = lq_config_numbers(s, &q->strength_keys, &q->nstrength_keys, "control.%d.strength_keys",
                               i);
    return rc;
}

/* Every list: items allocated here, each decoded. */
static int lq_config_lists(const lq_scene *s, lq_config *c)
{
    c->nliquid = lq_scene_count(s, "liquid");
    c->nobstacles = lq_scene_count(s, "obstacles");
    c->nterrain = lq_scene_count(s, "terrain");
    c->nsources = lq_scene_count(s, "sources");
    c->nobjects = lq_scene_count(s, "objects");
    c->ncontrol = lq_scene_count(s, "control");
    lq_config_liquid *liquid = lq_calloc((size_t)c->nliquid + 1, sizeof *liquid);
    lq_config_obstacle *obstacles = lq_calloc((size_t)c->nobstacles + 1, sizeof *obstacles);
    lq_config_terrain *terrain = lq_calloc((size_t)c->nterrain + 1, sizeof *terrain);
    lq_config_source *sources = lq_calloc((size_t)c->nsources + 1, sizeof *sources);
    lq_config_object *objects = lq_calloc((size_t)c->nobjects + 1, sizeof *objects);
    lq_config_control *control = lq_calloc((size_t)c->ncontrol + 1, sizeof *control);
    c->liquid = liquid;
    c->obstacles = obstacles;
    c->terrain = terrain;
    c->sources = sources;
    c->objects = objects;
    c->control = control;
    if (!liquid || !obstacles || !terrain || !sources || !objects || !control) return LQ_ESIM;
    int rc = LQ_OK;
    for (int i = 0; i < c->nliquid; i++) lq_config_liquid_item(s, i, &liquid[i]);
    for (int i = 0; i < c->nobstacles && !rc; i++)
        rc = lq_config_obstacle_item(s, i, &obstacles[i]);
    for (int i = 0; i < c->nterrain; i++) lq_config_terrain_item(s, i, &terrain[i]);
    for (int i = 0; i < c->nsources && !rc; i++) rc = lq_config_source_item(s, i, &sources[i]);
    for (int i = 0; i < c->nobjects; i++) lq_config_object_item(s, i, &objects[i]);
    for (int i = 0; i < c->ncontrol && !rc; i++) rc = lq_config_control_item(s, i, &control[i]);
    c->at_obstacles = lq_scene_at(s, "obstacles");
    c->at_sources = lq_scene_at(s, "sources");
    c->at_objects = lq_scene_at(s, "objects");
    c->at_control = lq_scene_at(s, "control");
    return rc;
}

static void lq_config_spray_foam(const lq_scene *s, lq_config *c)
{
    lq_config_spray *p = &c->spray;
    p->present = lq_scene_has(s, "spray");
    p->threshold = lq_scene_float(s, "spray.threshold");
    p->rate = lq_scene_float(s, "spray.rate");
    p->volume = lq_scene_float(s, "spray.volume");
    p->drag = lq_scene_float(s, "spray.drag");
    p->max_particles = lq_scene_int(s, "spray.max_particles");
    p->seed = lq_scene_int(s, "spray.seed");
    lq_config_floats(s, p->wind, 3, "spray.wind");
    p->radius = lq_scene_float(s, "spray.radius");
    p->spread = lq_scene_float(s, "spray.spread");
    p->separation = lq_scene_float(s, "spray.separation");
    c->foam.enabled = lq_scene_bool(s, "foam.enabled");
    c->foam.life = lq_scene_float(s, "foam.life");
    c->foam.rise = lq_scene_float(s, "foam.rise");
}

static void lq_config_hf(const lq_scene *s, lq_config *c)
{
    lq_config_shallow *h = &c->shallow;
    h->damping = lq_scene_float(s, "shallow.damping");
    h->friction = lq_scene_float(s, "shallow.friction");
    h->thin_film = lq_scene_float(s, "shallow.thin_film");
    h->absorbing_width = lq_scene_float(s, "shallow.absorbing_width");
    h->substeps = lq_scene_int(s, "shallow.substeps");
    h->theta = lq_scene_float(s, "shallow.theta");
    h->has_theta = lq_config_has(s, "shallow.theta");
    h->adi_iterations = lq_scene_int(s, "shallow.adi_iterations");
    h->line_solve = lq_config_word(s, "auto|thomas|pcr", "shallow.line_solve");
    h->dry_epsilon = lq_scene_float(s, "shallow.dry_epsilon");
    h->advection = lq_scene_bool(s, "shallow.advection");
    h->volume_correction = lq_scene_bool(s, "shallow.volume_correction");
    lq_config_splash *p = &c->splash;
    p->density = lq_scene_float(s, "splash.density");
    p->conductance = lq_scene_float(s, "splash.conductance");
    p->diagonal = lq_scene_float(s, "splash.diagonal");
    p->damping = lq_scene_float(s, "splash.damping");
    p->viscosity = lq_scene_float(s, "splash.viscosity");
    p->contact_stiffness = lq_scene_float(s, "splash.contact_stiffness");
    p->impact_surface = lq_config_word(s, "heuristic|surface", "splash.impact") == 1;
    p->volume_passes = lq_scene_int(s, "splash.volume_passes");
    p->substeps = lq_scene_int(s, "splash.substeps");
    p->at_substeps = lq_scene_at(s, "splash.substeps");
}

static void lq_config_read_mac(const lq_scene *s, lq_config *c)
{
    lq_config_mac *m = &c->mac;
    m->viscosity = lq_scene_float(s, "mac.viscosity");
    /* mac.preset: the paper's switches as defaults, a switch written in the scene wins */
    m->preset_paper = lq_config_word(s, "liquidcl|paper", "mac.preset") == 1;
    bool paper = m->preset_paper;
    m->has_upwind = lq_scene_has(s, "mac.upwind");
    m->upwind = paper && !m->has_upwind ? 0.0 : lq_scene_float(s, "mac.upwind");
    m->advection = lq_config_word(s, "donor|limited", "mac.advection");
    m->at_advection = lq_scene_at(s, "mac.advection");
    m->pressure = paper && !lq_scene_has(s, "mac.pressure")
                      ? 0 /* red-black, §3.1 */
                      : lq_config_word(s, "red-black|jacobi|mgpcg", "mac.pressure");
    m->has_beta0 = lq_scene_has(s, "mac.beta0");
    m->beta0 = lq_scene_float(s, "mac.beta0");
    m->max_sweeps = lq_scene_int(s, "mac.max_sweeps");
    m->epsilon = lq_scene_float(s, "mac.epsilon");
    m->forcing.mean = lq_scene_float(s, "mac.forcing.mean");
    m->forcing.amplitude = lq_scene_float(s, "mac.forcing.amplitude");
    m->forcing.depth = lq_scene_float(s, "mac.forcing.depth");
    m->forcing.half_wavelength = lq_scene_float(s, "mac.forcing.half_wavelength");
    m->forcing.omega = lq_scene_float(s, "mac.forcing.omega");
    m->forcing.axis = 2 * lq_config_word(s, "x|z", "mac.forcing.axis");
    m->forcing.at_amplitude = lq_scene_at(s, "mac.forcing.amplitude");
    m->surface = lq_config_word(s, "markers|heightfield|chains", "mac.surface");
    m->surface_pressure_fill = lq_config_word(s, "fill|centre", "mac.surface_pressure") == 0;
    if (paper && !lq_scene_has(s, "mac.surface_pressure")) m->surface_pressure_fill = false;
    m->has_surface_solve = lq_scene_has(s, "mac.surface_solve");
    m->surface_solve = lq_scene_bool(s, "mac.surface_solve");
    if (paper && !m->has_surface_solve) {
        m->surface_solve = false;
        m->has_surface_solve = true; /* decided: the forcing and surface defaults leave it */
    }
    m->fill_cavities = lq_scene_bool(s, "mac.fill_cavities");
    if (paper && !lq_scene_has(s, "mac.fill_cavities")) m->fill_cavities = false;
    m->air_pockets_gas = lq_config_word(s, "atmospheric|gas", "mac.air_pockets") == 1;
    m->at_air_pockets = lq_scene_at(s, "mac.air_pockets");
    m->surface_solve_ghost_fill = lq_config_word(s, "fill|empty", "mac.surface_solve_ghost") == 0;
    m->particles = lq_scene_int(s, "mac.particles");
    m->at_surface = lq_scene_at(s, "mac.surface");
    m->at_surface_solve = lq_scene_at(s, "mac.surface_solve");
}

static int lq_config_read_pls(const lq_scene *s, lq_config *c)
{
    lq_config_pls *p = &c->pls;
    p->cfl = lq_scene_float(s, "pls.cfl");
    p->pressure = lq_config_word(s, "pcg|sor|jacobi", "pls.pressure");
    p->velocity_advection = lq_config_word(s, "plain|maccormack|bfecc", "pls.velocity_advection");
    p->viscosity_precond = lq_config_word(s, "jacobi|mg", "pls.viscosity_precond");
    p->tolerance = lq_scene_float(s, "pls.tolerance");
    p->max_iterations = lq_scene_int(s, "pls.max_iterations");
    p->particles_per_cell = lq_scene_int(s, "pls.particles_per_cell");
    p->band = lq_scene_float(s, "pls.band");
    p->reseed_every = lq_scene_int(s, "pls.reseed_every");
    p->max_particles = lq_scene_int(s, "pls.max_particles");
    p->divfree = lq_scene_bool(s, "pls.divfree");
    p->volume_correction = lq_scene_bool(s, "pls.volume_correction");
    p->viscosity = lq_scene_float(s, "pls.viscosity");
    p->reinit_pde = lq_config_word(s, "fim|pde", "pls.reinit") == 1;
    p->reinit_keep = lq_scene_float(s, "pls.reinit_keep");
    p->reinit_threshold = lq_scene_float(s, "pls.reinit_threshold");
    p->object_friction = lq_scene_float(s, "pls.object_friction");
    p->object_separation = lq_scene_bool(s, "pls.object_separation");
    p->object_stratify = lq_scene_bool(s, "pls.object_stratify");
    p->enslave_pockets = lq_scene_bool(s, "pls.enslave_pockets");
    p->pocket_passes = lq_scene_int(s, "pls.pocket_passes");
    p->at_particles_per_cell = lq_scene_at(s, "pls.particles_per_cell");
    lq_config_texture *t = &p->texture;
    t->on = lq_scene_has(s, "pls.texture");
    t->per_cell = lq_scene_int(s, "pls.texture.per_cell");
    t->band = lq_scene_float(s, "pls.texture.band");
    t->project = lq_scene_bool(s, "pls.texture.project");
    t->neighbours = lq_scene_int(s, "pls.texture.neighbours");
    t->checker = lq_scene_float(s, "pls.texture.checker");
    t->image = lq_scene_file_path(s, "pls.texture.image");
    t->plane = lq_config_word(s, "xy|xz|yz", "pls.texture.plane");
    lq_config_window *wn = &p->window;
    wn->on = lq_scene_has(s, "pls.window");
    wn->follow = lq_config_word(s, "liquid|path", "pls.window.follow");
    wn->margin = lq_scene_int(s, "pls.window.margin");
    wn->every = lq_scene_int(s, "pls.window.every");
    wn->has_domain = lq_scene_has(s, "pls.window.domain");
    lq_config_floats(s, wn->domain_min, 3, "pls.window.domain.min");
    lq_config_floats(s, wn->domain_max, 3, "pls.window.domain.max");
    wn->at = lq_scene_at(s, "pls.window");
    wn->at_margin = lq_scene_at(s, "pls.window.margin");
    wn->at_domain = lq_scene_at(s, "pls.window.domain");
    wn->at_follow = lq_scene_at(s, "pls.window.follow");
    wn->at_path = lq_scene_at(s, "pls.window.path");
    int rc = lq_config_numbers(s, &wn->path, &wn->npath, "pls.window.path");
    if (rc) return rc;
    return lq_config_profile_of(s, "pls.viscosity_change", &p->viscosity_change);
}

/* A kind's output rate: its own key, or output.every where it is unset. */
static int lq_config_rate(const lq_scene *s, const char *path, int every)
{
    return lq_scene_has(s, path) ? lq_scene_int(s, path) : every;
}

static void lq_config_read_output(const lq_scene *s, lq_config *c)
{
    lq_config_output *o = &c->output;
    o->every = lq_scene_int(s, "output.every");
    o->mesh_every = lq_config_rate(s, "output.mesh_every", o->every);
    o->fields_every = lq_config_rate(s, "output.fields_every", o->every);
    o->particles_every = lq_config_rate(s, "output.particles_every", o->every);
    o->vdb_every = lq_config_rate(s, "output.vdb_every", o->every);
    o->nfields = lq_scene_enums(s, "output.fields", o->fields, 8);
    o->nvdb = lq_scene_enums(s, "output.vdb", o->vdb, 8);
    o->fields_vti = lq_config_word(s, "vtk|vti", "output.fields_format") == 1;
    o->up_z = lq_config_word(s, "y|z", "output.up") == 1;
    o->at_up = lq_scene_at(s, "output.up");
    o->at_vdb = lq_scene_at(s, "output.vdb");
    o->mesh = lq_scene_bool(s, "output.mesh");
    o->particles = lq_scene_bool(s, "output.particles");
    o->markers = lq_scene_bool(s, "output.markers");
    o->preview = lq_scene_bool(s, "output.preview");
    o->preview_stamp = lq_scene_bool(s, "output.preview_stamp");
    o->preview_every = lq_config_rate(s, "output.preview_every", o->every);
    o->preview_width = lq_scene_int(s, "output.preview_width");
    o->preview_azimuth = lq_scene_float(s, "output.preview_azimuth");
    o->preview_elevation = lq_scene_float(s, "output.preview_elevation");
    o->preview_distance = lq_scene_float(s, "output.preview_distance");
    o->preview_frame_all = lq_config_word(s, "liquid|all", "output.preview_framing") == 1;
    o->checkpoint = lq_scene_int(s, "output.checkpoint");
    o->checkpoint_keep = lq_scene_int(s, "output.checkpoint_keep");
    o->at_fields = lq_scene_at(s, "output.fields");
    o->at_particles = lq_scene_at(s, "output.particles");
}

/* ---------------------------------------------------------------------------------
 * Checks of the scene as a whole, before any solver reads it (and before anything is
 * allocated for it): the grid's cell count (every decode), and for a run (config.h:
 * lq_config_check_run) boxes that hold nothing and a 3D scene whose liquid all lies
 * outside the grid with no source to add any. Liquid that obstacles or terrain cover is
 * found by the run's first measurement (host/cli/run.c).
 */

#define LQ_CONFIG_MAX_CELLS 2147483647.0 /* the solvers index cells with 32-bit ints */

static int lq_config_check_box(const lq_config *c, const lq_scene_node *at, const char *what, int i,
                               const double *lo, const double *hi)
{
    for (int a = 0; a < 3; a++)
        if (!(lo[a] < hi[a]))
            return lq_config_error(c, at,
                                   "%s.%d.box: min %g is not below max %g along %c: the box is "
                                   "empty",
                                   what, i, lo[a], hi[a], "xyz"[a]);
    return LQ_OK;
}

/* Whether liquid item q may put liquid inside the grid box [lo, hi] (3D solvers). */
static bool lq_config_liquid_inside(const lq_config_liquid *q, const double *lo, const double *hi)
{
    switch (q->kind) {
    case LQ_CONFIG_LIQUID_BOX:
        for (int a = 0; a < 3; a++)
            if (!(q->box.max[a] > lo[a] && q->box.min[a] < hi[a])) return false;
        return true;
    case LQ_CONFIG_LIQUID_SPHERE:
        for (int a = 0; a < 3; a++)
            if (!(q->sphere.center[a] + q->sphere.radius > lo[a] &&
                  q->sphere.center[a] - q->sphere.radius < hi[a]))
                return false;
        return q->sphere.radius > 0;
    case LQ_CONFIG_LIQUID_LEVEL:
        return q->level > lo[1];
    default:
        return true; /* the other kinds shape the water a level or a box puts there */
    }
}

/* What every decode checks: the cell count (nothing can be allocated for more). */
static int lq_config_check(const lq_config *c)
{
    double cells = 1;
    for (int a = 0; a < c->grid.nsize; a++) cells *= c->grid.size[a];
    if (cells > LQ_CONFIG_MAX_CELLS)
        return lq_config_error(c, c->grid.at_size,
                               "grid.size: %.4g cells, more than the %.0f a grid may have (the "
                               "solvers index cells with 32-bit integers)",
                               cells, LQ_CONFIG_MAX_CELLS);
    return LQ_OK;
}

int lq_config_check_run(const lq_config *c)
{
    int rc = LQ_OK;
    for (int i = 0; i < c->nliquid && !rc; i++)
        if (c->liquid[i].kind == LQ_CONFIG_LIQUID_BOX)
            rc = lq_config_check_box(c, c->liquid[i].at_kind, "liquid", i, c->liquid[i].box.min,
                                     c->liquid[i].box.max);
    for (int i = 0; i < c->nobstacles && !rc; i++)
        if (c->obstacles[i].kind == LQ_CONFIG_OBSTACLE_BOX)
            rc = lq_config_check_box(c, c->obstacles[i].at_kind, "obstacles", i,
                                     c->obstacles[i].box.min, c->obstacles[i].box.max);
    bool solid3 = strcmp(c->solver, "mac") == 0 || strcmp(c->solver, "pls") == 0;
    bool sourced = c->ngrids > 0 && c->grid_self >= 0 && c->grids[c->grid_self].nup > 0;
    if (rc || c->nsources > 0 || sourced || !solid3 || c->grid.nsize != 3) return rc;
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = c->grid.origin[a];
        hi[a] = lo[a] + c->grid.size[a] * c->grid.cell;
    }
    for (int i = 0; i < c->nliquid; i++)
        if (lq_config_liquid_inside(&c->liquid[i], lo, hi)) return LQ_OK;
    return lq_config_error(c, c->nliquid ? c->liquid[0].at : NULL,
                           "%s inside the grid (x %g..%g, y %g..%g, z %g..%g m) and the scene "
                           "has no source: nothing would move",
                           c->nliquid ? "no liquid lies" : "the scene has no liquid", lo[0], hi[0],
                           lo[1], hi[1], lo[2], hi[2]);
}

/* ---------------------------------------------------------------------------------
 * grids[] (§5.4): decoded, then the graph checked: names, upstream names, no cycle, each
 * edge overlapping by LQ_BAND_CELLS cells or more across a face of the downstream grid.
 */

static const char *const lq_config_face_names[6] = {"x_min", "x_max", "y_min",
                                                    "y_max", "z_min", "z_max"};

static int lq_config_grid_index(const lq_config *c, const char *name, size_t len)
{
    for (int g = 0; g < c->ngrids; g++)
        if (strlen(c->grids[g].name) == len && strncmp(c->grids[g].name, name, len) == 0) return g;
    return -1;
}

/* Whether g reaches itself through its upstream grids (depth-first; state 1: on the path). */
static bool lq_config_grid_cycle(const lq_config *c, int g, int *state)
{
    if (state[g] == 1) return true;
    if (state[g] == 2) return false;
    state[g] = 1;
    for (int u = 0; u < c->grids[g].nup; u++)
        if (lq_config_grid_cycle(c, c->grids[g].up[u], state)) return true;
    state[g] = 2;
    return false;
}

/* The grids' identities (lq_config_gridspec.ident): the scene's text without the keys that
 * do not move a grid's liquid (grids, grid.size, output, name), then each grid's block as
 * resolved and its upstream grids' identities, upstream first. */
static int lq_config_grid_idents(const lq_scene *s, lq_config *c)
{
    char *text;
    size_t len;
    int rc = lq_scene_text_of(s, &text, &len);
    if (rc) return rc;
    uint64_t base = LQ_BANDGEOM_HASH0;
    static const char *const skip[] = {"grids.", "grid.size:", "output.", "name:"};
    for (char *line = text; line < text + len;) {
        char *end = memchr(line, '\n', (size_t)(text + len - line));
        size_t n = end ? (size_t)(end - line) + 1 : (size_t)(text + len - line);
        bool keep = true;
        for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
            keep &= strncmp(line, skip[k], strlen(skip[k])) != 0;
        if (keep) base = lq_bandgeom_hash(base, line, n);
        line += n;
    }
    free(text);
    lq_config_gridspec *gs = (lq_config_gridspec *)c->grids;
    bool done[LQ_CONFIG_GRIDS_MAX] = {false};
    for (int pass = 0; pass < c->ngrids; pass++) /* the graph is acyclic: upstream first */
        for (int g = 0; g < c->ngrids; g++) {
            bool ready = !done[g];
            for (int k = 0; k < gs[g].nup; k++) ready &= done[gs[g].up[k]];
            if (!ready) continue;
            char block[256];
            const lq_bandgeom_grid *q = &gs[g].geom;
            int n = snprintf(block, sizeof block, "%s|%d %d %d|%.17g %.17g %.17g|%d|%d|%d",
                             gs[g].name, q->n[0], q->n[1], q->n[2], gs[g].origin[0],
                             gs[g].origin[1], gs[g].origin[2], q->r, q->outflow, q->shell);
            uint64_t h = lq_bandgeom_hash(base, block, (size_t)n);
            for (int k = 0; k < gs[g].nup; k++) {
                uint64_t up = gs[gs[g].up[k]].ident;
                h = lq_bandgeom_hash(h, &up, sizeof up);
            }
            gs[g].ident = h;
            done[g] = true;
        }
    return LQ_OK;
}

static int lq_config_grids(const lq_scene *s, lq_config *c)
{
    c->grid_self = -1;
    c->ngrids = lq_scene_count(s, "grids");
    c->at_grids = lq_scene_at(s, "grids");
    if (c->ngrids == 0) return LQ_OK;
    lq_config_gridspec *gs = lq_calloc((size_t)c->ngrids + 1, sizeof *gs);
    if (!gs) return LQ_ESIM;
    c->grids = gs;
    if (c->ngrids > LQ_CONFIG_GRIDS_MAX)
        return lq_config_error(c, c->at_grids, "grids: %d grids, at most %d", c->ngrids,
                               LQ_CONFIG_GRIDS_MAX);
    const char *w, *upstream[LQ_CONFIG_GRIDS_MAX], *outflow[LQ_CONFIG_GRIDS_MAX];
    for (int g = 0; g < c->ngrids; g++) {
        lq_config_gridspec *q = &gs[g];
        lq_config_kind(s, "grids", g, "grid", &w);
        q->at = lq_config_at(s, "grids.%d.grid", g);
        q->name = lq_config_text(s, "grids.%d.grid.name", g);
        q->at_name = lq_config_at(s, "grids.%d.grid.name", g);
        char path[64];
        snprintf(path, sizeof path, "grids.%d.grid.size", g);
        lq_scene_ints(s, path, q->size, 3);
        lq_config_floats(s, q->origin, 3, "grids.%d.grid.origin", g);
        q->at_origin = lq_config_at(s, "grids.%d.grid.origin", g);
        q->at_upstream = lq_config_at(s, "grids.%d.grid.upstream", g);
        upstream[g] = lq_config_text(s, "grids.%d.grid.upstream", g);
        q->cell = lq_config_has(s, "grids.%d.grid.cell", g)
                      ? lq_config_float(s, "grids.%d.grid.cell", g)
                      : c->grid.cell;
        q->at_cell = lq_config_at(s, "grids.%d.grid.cell", g);
        q->at_outflow = lq_config_at(s, "grids.%d.grid.outflow", g);
        q->geom.shell = lq_config_int(s, "grids.%d.grid.shell", g);
        outflow[g] = lq_config_text(s, "grids.%d.grid.outflow", g);
    }
    double h = c->grid.cell;
    for (int g = 0; g < c->ngrids; g++) {
        lq_config_gridspec *q = &gs[g];
        if (!q->name[0] ||
            strspn(q->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "0123456789_-") != strlen(q->name) ||
            strlen(q->name) > 31)
            return lq_config_error(c, q->at_name,
                                   "grids.%d.grid.name '%s': use 1 to 31 letters, digits, '_' "
                                   "or '-' (it names a folder)",
                                   g, q->name);
        if (strcmp(q->name, "bands") == 0)
            return lq_config_error(c, q->at_name,
                                   "grids.%d.grid.name 'bands' is the band files' folder", g);
        if (lq_config_grid_index(c, q->name, strlen(q->name)) != g)
            return lq_config_error(c, q->at_name, "grids.%d.grid.name '%s' is used twice", g,
                                   q->name);
        if (c->grid.nsize == 3 && c->grid.size[2] == 1 && q->size[2] != 1)
            return lq_config_error(c, q->at,
                                   "grids.%d.grid.size: a 2D scene (grid.size nz = 1) "
                                   "takes grids with nz = 1",
                                   g);
        q->geom.outflow = -1; /* none given: resolved below */
        for (const char *p = outflow[g]; p && *p;) {
            p += strspn(p, " ,\t");
            size_t len = strcspn(p, " ,\t");
            if (!len) break;
            int f = 0;
            while (f < 6 && !(strlen(lq_config_face_names[f]) == len &&
                              strncmp(lq_config_face_names[f], p, len) == 0))
                f++;
            if (f == 6)
                return lq_config_error(c, q->at_outflow,
                                       "grids.%d.grid.outflow: '%.*s' is no face (x_min, x_max, "
                                       "y_min, y_max, z_min, z_max)",
                                       g, (int)len, p);
            q->geom.outflow = (q->geom.outflow < 0 ? 0 : q->geom.outflow) | 1 << f;
            p += len;
        }
        double r = h / q->cell;
        q->geom.r = (int)lround(r);
        if (fabs(r - q->geom.r) > 1e-6 * r || q->geom.r < 1 || q->geom.r > LQ_BAND_REFINE_MAX)
            return lq_config_error(c, q->at_cell,
                                   "grids.%d.grid.cell: %g m is grid.cell %g m divided by %.6g; "
                                   "a grid's cell is grid.cell divided by a whole number from 1 "
                                   "to %d",
                                   g, q->cell, h, r, LQ_BAND_REFINE_MAX);
        q->cell = h / q->geom.r;
        for (int a = 0; a < 3; a++) {
            q->geom.n[a] = q->size[a];
            double o = (q->origin[a] - c->grid.origin[a]) / h;
            q->off[a] = (int)lround(o);
            q->geom.off[a] = q->off[a];
            if (fabs(o - q->off[a]) > 1e-6 * fmax(1.0, fabs(o)))
                return lq_config_error(
                    c, q->at_origin,
                    "grids.%d.grid.origin: %g along %c is %.6g cells from grid.origin; grids "
                    "share one lattice (a whole number of cells of grid.cell %g m apart)",
                    g, q->origin[a], "xyz"[a], o, h);
        }
    }
    for (int g = 0; g < c->ngrids; g++) { /* upstream names */
        lq_config_gridspec *q = &gs[g];
        const char *up = upstream[g];
        for (const char *p = up; p && *p;) {
            p += strspn(p, " ,\t");
            size_t len = strcspn(p, " ,\t");
            if (!len) break;
            int u = lq_config_grid_index(c, p, len);
            if (u < 0 || u == g)
                return lq_config_error(c, q->at_upstream,
                                       u < 0 ? "grids.%d.grid.upstream: no grid named '%.*s'"
                                             : "grids.%d.grid.upstream: grid '%.*s' cannot be "
                                               "its own upstream",
                                       g, (int)len, p);
            if (q->nup == LQ_CONFIG_GRIDS_MAX)
                return lq_config_error(c, q->at_upstream, "grids.%d.grid.upstream: too many", g);
            for (int k = 0; k < q->nup; k++)
                if (q->up[k] == u)
                    return lq_config_error(c, q->at_upstream,
                                           "grids.%d.grid.upstream names '%.*s' twice", g, (int)len,
                                           p);
            q->up[q->nup++] = u;
            p += len;
        }
    }
    for (int g = 0; g < c->ngrids; g++) {
        int state[LQ_CONFIG_GRIDS_MAX] = {0};
        if (lq_config_grid_cycle(c, g, state))
            return lq_config_error(c, gs[g].at_upstream,
                                   "grids: grid '%s' is its own upstream through the graph (a "
                                   "cycle): grid sourcing needs an acyclic graph",
                                   gs[g].name);
    }
    for (int g = 0; g < c->ngrids; g++) /* outflow: given, or the faces toward downstream */
        if (gs[g].geom.outflow < 0) {
            gs[g].geom.outflow = 0;
            for (int d = 0; d < c->ngrids; d++)
                for (int k = 0; k < gs[d].nup; k++) {
                    if (gs[d].up[k] != g) continue;
                    for (int f = 0; f < 6; f++) /* D's min face on a: U's max face on a */
                        if (lq_bandgeom_depth(&gs[g].geom, &gs[d].geom, f) > 0)
                            gs[g].geom.outflow |= 1 << (f ^ 1);
                }
        }
    for (int g = 0; g < c->ngrids; g++) /* every edge: a face of g facing its upstream */
        for (int k = 0; k < gs[g].nup; k++) {
            const lq_config_gridspec *d = &gs[g], *u = &gs[d->up[k]];
            int faces = 0;
            for (int f = 0; f < 6; f++) {
                int depth = lq_bandgeom_depth(&u->geom, &d->geom, f);
                if (depth == 0) continue;
                faces++;
                if (depth < LQ_BAND_CELLS)
                    return lq_config_error(c, d->at_upstream,
                                           "grids.%d.grid.upstream: grid '%s' overlaps its "
                                           "upstream '%s' by %d cell%s across its %s face; the "
                                           "band needs at least %d",
                                           g, d->name, u->name, depth, depth == 1 ? "" : "s",
                                           lq_config_face_names[f], LQ_BAND_CELLS);
            }
            if (faces == 0)
                return lq_config_error(c, d->at_upstream,
                                       "grids.%d.grid.upstream: grid '%s' does not overlap its "
                                       "upstream '%s' across any face (it must hold at least "
                                       "%d cells of it inside, next to a face of '%s')",
                                       g, d->name, u->name, LQ_BAND_CELLS, d->name);
            int deep = 0;
            bool drain = false;
            int bad = lq_bandgeom_check(&u->geom, &d->geom, &deep, &drain);
            if (bad && drain)
                return lq_config_error(
                    c, d->at_upstream,
                    "grids.%d.grid.upstream: grid '%s': its band across its %s face reaches into "
                    "the last %d cells of '%s' that '%s' drains (its outflow); overlap the "
                    "grids by more",
                    g, d->name, lq_config_face_names[bad - 1], LQ_BAND_DRAIN, u->name, u->name);
            if (bad)
                return lq_config_error(
                    c, d->at_upstream,
                    "grids.%d.grid.upstream: grid '%s': its band across its %s face needs '%s' "
                    "cells %d deep from its %s face, beyond what '%s' stores (its shell of %d "
                    "cells at its outflow faces: grids[].grid.shell, grids[].grid.outflow)",
                    g, d->name, lq_config_face_names[bad - 1], u->name, deep,
                    lq_config_face_names[(bad - 1) ^ 1], u->name, u->geom.shell);
        }
    return lq_config_grid_idents(s, c);
}

/* Whether a source's region may hold a cell of the box [lo, hi] (a mesh: always). */
static bool lq_config_region_meets(const lq_config_source *q, const double *lo, const double *hi)
{
    const lq_config_region *r = q->kind == LQ_CONFIG_SOURCE_INLET    ? &q->inlet.region
                                : q->kind == LQ_CONFIG_SOURCE_OUTLET ? &q->outlet.region
                                                                     : NULL;
    if (!r || r->has_level) return true;
    const lq_config_obstacle *o = &r->shape;
    double a[3], b[3];
    for (int k = 0; k < 3; k++) {
        double rad = o->kind == LQ_CONFIG_OBSTACLE_SPHERE ? o->sphere.radius
                     : o->kind == LQ_CONFIG_OBSTACLE_CYLINDER
                         ? o->cylinder.radius + o->cylinder.height
                         : 0;
        const double *ctr =
            o->kind == LQ_CONFIG_OBSTACLE_SPHERE ? o->sphere.center : o->cylinder.center;
        if (o->kind == LQ_CONFIG_OBSTACLE_BOX) {
            a[k] = o->box.min[k];
            b[k] = o->box.max[k];
        } else if (o->kind == LQ_CONFIG_OBSTACLE_SPHERE || o->kind == LQ_CONFIG_OBSTACLE_CYLINDER) {
            a[k] = ctr[k] - rad;
            b[k] = ctr[k] + rad;
        } else
            return true;
        if (!(a[k] < hi[k] && b[k] > lo[k])) return false;
    }
    return true;
}

int lq_config_select_grid(lq_config *c, const char *name)
{
    int g = c->ngrids > 0 ? lq_config_grid_index(c, name, strlen(name)) : -1;
    if (g < 0) {
        char list[256] = "";
        for (int k = 0; k < c->ngrids; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                     c->grids[k].name);
        return c->ngrids ? lq_error(LQ_EINPUT, "--grid %s: %s has no such grid (grids: %s)", name,
                                    c->file, list)
                         : lq_error(LQ_EINPUT, "--grid %s: %s has no grids: list", name, c->file);
    }
    const lq_config_gridspec *q = &c->grids[g];
    c->grid_self = g;
    for (int a = 0; a < 3; a++) {
        c->grid.size[a] = q->size[a];
        c->grid.origin[a] = q->origin[a];
    }
    /* the drains: g's last LQ_BAND_DRAIN cells at each of its outflow faces, the whole face
     * (what g does there cannot depend on which downstream grids exist: bandgeom.h) */
    lq_config_source drains[6];
    int nd = 0;
    double h = q->cell;
    c->grid.cell = h;
    for (int f = 0; f < 6; f++) {
        int a = f / 2;
        if (!(q->geom.outflow >> f & 1) || q->size[a] < 2) continue;
        bool at_max = f % 2 == 1;
        lq_config_source *o = &drains[nd++];
        memset(o, 0, sizeof *o);
        o->kind = LQ_CONFIG_SOURCE_OUTLET;
        o->kind_word = "outlet";
        o->outlet.start = 0;
        o->outlet.stop = 1e30;
        lq_config_region *r = &o->outlet.region;
        r->nshapes = 1;
        r->has_min = r->has_max = true;
        r->shape.kind = LQ_CONFIG_OBSTACLE_BOX;
        r->shape.kind_word = "box";
        for (int b = 0; b < 3; b++) {
            int lo = b == a && at_max ? q->size[a] - LQ_BAND_DRAIN : 0;
            int hi = b == a && !at_max ? LQ_BAND_DRAIN : q->size[b];
            r->shape.box.min[b] = o->outlet.min[b] = q->origin[b] + lo * h;
            r->shape.box.max[b] = o->outlet.max[b] = q->origin[b] + hi * h;
        }
        o->outlet.region.shape.box.at_max = NULL;
    }
    /* the scene's sources this grid holds (a source of another grid is no error here),
     * then the drains */
    lq_config_source *src = lq_calloc((size_t)(c->nsources + nd + 1), sizeof *src);
    if (!src) return LQ_ESIM;
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = q->origin[a];
        hi[a] = q->origin[a] + q->size[a] * h;
    }
    int ns = 0;
    for (int i = 0; i < c->nsources; i++)
        if (lq_config_region_meets(&c->sources[i], lo, hi))
            src[ns++] = c->sources[i];
        else
            free((void *)c->sources[i].inlet.speed.table);
    memcpy(src + ns, drains, (size_t)nd * sizeof *src);
    free((void *)c->sources);
    c->sources = src;
    c->nsources = ns + nd;
    c->grid_drains = nd;
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * Loading.
 */

static int lq_config_decode(lq_scene *s, lq_config *c)
{
    c->scene = s;
    c->file = lq_scene_file(s);
    c->name = lq_scene_name(s);
    c->solver = lq_scene_solver(s);
    c->at_solver = lq_scene_at(s, "solver");
    c->at_name = lq_scene_at(s, "name");
    lq_config_grid_time(s, c);
    int rc = lq_config_check_walls(c);
    if (!rc) rc = lq_config_lists(s, c);
    if (rc) return rc;
    lq_config_spray_foam(s, c);
    lq_config_hf(s, c);
    lq_config_read_mac(s, c);
    rc = lq_config_read_pls(s, c);
    lq_config_read_output(s, c);
    if (!rc) rc = lq_config_check(c);
    if (!rc) rc = lq_config_grids(s, c);
    return rc;
}

lq_config *lq_config_load(const char *path, int nsets, const char *const *sets)
{
    lq_scene *s = lq_scene_load(path, nsets, sets);
    if (!s) return NULL;
    lq_config *c = lq_calloc(1, sizeof *c);
    if (!c) {
        lq_scene_free(s);
        return NULL;
    }
    if (lq_config_decode(s, c)) {
        c->scene = s;
        lq_config_free(c);
        return NULL;
    }
    return c;
}

void lq_config_free(lq_config *c)
{
    if (!c) return;
    for (int i = 0; c->obstacles && i < c->nobstacles; i++)
        free((void *)c->obstacles[i].motion.keys);
    for (int i = 0; c->sources && i < c->nsources; i++)
        free((void *)c->sources[i].inlet.speed.table);
    for (int i = 0; c->control && i < c->ncontrol; i++) {
        free((void *)c->control[i].value_keys);
        free((void *)c->control[i].strength_keys);
    }
    free((void *)c->pls.viscosity_change.table);
    free((void *)c->pls.window.path);
    free((void *)c->control);
    free((void *)c->grids);
    free((void *)c->liquid);
    free((void *)c->obstacles);
    free((void *)c->terrain);
    free((void *)c->sources);
    free((void *)c->objects);
    lq_scene_free(c->scene);
    free(c);
}

int lq_config_error(const lq_config *c, const lq_scene_node *at, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lq_scene_error_at(c->scene, at, "%s", msg);
}
