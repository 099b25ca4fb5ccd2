/*
 * hfinit.c — terrain and initial water surface of height-field scenes (hfinit.h).
 * Shapes are evaluated in double at cell centres, then stored as float.
 */
#include "world/hfinit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "io/io.h"

int lq_hfinit_grid_from_scene(const lq_config *cfg, lq_hfinit_grid *g)
{
    const lq_config_grid *cg = &cfg->grid;
    memset(g, 0, sizeof *g);
    if (cg->nsize != 2)
        return lq_config_error(cfg, cg->at_size,
                               "solver '%s' is a height field: grid.size takes [nx, nz] "
                               "(cells along x and z), got %d numbers",
                               cfg->solver, cg->nsize);
    if (cg->size[0] < 2 || cg->size[1] < 2)
        return lq_config_error(cfg, cg->at_size, "a height field needs at least 2 x 2 cells");
    g->nx = cg->size[0];
    g->nz = cg->size[1];
    g->dx = cg->cell;
    if (cg->norigin == 2) {
        g->origin[0] = cg->origin[0];
        g->origin[1] = 0;
        g->origin[2] = cg->origin[1];
    } else {
        memcpy(g->origin, cg->origin, sizeof g->origin);
    }
    return LQ_OK;
}

static void lq_hfinit_cell_centre(const lq_hfinit_grid *g, int i, int k, double *x, double *z)
{
    *x = g->origin[0] + (i + 0.5) * g->dx;
    *z = g->origin[2] + (k + 0.5) * g->dx;
}

/* A loaded heightmap: gray in [0, 1], row 0 at the smallest z. */
typedef struct lq_hfinit_heightmap {
    int w, h;
    float *gray;
    double lo, hi, origin[2], size[2];
} lq_hfinit_heightmap;

static int lq_hfinit_heightmap_load(const lq_config *cfg, const lq_config_terrain *t,
                                    const lq_hfinit_grid *g, lq_hfinit_heightmap *m)
{
    memset(m, 0, sizeof *m);
    const char *file = t->heightmap.file;
    int rc = lq_png_read_gray(file, &m->w, &m->h, &m->gray);
    if (rc) return rc;
    if (m->w < 2 || m->h < 2) {
        free(m->gray);
        m->gray = NULL;
        return lq_config_error(cfg, t->heightmap.at_file,
                               "heightmap %s is %d x %d pixels; it needs at least 2 x 2", file,
                               m->w, m->h);
    }
    m->lo = t->heightmap.min;
    m->hi = t->heightmap.max;
    m->origin[0] = g->origin[0];
    m->origin[1] = g->origin[2];
    m->size[0] = g->nx * g->dx;
    m->size[1] = g->nz * g->dx;
    if (t->heightmap.has_origin) memcpy(m->origin, t->heightmap.origin, sizeof m->origin);
    if (t->heightmap.has_size) memcpy(m->size, t->heightmap.size, sizeof m->size);
    if (!(m->size[0] > 0 && m->size[1] > 0)) {
        free(m->gray);
        m->gray = NULL;
        return lq_config_error(cfg, t->heightmap.at_size, "heightmap size must be positive");
    }
    return LQ_OK;
}

/* Bilinear sample at world (x, z); false outside the map's extent. Pixel centres sit at
 * (origin + (px + ½) size / w); the map is clamped within its extent. */
static bool lq_hfinit_heightmap_sample(const lq_hfinit_heightmap *m, double x, double z, double *v)
{
    double u = (x - m->origin[0]) / m->size[0], t = (z - m->origin[1]) / m->size[1];
    if (u < 0 || u > 1 || t < 0 || t > 1) return false;
    double px = u * m->w - 0.5, pz = t * m->h - 0.5;
    px = fmin(fmax(px, 0.0), m->w - 1.0);
    pz = fmin(fmax(pz, 0.0), m->h - 1.0);
    int x0 = (int)px, z0 = (int)pz;
    int x1 = LQ_MIN(x0 + 1, m->w - 1), z1 = LQ_MIN(z0 + 1, m->h - 1);
    double fx = px - x0, fz = pz - z0;
    const float *gr = m->gray;
    double a = gr[x0 + m->w * z0] * (1 - fx) + gr[x1 + m->w * z0] * fx;
    double c = gr[x0 + m->w * z1] * (1 - fx) + gr[x1 + m->w * z1] * fx;
    *v = m->lo + (m->hi - m->lo) * (a * (1 - fz) + c * fz);
    return true;
}

/* Radial or axial (LQ_CONFIG_BOWL_*) squared distance for bowls and bumps. */
static double lq_hfinit_dist2(int axis, double x, double z, const double c[2])
{
    double ddx = x - c[0], ddz = z - c[1];
    if (axis == LQ_CONFIG_BOWL_X) return ddx * ddx;
    if (axis == LQ_CONFIG_BOWL_Z) return ddz * ddz;
    return ddx * ddx + ddz * ddz;
}

/* Terrain item t's ground height at world (x, z); NaN where it does not reach. */
static double lq_hfinit_ground(const lq_config_terrain *t, const lq_hfinit_heightmap *map,
                               const lq_hfinit_grid *g, double x, double z)
{
    double v = NAN;
    switch (t->kind) {
    case LQ_CONFIG_TERRAIN_PLANE:
        return t->plane.height + t->plane.slope[0] * (x - g->origin[0]) +
               t->plane.slope[1] * (z - g->origin[2]);
    case LQ_CONFIG_TERRAIN_RAMP: {
        const double *c = t->ramp.from, *v2 = t->ramp.to, *hs = t->ramp.height;
        double ax = v2[0] - c[0], az = v2[1] - c[1];
        double s = ((x - c[0]) * ax + (z - c[1]) * az) / (ax * ax + az * az);
        s = fmin(fmax(s, 0.0), 1.0);
        return hs[0] + s * (hs[1] - hs[0]);
    }
    case LQ_CONFIG_TERRAIN_BOX: {
        const double *mn = t->box.min, *mx = t->box.max;
        if (x >= mn[0] && x <= mx[0] && z >= mn[2] && z <= mx[2])
            return t->add ? mx[1] - mn[1] : mx[1];
        return NAN;
    }
    case LQ_CONFIG_TERRAIN_GAUSSIAN: {
        double sigma = t->gaussian.sigma;
        return t->gaussian.height *
               exp(-lq_hfinit_dist2(LQ_CONFIG_BOWL_RADIAL, x, z, t->gaussian.center) /
                   (2 * sigma * sigma));
    }
    case LQ_CONFIG_TERRAIN_BOWL: {
        double radius = t->bowl.radius;
        return -t->bowl.depth *
               (1 - lq_hfinit_dist2(t->bowl.axis, x, z, t->bowl.center) / (radius * radius));
    }
    case LQ_CONFIG_TERRAIN_HEIGHTMAP:
        if (!lq_hfinit_heightmap_sample(map, x, z, &v)) v = NAN;
        return v;
    }
    return v;
}

int lq_hfinit_terrain(const lq_config *cfg, const lq_hfinit_grid *g, float *b)
{
    size_t n = (size_t)g->nx * (size_t)g->nz;
    double *acc = lq_alloc(n * sizeof *acc);
    if (!acc) return LQ_ESIM;
    for (size_t c = 0; c < n; c++) acc[c] = NAN; /* NaN: no item has reached the cell */
    for (int it = 0; it < cfg->nterrain; it++) {
        const lq_config_terrain *t = &cfg->terrain[it];
        lq_hfinit_heightmap map = {0};
        int rc = LQ_OK;
        if (t->kind == LQ_CONFIG_TERRAIN_HEIGHTMAP) {
            rc = lq_hfinit_heightmap_load(cfg, t, g, &map);
        } else if (t->kind == LQ_CONFIG_TERRAIN_RAMP && t->ramp.from[0] == t->ramp.to[0] &&
                   t->ramp.from[1] == t->ramp.to[1]) {
            rc = lq_config_error(cfg, t->ramp.at_to, "a ramp needs `to` different from `from`");
        }
        if (rc) {
            free(acc);
            return rc;
        }
        for (int k = 0; k < g->nz; k++)
            for (int i = 0; i < g->nx; i++) {
                double x, z;
                lq_hfinit_cell_centre(g, i, k, &x, &z);
                double v = lq_hfinit_ground(t, &map, g, x, z);
                if (isnan(v)) continue;
                double *a = &acc[i + (size_t)g->nx * k];
                if (isnan(*a))
                    *a = v;
                else
                    *a = t->add ? *a + v : fmax(*a, v);
            }
        free(map.gray);
    }
    for (size_t cidx = 0; cidx < n; cidx++)
        b[cidx] = (float)(isnan(acc[cidx]) ? g->origin[1] : acc[cidx]);
    free(acc);
    return LQ_OK;
}

/* Liquid item q's check before it is drawn: an item the height fields cannot start. */
static int lq_hfinit_liquid_check(const lq_config *cfg, const lq_config_liquid *q)
{
    const double *vel = q->box.velocity;
    if (q->kind == LQ_CONFIG_LIQUID_BOX && (vel[0] != 0 || vel[1] != 0 || vel[2] != 0))
        return lq_config_error(cfg, q->box.at_velocity,
                               "solver '%s' starts water at rest; an initial velocity "
                               "is not supported here",
                               cfg->solver);
    if (q->kind == LQ_CONFIG_LIQUID_SPHERE)
        return lq_config_error(cfg, q->at, "liquid '%s' is not supported by solver '%s'",
                               q->kind_word, cfg->solver);
    return LQ_OK;
}

/* Adds liquid item q to the surface *a at cell centre (x, z): `level` and `box` raise it
 * (max), the offsets add to a surface already there; c: the tilt's centre. */
static void lq_hfinit_liquid_at(const lq_config_liquid *q, const lq_hfinit_grid *g,
                                const double c[2], double x, double z, double *a)
{
    double lx = g->nx * g->dx, lz = g->nz * g->dx;
    if (q->kind == LQ_CONFIG_LIQUID_LEVEL) {
        *a = fmax(*a, q->level);
    } else if (q->kind == LQ_CONFIG_LIQUID_BOX) {
        const double *mn = q->box.min, *mx = q->box.max;
        if (x >= mn[0] && x <= mx[0] && z >= mn[2] && z <= mx[2]) *a = fmax(*a, mx[1]);
    } else if (isfinite(*a)) {
        if (q->kind == LQ_CONFIG_LIQUID_HUMP) {
            double sigma = q->hump.sigma;
            *a +=
                q->hump.height * exp(-lq_hfinit_dist2(LQ_CONFIG_BOWL_RADIAL, x, z, q->hump.center) /
                                     (2 * sigma * sigma));
        } else if (q->kind == LQ_CONFIG_LIQUID_WAVE) {
            int mode = q->wave.mode;
            *a += q->wave.amplitude * (q->wave.axis == 2
                                           ? cos(mode * LQ_PI * (z - g->origin[2]) / lz)
                                           : cos(mode * LQ_PI * (x - g->origin[0]) / lx));
        } else if (q->kind == LQ_CONFIG_LIQUID_TILT) {
            *a += q->tilt.slope[0] * (x - c[0]) + q->tilt.slope[1] * (z - c[1]);
        } else if (q->kind == LQ_CONFIG_LIQUID_PARABOLOID) {
            *a += q->paraboloid.curvature *
                  lq_hfinit_dist2(LQ_CONFIG_BOWL_RADIAL, x, z, q->paraboloid.center);
        }
    }
}

int lq_hfinit_surface(const lq_config *cfg, const lq_hfinit_grid *g, const float *b, float eps,
                      float *h)
{
    size_t n = (size_t)g->nx * (size_t)g->nz;
    double *sf = lq_alloc(n * sizeof *sf);
    if (!sf) return LQ_ESIM;
    for (size_t c = 0; c < n; c++) sf[c] = -INFINITY;
    double lx = g->nx * g->dx, lz = g->nz * g->dx;
    for (int it = 0; it < cfg->nliquid; it++) {
        const lq_config_liquid *q = &cfg->liquid[it];
        int rc = lq_hfinit_liquid_check(cfg, q);
        if (rc) {
            free(sf);
            return rc;
        }
        /* the tilt's centre: where it adds nothing (default: the grid centre) */
        double c[2] = {g->origin[0] + 0.5 * lx, g->origin[2] + 0.5 * lz};
        if (q->tilt.has_center) memcpy(c, q->tilt.center, sizeof c);
        for (int k = 0; k < g->nz; k++)
            for (int i = 0; i < g->nx; i++) {
                double x, z;
                lq_hfinit_cell_centre(g, i, k, &x, &z);
                lq_hfinit_liquid_at(q, g, c, x, z, &sf[i + (size_t)g->nx * k]);
            }
    }
    for (size_t cidx = 0; cidx < n; cidx++) {
        double bb = b[cidx];
        h[cidx] = sf[cidx] > bb ? (float)sf[cidx] : (float)(bb - eps);
    }
    free(sf);
    return LQ_OK;
}
