/*
 * macspray.cl — spray and foam of the `mac` solver (Foster & Metaxas 1996 §4.3):
 * emission at fast-rising surface cells, ballistic flight under gravity, wind and air
 * resistance, separation, and foam where spray hits the liquid. The math is
 * kernels/mac/macspray_cell.h, shared with the reference twins
 * (host/ops/mac/macspray_ref.c); emission and compaction write in the slots of the
 * shared block scan (kernels/common/scan_cell.h, scan.cl), which keeps them
 * deterministic.
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per cell (macspray_emit_count), per
 * particle (macspray_advance), per block of LQ_MACSPRAY_BLOCK cells or particles
 * (emission writes, compaction). `c` is the coefficient buffer (LQ_MSP_C_*), `cnt` the
 * counters (LQ_MSP_CNT_*).
 */

kernel void macspray_emit_count(global int *ccnt, global const float *v, global const uchar *flags,
                                global const float *c, uint seed, uint step)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    ccnt[LQ_MAC_CELL(i, j, k, NX, NY)] =
        lq_macspray_emit_count(v, flags, c, i, j, k, NX, NY, seed, step);
}

/* Each block writes its cells' particles in order, while there is room. */
kernel void macspray_emit_write(global float *part, global const int *ccnt, global const int *boff,
                                global const float *u, global const float *v, global const float *w,
                                global const float *c, uint seed, uint step, int capacity)
{
    int blk = get_global_id(0), total = NX * NY * NZ, c0 = blk * LQ_MACSPRAY_BLOCK;
    if (c0 >= total) return;
    int slot = boff[blk];
    for (int q = c0; q < c0 + LQ_MACSPRAY_BLOCK && q < total; q++)
        for (int m = 0; m < ccnt[q] && slot < capacity; m++, slot++)
            lq_macspray_emit_particle(part + (size_t)slot * LQ_MACSPRAY_STRIDE, u, v, w, c, q, m,
                                      NX, NY, NZ, seed, step);
}

kernel void macspray_advance(global float *part, int n, global int *cnt, global const float *u,
                             global const float *v, global const float *w,
                             global const uchar *flags, global const float *c, uint seed, uint step)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_macspray_advance_one(part + (size_t)p * LQ_MACSPRAY_STRIDE, cnt, u, v, w, flags, c, p, NX,
                            NY, NZ, seed, step);
}

/* Compaction, pass 1: slots each block of particles needs. */
kernel void macspray_compact_count(global const float *part, global int *bsum, int n)
{
    int blk = get_global_id(0), p0 = blk * LQ_MACSPRAY_BLOCK;
    if (p0 >= n) return;
    int sum = 0;
    for (int p = p0; p < p0 + LQ_MACSPRAY_BLOCK && p < n; p++)
        sum += lq_macspray_outputs(part + (size_t)p * LQ_MACSPRAY_STRIDE);
    bsum[blk] = sum;
}

/* Pass 3: live particles (separating ones as two) move, in order, to the other buffer,
 * while there is room; the kinds written are counted. */
kernel void macspray_compact_scatter(global const float *src, global float *dst,
                                     global const int *boff, global int *cnt, global const float *c,
                                     int n, int capacity, uint seed, uint step)
{
    int blk = get_global_id(0), p0 = blk * LQ_MACSPRAY_BLOCK;
    if (p0 >= n) return;
    int slot = boff[blk], ns = 0, nf = 0;
    for (int p = p0; p < p0 + LQ_MACSPRAY_BLOCK && p < n && slot < capacity; p++) {
        global const float *a = src + (size_t)p * LQ_MACSPRAY_STRIDE;
        int k = lq_macspray_outputs(a);
        if (k == 0) continue;
        int two = k == 2 && slot + 1 < capacity;
        lq_macspray_copy_out(dst + (size_t)slot * LQ_MACSPRAY_STRIDE, a, p, two, c, NZ, seed, step);
        int w = two ? 2 : 1;
        if (a[LQ_MACSPRAY_KIND] == LQ_MACSPRAY_FOAM)
            nf += w;
        else
            ns += w;
        slot += w;
    }
    if (ns) atomic_add(&cnt[LQ_MACSPRAY_CNT_SPRAY], ns);
    if (nf) atomic_add(&cnt[LQ_MACSPRAY_CNT_FOAM], nf);
}
