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

int lq_hfinit_grid_from_scene(const lq_scene *s, lq_hfinit_grid *g)
{
    int size[3] = {0, 0, 0};
    double o[3] = {0, 0, 0};
    memset(g, 0, sizeof *g);
    int n = lq_scene_ints(s, "grid.size", size, 3);
    if (n != 2)
        return lq_scene_error(s, "grid.size",
                              "solver '%s' is a height field: grid.size takes [nx, nz] "
                              "(cells along x and z), got %d numbers",
                              lq_scene_solver(s), n);
    if (size[0] < 2 || size[1] < 2)
        return lq_scene_error(s, "grid.size", "a height field needs at least 2 x 2 cells");
    g->nx = size[0];
    g->nz = size[1];
    g->dx = lq_scene_float(s, "grid.cell");
    int no = lq_scene_floats(s, "grid.origin", o, 3);
    if (no == 2) {
        g->origin[0] = o[0];
        g->origin[1] = 0;
        g->origin[2] = o[1];
    } else {
        memcpy(g->origin, o, sizeof o);
    }
    return LQ_OK;
}

static void lq_hfinit_cell_centre(const lq_hfinit_grid *g, int i, int k, double *x, double *z)
{
    *x = g->origin[0] + (i + 0.5) * g->dx;
    *z = g->origin[2] + (k + 0.5) * g->dx;
}

static void lq_hfinit_path(char *buf, size_t n, const char *list, int i, const char *kind,
                           const char *key)
{
    snprintf(buf, n, "%s.%d.%s.%s", list, i, kind, key);
}

static double lq_hfinit_item_float(const lq_scene *s, const char *list, int i, const char *kind,
                                   const char *key)
{
    char p[128];
    lq_hfinit_path(p, sizeof p, list, i, kind, key);
    return lq_scene_float(s, p);
}

static void lq_hfinit_item_floats(const lq_scene *s, const char *list, int i, const char *kind,
                                  const char *key, double *out, int cap)
{
    char p[128];
    lq_hfinit_path(p, sizeof p, list, i, kind, key);
    for (int j = 0; j < cap; j++) out[j] = 0;
    lq_scene_floats(s, p, out, cap);
}

/* A loaded heightmap: gray in [0, 1], row 0 at the smallest z. */
typedef struct lq_hfinit_heightmap {
    int w, h;
    float *gray;
    double lo, hi, origin[2], size[2];
} lq_hfinit_heightmap;

static int lq_hfinit_heightmap_load(const lq_scene *s, const lq_hfinit_grid *g, int i,
                                    lq_hfinit_heightmap *m)
{
    char p[128];
    memset(m, 0, sizeof *m);
    lq_hfinit_path(p, sizeof p, "terrain", i, "heightmap", "file");
    const char *file = lq_scene_file_path(s, p);
    int rc = lq_png_read_gray(file, &m->w, &m->h, &m->gray);
    if (rc) return rc;
    if (m->w < 2 || m->h < 2) {
        free(m->gray);
        m->gray = NULL;
        return lq_scene_error(s, p, "heightmap %s is %d x %d pixels; it needs at least 2 x 2", file,
                              m->w, m->h);
    }
    m->lo = lq_hfinit_item_float(s, "terrain", i, "heightmap", "min");
    m->hi = lq_hfinit_item_float(s, "terrain", i, "heightmap", "max");
    m->origin[0] = g->origin[0];
    m->origin[1] = g->origin[2];
    m->size[0] = g->nx * g->dx;
    m->size[1] = g->nz * g->dx;
    lq_hfinit_path(p, sizeof p, "terrain", i, "heightmap", "origin");
    if (lq_scene_has(s, p)) lq_scene_floats(s, p, m->origin, 2);
    lq_hfinit_path(p, sizeof p, "terrain", i, "heightmap", "size");
    if (lq_scene_has(s, p)) lq_scene_floats(s, p, m->size, 2);
    if (!(m->size[0] > 0 && m->size[1] > 0)) {
        free(m->gray);
        m->gray = NULL;
        return lq_scene_error(s, p, "heightmap size must be positive");
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

/* Radial or axial squared distance for bowls and bumps. */
static double lq_hfinit_dist2(const char *axis, double x, double z, const double c[2])
{
    double ddx = x - c[0], ddz = z - c[1];
    if (axis && strcmp(axis, "x") == 0) return ddx * ddx;
    if (axis && strcmp(axis, "z") == 0) return ddz * ddz;
    return ddx * ddx + ddz * ddz;
}

int lq_hfinit_terrain(const lq_scene *s, const lq_hfinit_grid *g, float *b)
{
    size_t n = (size_t)g->nx * (size_t)g->nz;
    double *acc = lq_alloc(n * sizeof *acc);
    if (!acc) return LQ_ESIM;
    for (size_t c = 0; c < n; c++) acc[c] = NAN; /* NaN: no item has reached the cell */
    int items = lq_scene_count(s, "terrain");
    for (int it = 0; it < items; it++) {
        const char *kind = lq_scene_kind(s, "terrain", it);
        char p[128];
        snprintf(p, sizeof p, "terrain.%d.combine", it);
        bool add = strcmp(lq_scene_enum(s, p), "add") == 0;
        lq_hfinit_heightmap map = {0};
        double v2[2], c[2], mn[3], mx[3];
        double height = 0, sigma = 1, radius = 1, depth = 0;
        const char *axis = NULL;
        if (strcmp(kind, "heightmap") == 0) {
            int rc = lq_hfinit_heightmap_load(s, g, it, &map);
            if (rc) {
                free(acc);
                return rc;
            }
        } else if (strcmp(kind, "plane") == 0) {
            height = lq_hfinit_item_float(s, "terrain", it, kind, "height");
            lq_hfinit_item_floats(s, "terrain", it, kind, "slope", v2, 2);
        } else if (strcmp(kind, "ramp") == 0) {
            lq_hfinit_item_floats(s, "terrain", it, kind, "from", c, 2);
            lq_hfinit_item_floats(s, "terrain", it, kind, "to", v2, 2);
            lq_hfinit_item_floats(s, "terrain", it, kind, "height", mn, 2);
            if (c[0] == v2[0] && c[1] == v2[1]) {
                snprintf(p, sizeof p, "terrain.%d.ramp.to", it);
                free(acc);
                return lq_scene_error(s, p, "a ramp needs `to` different from `from`");
            }
        } else if (strcmp(kind, "box") == 0) {
            lq_hfinit_item_floats(s, "terrain", it, kind, "min", mn, 3);
            lq_hfinit_item_floats(s, "terrain", it, kind, "max", mx, 3);
        } else if (strcmp(kind, "gaussian") == 0) {
            lq_hfinit_item_floats(s, "terrain", it, kind, "center", c, 2);
            sigma = lq_hfinit_item_float(s, "terrain", it, kind, "sigma");
            height = lq_hfinit_item_float(s, "terrain", it, kind, "height");
        } else if (strcmp(kind, "bowl") == 0) {
            lq_hfinit_item_floats(s, "terrain", it, kind, "center", c, 2);
            radius = lq_hfinit_item_float(s, "terrain", it, kind, "radius");
            depth = lq_hfinit_item_float(s, "terrain", it, kind, "depth");
            snprintf(p, sizeof p, "terrain.%d.bowl.axis", it);
            axis = lq_scene_enum(s, p);
        }
        for (int k = 0; k < g->nz; k++)
            for (int i = 0; i < g->nx; i++) {
                double x, z, v = NAN;
                lq_hfinit_cell_centre(g, i, k, &x, &z);
                if (strcmp(kind, "plane") == 0) {
                    v = height + v2[0] * (x - g->origin[0]) + v2[1] * (z - g->origin[2]);
                } else if (strcmp(kind, "ramp") == 0) {
                    double ax = v2[0] - c[0], az = v2[1] - c[1];
                    double t = ((x - c[0]) * ax + (z - c[1]) * az) / (ax * ax + az * az);
                    t = fmin(fmax(t, 0.0), 1.0);
                    v = mn[0] + t * (mn[1] - mn[0]);
                } else if (strcmp(kind, "box") == 0) {
                    if (x >= mn[0] && x <= mx[0] && z >= mn[2] && z <= mx[2])
                        v = add ? mx[1] - mn[1] : mx[1];
                } else if (strcmp(kind, "gaussian") == 0) {
                    v = height * exp(-lq_hfinit_dist2(NULL, x, z, c) / (2 * sigma * sigma));
                } else if (strcmp(kind, "bowl") == 0) {
                    v = -depth * (1 - lq_hfinit_dist2(axis, x, z, c) / (radius * radius));
                } else if (strcmp(kind, "heightmap") == 0) {
                    if (!lq_hfinit_heightmap_sample(&map, x, z, &v)) v = NAN;
                }
                if (isnan(v)) continue;
                double *a = &acc[i + (size_t)g->nx * k];
                if (isnan(*a))
                    *a = v;
                else
                    *a = add ? *a + v : fmax(*a, v);
            }
        free(map.gray);
    }
    for (size_t cidx = 0; cidx < n; cidx++)
        b[cidx] = (float)(isnan(acc[cidx]) ? g->origin[1] : acc[cidx]);
    free(acc);
    return LQ_OK;
}

int lq_hfinit_surface(const lq_scene *s, const lq_hfinit_grid *g, const float *b, float eps,
                      float *h)
{
    size_t n = (size_t)g->nx * (size_t)g->nz;
    double *sf = lq_alloc(n * sizeof *sf);
    if (!sf) return LQ_ESIM;
    for (size_t c = 0; c < n; c++) sf[c] = -INFINITY;
    int items = lq_scene_count(s, "liquid");
    double lx = g->nx * g->dx, lz = g->nz * g->dx;
    for (int it = 0; it < items; it++) {
        const char *kind = lq_scene_kind(s, "liquid", it);
        char p[128];
        double c[3] = {0, 0, 0}, mn[3], mx[3], vel[3] = {0, 0, 0};
        double level = 0, sigma = 1, height = 0, amp = 0, curv = 0, slope[2] = {0, 0};
        int mode = 1;
        const char *axis = "x";
        if (strcmp(kind, "level") == 0) {
            snprintf(p, sizeof p, "liquid.%d.level", it);
            level = lq_scene_float(s, p);
        } else if (strcmp(kind, "box") == 0) {
            lq_hfinit_item_floats(s, "liquid", it, kind, "min", mn, 3);
            lq_hfinit_item_floats(s, "liquid", it, kind, "max", mx, 3);
            lq_hfinit_item_floats(s, "liquid", it, kind, "velocity", vel, 3);
            if (vel[0] != 0 || vel[1] != 0 || vel[2] != 0) {
                snprintf(p, sizeof p, "liquid.%d.box.velocity", it);
                free(sf);
                return lq_scene_error(s, p,
                                      "solver '%s' starts water at rest; an initial velocity "
                                      "is not supported here",
                                      lq_scene_solver(s));
            }
        } else if (strcmp(kind, "hump") == 0) {
            lq_hfinit_item_floats(s, "liquid", it, kind, "center", c, 2);
            sigma = lq_hfinit_item_float(s, "liquid", it, kind, "sigma");
            height = lq_hfinit_item_float(s, "liquid", it, kind, "height");
        } else if (strcmp(kind, "wave") == 0) {
            amp = lq_hfinit_item_float(s, "liquid", it, kind, "amplitude");
            snprintf(p, sizeof p, "liquid.%d.wave.mode", it);
            mode = lq_scene_int(s, p);
            snprintf(p, sizeof p, "liquid.%d.wave.axis", it);
            axis = lq_scene_enum(s, p);
        } else if (strcmp(kind, "tilt") == 0) {
            lq_hfinit_item_floats(s, "liquid", it, kind, "slope", slope, 2);
            c[0] = g->origin[0] + 0.5 * lx;
            c[1] = g->origin[2] + 0.5 * lz;
            snprintf(p, sizeof p, "liquid.%d.tilt.center", it);
            if (lq_scene_has(s, p)) lq_scene_floats(s, p, c, 2);
        } else if (strcmp(kind, "paraboloid") == 0) {
            lq_hfinit_item_floats(s, "liquid", it, kind, "center", c, 2);
            curv = lq_hfinit_item_float(s, "liquid", it, kind, "curvature");
        } else {
            snprintf(p, sizeof p, "liquid.%d", it);
            free(sf);
            return lq_scene_error(s, p, "liquid '%s' is not supported by solver '%s'", kind,
                                  lq_scene_solver(s));
        }
        for (int k = 0; k < g->nz; k++)
            for (int i = 0; i < g->nx; i++) {
                double x, z;
                lq_hfinit_cell_centre(g, i, k, &x, &z);
                double *a = &sf[i + (size_t)g->nx * k];
                if (strcmp(kind, "level") == 0) {
                    *a = fmax(*a, level);
                } else if (strcmp(kind, "box") == 0) {
                    if (x >= mn[0] && x <= mx[0] && z >= mn[2] && z <= mx[2]) *a = fmax(*a, mx[1]);
                } else if (isfinite(*a)) {
                    if (strcmp(kind, "hump") == 0)
                        *a += height * exp(-lq_hfinit_dist2(NULL, x, z, c) / (2 * sigma * sigma));
                    else if (strcmp(kind, "wave") == 0)
                        *a += amp * (strcmp(axis, "z") == 0
                                         ? cos(mode * LQ_PI * (z - g->origin[2]) / lz)
                                         : cos(mode * LQ_PI * (x - g->origin[0]) / lx));
                    else if (strcmp(kind, "tilt") == 0)
                        *a += slope[0] * (x - c[0]) + slope[1] * (z - c[1]);
                    else if (strcmp(kind, "paraboloid") == 0)
                        *a += curv * lq_hfinit_dist2(NULL, x, z, c);
                }
            }
    }
    for (size_t cidx = 0; cidx < n; cidx++) {
        double bb = b[cidx];
        h[cidx] = sf[cidx] > bb ? (float)sf[cidx] : (float)(bb - eps);
    }
    free(sf);
    return LQ_OK;
}
