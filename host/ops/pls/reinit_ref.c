/*
 * ref/reinit.c — reference twin of level-set reinitialisation: plain loops over the
 * per-cell functions the kernels call (kernels/pls/reinit_cell.h), pass for pass. Each pass
 * writes a field it does not read across cells (the PDE's second stage reads only its
 * own cell of φ), and the max change is an order-free max, so the serial loops give the
 * kernels' results exactly.
 */
#include "ops/pls/reinit_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)

#define LQ_REINIT_LOOP(nx, ny, nz)                                                                 \
    for (int k = 0; k < (nz); k++)                                                                 \
        for (int j = 0; j < (ny); j++)                                                             \
            for (int i = 0; i < (nx); i++)

void lq_reinit_ref(lq_reinit_ops *o, lq_field *phi, lq_field *scratch, const lq_reinit_params *prm)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    lq_reinit_coef c = lq_reinit_coef_of(prm, nz);
    int n = lq_reinit_iterations(o, prm);
    lq_uint *mx = (lq_uint *)o->mx.host;
    float *p0 = F(&o->phi0);
    mx[0] = 0u;
    LQ_REINIT_LOOP(nx, ny, nz) lq_reinit_init_cell(F(phi), p0, prm->method, i, j, k, nx, ny, c.bh);
    if (prm->method == LQ_REINIT_FIM) {
        LQ_REINIT_LOOP(nx, ny, nz)
        lq_reinit_fim_seed_cell(F(phi), p0, i, j, k, nx, ny, nz, c.h, c.bh, c.keep);
        int m = n + (n & 1);
        for (int it = 0; it < m; it++) {
            lq_field *src = it & 1 ? scratch : phi, *dst = it & 1 ? phi : scratch;
            int note = it >= m - 2;
            LQ_REINIT_LOOP(nx, ny, nz)
            lq_reinit_fim_cell(F(dst), CF(src), p0, mx, note, i, j, k, nx, ny, nz, c.h, c.h2, c.bh);
        }
        return;
    }
    for (int it = 0; it < n; it++) {
        int note = it == n - 1;
        LQ_REINIT_LOOP(nx, ny, nz)
        lq_reinit_pde_stage1(F(scratch), CF(phi), p0, i, j, k, nx, ny, nz, c.h, c.ih, c.dth, c.bh,
                             c.keep);
        LQ_REINIT_LOOP(nx, ny, nz)
        lq_reinit_pde_stage2(F(phi), CF(scratch), p0, mx, note, i, j, k, nx, ny, nz, c.h, c.ih,
                             c.dth, c.bh, c.keep);
    }
}

void lq_reinit_ref_departure(lq_reinit_ops *o, const lq_field *phi, float h, float width,
                             double *mean, long long *cells)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, n = nx * ny * nz;
    float ih = (float)(1.0 / h), w = width * h;
    lq_long s = 0, m = 0;
    for (int c = 0; c < n; c++) {
        int in;
        s += lq_reinit_departure_cell(CF(phi), c % nx, (c / nx) % ny, c / (nx * ny), nx, ny, nz, ih,
                                      w, &in);
        m += in;
    }
    *cells = m;
    *mean = m > 0 ? (double)s / LQ_REINIT_DEP_FIXED / (double)m : 0.0;
}
