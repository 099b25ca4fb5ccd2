/*
 * vdbframe.c — vdbframe.h: the views copied to host arrays, the distance when phi is
 * not one (the zero surface as marching-cubes triangles, views/mcubes.h, each splatted
 * into the cells within the band of its bounding box: the exact distance to that
 * piecewise-linear surface), the face velocities averaged to the centres, and one
 * lq_vdb_write.
 */
#include "views/vdbframe.h"

#include "core/common.h"
#include "core/version.h"
#include "io/io.h"
#include "io/vdb.h"
#include "views/mcubes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Squared distance from p to the triangle abc (Ericson, Real-Time Collision Detection,
 * §5.1.5: the closest point by the Voronoi region p falls in). */
static double lq_vdbframe_tri_d2(const double p[3], const double a[3], const double b[3],
                                 const double c[3])
{
    double ab[3], ac[3], ap[3], q[3];
    for (int x = 0; x < 3; x++) {
        ab[x] = b[x] - a[x];
        ac[x] = c[x] - a[x];
        ap[x] = p[x] - a[x];
    }
#define DOT(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        for (int x = 0; x < 3; x++) q[x] = a[x];
    } else {
        double bp[3], cp[3];
        for (int x = 0; x < 3; x++) {
            bp[x] = p[x] - b[x];
            cp[x] = p[x] - c[x];
        }
        double d3 = DOT(ab, bp), d4 = DOT(ac, bp), d5 = DOT(ab, cp), d6 = DOT(ac, cp);
        double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
        if (d3 >= 0 && d4 <= d3) {
            for (int x = 0; x < 3; x++) q[x] = b[x];
        } else if (d6 >= 0 && d5 <= d6) {
            for (int x = 0; x < 3; x++) q[x] = c[x];
        } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            double v = d1 / (d1 - d3);
            for (int x = 0; x < 3; x++) q[x] = a[x] + v * ab[x];
        } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            double w = d2 / (d2 - d6);
            for (int x = 0; x < 3; x++) q[x] = a[x] + w * ac[x];
        } else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
            double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            for (int x = 0; x < 3; x++) q[x] = b[x] + w * (c[x] - b[x]);
        } else {
            double den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
            for (int x = 0; x < 3; x++) q[x] = a[x] + ab[x] * v + ac[x] * w;
        }
    }
#undef DOT
    double e[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
}

void lq_vdbframe_distance(const float *phi, const int dims[3], double h, int band, float *dist)
{
    const int nx = dims[0], ny = dims[1], nz = dims[2];
    const size_t n = (size_t)nx * ny * nz, sy = (size_t)nx, sz = (size_t)nx * ny;
    const float far = (float)(band * h);
    /* the zero surface as triangles, in cell units (cell (i, j, k)'s centre at i, j, k) */
    const double corner[3] = {-0.5, -0.5, -0.5}, unit[3] = {1, 1, 1};
    lq_mcubes_mesh m;
    memset(&m, 0, sizeof m);
    float *d2 = lq_alloc(n * sizeof *d2);
    if (!d2 || lq_mcubes_extract(nx, ny, nz, corner, unit, phi, 0.0f, true, &m)) {
        for (size_t c = 0; c < n; c++) dist[c] = phi[c] < 0 ? -far : far;
        free(d2);
        lq_mcubes_free(&m);
        return;
    }
    for (size_t c = 0; c < n; c++) d2[c] = INFINITY;
    for (int t = 0; t < m.ntris; t++) {
        double v[3][3], lo[3], hi[3];
        for (int a = 0; a < 3; a++) {
            const float *p = m.pos + 3 * (size_t)m.tris[3 * (size_t)t + a];
            for (int x = 0; x < 3; x++) v[a][x] = p[x];
        }
        for (int x = 0; x < 3; x++) {
            lo[x] = fmin(fmin(v[0][x], v[1][x]), v[2][x]) - band;
            hi[x] = fmax(fmax(v[0][x], v[1][x]), v[2][x]) + band;
        }
        const int i0 = LQ_MAX((int)ceil(lo[0]), 0), i1 = LQ_MIN((int)floor(hi[0]), nx - 1);
        const int j0 = LQ_MAX((int)ceil(lo[1]), 0), j1 = LQ_MIN((int)floor(hi[1]), ny - 1);
        const int k0 = LQ_MAX((int)ceil(lo[2]), 0), k1 = LQ_MIN((int)floor(hi[2]), nz - 1);
        for (int k = k0; k <= k1; k++)
            for (int j = j0; j <= j1; j++)
                for (int i = i0; i <= i1; i++) {
                    const double p[3] = {i, j, k};
                    float e = (float)lq_vdbframe_tri_d2(p, v[0], v[1], v[2]);
                    size_t q = (size_t)i + sy * j + sz * k;
                    if (e < d2[q]) d2[q] = e;
                }
    }
    for (size_t c = 0; c < n; c++) {
        float d = fminf(sqrtf(d2[c]) * (float)h, far);
        dist[c] = phi[c] < 0 ? -d : d;
    }
    lq_mcubes_free(&m);
    free(d2);
}

int lq_vdbframe_write(const char *path, const lq_solver_vt *vt, void *state, bool phi_distance,
                      const char *const *names, int n)
{
    lq_field_view vp;
    int rc = vt->view(state, "phi", &vp);
    if (rc) return rc;
    const int *dims = vp.dims;
    const size_t cells = (size_t)dims[0] * dims[1] * dims[2];
    const double h = vp.spacing[0];
    float *sd = lq_alloc(cells * sizeof *sd), *vel = NULL, *scal[8] = {NULL};
    unsigned char *near = lq_alloc(cells), *wet = lq_alloc(cells);
    lq_vdb_grid g[8];
    int ng = 0;
    if (!sd || !near || !wet) rc = LQ_ESIM;
    if (!rc) {
        if (phi_distance)
            for (size_t c = 0; c < cells; c++) sd[c] = vp.data[c];
        else
            lq_vdbframe_distance(vp.data, dims, h, LQ_VDBFRAME_BAND, sd);
        for (size_t c = 0; c < cells; c++) {
            near[c] = sd[c] < LQ_VDBFRAME_BAND * h;
            wet[c] = sd[c] < 0;
        }
    }
    for (int q = 0; q < n && q < 8 && !rc; q++) {
        lq_vdb_grid *G = &g[ng++];
        memset(G, 0, sizeof *G);
        G->name = names[q];
        memcpy(G->dims, dims, sizeof G->dims);
        memcpy(G->origin, vp.origin, sizeof G->origin);
        G->voxel = h;
        G->z_up = lq_io_z_up();
        if (strcmp(names[q], "surface") == 0) {
            G->kind = LQ_VDB_LEVEL_SET;
            G->band = LQ_VDBFRAME_BAND;
            G->data = sd;
        } else if (strcmp(names[q], "vel") == 0) {
            G->kind = LQ_VDB_VECTOR;
            G->mask = near;
            if (!vel && !(vel = lq_alloc(3 * cells * sizeof *vel))) rc = LQ_ESIM;
            for (int a = 0; a < 3 && !rc; a++) {
                lq_field_view vf;
                const char nm[2] = {(char)('u' + a), 0};
                rc = vt->view(state, nm, &vf);
                if (rc) break;
                const size_t sy = (size_t)vf.dims[0], sz = sy * vf.dims[1];
                const size_t step = a == 0 ? 1 : a == 1 ? sy : sz;
                for (int k = 0; k < dims[2]; k++)
                    for (int j = 0; j < dims[1]; j++)
                        for (int i = 0; i < dims[0]; i++) {
                            size_t f = (size_t)i + sy * j + sz * k;
                            size_t c = (size_t)i + (size_t)dims[0] * (j + (size_t)dims[1] * k);
                            vel[3 * c + a] = 0.5f * (vf.data[f] + vf.data[f + step]);
                        }
            }
            G->data = vel;
        } else {
            lq_field_view vf;
            G->kind = LQ_VDB_FOG;
            G->mask = wet;
            rc = vt->view(state, names[q], &vf);
            if (!rc && (size_t)vf.dims[0] * vf.dims[1] * vf.dims[2] != cells)
                rc = lq_error(LQ_EINPUT, "output.vdb: '%s' is not a cell field", names[q]);
            if (!rc && !(scal[q] = lq_alloc(cells * sizeof(float)))) rc = LQ_ESIM;
            if (!rc) memcpy(scal[q], vf.data, cells * sizeof(float));
            G->data = scal[q];
        }
    }
    char creator[96];
    snprintf(creator, sizeof creator, "liquidcl %s", lq_version());
    if (!rc) rc = lq_vdb_write(path, g, ng, creator);
    for (int q = 0; q < 8; q++) free(scal[q]);
    free(vel);
    free(sd);
    free(near);
    free(wet);
    return rc;
}
