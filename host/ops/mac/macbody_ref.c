/*
 * ref/macbody.c — reference twin of the buoyant-body force kernel (kernels/mac/macbody.cl):
 * the same per-node function (kernels/mac/macbody_cell.h) and the same fixed binary tree per
 * group of LQ_MACBODY_LOCAL nodes, so the group sums agree with the kernel bit for bit; and
 * the per-cell two-way passes (mark, face velocities, pressure extension), whose cells
 * are independent (each writes only its own cell or the faces below it, the pressure
 * pass reads src and writes dst), so serial loops give the kernels' results exactly.
 */
#include "ops/mac/macbody_ref.h"

void lq_macbody_ref_forces(const lq_field *nodes, const lq_field *nbody, const lq_field *bodies,
                           int ngroups, const lq_field *p, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags, const lq_field *owner,
                           float idx, float idy, float idz, lq_field *out)
{
    const int *ow = owner ? (const int *)owner->host : NULL;
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    float red[LQ_MACBODY_OUT * LQ_MACBODY_LOCAL], f[LQ_MACBODY_OUT];
    float *o = (float *)out->host;
    for (int g = 0; g < ngroups; g++) {
        for (int l = 0; l < LQ_MACBODY_LOCAL; l++) {
            lq_macbody_node((const float *)nodes->host, (const int *)nbody->host,
                            (const float *)bodies->host, (const float *)p->host,
                            (const float *)u->host, (const float *)v->host, (const float *)w->host,
                            (const unsigned char *)flags->host, ow, ow != NULL,
                            g * LQ_MACBODY_LOCAL + l, nx, ny, nz, idx, idy, idz, f);
            for (int q = 0; q < LQ_MACBODY_OUT; q++) red[q * LQ_MACBODY_LOCAL + l] = f[q];
        }
        for (int s = LQ_MACBODY_LOCAL / 2; s > 0; s >>= 1)
            for (int l = 0; l < s; l++)
                for (int q = 0; q < LQ_MACBODY_OUT; q++)
                    red[q * LQ_MACBODY_LOCAL + l] =
                        red[q * LQ_MACBODY_LOCAL + l] + red[q * LQ_MACBODY_LOCAL + l + s];
        for (int q = 0; q < LQ_MACBODY_OUT; q++)
            o[g * LQ_MACBODY_OUT + q] = red[q * LQ_MACBODY_LOCAL];
    }
}

void lq_macbody_ref_mark(lq_field *flags, const lq_field *static_flags, lq_field *owner,
                         const lq_field *bodies, int nbodies, float h)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macbody_mark_cell((unsigned char *)flags->host,
                                     (const unsigned char *)static_flags->host, (int *)owner->host,
                                     (const float *)bodies->host, nbodies, i, j, k, nx, ny, h);
}

void lq_macbody_ref_face(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                         const lq_field *owner, const lq_field *bodies, float h)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macbody_face_cell((float *)u->host, (float *)v->host, (float *)w->host,
                                     (const unsigned char *)flags->host, (const int *)owner->host,
                                     (const float *)bodies->host, i, j, k, nx, ny, nz, h);
}

void lq_macbody_ref_body_pressure(const lq_field *src, lq_field *dst, const lq_field *flags,
                                  const lq_field *owner, int first, int last)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macbody_body_pressure_cell((const float *)src->host, (float *)dst->host,
                                              (const unsigned char *)flags->host,
                                              (const int *)owner->host, i, j, k, nx, ny, nz, first,
                                              last);
}

void lq_macbody_ref_markers(lq_field *pos, int n, const lq_field *owner, const lq_field *bodies,
                            float idx, float idy, float idz)
{
    for (int q = 0; q < n; q++)
        lq_macbody_marker_one((float *)pos->host, (const int *)owner->host,
                              (const float *)bodies->host, q, owner->nx, owner->ny, owner->nz, idx,
                              idy, idz);
}
