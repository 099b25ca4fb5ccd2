/*
 * ref/plsforce.c — reference twins of the pls solver's small operations: plain loops
 * over the per-face and per-cell functions of kernels/pls/plsforce_cell.h. The body force
 * reads only the face it writes; the reductions are a max of bits and integer sums in
 * the kernels' blocks, so the results equal the kernels' exactly.
 */
#include "ops/pls/plsforce_ref.h"

#include <string.h>

#define CF(fld) ((const float *)(fld)->host)

void lq_plsforce_ref_body_force(lq_plsforce_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                const lq_field *phi, const lq_field *sdf, const double g[3],
                                double dt)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL;
    float gd[3] = {(float)(g[0] * dt), (float)(g[1] * dt), (float)(g[2] * dt)};
    const float *sd = sdf ? CF(sdf) : NULL;
    lq_field *fs[3] = {u, v, w};
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++) {
        float *q = (float *)fs[a]->host;
        int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
        for (int k = 0; k < fz; k++)
            for (int j = 0; j < fy; j++)
                for (int i = 0; i < fx; i++)
                    q[i + fx * (j + fy * k)] =
                        lq_plsforce_body_face(q, a, i, j, k, nx, ny, nz, CF(phi), sd, has, gd[a]);
    }
}

void lq_plsforce_ref_max_speed(lq_plsforce_ops *o, const lq_field *u, const lq_field *v,
                               const lq_field *w, float smax[3])
{
    const lq_field *fs[3] = {u, v, w};
    lq_uint bits[3] = {0, 0, 0};
    for (int s = 0; s < (o->nz > 1 ? 3 : 2); s++)
        for (size_t f = 0; f < fs[s]->count; f++) {
            lq_uint b = lq_plsforce_abs_bits(CF(fs[s])[f]);
            if (b > bits[s]) bits[s] = b;
        }
    memcpy(smax, bits, sizeof bits);
}

void lq_plsforce_ref_volume(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf, float h,
                            double *cells, int *bad)
{
    (void)o;
    int n = (int)phi->count, has = sdf != NULL;
    float ih = (float)(1.0 / h);
    const float *sd = sdf ? CF(sdf) : NULL;
    lq_long total = 0, nbad = 0;
    for (int c0 = 0; c0 < n; c0 += LQ_PLSFORCE_BLOCK) {
        lq_long s = 0;
        int b = 0;
        for (int c = c0; c < c0 + LQ_PLSFORCE_BLOCK && c < n; c++)
            s = LQ_WRAP_ADD(s, lq_plsforce_volume_cell(CF(phi), sd, has, c, ih, &b));
        total = LQ_WRAP_ADD(total, s);
        nbad += b;
    }
    *cells = (double)total / LQ_PLSFORCE_FIXED;
    *bad = (int)nbad;
}

void lq_plsforce_ref_volume_pl(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf,
                               float h, double *cells, int *bad)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, has = sdf != NULL;
    float ih = (float)(1.0 / h);
    const float *sd = sdf ? CF(sdf) : NULL;
    lq_long total = 0, nbad = 0;
    for (int k = 0; k <= nz; k++)
        for (int j = 0; j <= ny; j++) {
            lq_long s = 0;
            int b = 0;
            for (int i = 0; i <= nx; i++)
                s = LQ_WRAP_ADD(
                    s, lq_plsforce_volume_pl_cube(CF(phi), sd, has, i, j, k, nx, ny, nz, ih, &b));
            total = LQ_WRAP_ADD(total, s);
            nbad += b;
        }
    *cells = (double)total / LQ_PLSFORCE_FIXED;
    *bad = (int)nbad;
}

void lq_plsforce_ref_shift(lq_plsforce_ops *o, lq_field *phi, const lq_field *sdf, float delta)
{
    (void)o;
    int n = (int)phi->count, has = sdf != NULL;
    const float *sd = sdf ? CF(sdf) : NULL;
    float *p = (float *)phi->host;
    for (int c = 0; c < n; c++) p[c] = lq_plsforce_shift_cell(p, sd, has, c, delta);
}
