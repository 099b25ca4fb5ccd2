/*
 * scan.cl — the block sums and the block scan of kernels/common/scan_cell.h, built into
 * the program of each operation that emits or compacts particles (hf/columns,
 * mac/macspray, pls/plsparticles) and launched by host/core/scan.c.
 *
 * scan_block_sum: one work-item per block. scan_blocks: one work-group; each work-item
 * sums a run of blocks, the first scans the runs' totals, each then writes its run's
 * offsets. Integers, so the offsets are lq_scan_serial's exactly.
 */

/* Sums of LQ_SCAN_BLOCK consecutive counts (n of them in all). */
kernel void scan_block_sum(global const int *counts, global int *bsum, int n)
{
    int blk = get_global_id(0);
    if (blk * LQ_SCAN_BLOCK >= n) return;
    bsum[blk] = lq_scan_block_sum(counts, blk, n);
}

/* One work-group: exclusive prefix of the nblocks block sums into boff, from the live
 * count cnt[live] (LQ_SCAN_APPEND) or from 0 (LQ_SCAN_COMPACT), then lq_scan_done with
 * the counter indices. `part` holds local size + 1 ints. */
kernel void scan_blocks(global int *boff, global const int *bsum, global int *cnt, int nblocks,
                        int capacity, int mode, int live, int dropped, int made, int also,
                        local int *part)
{
    int lid = get_local_id(0), nl = get_local_size(0);
    int chunk = (nblocks + nl - 1) / nl, lo = lid * chunk;
    int hi = lo + chunk < nblocks ? lo + chunk : nblocks;
    int base = mode == LQ_SCAN_APPEND ? cnt[live] : 0, sum = 0;
    for (int b = lo; b < hi; b++) sum += bsum[b];
    part[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int run = 0;
        for (int b = 0; b < nl; b++) {
            int t = part[b];
            part[b] = run;
            run += t;
        }
        part[nl] = run;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int off = base + part[lid];
    for (int b = lo; b < hi; b++) {
        boff[b] = off;
        off += bsum[b];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) lq_scan_done(cnt, part[nl], capacity, mode, live, dropped, made, also);
}
