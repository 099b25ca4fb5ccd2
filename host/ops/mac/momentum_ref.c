/*
 * ref/momentum.c — reference twins of the momentum operations: plain loops over the
 * per-face functions the kernels call (kernels/mac/momentum_cell.h). The step reads old
 * arrays and writes new ones, the boundary writes only faces and cells it never reads,
 * and the max is order-free, so serial loops give the parallel kernels' results exactly.
 */
#include "ops/mac/momentum_ref.h"

#include <string.h>

#define F(fld)  ((float *)(fld)->host)
#define UC(fld) ((const unsigned char *)(fld)->host)

void lq_momentum_ref_step(lq_momentum_state *st, const lq_momentum_params *prm)
{
    int nx = st->nx, ny = st->ny, nz = st->nz;
    lq_momentum_coef cf = lq_momentum_coef_of(prm);
    float *out[3] = {F(&st->un), F(&st->vn), F(&st->wn)};
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nz + (a == 2); k++)
            for (int j = 0; j < ny + (a == 1); j++)
                for (int i = 0; i < nx + (a == 0); i++)
                    out[a][lq_momentum_face(a, i, j, k, nx, ny)] =
                        lq_momentum_step_face(F(st->u), F(st->v), F(st->w), F(st->p), UC(st->flags),
                                              a, i, j, k, nx, ny, nz, cf);
}

void lq_momentum_ref_boundary(lq_momentum_state *st)
{
    int nx = st->nx, ny = st->ny, nz = st->nz;
    float *q[3] = {F(st->u), F(st->v), F(st->w)};
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nz + (a == 2); k++)
            for (int j = 0; j < ny + (a == 1); j++)
                for (int i = 0; i < nx + (a == 0); i++)
                    lq_momentum_boundary_face(q[a], UC(st->flags), UC(st->bnd), a, i, j, k, nx, ny,
                                              nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_momentum_boundary_p(F(st->p), UC(st->flags), i, j, k, nx, ny, nz);
}

void lq_momentum_ref_max_speed(lq_momentum_state *st, float smax[3])
{
    lq_field *fs[3] = {st->u, st->v, st->w};
    lq_uint *out = (lq_uint *)st->smax.host;
    for (int a = 0; a < 3; a++) {
        lq_uint m = 0;
        for (size_t f = 0; f < fs[a]->count; f++) {
            lq_uint b = lq_momentum_abs_bits(F(fs[a])[f]);
            if (b > m) m = b;
        }
        out[a] = m;
        if (smax) memcpy(&smax[a], &m, sizeof m);
    }
}
