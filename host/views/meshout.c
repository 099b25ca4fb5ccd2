/*
 * meshout.c — meshout.h: one extraction, the columns filled vertex by vertex, one PLY.
 */
#include "views/meshout.h"

#include "core/common.h"
#include "io/io.h"
#include "views/mcubes.h"

#include <math.h>
#include <stdlib.h>

/* Trilinear sample of a face grid of n[0]·n[1]·n[2] values at grid coordinates g (index
 * units of that grid), clamped to its range. */
static double lq_meshout_sample(const float *f, const int n[3], const double g[3])
{
    int i0[3], i1[3];
    double t[3];
    for (int a = 0; a < 3; a++) {
        double x = g[a] > 0 ? (g[a] < n[a] - 1 ? g[a] : n[a] - 1) : 0;
        i0[a] = (int)x;
        i1[a] = i0[a] + 1 < n[a] ? i0[a] + 1 : i0[a];
        t[a] = x - i0[a];
    }
    double sum = 0;
    for (int c = 0; c < 8; c++) {
        int ijk[3];
        double w = 1;
        for (int a = 0; a < 3; a++) {
            int up = (c >> a) & 1;
            ijk[a] = up ? i1[a] : i0[a];
            w *= up ? t[a] : 1 - t[a];
        }
        sum += w * f[(size_t)ijk[0] + (size_t)n[0] * ((size_t)ijk[1] + (size_t)n[1] * ijk[2])];
    }
    return sum;
}

void lq_meshout_velocity(const lq_meshout_vel *vel, int nx, int ny, int nz, const double origin[3],
                         const double spacing[3], const double q[3], double out[3])
{
    const float *f[3] = {vel->u, vel->v, vel->w};
    for (int a = 0; a < 3; a++) {
        int n[3] = {nx, ny, nz};
        double g[3];
        n[a]++;
        for (int b = 0; b < 3; b++)
            g[b] = (q[b] - origin[b]) / spacing[b] - (b == a ? 0 : 0.5); /* faces on axis a */
        out[a] = lq_meshout_sample(f[a], n, g);
    }
}

int lq_meshout_write(const char *path, int nx, int ny, int nz, const double origin[3],
                     const double spacing[3], const float *phi, const lq_meshout_vel *vel,
                     const lq_texmap *t, const lq_texmap_style *s)
{
    static const char *const all[14] = {"x",  "y",  "z",      "nx",     "ny",     "nz", "vx",
                                        "vy", "vz", "rest_x", "rest_y", "rest_z", "s",  "t"};
    const char *names[14];
    const float *colp[14];
    lq_mcubes_mesh m;
    int rc = lq_mcubes_extract(nx, ny, nz, origin, spacing, phi, 0.0f, true, &m);
    if (rc) return rc;
    const int ncol = 6 + (vel ? 3 : 0) + (t ? 5 : 0), tex0 = vel ? 9 : 6;
    const size_t n = (size_t)m.nverts;
    float *cols = lq_alloc((size_t)ncol * (n ? n : 1) * sizeof *cols);
    if (!cols) {
        lq_mcubes_free(&m);
        return LQ_ESIM;
    }
    for (int c = 0; c < ncol; c++) {
        names[c] = all[c < 6 || vel ? c : c + 3];
        colp[c] = cols + (size_t)c * n;
    }
    for (size_t v = 0; v < n; v++) {
        double q[3];
        for (int a = 0; a < 3; a++) {
            q[a] = m.pos[3 * v + (size_t)a];
            cols[(size_t)a * n + v] = m.pos[3 * v + (size_t)a];
            cols[(size_t)(3 + a) * n + v] = m.normal[3 * v + (size_t)a];
        }
        if (vel) {
            double u[3];
            lq_meshout_velocity(vel, nx, ny, nz, origin, spacing, q, u);
            for (int a = 0; a < 3; a++) cols[(size_t)(6 + a) * n + v] = (float)u[a];
        }
        if (t) {
            double rest[3], st[2];
            lq_texmap_rest(t, q, rest);
            lq_texmap_st(s, rest, st);
            for (int a = 0; a < 3; a++) cols[(size_t)(tex0 + a) * n + v] = (float)rest[a];
            cols[(size_t)(tex0 + 3) * n + v] = (float)st[0];
            cols[(size_t)(tex0 + 4) * n + v] = (float)st[1];
        }
    }
    rc = lq_ply_write(path, m.nverts, ncol, names, colp, m.ntris, m.tris);
    free(cols);
    lq_mcubes_free(&m);
    return rc;
}
