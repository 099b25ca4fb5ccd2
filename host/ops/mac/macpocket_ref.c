/*
 * macpocket_ref.c — reference twins of the sealed air pockets (macpocket_ref.h): plain
 * loops over the functions of kernels/mac/macpocket_cell.h, in the kernels' passes. The
 * hooks and jumps run serially in cell order (their rounds may differ from the device's;
 * the labels they end with do not); the counters and tallies add as the kernels' atomics
 * do.
 */
#include "ops/mac/macpocket_ref.h"

#define I(fld)  ((int *)(fld)->host)
#define CI(fld) ((const int *)(fld)->host)
#define CU(fld) ((const unsigned char *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)

void lq_macpocket_ref_local(lq_macpocket_ops *o, const lq_field *flags)
{
    for (int bk = 0; bk < o->bn[2]; bk++)
        for (int bj = 0; bj < o->bn[1]; bj++)
            for (int bi = 0; bi < o->bn[0]; bi++)
                lq_macpocket_local_block(CU(flags), bi, bj, bk, o->nx, o->ny, o->nz, I(&o->lab));
}

void lq_macpocket_ref_hook(lq_macpocket_ops *o)
{
    int *cnt = I(&o->counters);
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++)
                cnt[LQ_MACPOCKET_CNT_CHANGED] +=
                    lq_plspocket_hook(I(&o->lab), i, j, k, o->nx, o->ny, o->nz);
}

void lq_macpocket_ref_jump(lq_macpocket_ops *o)
{
    int *lab = I(&o->lab), nc = o->nx * o->ny * o->nz;
    for (int c = 0; c < nc; c++)
        if (lab[c] >= 0) lab[c] = lq_plspocket_root(lab, c);
}

void lq_macpocket_ref_open(lq_macpocket_ops *o, const lq_field *flags, int up)
{
    int *lab = I(&o->lab), *cnt = I(&o->counters);
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, o->nx, o->ny);
                if (lab[c] < 0 || !lq_macpocket_open(CU(flags), up, i, j, k, o->nx, o->ny, o->nz))
                    continue;
                int r = lab[c] & LQ_PLSPOCKET_MASK;
                lab[r] = r | LQ_PLSPOCKET_OPEN;
                cnt[LQ_MACPOCKET_CNT_OPEN]++;
            }
}

void lq_macpocket_ref_tally(lq_macpocket_ops *o, const lq_field *flags, const lq_field *count,
                            int per_cell)
{
    const int *lab = CI(&o->lab);
    int *cnt = I(&o->counters);
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++) {
                if (!lq_macpocket_tally(CU(flags), lab, CI(count), per_cell, i, j, k, o->nx, o->ny,
                                        o->nz, I(&o->vol)))
                    continue;
                int c = LQ_MAC_CELL(i, j, k, o->nx, o->ny);
                cnt[LQ_MACPOCKET_CNT_SEALED]++;
                cnt[LQ_MACPOCKET_CNT_ROOTS] += lab[c] == c;
            }
}

void lq_macpocket_ref_apply(lq_macpocket_ops *o, const lq_field *flags, const lq_field *pflags,
                            const lq_field *count, const lq_field *table, int per_cell, lq_field *p)
{
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->ny; j++)
            for (int i = 0; i < o->nx; i++)
                lq_macpocket_apply_cell(CU(flags), CU(pflags), CI(&o->lab), CF(&o->gauge),
                                        CI(count), CF(table), per_cell, i, j, k, o->nx, o->ny,
                                        o->nz, p->host);
}
