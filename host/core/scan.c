/*
 * scan.c — the shared block scan's launchers and its reference twin (see scan.h and
 * kernels/common/scan_cell.h).
 */
#include "core/scan.h"

#define IS_REF(f) ((f)->ctx->backend == LQ_BACKEND_REF)

void lq_scan_ref_block_sums(const lq_field *counts, int n, lq_field *bsum)
{
    int nb = lq_scan_blocks_of(n);
    for (int b = 0; b < nb; b++) ((int *)bsum->host)[b] = lq_scan_block_sum(counts->host, b, n);
}

void lq_scan_ref_offsets(lq_field *boff, const lq_field *bsum, lq_field *cnt, int nblocks,
                         int capacity, int mode, const lq_scan_counters *at)
{
    int *c = cnt->host;
    int base = mode == LQ_SCAN_APPEND ? c[at->live] : 0;
    int total = lq_scan_serial(boff->host, bsum->host, nblocks, base);
    lq_scan_done(c, total, capacity, mode, at->live, at->dropped, at->made, at->also);
}

int lq_scan_block_sums(lq_scan *s, const lq_field *counts, int n, lq_field *bsum)
{
    if (IS_REF(counts)) {
        lq_scan_ref_block_sums(counts, n, bsum);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(counts), LQ_MEM(bsum), LQ_VAL(n)};
    return lq_kernel_launch(&s->sum, lq_range_1d((size_t)lq_scan_blocks_of(n), 0), LQ_ARGS(a));
}

int lq_scan_offsets(lq_scan *s, lq_field *boff, const lq_field *bsum, lq_field *cnt, int nblocks,
                    int capacity, int mode, const lq_scan_counters *at)
{
    if (IS_REF(cnt)) {
        lq_scan_ref_offsets(boff, bsum, cnt, nblocks, capacity, mode, at);
        return LQ_OK;
    }
    /* one work-group of up to 256 work-items, whatever the block count */
    size_t wg = lq_kernel_group(&s->blocks, 256);
    lq_arg a[] = {LQ_MEM(boff),
                  LQ_MEM(bsum),
                  LQ_MEM(cnt),
                  LQ_VAL(nblocks),
                  LQ_VAL(capacity),
                  LQ_VAL(mode),
                  LQ_VAL(at->live),
                  LQ_VAL(at->dropped),
                  LQ_VAL(at->made),
                  LQ_VAL(at->also),
                  LQ_LOCAL((wg + 1) * sizeof(int))};
    return lq_kernel_launch(&s->blocks, lq_range_1d(wg, wg), LQ_ARGS(a));
}
