/*
 * markers.cl — marker particles (Foster & Metaxas 1996 §4.1): the midpoint advection
 * through the face velocities and the three passes of the cell classification. The math,
 * the sampling and the boundary rules are kernels/mac/markers_cell.h, shared with the
 * reference twins (host/ops/mac/markers_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per particle (markers_advect,
 * markers_count; n particles, an argument) or per cell (markers_clear, markers_label).
 * Positions are x, y, z per particle (m).
 */

kernel void markers_advect(global float *pos, int n, global const float *u, global const float *v,
                           global const float *w, global const uchar *flags, float idx, float idy,
                           float idz, float lx, float ly, float lz, float dt)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_markers_advect_one(pos, u, v, w, flags, p, NX, NY, NZ, idx, idy, idz, lx, ly, lz, dt);
}

kernel void markers_clear(global int *count, global const uchar *flags)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_markers_clear_cell(count, flags, c);
}

kernel void markers_count(global int *count, global const float *pos, int n,
                          global const uchar *flags, float idx, float idy, float idz)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_markers_count_one(count, pos, flags, p, NX, NY, NZ, idx, idy, idz);
}

kernel void markers_label(global uchar *flags, global const int *count, int rules)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_markers_label_cell(flags, count, i, j, k, NX, NY, NZ, rules);
}
