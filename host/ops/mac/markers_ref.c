/*
 * ref/markers.c — reference twins of the marker-particle operations: plain loops over
 * the per-particle and per-cell functions the kernels call (kernels/mac/markers_cell.h).
 * Particles move independently, the counts are integer sums (order-free) and the
 * labelling reads only counts and the flags of fixed cells (which it never writes), so
 * the serial loops give the kernels' results exactly.
 */
#include "ops/mac/markers_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define UC(fld) ((const unsigned char *)(fld)->host)

void lq_markers_ref_advect(lq_field *pos, int n, const lq_field *u, const lq_field *v,
                           const lq_field *w, const lq_field *flags, const lq_markers_params *prm)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz;
    lq_markers_coef c = lq_markers_coef_of(prm, nx, ny, nz);
    for (int p = 0; p < n; p++)
        lq_markers_advect_one(F(pos), CF(u), CF(v), CF(w), UC(flags), p, nx, ny, nz, c.idx, c.idy,
                              c.idz, c.lx, c.ly, c.lz, prm->dt);
}

void lq_markers_ref_classify(const lq_field *pos, int n, lq_field *flags, lq_field *count,
                             const lq_markers_params *prm)
{
    int nx = flags->nx, ny = flags->ny, nz = flags->nz, cells = nx * ny * nz;
    lq_markers_coef c = lq_markers_coef_of(prm, nx, ny, nz);
    int *cnt = (int *)count->host;
    for (int q = 0; q < cells; q++) lq_markers_clear_cell(cnt, UC(flags), q);
    for (int p = 0; p < n; p++)
        lq_markers_count_one(cnt, CF(pos), UC(flags), p, nx, ny, nz, c.idx, c.idy, c.idz);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                lq_markers_label_cell((unsigned char *)flags->host, cnt, i, j, k, nx, ny, nz,
                                      lq_markers_rules(prm));
}
