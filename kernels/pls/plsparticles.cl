/*
 * plsparticles.cl — particles of the particle level set (Enright et al. 2002; Rasmussen
 * et al. 2004 §3): advection, escaped-particle correction of φ, radii, compaction
 * (deletion) and seeding with attraction. The math is kernels/pls/plsparticles_cell.h,
 * shared with the reference twins (host/ops/pls/plsparticles_ref.c); compaction and
 * seeding write in the slots of the shared block scan (kernels/common/scan_cell.h,
 * scan.cl).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per particle (n, or the range
 * [n0, n1), an argument), per cell, or per block of LQ_PLSPARTICLES_BLOCK cells or
 * particles (survivor counts, emission, compaction). `c` is the coefficient buffer
 * (LQ_PLS_C_*), `cnt` the counters (LQ_PLS_CNT_*).
 */

#define PART(buf, p) ((buf) + (size_t)(p)*LQ_PLSPARTICLES_STRIDE)

kernel void plsparticles_advect(global float *part, int n, global const float *u,
                                global const float *v, global const float *w, global const float *c)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_plsparticles_advect_one(PART(part, p), u, v, w, c, NX, NY, NZ);
}

kernel void plsparticles_correct_init(global const float *phi, global int *kp, global int *km)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    lq_plsparticles_correct_init_cell(phi, kp, km, q);
}

kernel void plsparticles_correct_splat(global const float *part, int n, global const float *phi,
                                       global int *kp, global int *km, global int *cnt,
                                       global const float *c)
{
    int p = get_global_id(0);
    if (p >= n) return;
    if (lq_plsparticles_splat_one(PART(part, p), phi, kp, km, c, NX, NY, NZ))
        atomic_add(&cnt[LQ_PLSPARTICLES_CNT_ESCAPED], 1);
}

kernel void plsparticles_correct_apply(global float *phi, global const int *kp,
                                       global const int *km)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    lq_plsparticles_correct_apply_cell(phi, kp, km, q);
}

kernel void plsparticles_radius(global float *part, int n, global const float *phi,
                                global const float *c)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_plsparticles_radius_one(PART(part, p), phi, c, NX, NY, NZ);
}

/* Survivors per block of LQ_PLSPARTICLES_BLOCK particles. */
kernel void plsparticles_keep_count(global const float *part, global int *bsum, int n,
                                    global const float *phi, global const float *sdf,
                                    global const float *c)
{
    int blk = get_global_id(0), p0 = blk * LQ_PLSPARTICLES_BLOCK;
    if (p0 >= n) return;
    int sum = 0;
    for (int p = p0; p < p0 + LQ_PLSPARTICLES_BLOCK && p < n; p++)
        sum += lq_plsparticles_keep(PART(part, p), phi, sdf, c, NX, NY, NZ);
    bsum[blk] = sum;
}

/* Survivors move, in order, to the other buffer. */
kernel void plsparticles_keep_scatter(global const float *src, global float *dst,
                                      global const int *boff, int n, int capacity,
                                      global const float *phi, global const float *sdf,
                                      global const float *c)
{
    int blk = get_global_id(0), p0 = blk * LQ_PLSPARTICLES_BLOCK;
    if (p0 >= n) return;
    int slot = boff[blk];
    for (int p = p0; p < p0 + LQ_PLSPARTICLES_BLOCK && p < n && slot < capacity; p++)
        if (lq_plsparticles_keep(PART(src, p), phi, sdf, c, NX, NY, NZ))
            lq_plsparticles_copy(PART(dst, slot++), PART(src, p));
}

kernel void plsparticles_cell_clear(global int *ccnt)
{
    int q = get_global_id(0);
    if (q >= NX * NY * NZ) return;
    ccnt[q] = 0;
}

kernel void plsparticles_cell_count(global int *ccnt, global const float *part, int n,
                                    global const float *c)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_plsparticles_count_one(ccnt, PART(part, p), c, NX, NY, NZ);
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

kernel void plsparticles_attract(global float *part, int n0, int n1, global const float *phi,
                                 global const float *c)
{
    int p = n0 + (int)get_global_id(0);
    if (p >= n1) return;
    lq_plsparticles_attract_one(PART(part, p), phi, c, NX, NY, NZ);
}
