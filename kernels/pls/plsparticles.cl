/*
 * plsparticles.cl — particles of the particle level set (Enright et al. 2002; Rasmussen
 * et al. 2004 §3): advection, escaped-particle correction of φ, radii, compaction
 * (deletion) and seeding with attraction. The math is kernels/pls/plsparticles_cell.h,
 * shared with the reference twins (host/ops/pls/plsparticles_ref.c); compaction and
 * seeding write in the slots of the shared block scan (kernels/common/scan_cell.h,
 * scan.cl).
 *
 * Built with -DNX, -DNY, -DNZ (cells). Per particle, the work-items stride over the live
 * count the device holds (cnt[LQ_PLSPARTICLES_CNT_LIVE]; the range [n0, n1) of the last
 * seeding from it and cnt[..._ADDED]), so that no launch needs the host to know it; per
 * cell, one work-item each; per block of LQ_PLSPARTICLES_BLOCK cells or particles
 * (survivor counts, emission, compaction), one work-item each. `c` is the coefficient
 * buffer (LQ_PLS_C_*), `cnt` the counters (LQ_PLS_CNT_*).
 */

#define PART(buf, p) ((buf) + (size_t)(p)*LQ_PLSPARTICLES_STRIDE)
/* p over the live particles, whatever the launch's size */
#define EACH_LIVE(p, cnt)                                                                          \
    for (int p = get_global_id(0), n_ = (cnt)[LQ_PLSPARTICLES_CNT_LIVE]; p < n_;                   \
         p += get_global_size(0))

kernel void plsparticles_advect(global float *part, global const int *cnt, global const float *u,
                                global const float *v, global const float *w, global const float *c)
{
    EACH_LIVE(p, cnt) lq_plsparticles_advect_one(PART(part, p), u, v, w, c, NX, NY, NZ);
}

kernel void plsparticles_correct_init(global const float *phi, global int *kp, global int *km)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    lq_plsparticles_correct_init_cell(phi, kp, km, q);
}

/* The escaped particles count into cnt[tally] (< 0: nowhere). */
kernel void plsparticles_correct_splat(global const float *part, global const float *phi,
                                       global int *kp, global int *km, global int *cnt,
                                       global const float *c, int tally)
{
    EACH_LIVE(p, cnt)
    if (lq_plsparticles_splat_one(PART(part, p), phi, kp, km, c, NX, NY, NZ) && tally >= 0)
        atomic_add(&cnt[tally], 1);
}

kernel void plsparticles_correct_apply(global float *phi, global const int *kp,
                                       global const int *km)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    lq_plsparticles_correct_apply_cell(phi, kp, km, q);
}

kernel void plsparticles_radius(global float *part, global const int *cnt, global const float *phi,
                                global const float *c)
{
    EACH_LIVE(p, cnt) lq_plsparticles_radius_one(PART(part, p), phi, c, NX, NY, NZ);
}

/* Survivors per block of LQ_PLSPARTICLES_BLOCK particles, over the nblocks blocks the
 * launch covers (the room's, or the live count's when the host knows it): blocks past
 * the live count hold none (the scan reads them all). */
kernel void plsparticles_keep_count(global const float *part, global int *bsum,
                                    global const int *cnt, int nblocks, global const float *phi,
                                    global const float *sdf, global const float *c)
{
    int blk = get_global_id(0), p0 = blk * LQ_PLSPARTICLES_BLOCK;
    int n = cnt[LQ_PLSPARTICLES_CNT_LIVE];
    if (blk >= nblocks) return;
    int sum = 0;
    for (int p = p0; p < p0 + LQ_PLSPARTICLES_BLOCK && p < n; p++)
        sum += lq_plsparticles_keep(PART(part, p), phi, sdf, c, NX, NY, NZ);
    bsum[blk] = sum;
}

/* Survivors move, in order, to the other buffer: block blk's first bsum[blk] (the scan has
 * set the live count to the survivors' by now: the block's own count bounds it). */
kernel void plsparticles_keep_scatter(global const float *src, global float *dst,
                                      global const int *boff, global const int *bsum, int nblocks,
                                      int capacity, global const float *phi,
                                      global const float *sdf, global const float *c)
{
    int blk = get_global_id(0), p0 = blk * LQ_PLSPARTICLES_BLOCK;
    if (blk >= nblocks) return;
    int slot = boff[blk], left = bsum[blk];
    for (int p = p0; p < p0 + LQ_PLSPARTICLES_BLOCK && left > 0 && slot < capacity; p++)
        if (lq_plsparticles_keep(PART(src, p), phi, sdf, c, NX, NY, NZ)) {
            lq_plsparticles_copy(PART(dst, slot++), PART(src, p));
            left--;
        }
}

kernel void plsparticles_cell_clear(global int *ccnt)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    ccnt[q] = 0;
}

kernel void plsparticles_cell_count(global int *ccnt, global const float *part,
                                    global const int *cnt, global const float *c)
{
    EACH_LIVE(p, cnt) lq_plsparticles_count_one(ccnt, PART(part, p), c, NX, NY, NZ);
}

kernel void plsparticles_cell_need(global int *ccnt, global const float *phi,
                                   global const float *sdf, global const float *c)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    lq_plsparticles_need_cell(ccnt, phi, sdf, c, q);
}

/* Each block writes its cells' new particles in order, while there is room. */
kernel void plsparticles_emit(global float *part, global const int *ccnt, global const int *boff,
                              global const float *phi, global const float *c, uint seed, uint step,
                              int capacity)
{
    int blk = get_global_id(0), total = NX * NY * NZ, c0 = blk * LQ_PLSPARTICLES_BLOCK;
    if (c0 >= total) return;
    int slot = boff[blk];
    for (int q = c0; q < c0 + LQ_PLSPARTICLES_BLOCK && q < total; q++)
        for (int m = 0; m < ccnt[q] && slot < capacity; m++, slot++)
            lq_plsparticles_emit_one(PART(part, slot), phi, c, q, m, NX, NY, NZ, seed, step);
}

/* The last seeding's particles: [live − added, live). */
kernel void plsparticles_attract(global float *part, global const int *cnt, global const float *phi,
                                 global const float *c)
{
    int n1 = cnt[LQ_PLSPARTICLES_CNT_LIVE], n0 = n1 - cnt[LQ_PLSPARTICLES_CNT_ADDED];
    for (int p = n0 + (int)get_global_id(0); p < n1; p += get_global_size(0))
        lq_plsparticles_attract_one(PART(part, p), phi, c, NX, NY, NZ);
}
