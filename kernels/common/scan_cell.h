/*
 * scan_cell.h — sequential blocks and their exclusive scan: how particle emission and
 * compaction stay deterministic (the same slots on every device and on the reference
 * path) while running in parallel. Shared by the scan kernels (kernels/common/scan.cl),
 * their host driver and reference twin (host/core/scan.c), and the particle kernels of
 * hf/columns, mac/macspray and pls/plsparticles, whose own passes count per block and
 * write per block.
 *
 * A pass over n items (cells, corners or particles) cuts them into blocks of
 * LQ_SCAN_BLOCK consecutive items. (1) Each block sums what its items add (new
 * particles, survivors). (2) One exclusive prefix of the block sums gives each block its
 * first slot: after the live particles when appending (LQ_SCAN_APPEND), from 0 when
 * compacting (LQ_SCAN_COMPACT). (3) Each block writes its items in order from its first
 * slot while there is room. Integers throughout, so the prefix and the slots do not
 * depend on how the sums are grouped: the output order is the serial one.
 *
 * Counters: the caller's int array; lq_scan_done sets the entries whose indices it gets
 * (an index below 0 is an entry the caller does not keep).
 */
#ifndef LQ_SCAN_CELL_H
#define LQ_SCAN_CELL_H

#include "common/lq_shared.h"

#define LQ_SCAN_BLOCK   64 /* items per sequential block */
#define LQ_SCAN_APPEND  0  /* slots after the live particles, bounded by the room */
#define LQ_SCAN_COMPACT 1  /* slots from 0 */

/* Sum of block blk of the n counts. */
LQ_INLINE int lq_scan_block_sum(const LQ_GLOBAL int *counts, int blk, int n)
{
    int sum = 0, c0 = blk * LQ_SCAN_BLOCK;
    for (int q = c0; q < c0 + LQ_SCAN_BLOCK && q < n; q++) sum += counts[q];
    return sum;
}

/* Exclusive prefix of nblocks block sums into off[], starting at base; returns the
 * total. */
LQ_INLINE int lq_scan_serial(LQ_GLOBAL int *off, const LQ_GLOBAL int *sum, int nblocks, int base)
{
    int run = base;
    for (int b = 0; b < nblocks; b++) {
        off[b] = run;
        run += sum[b];
    }
    return run - base;
}

/* After the scan of `total` new slots: what fits the room of `capacity` (from the live
 * count when appending, from 0 when compacting), the rest dropped. Sets cnt[live] and
 * adds to cnt[dropped]; when appending also sets cnt[made] to what fits and adds it to
 * cnt[also]. */
LQ_INLINE void lq_scan_done(LQ_GLOBAL int *cnt, int total, int capacity, int mode, int live,
                            int dropped, int made, int also)
{
    int base = mode == LQ_SCAN_APPEND ? cnt[live] : 0;
    int room = capacity - base;
    int fit = total < room ? total : room;
    cnt[dropped] += total - fit;
    cnt[live] = base + fit;
    if (mode != LQ_SCAN_APPEND) return;
    if (made >= 0) cnt[made] = fit;
    if (also >= 0) cnt[also] += fit;
}

#endif
