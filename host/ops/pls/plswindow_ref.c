/*
 * ref/plswindow.c — reference twins of the moving grid window: plain loops over the
 * per-element functions of kernels/pls/plswindow_cell.h. Each moved element reads only the
 * old lattice, each particle only itself, and the box is a min / max: the results equal
 * the kernels' exactly.
 */
#include "ops/pls/plswindow_ref.h"

void lq_plswindow_ref_shift(lq_plswindow_ops *o, const lq_field *src, lq_field *dst, const int d[3],
                            int mode, float fill, int wall)
{
    (void)o;
    int fx = src->nx, fy = src->ny, fz = src->nz;
    const float *s = src->host;
    float *t = dst->host;
    for (int k = 0; k < fz; k++)
        for (int j = 0; j < fy; j++)
            for (int i = 0; i < fx; i++)
                t[i + fx * (j + fy * k)] = lq_plswindow_shift_at(s, i, j, k, fx, fy, fz, d[0], d[1],
                                                                 d[2], mode, fill, wall);
}

void lq_plswindow_ref_particles(lq_plswindow_ops *o, lq_field *part, int n, int stride, int rslot,
                                const int d[3], float h)
{
    float dh[3], ext[3] = {(float)o->nx * h, (float)o->ny * h, (float)o->nz * h};
    for (int a = 0; a < 3; a++) dh[a] = (float)d[a] * h;
    int *out = o->out.host;
    for (int q = 0; q < n; q++)
        out[0] += lq_plswindow_particle(part->host, q, stride, rslot, dh[0], dh[1], dh[2], ext[0],
                                        ext[1], ext[2]);
}

void lq_plswindow_ref_box(lq_plswindow_ops *o, const lq_field *phi, int box[LQ_PLSWINDOW_BOX])
{
    int b[LQ_PLSWINDOW_BOX] = {LQ_PLSWINDOW_NONE_MIN, LQ_PLSWINDOW_NONE_MIN, LQ_PLSWINDOW_NONE_MIN,
                               LQ_PLSWINDOW_NONE_MAX, LQ_PLSWINDOW_NONE_MAX, LQ_PLSWINDOW_NONE_MAX};
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++) {
            int lo, hi;
            lq_plswindow_row(phi->host, j, k, o->nx, o->ny, &lo, &hi);
            lq_plswindow_row_box(b, j, k, lo, hi);
        }
    for (int a = 0; a < LQ_PLSWINDOW_BOX; a++) box[a] = b[a];
}
