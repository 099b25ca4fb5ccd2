/*
 * plsforce.cl — the pls solver's small per-step kernels (plsforce_cell.h states the math).
 * plsforce_body: one work-item per (i, j, k) of the (nx+1)·(ny+1)·(nz+1) face box, each
 * writing the faces it owns. plsforce_max / plsforce_volume: one work-item per
 * LQ_PLSFORCE_BLOCK elements, one atomic (max of bits / 64-bit add) into the host-zeroed result.
 */

kernel void plsforce_body(global float *u, global float *v, global float *w,
                          global const float *phi, global const float *sdf, int has_sdf, int nx,
                          int ny, int nz, float gx, float gy, float gz)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (j < ny && k < nz && i <= nx)
        u[LQ_MAC_U(i, j, k, nx, ny)] =
            lq_plsforce_body_face(u, 0, i, j, k, nx, ny, nz, phi, sdf, has_sdf, gx);
    if (i < nx && k < nz && j <= ny)
        v[LQ_MAC_V(i, j, k, nx, ny)] =
            lq_plsforce_body_face(v, 1, i, j, k, nx, ny, nz, phi, sdf, has_sdf, gy);
    if (nz > 1 && i < nx && j < ny && k <= nz)
        w[LQ_MAC_W(i, j, k, nx, ny)] =
            lq_plsforce_body_face(w, 2, i, j, k, nx, ny, nz, phi, sdf, has_sdf, gz);
}

kernel void plsforce_max(global const float *q, int n, global uint *smax, int slot)
{
    int f0 = get_global_id(0) * LQ_PLSFORCE_BLOCK;
    if (f0 >= n) return;
    uint m = 0;
    for (int f = f0; f < f0 + LQ_PLSFORCE_BLOCK && f < n; f++)
        m = max(m, lq_plsforce_abs_bits(q[f]));
    if (m != 0) atomic_max(smax + slot, m);
}

kernel void plsforce_volume(global const float *phi, global const float *sdf, int has_sdf, int n,
                            float ih, global long *out)
{
    int c0 = get_global_id(0) * LQ_PLSFORCE_BLOCK;
    if (c0 >= n) return;
    long s = 0;
    int bad = 0;
    for (int c = c0; c < c0 + LQ_PLSFORCE_BLOCK && c < n; c++)
        s = LQ_WRAP_ADD(s, lq_plsforce_volume_cell(phi, sdf, has_sdf, c, ih, &bad));
    if (s != 0) atom_add(out + LQ_PLSFORCE_RED_VOL, s);
    if (bad) atom_add(out + LQ_PLSFORCE_RED_BAD, 1L);
}

/* One work-item per row of dual cubes (j, k), j ≤ ny, k ≤ nz; one atomic each. */
kernel void plsforce_volume_pl(global const float *phi, global const float *sdf, int has_sdf,
                               int nx, int ny, int nz, float ih, global long *out)
{
    int j = get_global_id(0), k = get_global_id(1);
    if (j > ny || k > nz) return;
    long s = 0;
    int bad = 0;
    for (int i = 0; i <= nx; i++)
        s = LQ_WRAP_ADD(
            s, lq_plsforce_volume_pl_cube(phi, sdf, has_sdf, i, j, k, nx, ny, nz, ih, &bad));
    if (s != 0) atom_add(out + LQ_PLSFORCE_RED_VOL, s);
    if (bad) atom_add(out + LQ_PLSFORCE_RED_BAD, 1L);
}

kernel void plsforce_shift(global float *phi, global const float *sdf, int has_sdf, int n,
                           float delta)
{
    int c = get_global_id(0);
    if (c < n) phi[c] = lq_plsforce_shift_cell(phi, sdf, has_sdf, c, delta);
}
