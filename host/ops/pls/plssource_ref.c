/*
 * plssource_ref.c — reference twins of the pls solver's sources and sinks: plain loops
 * over the per-cell, per-face and per-particle functions of kernels/pls/plssource_cell.h,
 * the sums in the kernels' blocks (integer adds: the results equal the kernels' exactly).
 */
#include "ops/pls/plssource_ref.h"

#define CF(fld) ((const float *)(fld)->host)
#define CI(fld) ((const int *)(fld)->host)

void lq_plssource_ref_cells(lq_plssource_ops *o, lq_field *phi, const lq_field *sdf)
{
    int nx = o->nx, ny = o->ny, nc = nx * ny * o->nz, has_sdf = sdf != NULL;
    float h = o->h, ih = 1.0f / h;
    float *solid = o->inlets ? (float *)o->solid.host : NULL;
    lq_long total = 0;
    for (int c0 = 0; c0 < nc; c0 += LQ_PLSSOURCE_BLOCK) {
        lq_long s = 0;
        for (int c = c0; c < c0 + LQ_PLSSOURCE_BLOCK && c < nc; c++) {
            float yc = ((float)((c / nx) % ny) + 0.5f) * h;
            s = LQ_WRAP_ADD(s, lq_plssource_cell((float *)phi->host, CI(&o->rid), CF(&o->ed),
                                                 CF(&o->sd), CF(&o->tab), o->n,
                                                 has_sdf ? CF(sdf) : NULL, has_sdf, solid,
                                                 o->inlets, c, yc, ih, LQ_PLSSOURCE_FAR));
        }
        total = LQ_WRAP_ADD(total, s);
    }
    lq_long *acc = o->sink.host;
    acc[0] = LQ_WRAP_ADD(acc[0], total);
}

void lq_plssource_ref_faces(lq_plssource_ops *o, lq_field *u, lq_field *v, lq_field *w)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    lq_field *fs[3] = {u, v, w};
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++) {
        float *q = (float *)fs[a]->host;
        int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
        for (int k = 0; k < fz; k++)
            for (int j = 0; j < fy; j++)
                for (int i = 0; i < fx; i++)
                    q[i + fx * (j + fy * k)] = lq_plssource_face(
                        q, a, i, j, k, nx, ny, nz, CI(&o->rid), CF(&o->ed), CF(&o->tab));
    }
}

void lq_plssource_ref_kill(lq_plssource_ops *o, lq_field *part, int np)
{
    float ih = 1.0f / o->h;
    float *pa = part->host;
    for (int p = 0; p < np; p++)
        lq_plssource_kill_one(pa + (size_t)p * LQ_PLSSOURCE_PSTRIDE, CI(&o->rid), CF(&o->ed),
                              CF(&o->sd), CF(&o->tab), o->n, ih, o->nx, o->ny, o->nz);
}

void lq_plssource_ref_content(lq_plssource_ops *o, const lq_field *phi)
{
    int nc = o->nx * o->ny * o->nz;
    float ih = 1.0f / o->h;
    lq_long *red = o->red.host;
    for (int c = 0; c < nc; c++) {
        int e = lq_plssource_content_slot(CI(&o->rid), CF(&o->ed), c);
        if (e >= 0)
            red[LQ_PLSSOURCE_RED_CONTENT + e] = LQ_WRAP_ADD(red[LQ_PLSSOURCE_RED_CONTENT + e],
                                                            lq_plssource_fraction(CF(phi)[c], ih));
    }
}
