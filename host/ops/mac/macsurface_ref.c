/*
 * ref/mac_surface.c — reference twins of the free-surface operations: plain loops over
 * the per-cell functions the kernels call (kernels/mac/macsurface_cell.h), with the scalar
 * arguments from the same prepare functions as the launchers. apply's loop order does
 * not matter (each face has at most one writer, which no other cell reads), so this
 * serial loop is Gates' listing run cell by cell.
 */
#include "ops/mac/macsurface_ref.h"

#define U8(fld) ((unsigned char *)(fld)->host)
#define F(fld)  ((float *)(fld)->host)

int lq_macsurface_ref_classify(lq_macsurface_ops *o, const lq_field *flags, lq_field *mask)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macsurface_classify_cell(U8(flags), U8(mask), i, j, k, nx, ny, nz);
    return LQ_OK;
}

int lq_macsurface_ref_apply(lq_macsurface_ops *o, const lq_field *flags, const lq_field *mask,
                            lq_field *u, lq_field *v, lq_field *w, const float h[3], float dt,
                            const float g[3])
{
    lq_macsurface_apply_k c = {0};
    int rc = lq_macsurface_apply_prepare(h, dt, g, &c);
    if (rc) return rc;
    int nx = o->nx, ny = o->ny, nz = o->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macsurface_apply_cell(U8(flags), U8(mask), F(u), F(v), F(w), i, j, k, nx, ny,
                                         c.h[0], c.h[1], c.h[2], c.inv[0], c.inv[1], c.inv[2],
                                         c.gdt[0], c.gdt[1], c.gdt[2]);
    return LQ_OK;
}

int lq_macsurface_ref_pressure(lq_macsurface_ops *o, const lq_field *flags, lq_field *p,
                               const float h[3], const float origin[3],
                               const lq_macsurface_forcing *f)
{
    lq_macsurface_pressure_k c = {0};
    int rc = lq_macsurface_pressure_prepare(h, origin, f, &c);
    if (rc) return rc;
    int nx = o->nx, ny = o->ny, nz = o->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macsurface_pressure_cell(U8(flags), F(p), i, j, k, nx, ny, c.axis, c.s0, c.ds,
                                            c.p_atm, c.A, c.B, c.C, c.phase, c.inv_dt);
    return LQ_OK;
}

int lq_macsurface_ref_fill_pressure(lq_macsurface_ops *o, const lq_field *flags,
                                    const lq_field *mask, lq_field *p, const lq_field *count,
                                    const lq_field *ratio, int per_cell)
{
    size_t n = (size_t)o->nx * o->ny * o->nz;
    for (size_t c = 0; c < n; c++)
        lq_macsurface_fill_pressure_cell(U8(flags), U8(mask), F(p), (const int *)count->host,
                                         (const float *)ratio->host, (int)c, o->nx, per_cell);
    return LQ_OK;
}
