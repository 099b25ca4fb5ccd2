/*
 * ref/pressure.c — reference twins of the pressure operations: plain loops over the
 * per-cell functions the kernels call (kernels/mac/pressure_cell.h). A red-black colour
 * pass is order-independent (no two cells of a colour share a face), so the serial
 * loop gives the parallel kernel's result exactly; so does Jacobi's two passes.
 */
#include "ops/mac/pressure_ref.h"

#include <string.h>

#define F(fld)  ((float *)(fld)->host)
#define UC(fld) ((const unsigned char *)(fld)->host)
#define SW(st)  ((st)->sw ? (const float *)(st)->sw->host : NULL)

void lq_pressure_ref_divergence(lq_pressure_state *st, const lq_pressure_params *prm, float *maxdiv)
{
    int nx = st->nx, ny = st->ny, nz = st->nz;
    lq_pressure_coef c = lq_pressure_coef_of(prm, nx, ny, nz);
    lq_uint m = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                float d = lq_pressure_div_cell(F(&st->div), F(st->u), F(st->v), F(st->w),
                                               UC(st->flags), i, j, k, nx, ny, c.idx, c.idy, c.idz);
                lq_uint b = lq_pressure_abs_bits(d);
                if (b > m) m = b;
            }
    *(lq_uint *)st->dmax.host = m;
    if (maxdiv) memcpy(maxdiv, &m, sizeof m);
}

void lq_pressure_ref_rb_sweep(lq_pressure_state *st, const lq_pressure_params *prm, int parity)
{
    int nx = st->nx, ny = st->ny, nz = st->nz;
    lq_pressure_coef c = lq_pressure_coef_of(prm, nx, ny, nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = (j + k + parity) & 1; i < nx; i += 2)
                lq_pressure_rb_cell(F(st->u), F(st->v), F(st->w), F(st->p), UC(st->flags), SW(st),
                                    i, j, k, nx, ny, nz, c.idx, c.idy, c.idz, c.beta, c.tx, c.ty,
                                    c.tz);
}

void lq_pressure_ref_jacobi_sweep(lq_pressure_state *st, const lq_pressure_params *prm)
{
    int nx = st->nx, ny = st->ny, nz = st->nz;
    lq_pressure_coef c = lq_pressure_coef_of(prm, nx, ny, nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_pressure_jacobi_dp_cell(F(&st->dp), F(st->u), F(st->v), F(st->w), UC(st->flags),
                                           SW(st), i, j, k, nx, ny, nz, c.idx, c.idy, c.idz,
                                           c.beta);
    lq_pressure_ref_apply(st, prm, &st->dp);
}

void lq_pressure_ref_apply(lq_pressure_state *st, const lq_pressure_params *prm, const lq_field *dp)
{
    int nx = st->nx, ny = st->ny, nz = st->nz;
    lq_pressure_coef c = lq_pressure_coef_of(prm, nx, ny, nz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_pressure_jacobi_apply_cell(F(st->u), F(st->v), F(st->w), F(st->p), F(dp),
                                              UC(st->flags), SW(st), i, j, k, nx, ny, c.tx, c.ty,
                                              c.tz);
}

void lq_pressure_ref_surface_prep(const lq_field *flags, lq_field *out, lq_field *p, lq_field *sw,
                                  const lq_field *count, const lq_field *table, int per_cell)
{
    int n = (int)flags->count;
    for (int c = 0; c < n; c++)
        lq_pressure_surface_prep_cell(UC(flags), (unsigned char *)out->host, F(p), F(sw),
                                      (const int *)count->host, (const float *)table->host, c,
                                      flags->nx, flags->nx * flags->ny, n, per_cell);
}
