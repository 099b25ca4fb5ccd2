/*
 * momentum.cl — the explicit momentum update of the `mac` solver (Foster & Metaxas
 * 1996 §3.1, eq. 2), the solid-obstacle boundary conditions (§3.2.1) and the max-speed
 * reduction behind the time step (eq. 3). The math and the rules are
 * kernels/mac/momentum_cell.h, shared with the reference twins (host/ops/mac/momentum_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). momentum_step and momentum_boundary run one
 * work-item per (NX + 1) × (NY + 1) × (NZ + 1) point, each doing the u, v and w face
 * (and, for the boundary, the cell) whose low corner it is, where they exist.
 * momentum_step_rows (what a CPU device runs instead of momentum_step) does the same
 * faces row by row as vectors, bit for bit (see it below), for donor cell only: the
 * launcher runs momentum_step for mac.advection: limited on every device.
 * momentum_step reads the old arrays and writes new ones; momentum_boundary works in
 * place (race-free: see momentum_cell.h). momentum_max: one work-item per LQ_MOMENTUM_BLOCK
 * faces, one atomic max of the bits into smax[slot] (zeroed by the host).
 */

kernel void momentum_step(global const float *u, global const float *v, global const float *w,
                          global const float *p, global const uchar *flags, global float *un,
                          global float *vn, global float *wn, float idx, float idy, float idz,
                          float vx, float vy, float vz, float gx, float gy, float gz, float dt,
                          float gamma, int limited)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    lq_momentum_coef cf = {idx, idy, idz, vx, vy, vz, gx, gy, gz, dt, gamma, limited};
    if (j < NY && k < NZ && i <= NX)
        un[LQ_MAC_U(i, j, k, NX, NY)] =
            lq_momentum_step_face(u, v, w, p, flags, 0, i, j, k, NX, NY, NZ, cf);
    if (i < NX && k < NZ && j <= NY)
        vn[LQ_MAC_V(i, j, k, NX, NY)] =
            lq_momentum_step_face(u, v, w, p, flags, 1, i, j, k, NX, NY, NZ, cf);
    if (i < NX && j < NY && k <= NZ)
        wn[LQ_MAC_W(i, j, k, NX, NY)] =
            lq_momentum_step_face(u, v, w, p, flags, 2, i, j, k, NX, NY, NZ, cf);
}

/* momentum_step_rows (CPU devices, host/ops/mac/momentum.c): the same faces as momentum_step, one
 * work-item per (j, k) row of corners (global (NY + 1) (NZ + 1)), each doing its u, v and
 * w rows. PoCL does not vectorise momentum_step (branches per face), so inside a row the
 * faces whose every neighbour lies in the grid run LQ_MOMENTUM_W at a time as explicit vectors
 * (lq_momentum_step_vec): every lane computes eq. 2 and the rules of lq_momentum_step_face pick its
 * value by select, with the same float operations in the same order as the scalar code,
 * so the results are bit for bit lq_momentum_step_face's (and the reference twin's). The faces
 * near the row's ends and whole rows next to the grid's edge along their axis run
 * lq_momentum_step_face itself. A vector of faces with no moving face (air, walls) reads only
 * the flags and its old values. */
#ifndef LQ_MOMENTUM_W /* lanes of a vector of faces: 16 or 8 */
#define LQ_MOMENTUM_W 16
#endif
#if LQ_MOMENTUM_W == 16
#define MO_FV      float16
#define MO_IV      int16
#define MO_VLOAD   vload16
#define MO_VSTORE  vstore16
#define MO_CONV(x) convert_int16(x)
#else
#define MO_FV      float8
#define MO_IV      int8
#define MO_VLOAD   vload8
#define MO_VSTORE  vstore8
#define MO_CONV(x) convert_int8(x)
#endif

/* LQ_MOMENTUM_W faces of axis a from (i0, j, k) along x into qn (lq_momentum_step_face lane-wise);
 * the caller guarantees every neighbour the scalar code could read is in the grid. */
static inline void lq_momentum_step_vec(global const float *u, global const float *v,
                                        global const float *w, global const float *p,
                                        global const uchar *flags, global float *qn, const int a,
                                        int i0, int j, int k, lq_momentum_coef cf)
{
    global const float *q = a == 0 ? u : a == 1 ? v : w;
    const int di = a == 0, dj = a == 1, dk = a == 2;
    /* strides of q's array along y and z; of the cells along a */
    const int sy = NX + di, sz = (NX + di) * (NY + dj);
    const int sa = a == 0 ? 1 : a == 1 ? sy : sz;
    const int ca = a == 0 ? 1 : a == 1 ? NX : NX * NY;
    const int f = lq_momentum_face(a, i0, j, k, NX, NY);
    const int cb = LQ_MAC_CELL(i0, j, k, NX, NY), cc = cb - ca; /* cells c and c − e_a */
    MO_IV kb = MO_CONV(MO_VLOAD(0, flags + cb)), kc = MO_CONV(MO_VLOAD(0, flags + cc));
    MO_IV fb = (kb == LQ_MAC_FULL) | (kb == LQ_MAC_SURFACE);
    MO_IV fc = (kc == LQ_MAC_FULL) | (kc == LQ_MAC_SURFACE);
    MO_IV air = ((kc == LQ_MAC_EMPTY) | (kb == LQ_MAC_EMPTY)) & ~fc & ~fb;
    MO_IV moves = (kc != LQ_MAC_SOLID) & (kb != LQ_MAC_SOLID) & (kc != LQ_MAC_INFLOW) &
                  (kb != LQ_MAC_INFLOW) & (fc | fb);
    MO_FV q0 = MO_VLOAD(0, q + f);
    const MO_FV zero = (MO_FV)(0.0f);
    if (!any(moves)) {
        MO_VSTORE(select(q0, zero, air), 0, qn + f);
        return;
    }
    const float h = 0.5f;
    float id[3] = {cf.idx, cf.idy, cf.idz}, vis[3] = {cf.vx, cf.vy, cf.vz};
    float g[3] = {cf.gx, cf.gy, cf.gz};
    const float dtg = cf.dt * g[a], gh = cf.gamma * h;
    MO_FV qm = MO_VLOAD(0, q + f - sa), qp = MO_VLOAD(0, q + f + sa);
    MO_FV qlo[3], qhi[3];
    MO_FV sum = zero;
    for (int b = 0; b < 3; b++) {
        if (b == a) {
            qlo[b] = qm;
            qhi[b] = qp;
            MO_FV cm = h * (qm + q0), cp = h * (q0 + qp);
            sum = sum + (cm * cm - cp * cp) * id[b];
            MO_FV up = fabs(cp) * (q0 - qp) - fabs(cm) * (qm - q0);
            sum = sum - gh * up * id[b];
            continue;
        }
        if (b == 0) { /* lanes 1 ≤ i ≤ NX − 2: both neighbours in the grid */
            qlo[b] = MO_VLOAD(0, q + f - 1);
            qhi[b] = MO_VLOAD(0, q + f + 1);
        } else {
            int c = b == 1 ? j : k, n = b == 1 ? NY : NZ, s = b == 1 ? sy : sz;
            qlo[b] = c > 0 ? MO_VLOAD(0, q + f - s) : q0;
            qhi[b] = c < n - 1 ? MO_VLOAD(0, q + f + s) : q0;
        }
        global const float *r = b == 0 ? u : b == 1 ? v : w;
        const int eb0 = b == 0, eb1 = b == 1, eb2 = b == 2;
        int il = i0 - di, jl = j - dj, kl = k - dk; /* cell c − e_a */
        MO_FV rlo = h * (MO_VLOAD(0, r + lq_momentum_face(b, il, jl, kl, NX, NY)) +
                         MO_VLOAD(0, r + lq_momentum_face(b, i0, j, k, NX, NY)));
        MO_FV rhi =
            h * (MO_VLOAD(0, r + lq_momentum_face(b, il + eb0, jl + eb1, kl + eb2, NX, NY)) +
                 MO_VLOAD(0, r + lq_momentum_face(b, i0 + eb0, j + eb1, k + eb2, NX, NY)));
        MO_FV ql = h * (qlo[b] + q0), qh = h * (q0 + qhi[b]);
        sum = sum + (ql * rlo - qh * rhi) * id[b];
        MO_FV up = fabs(rhi) * (q0 - qhi[b]) - fabs(rlo) * (qlo[b] - q0);
        sum = sum - gh * up * id[b];
    }
    sum = sum + g[a];
    sum = sum + (MO_VLOAD(0, p + cc) - MO_VLOAD(0, p + cb)) * id[a];
    for (int b = 0; b < 3; b++) sum = sum + vis[b] * ((qhi[b] + qlo[b]) - 2.0f * q0);
    MO_FV res = q0 + cf.dt * sum;
    /* the rules of lq_momentum_step_face, last applied first */
    MO_IV kp = MO_CONV(MO_VLOAD(0, flags + cb + ca)); /* cell c + e_a */
    MO_IV km = MO_CONV(MO_VLOAD(0, flags + cc - ca)); /* cell c − 2 e_a */
    MO_IV surf_lo = (kc == LQ_MAC_EMPTY) & (kb == LQ_MAC_SURFACE);
    if (a == 1) /* hanging: the cell above is SOLID (in the grid: j ≤ NY − 2) */
        res = select(res, q0 + dtg, surf_lo & (kp == LQ_MAC_SOLID));
    res = select(res, h * (qm + q0) + dtg,
                 (kc == LQ_MAC_SURFACE) & (kb == LQ_MAC_EMPTY) & (km == LQ_MAC_EMPTY));
    res = select(res, h * (q0 + qp) + dtg, surf_lo & (kp == LQ_MAC_EMPTY));
    res = select(res, q0, ~moves);
    res = select(res, zero, air);
    MO_VSTORE(res, 0, qn + f);
}

/* The faces of axis a in row (j, k), i from 0 to NX (u) or NX − 1 (v, w). */
static inline void lq_momentum_step_row(global const float *u, global const float *v,
                                        global const float *w, global const float *p,
                                        global const uchar *flags, global float *qn, const int a,
                                        int j, int k, lq_momentum_coef cf)
{
    const int end = a == 0 ? NX + 1 : NX;
    /* lanes whose neighbours (up to c − 2 e_a and c + e_a, and ±1 along x) are all in
     * the grid, in a row at least two cells from the edges along a */
    int lo = a == 0 ? 2 : 1, hi = NX - 2;
    if ((a == 1 && (j < 2 || j > NY - 2)) || (a == 2 && (k < 2 || k > NZ - 2))) hi = -1;
    int i = 0;
    if (hi - lo + 1 >= LQ_MOMENTUM_W) {
        for (; i < lo; i++)
            qn[lq_momentum_face(a, i, j, k, NX, NY)] =
                lq_momentum_step_face(u, v, w, p, flags, a, i, j, k, NX, NY, NZ, cf);
        for (; i + LQ_MOMENTUM_W - 1 <= hi; i += LQ_MOMENTUM_W)
            lq_momentum_step_vec(u, v, w, p, flags, qn, a, i, j, k, cf);
        /* the rest of the lanes as one vector that overlaps the last (it writes those
         * faces again with the same values: each face's value depends only on inputs) */
        if (i <= hi) {
            lq_momentum_step_vec(u, v, w, p, flags, qn, a, hi - LQ_MOMENTUM_W + 1, j, k, cf);
            i = hi + 1;
        }
    }
    for (; i < end; i++)
        qn[lq_momentum_face(a, i, j, k, NX, NY)] =
            lq_momentum_step_face(u, v, w, p, flags, a, i, j, k, NX, NY, NZ, cf);
}

kernel void momentum_step_rows(global const float *u, global const float *v, global const float *w,
                               global const float *p, global const uchar *flags, global float *un,
                               global float *vn, global float *wn, float idx, float idy, float idz,
                               float vx, float vy, float vz, float gx, float gy, float gz, float dt,
                               float gamma)
{
    int r = get_global_id(0), j = r % (NY + 1), k = r / (NY + 1);
    if (k > NZ) return;
    lq_momentum_coef cf = {idx, idy, idz, vx, vy, vz, gx, gy, gz, dt, gamma, LQ_MOMENTUM_DONOR};
    if (j < NY && k < NZ) lq_momentum_step_row(u, v, w, p, flags, un, 0, j, k, cf);
    if (k < NZ) lq_momentum_step_row(u, v, w, p, flags, vn, 1, j, k, cf);
    if (j < NY) lq_momentum_step_row(u, v, w, p, flags, wn, 2, j, k, cf);
}

kernel void momentum_boundary(global float *u, global float *v, global float *w, global float *p,
                              global const uchar *flags, global const uchar *bnd)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (j < NY && k < NZ && i <= NX)
        lq_momentum_boundary_face(u, flags, bnd, 0, i, j, k, NX, NY, NZ);
    if (i < NX && k < NZ && j <= NY)
        lq_momentum_boundary_face(v, flags, bnd, 1, i, j, k, NX, NY, NZ);
    if (i < NX && j < NY && k <= NZ)
        lq_momentum_boundary_face(w, flags, bnd, 2, i, j, k, NX, NY, NZ);
    if (i < NX && j < NY && k < NZ) lq_momentum_boundary_p(p, flags, i, j, k, NX, NY, NZ);
}

kernel void momentum_max(global const float *q, int n, global uint *smax, int slot)
{
    int f0 = get_global_id(0) * LQ_MOMENTUM_BLOCK;
    if (f0 >= n) return;
    uint m = 0;
    for (int f = f0; f < f0 + LQ_MOMENTUM_BLOCK && f < n; f++)
        m = max(m, lq_momentum_abs_bits(q[f]));
    if (m != 0) atomic_max(smax + slot, m);
}
