/*
 * ref/macbc.c — reference twins of the inflow, outflow and air-band face operations:
 * loops over the per-face rules of kernels/mac/macbc_cell.h. Each rule writes only faces it
 * never reads, so loop order does not matter and the kernels' results come out exactly.
 */
#include "ops/mac/macbc_ref.h"

#define UC(fld) ((const unsigned char *)(fld)->host)

typedef void (*lq_macbc_rule)(float *q, const lq_field *flags, const lq_field *region,
                              const lq_field *vel, int a, int i, int j, int k);

static void lq_macbc_each(lq_field *q, int a, const lq_field *flags, const lq_field *region,
                          const lq_field *vel, lq_macbc_rule rule)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    for (int k = 0; k < nz + (a == 2); k++)
        for (int j = 0; j < ny + (a == 1); j++)
            for (int i = 0; i < nx + (a == 0); i++)
                rule((float *)q->host, flags, region, vel, a, i, j, k);
}

static void lq_macbc_in(float *q, const lq_field *flags, const lq_field *region,
                        const lq_field *vel, int a, int i, int j, int k)
{
    lq_macbc_inflow_face(q, UC(flags), UC(region), (const float *)vel->host, a, i, j, k, flags->nx,
                         flags->ny, flags->nz);
}

static void lq_macbc_out(float *q, const lq_field *flags, const lq_field *region,
                         const lq_field *vel, int a, int i, int j, int k)
{
    (void)region, (void)vel;
    lq_macbc_outflow_face(q, UC(flags), a, i, j, k, flags->nx, flags->ny, flags->nz);
}

void lq_macbc_ref_inflow(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                         const lq_field *region, const lq_field *vel)
{
    lq_field *q[3] = {u, v, w};
    for (int a = 0; a < 3; a++) lq_macbc_each(q[a], a, flags, region, vel, lq_macbc_in);
}

void lq_macbc_ref_outflow(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags)
{
    lq_field *q[3] = {u, v, w};
    for (int a = 0; a < 3; a++) lq_macbc_each(q[a], a, flags, NULL, NULL, lq_macbc_out);
}

void lq_macbc_ref_outflow_pressure(lq_field *p, const lq_field *flags)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_macbc_outflow_pressure_cell((float *)p->host, UC(flags), i, j, k, nx, ny, nz);
}

void lq_macbc_ref_extrapolate(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                              lq_field *cls)
{
    lq_field *q[3] = {u, v, w};
    unsigned char *c = (unsigned char *)cls->host;
    for (int a = 0; a < 3; a++) {
        if (a == 2 && flags->nz == 1) break;
        int nx = flags->nx, ny = flags->ny, nz = flags->nz;
        for (int pass = 0; pass <= 2; pass++)
            for (int k = 0; k < nz + (a == 2); k++)
                for (int j = 0; j < ny + (a == 1); j++)
                    for (int i = 0; i < nx + (a == 0); i++) {
                        if (pass == 0)
                            lq_macbc_class_face(c, UC(flags), a, i, j, k, nx, ny, nz);
                        else
                            lq_macbc_band_face((float *)q[a]->host, c, a, i, j, k, nx, ny, nz,
                                               pass == 1 ? LQ_MACBC_KNOWN : LQ_MACBC_BAND1);
                    }
    }
}
