/*
 * ref/macbody.c — reference twin of the buoyant-body force kernel (kernels/macbody.cl):
 * the same per-node function (kernels/macbody_cell.h) and the same fixed binary tree per
 * group of LQ_MB_LOCAL nodes, so the group sums agree with the kernel bit for bit.
 */
#include "macbody.h"

void lq_macbody_ref_forces(const lq_field *nodes, const lq_field *nbody, const lq_field *bodies,
                           int ngroups, const lq_field *p, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags, float idx, float idy,
                           float idz, lq_field *out)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    float red[LQ_MB_OUT * LQ_MB_LOCAL], f[LQ_MB_OUT];
    float *o = (float *)out->host;
    for (int g = 0; g < ngroups; g++) {
        for (int l = 0; l < LQ_MB_LOCAL; l++) {
            lq_mb_node((const float *)nodes->host, (const int *)nbody->host,
                       (const float *)bodies->host, (const float *)p->host, (const float *)u->host,
                       (const float *)v->host, (const float *)w->host,
                       (const unsigned char *)flags->host, g * LQ_MB_LOCAL + l, nx, ny, nz, idx,
                       idy, idz, f);
            for (int q = 0; q < LQ_MB_OUT; q++) red[q * LQ_MB_LOCAL + l] = f[q];
        }
        for (int s = LQ_MB_LOCAL / 2; s > 0; s >>= 1)
            for (int l = 0; l < s; l++)
                for (int q = 0; q < LQ_MB_OUT; q++)
                    red[q * LQ_MB_LOCAL + l] =
                        red[q * LQ_MB_LOCAL + l] + red[q * LQ_MB_LOCAL + l + s];
        for (int q = 0; q < LQ_MB_OUT; q++) o[g * LQ_MB_OUT + q] = red[q * LQ_MB_LOCAL];
    }
}
