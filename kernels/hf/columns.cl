/*
 * columns.cl — kernels of the `splash` solver (O'Brien & Hodgins 1995): pipe flows
 * (eq. 5–6), the non-negative-volume rule (eq. 9), column volumes (eq. 7, 12), spray
 * emission at control points (eq. 13–15), ballistic spray and object contact (§4, eq.
 * 11). The math is kernels/hf/columns_cell.h, shared with the reference twins
 * (host/ops/hf/columns_ref.c); emission and compaction write in the slots of the shared
 * block scan (kernels/common/scan_cell.h, scan.cl), which keeps them deterministic.
 *
 * Built with -DNX, -DNZ. One work-item per corner ((NX+1) × (NZ+1)) for pipe updates,
 * per column for column updates, per particle for flight, per block of LQ_COLUMNS_BLOCK
 * corners or particles for the sequential emit / compaction passes.
 */

kernel void columns_flow(global const float *qx, global const float *qz, global const float *qd,
                         global const float *qa, global float *ox, global float *oz,
                         global float *od, global float *oa, global const float *b,
                         global const float *d, global const float *e, float keep, float ga,
                         float gd, float ge, float visc)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i > NX || k > NZ) return;
    lq_columns_flow_corner(qx, qz, qd, qa, ox, oz, od, oa, b, d, e, i, k, NX, NZ, keep, ga, gd, ge,
                           visc);
}

kernel void columns_limit(global const float *qx, global const float *qz, global const float *qd,
                          global const float *qa, global const float *d, global float *s,
                          global int *cnt, float r, int last)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    float f = lq_columns_limit_cell(qx, qz, qd, qa, d, i, k, NX, r, last);
    s[i + NX * k] = f;
    if (f < 1.0f) atomic_add(&cnt[LQ_COLUMNS_CNT_LIMITED], 1);
}

kernel void columns_scale(global float *qx, global float *qz, global float *qd, global float *qa,
                          global const float *s)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i > NX || k > NZ) return;
    lq_columns_scale_corner(qx, qz, qd, qa, s, i, k, NX, NZ);
}

kernel void columns_volume(global float *d, global float *hd, global long *ret, global long *acc,
                           global const float *qx, global const float *qz, global const float *qd,
                           global const float *qa, float r, float inv_area, float dt)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_columns_volume_cell(d, hd, ret, acc, qx, qz, qd, qa, i, k, NX, NZ, r, inv_area, dt);
}

/* Boundary axis pipes: a run of x-faces (axis 0, wall i = idx) or z-faces (axis 1)
 * from `from`, `n` long, set to q each. */
kernel void columns_boundary(global float *qx, global float *qz, int axis, int wall, int from,
                             float q)
{
    int j = from + get_global_id(0);
    if (axis == 0) {
        if (j < NZ) qx[wall + (NX + 1) * j] = q;
    } else {
        if (j < NX) qz[j + NX * wall] = q;
    }
}

/* Emission, pass 1: each corner counts its particles. */
kernel void columns_spray_count(global const float *d, global const float *hd,
                                global const float *e, global int *cnt, float threshold,
                                float per_step, float cap_per_depth, uint seed, uint step)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i > NX || k > NZ) return;
    cnt[i + (NX + 1) * k] = lq_columns_emit_count(d, hd, e, i, k, NX, NZ, threshold, per_step,
                                                  cap_per_depth, seed, step);
}

/* Emission, pass 3 (after the scan): each block writes its corners' particles in
 * order; cnt becomes what was written (the columns give up exactly that volume). */
kernel void columns_spray_emit(global float *part, global int *cnt, global const int *boff,
                               global const float *b, global const float *d, global const float *hd,
                               global const float *qx, global const float *qz, float dx, float ox,
                               float oz, float inv_fa, float volume, uint seed, uint step,
                               int capacity)
{
    int blk = get_global_id(0);
    int total = (NX + 1) * (NZ + 1), c0 = blk * LQ_COLUMNS_BLOCK;
    if (c0 >= total) return;
    int slot = boff[blk];
    for (int c = c0; c < c0 + LQ_COLUMNS_BLOCK && c < total; c++) {
        int n = cnt[c], made = 0;
        for (int j = 0; j < n && slot < capacity; j++, slot++, made++)
            lq_columns_emit_particle(part + (size_t)slot * LQ_COLUMNS_PSTRIDE, b, d, hd, qx, qz,
                                     c % (NX + 1), c / (NX + 1), j, NX, NZ, dx, ox, oz, inv_fa,
                                     volume, seed, step);
        cnt[c] = made;
    }
}

kernel void columns_spray_take(global float *d, global const int *cnt, float quarter_depth)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_columns_take_cell(d, cnt, i, k, NX, quarter_depth);
}

kernel void columns_particles(global float *part, global const float *b, global const float *d,
                              global long *ret, global long *acc, global const float *obj, int nobj,
                              int n, float dx, float ox, float oz, float dt, float gx, float gy,
                              float gz, float drag_keep, float dry)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_columns_particle_step(part + (size_t)p * LQ_COLUMNS_PSTRIDE, b, d, ret, acc, obj, nobj, NX,
                             NZ, dx, ox, oz, dt, gx, gy, gz, drag_keep, dry);
}

/* Compaction, pass 1: live particles per block. */
kernel void columns_compact_count(global const float *part, global int *bsum, int n)
{
    int blk = get_global_id(0), p0 = blk * LQ_COLUMNS_BLOCK;
    if (p0 >= n) return;
    int sum = 0;
    for (int p = p0; p < p0 + LQ_COLUMNS_BLOCK && p < n; p++)
        sum += part[(size_t)p * LQ_COLUMNS_PSTRIDE + 7] != 0.0f;
    bsum[blk] = sum;
}

/* Compaction, pass 3 (after the scan): live particles move, in order, to the other
 * buffer. */
kernel void columns_compact_scatter(global const float *src, global float *dst,
                                    global const int *boff, int n)
{
    int blk = get_global_id(0), p0 = blk * LQ_COLUMNS_BLOCK;
    if (p0 >= n) return;
    int slot = boff[blk];
    for (int p = p0; p < p0 + LQ_COLUMNS_BLOCK && p < n; p++) {
        global const float *a = src + (size_t)p * LQ_COLUMNS_PSTRIDE;
        if (a[7] == 0.0f) continue;
        global float *o = dst + (size_t)slot * LQ_COLUMNS_PSTRIDE;
        for (int j = 0; j < LQ_COLUMNS_PSTRIDE; j++) o[j] = a[j];
        slot++;
    }
}

/* mode 0 over corners [i0, i0+ni) × [k0, k0+nk), mode 1 over those columns. */
kernel void columns_contact(global float *e, global long *acc, global const float *obj, int nobj,
                            global const float *b, global const float *d, global float *qx,
                            global float *qz, float dx, float ox, float oz, float inv_fa, int mode,
                            int i0, int k0, int ni, int nk)
{
    int gi = get_global_id(0), gk = get_global_id(1);
    int i = i0 + gi, k = k0 + gk;
    if (gi >= ni || gk >= nk) return;
    if (mode == 0)
        lq_columns_contact_cell(acc, obj, nobj, b, d, i, k, NX, NZ, dx, ox, oz);
    else if (mode == 3)
        lq_columns_around_object(acc, obj, i, b, d, e, qx, qz, NX, NZ, dx, ox, oz, inv_fa);
    else if (mode == 2)
        lq_columns_push_corner(qx, qz, obj, nobj, b, d, i, k, NX, NZ, dx, ox, oz);
    else if (i < NX && k < NZ)
        lq_columns_pressure_cell(e, obj, nobj, b, d, i, k, NX, NZ, dx, ox, oz);
}
