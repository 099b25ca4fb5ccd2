/*
 * pressure.cl — the pressure iteration of the `mac` solver (Foster & Metaxas 1996 §3.1,
 * eq. 5–9): the divergence with its max, a red-black colour pass and the two passes of
 * the Jacobi variant. The math and the boundary rules are kernels/pressure_cell.h,
 * shared with the reference twins (host/ref/pressure.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per cell, except pressure_max (one
 * per LQ_PR_BLOCK cells) and pressure_rb_half (one per cell of the colour,
 * i = 2 ih + ((j + k + parity) & 1)). A red-black colour pass has two launch shapes with
 * the same result, pressure_rb and pressure_rb_half (host/pressure.c says which runs).
 */

/* Eq. 5 per cell. */
kernel void pressure_divergence(global const float *u, global const float *v, global const float *w,
                                global const uchar *flags, global float *div, float idx, float idy,
                                float idz)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pr_div_cell(div, u, v, w, flags, i, j, k, NX, NY, idx, idy, idz);
}

/* max |D|: each work-item a run of LQ_PR_BLOCK consecutive cells (D is 0 outside FULL
 * cells), then one atomic max of the bits (exact: non-negative floats order as their
 * bits). dmax is zeroed by the host. On PoCL at 64³ this was 18× faster than a work-group
 * reduction in local memory fused into pressure_divergence (barriers), and 6× faster
 * than work-items striding through the grid. */
kernel void pressure_max(global const float *div, global uint *dmax)
{
    int c0 = get_global_id(0) * LQ_PR_BLOCK, n = NX * NY * NZ;
    if (c0 >= n) return;
    uint m = 0;
    for (int c = c0; c < c0 + LQ_PR_BLOCK && c < n; c++) m = max(m, lq_pr_abs_bits(div[c]));
    if (m != 0) atomic_max(dmax, m);
}

/* One colour, one work-item per cell; the other colour returns at once. */
kernel void pressure_rb(global float *u, global float *v, global float *w, global float *p,
                        global const uchar *flags, int parity, float idx, float idy, float idz,
                        float beta, float tx, float ty, float tz)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ || ((i + j + k) & 1) != parity) return;
    lq_pr_rb_cell(u, v, w, p, flags, i, j, k, NX, NY, NZ, idx, idy, idz, beta, tx, ty, tz);
}

/* One colour, one work-item per cell of the colour ((NX + 1) / 2 × NY × NZ). */
kernel void pressure_rb_half(global float *u, global float *v, global float *w, global float *p,
                             global const uchar *flags, int parity, float idx, float idy, float idz,
                             float beta, float tx, float ty, float tz)
{
    int j = get_global_id(1), k = get_global_id(2);
    int i = 2 * (int)get_global_id(0) + ((j + k + parity) & 1);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pr_rb_cell(u, v, w, p, flags, i, j, k, NX, NY, NZ, idx, idy, idz, beta, tx, ty, tz);
}

kernel void pressure_jacobi_dp(global float *dp, global const float *u, global const float *v,
                               global const float *w, global const uchar *flags, float idx,
                               float idy, float idz, float beta)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pr_jacobi_dp_cell(dp, u, v, w, flags, i, j, k, NX, NY, idx, idy, idz, beta);
}

kernel void pressure_jacobi_apply(global float *u, global float *v, global float *w,
                                  global float *p, global const float *dp,
                                  global const uchar *flags, float tx, float ty, float tz)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pr_jacobi_apply_cell(u, v, w, p, dp, flags, i, j, k, NX, NY, tx, ty, tz);
}
