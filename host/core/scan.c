/*
 * scan.c — the shared block scan's launchers and its reference twin (see scan.h and
 * kernels/common/scan_cell.h).
 */
#include "core/scan.h"

void lq_scan_ref_offsets(const lq_scan_bufs *b, int nblocks, int mode)
{
    int *c = b->cnt->host;
    int base = mode == LQ_SCAN_APPEND ? c[b->at.live] : 0;
    int total = lq_scan_serial(b->boff->host, b->bsum->host, nblocks, base);
    lq_scan_done(c, total, b->capacity, mode, b->at.live, b->at.dropped, b->at.made, b->at.also);
}

void lq_scan_ref_append(const lq_scan_bufs *b, const lq_field *counts, int n)
{
    int nb = lq_scan_blocks_of(n);
    for (int q = 0; q < nb; q++) ((int *)b->bsum->host)[q] = lq_scan_block_sum(counts->host, q, n);
    lq_scan_ref_offsets(b, nb, LQ_SCAN_APPEND);
}

/* The prefix of nblocks block sums and the counters: one work-group of up to 256
 * work-items, whatever the block count. */
static int lq_scan_offsets(lq_scan *s, const lq_scan_bufs *b, int nblocks, int mode)
{
    size_t wg = lq_kernel_group(&s->blocks, 256);
    lq_arg a[] = {LQ_MEM(b->boff),
                  LQ_MEM(b->bsum),
                  LQ_MEM(b->cnt),
                  LQ_VAL(nblocks),
                  LQ_VAL(b->capacity),
                  LQ_VAL(mode),
                  LQ_VAL(b->at.live),
                  LQ_VAL(b->at.dropped),
                  LQ_VAL(b->at.made),
                  LQ_VAL(b->at.also),
                  LQ_LOCAL((wg + 1) * sizeof(int))};
    return lq_kernel_launch(&s->blocks, lq_range_1d(wg, wg), LQ_ARGS(a));
}

int lq_scan_append(lq_scan *s, const lq_scan_bufs *b, const lq_field *counts, int n)
{
    int nb = lq_scan_blocks_of(n);
    lq_arg a[] = {LQ_MEM(counts), LQ_MEM(b->bsum), LQ_VAL(n)};
    int rc = lq_kernel_launch(&s->sum, lq_range_1d((size_t)nb, 0), LQ_ARGS(a));
    return rc ? rc : lq_scan_offsets(s, b, nb, LQ_SCAN_APPEND);
}

int lq_scan_compact(lq_scan *s, const lq_scan_bufs *b, int n, lq_kernel *count, int nca,
                    const lq_arg *ca, lq_kernel *scatter, int nsa, const lq_arg *sa)
{
    int nb = lq_scan_blocks_of(n);
    int rc = lq_kernel_launch(count, lq_range_var(count, nb), nca, ca);
    if (!rc) rc = lq_scan_offsets(s, b, nb, LQ_SCAN_COMPACT);
    if (!rc) rc = lq_kernel_launch(scatter, lq_range_var(scatter, nb), nsa, sa);
    return rc;
}
