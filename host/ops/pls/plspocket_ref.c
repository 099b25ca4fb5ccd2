/*
 * plspocket_ref.c — reference twins of the enslaved pockets (plspocket_ref.h): plain
 * loops over the functions of kernels/pls/plspocket_cell.h, in the kernels' passes. The
 * hooks and jumps run serially in cell order (their rounds may differ from the device's;
 * the labels they end with do not); the counters add as the kernels' atomics do.
 */
#include "ops/pls/plspocket_ref.h"

#define CF(fld) ((const float *)(fld)->host)
#define I(fld)  ((int *)(fld)->host)
#define CI(fld) ((const int *)(fld)->host)

void lq_plspocket_ref_local(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid,
                            int mode)
{
    const float *sd = solid ? CF(solid) : NULL;
    for (int bk = 0; bk < o->bn[2]; bk++)
        for (int bj = 0; bj < o->bn[1]; bj++)
            for (int bi = 0; bi < o->bn[0]; bi++)
                lq_plspocket_local_block(CF(phi), sd, mode, bi, bj, bk, o->nx, o->ny, o->nz,
                                         I(o->lab));
}

void lq_plspocket_ref_hook(lq_plspocket_ops *o)
{
    int *cnt = I(&o->counters);
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++)
                cnt[LQ_PLSPOCKET_CNT_CHANGED] +=
                    lq_plspocket_hook(I(o->lab), i, j, k, o->nx, o->ny, o->nz);
}

void lq_plspocket_ref_jump(lq_plspocket_ops *o)
{
    int *lab = I(o->lab), nc = o->nx * o->ny * o->nz;
    for (int c = 0; c < nc; c++)
        if (lab[c] >= 0) lab[c] = lq_plspocket_root(lab, c);
}

void lq_plspocket_ref_open(lq_plspocket_ops *o, const lq_field *phi, const lq_field *solid,
                           int mode, int wall_dirichlet)
{
    const float *sd = solid ? CF(solid) : NULL;
    int *lab = I(o->lab), *cnt = I(&o->counters);
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, o->nx, o->ny);
                if (lab[c] < 0 || !lq_plspocket_open(CF(phi), sd, mode, wall_dirichlet, i, j, k,
                                                     o->nx, o->ny, o->nz))
                    continue;
                int r = lab[c] & LQ_PLSPOCKET_MASK;
                lab[r] = r | LQ_PLSPOCKET_OPEN;
                cnt[LQ_PLSPOCKET_CNT_OPEN]++;
            }
}

void lq_plspocket_ref_mark(lq_plspocket_ops *o, const lq_field *solid, float h)
{
    const int *lab = CI(o->lab);
    int *cnt = I(&o->counters), nx = o->nx, ny = o->ny, nc = nx * ny * o->nz;
    int *box = cnt + LQ_PLSPOCKET_CNT_BOX;
    float *out = o->out->host;
    for (int c = 0; c < nc; c++) {
        int in = lq_plspocket_in(lab, c);
        out[c] = in ? -0.5f * h : (solid ? CF(solid)[c] : h);
        if (in)
            lq_plspocket_tally(lab, c, nx, ny, &cnt[LQ_PLSPOCKET_CNT_CELLS],
                               &cnt[LQ_PLSPOCKET_CNT_POCKETS], box);
    }
}

void lq_plspocket_ref_enslave(lq_plspocket_ops *o, const lq_field *src, lq_field *dst, int axis,
                              int pass0, const int lo[3], const int n[3])
{
    int nx = o->nx, ny = o->ny, nz = o->nz, *cnt = I(&o->counters);
    int fx = nx + (axis == 0), fy = ny + (axis == 1);
    float *d = dst->host;
    for (int k = lo[2]; k < lo[2] + n[2]; k++)
        for (int j = lo[1]; j < lo[1] + n[1]; j++)
            for (int i = lo[0]; i < lo[0] + n[0]; i++) {
                int unknown;
                d[i + fx * (j + fy * k)] = lq_plspocket_face(CF(src), CI(o->lab), axis, i, j, k, nx,
                                                             ny, nz, pass0, &unknown);
                cnt[LQ_PLSPOCKET_CNT_UNKNOWN] += unknown;
            }
}
