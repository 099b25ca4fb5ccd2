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
 * items. Counts, sums, offsets and counters are int fields of the caller (lq_scan_bufs).
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

/* The caller's side of one scan: its int fields of block sums and offsets (a block
 * each) and of counters, the particle buffers' room, where the counters are. */
typedef struct lq_scan_bufs {
    lq_field *bsum, *boff;
    lq_field *cnt;
    int capacity;
    lq_scan_counters at;
} lq_scan_bufs;

/* Appending (emission): block sums of counts[0 … n) into bsum, their exclusive prefix from
 * the live count into boff, then the counters (lq_scan_done). The caller's write kernel
 * then puts block b's new particles from slot boff[b] on. */
int lq_scan_append(lq_scan *s, const lq_scan_bufs *b, const lq_field *counts, int n);
/* Compacting n particles: `count` (arguments ca) writes each block's survivors into
 * bsum, the prefix from 0 goes into boff, the counters are set, and `scatter` (arguments
 * sa) moves block b's survivors in order from slot boff[b] on; both kernels run one
 * work-item per block (lq_range_var). */
int lq_scan_compact(lq_scan *s, const lq_scan_bufs *b, int n, lq_kernel *count, int nca,
                    const lq_arg *ca, lq_kernel *scatter, int nsa, const lq_arg *sa);

/* Reference twins (host storage): lq_scan_append's, and the prefix and counters of
 * either mode over block sums the caller wrote (a compaction's). */
void lq_scan_ref_append(const lq_scan_bufs *b, const lq_field *counts, int n);
void lq_scan_ref_offsets(const lq_scan_bufs *b, int nblocks, int mode);

#endif
