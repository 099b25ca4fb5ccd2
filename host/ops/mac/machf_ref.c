/*
 * ref/machf.c — reference twins of the height-field surface (§4.3, eq. 12): plain loops
 * over the per-column and per-cell functions of kernels/mac/machf_cell.h. The update reads
 * h and writes hn, the classification's passes read only the previous pass, so the
 * serial loops give the kernels' results exactly.
 */
#include "ops/mac/machf_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define UC(fld) ((const unsigned char *)(fld)->host)

void lq_machf_ref_advance(lq_field *hn, const lq_field *h, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *flags, const lq_machf_params *prm)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    lq_machf_coef c = lq_machf_coef_of(prm, ny);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            lq_machf_advance_column(F(hn), CF(h), CF(u), CF(v), CF(w), UC(flags), i, k, nx, ny, nz,
                                    prm->dy, c.idy, c.q4x, c.q4z, c.ly, prm->dt);
}

void lq_machf_ref_classify(const lq_field *h, lq_field *state, lq_field *flags,
                           const lq_machf_params *prm)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    int *s = (int *)state->host;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_machf_fill_cell(s, UC(flags), CF(h), i, j, k, nx, ny, prm->dy);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_markers_label_cell((unsigned char *)flags->host, s, i, j, k, nx, ny, nz, 0);
}
