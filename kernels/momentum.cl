/*
 * momentum.cl — the explicit momentum update of the `mac` solver (Foster & Metaxas
 * 1996 §3.1, eq. 2), the solid-obstacle boundary conditions (§3.2.1) and the max-speed
 * reduction behind the time step (eq. 3). The math and the rules are
 * kernels/momentum_cell.h, shared with the reference twins (host/ref/momentum.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). momentum_step and momentum_boundary run one
 * work-item per (NX + 1) × (NY + 1) × (NZ + 1) point, each doing the u, v and w face
 * (and, for the boundary, the cell) whose low corner it is, where they exist.
 * momentum_step reads the old arrays and writes new ones; momentum_boundary works in
 * place (race-free: see momentum_cell.h). momentum_max: one work-item per LQ_MO_BLOCK
 * faces, one atomic max of the bits into smax[slot] (zeroed by the host).
 */

kernel void momentum_step(global const float *u, global const float *v, global const float *w,
                          global const float *p, global const uchar *flags, global float *un,
                          global float *vn, global float *wn, float idx, float idy, float idz,
                          float vx, float vy, float vz, float gx, float gy, float gz, float dt,
                          float gamma)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    lq_momentum_coef cf = {idx, idy, idz, vx, vy, vz, gx, gy, gz, dt, gamma};
    if (j < NY && k < NZ && i <= NX)
        un[LQ_MAC_U(i, j, k, NX, NY)] =
            lq_mo_step_face(u, v, w, p, flags, 0, i, j, k, NX, NY, NZ, cf);
    if (i < NX && k < NZ && j <= NY)
        vn[LQ_MAC_V(i, j, k, NX, NY)] =
            lq_mo_step_face(u, v, w, p, flags, 1, i, j, k, NX, NY, NZ, cf);
    if (i < NX && j < NY && k <= NZ)
        wn[LQ_MAC_W(i, j, k, NX, NY)] =
            lq_mo_step_face(u, v, w, p, flags, 2, i, j, k, NX, NY, NZ, cf);
}

kernel void momentum_boundary(global float *u, global float *v, global float *w, global float *p,
                              global const uchar *flags, global const uchar *bnd)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (j < NY && k < NZ && i <= NX) lq_mo_boundary_face(u, flags, bnd, 0, i, j, k, NX, NY, NZ);
    if (i < NX && k < NZ && j <= NY) lq_mo_boundary_face(v, flags, bnd, 1, i, j, k, NX, NY, NZ);
    if (i < NX && j < NY && k <= NZ) lq_mo_boundary_face(w, flags, bnd, 2, i, j, k, NX, NY, NZ);
    if (i < NX && j < NY && k < NZ) lq_mo_boundary_p(p, flags, i, j, k, NX, NY, NZ);
}

kernel void momentum_max(global const float *q, int n, global uint *smax, int slot)
{
    int f0 = get_global_id(0) * LQ_MO_BLOCK;
    if (f0 >= n) return;
    uint m = 0;
    for (int f = f0; f < f0 + LQ_MO_BLOCK && f < n; f++) m = max(m, lq_mo_abs_bits(q[f]));
    if (m != 0) atomic_max(smax + slot, m);
}
