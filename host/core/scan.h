/*
 * scan.h — the block scan that particle emission and compaction share (hf/columns,
 * mac/macspray, pls/plsparticles): block sums of per-item counts, and the exclusive
 * prefix of the block sums with the counters it sets, on OpenCL (kernels/common/scan.cl,
 * one work-group) or on the reference path (the serial loops of its twin). The method
 * and its invariants: kernels/common/scan_cell.h.
 *
 * Use: the operation adds LQ_SCAN_SOURCES to its program's sources (after lq_shared.h),
 * an lq_scan member `scan` to its object and LQ_SCAN_KERNELS(its object's type) to its
 * kernel table; its own kernels count per block and write per block of LQ_SCAN_BLOCK
 * items. Counts, sums and offsets are int fields of the caller (one int per item, per
 * block, per block).
 */
#ifndef LQ_SCAN_H
#define LQ_SCAN_H

#include "common/scan_cell.h"
#include "core/kernel.h"

#define LQ_SCAN_SOURCES "kernels/common/scan_cell.h", "kernels/common/scan.cl"
/* The scan's kernels in an operation's kernel table (`type` the operation's object, its
 * lq_scan member named `scan`). */
#define LQ_SCAN_KERNELS(type)                                                                      \
    LQ_KERNEL(type, scan.sum, "scan_block_sum"), LQ_KERNEL(type, scan.blocks, "scan_blocks")

typedef struct lq_scan {
    lq_kernel sum, blocks;
} lq_scan;

/* Where the counters lq_scan_done sets are in the caller's int array (−1: not kept). */
typedef struct lq_scan_counters {
    int live;    /* the live count: read when appending, then set */
    int dropped; /* what did not fit, added */
    int made;    /* appending: what fit, set */
    int also;    /* appending: what fit, added */
} lq_scan_counters;

/* The blocks of n items (0 for n ≤ 0). */
static inline int lq_scan_blocks_of(long long n)
{
    return n > 0 ? (int)((n + LQ_SCAN_BLOCK - 1) / LQ_SCAN_BLOCK) : 0;
}

/* bsum[b] = the sum of block b of counts[0 … n). */
int lq_scan_block_sums(lq_scan *s, const lq_field *counts, int n, lq_field *bsum);
/* boff = the exclusive prefix of bsum[0 … nblocks) from the live count (mode
 * LQ_SCAN_APPEND) or 0 (LQ_SCAN_COMPACT); then the counters (lq_scan_done). */
int lq_scan_offsets(lq_scan *s, lq_field *boff, const lq_field *bsum, lq_field *cnt, int nblocks,
                    int capacity, int mode, const lq_scan_counters *at);

/* Reference twins: the same arguments, host storage (lq_scan_block_sums and
 * lq_scan_offsets call them on the reference path). */
void lq_scan_ref_block_sums(const lq_field *counts, int n, lq_field *bsum);
void lq_scan_ref_offsets(lq_field *boff, const lq_field *bsum, lq_field *cnt, int nblocks,
                         int capacity, int mode, const lq_scan_counters *at);

#endif
