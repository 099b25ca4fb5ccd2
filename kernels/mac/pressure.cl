/*
 * pressure.cl — the pressure iteration of the `mac` solver (Foster & Metaxas 1996 §3.1,
 * eq. 5–9): the divergence with its max, a red-black colour pass and the two passes of
 * the Jacobi variant. The math and the boundary rules are kernels/mac/pressure_cell.h,
 * shared with the reference twins (host/ops/mac/pressure_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per cell, except pressure_max (one
 * per LQ_PRESSURE_BLOCK cells) and pressure_rb_half (one per cell of the colour,
 * i = 2 ih + ((j + k + parity) & 1)). A red-black colour pass has two launch shapes with
 * the same result, pressure_rb and pressure_rb_half (host/ops/mac/pressure.c says which runs).
 */

/* The surface weights a kernel hands the per-cell math: sw, or none (0) when the host says
 * the iteration is unweighted (it then binds some other buffer to sw). */
#define LQ_PRESSURE_SW (weighted ? sw : (global const float *)0)

/* Eq. 5 per cell. */
kernel void pressure_divergence(global const float *u, global const float *v, global const float *w,
                                global const uchar *flags, global float *div, float idx, float idy,
                                float idz)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pressure_div_cell(div, u, v, w, flags, i, j, k, NX, NY, idx, idy, idz);
}

/* max |D|: each work-item a run of LQ_PRESSURE_BLOCK consecutive cells (D is 0 outside FULL
 * cells), then one atomic max of the bits (exact: non-negative floats order as their
 * bits). dmax is zeroed by the host. On PoCL at 64³ this was 18× faster than a work-group
 * reduction in local memory fused into pressure_divergence (barriers), and 6× faster
 * than work-items striding through the grid. */
kernel void pressure_max(global const float *div, global uint *dmax)
{
    int c0 = get_global_id(0) * LQ_PRESSURE_BLOCK, n = NX * NY * NZ;
    if (c0 >= n) return;
    uint m = 0;
    for (int c = c0; c < c0 + LQ_PRESSURE_BLOCK && c < n; c++)
        m = max(m, lq_pressure_abs_bits(div[c]));
    if (m != 0) atomic_max(dmax, m);
}

/* One colour, one work-item per cell; the other colour returns at once. */
kernel void pressure_rb(global float *u, global float *v, global float *w, global float *p,
                        global const uchar *flags, global const float *sw, int weighted, int parity,
                        float idx, float idy, float idz, float beta, float tx, float ty, float tz,
                        global const int *ctl)
{
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return; /* the solve has stopped */
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ || ((i + j + k) & 1) != parity) return;
    lq_pressure_rb_cell(u, v, w, p, flags, LQ_PRESSURE_SW, i, j, k, NX, NY, NZ, idx, idy, idz, beta,
                        tx, ty, tz);
}

/* One colour, one work-item per cell of the colour ((NX + 1) / 2 × NY × NZ). */
kernel void pressure_rb_half(global float *u, global float *v, global float *w, global float *p,
                             global const uchar *flags, global const float *sw, int weighted,
                             int parity, float idx, float idy, float idz, float beta, float tx,
                             float ty, float tz, global const int *ctl)
{
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return; /* the solve has stopped */
    int j = get_global_id(1), k = get_global_id(2);
    int i = 2 * (int)get_global_id(0) + ((j + k + parity) & 1);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pressure_rb_cell(u, v, w, p, flags, LQ_PRESSURE_SW, i, j, k, NX, NY, NZ, idx, idy, idz, beta,
                        tx, ty, tz);
}

/* --- a whole red-black sweep on a CPU -------------------------------------------------
 * One work-item per slab of `slab` planes walks a wavefront through it (red plane k, then
 * black plane k − 1: lq_pressure_rb_slab in pressure_cell.h says why that is the red-then-black
 * sweep exactly), then pressure_rb_edges relaxes the black planes at the slabs' edges.
 * The slabs are the parallelism (a GPU wants the per-colour launches instead).
 *
 * Rows of planes inside a slab run LQ_PRESSURE_W cells at a time as explicit vectors (both
 * colours computed, the other colour's lanes kept by select), the same float operations
 * in the same order as lq_pressure_rb_cell, so the result is bit for bit the scalar one. A
 * row's faces are read and written as whole vectors; that is safe because the work-item
 * owns the plane: only the first and last planes of a slab share faces (w) with another
 * slab, and they, the rows on the domain edge (j = 0, ny − 1; k = 0, nz − 1, whose
 * neighbours would fall outside the arrays), and each row's last NX mod LQ_PRESSURE_W cells
 * run the scalar lq_pressure_rb_cell. */
#ifndef LQ_PRESSURE_W
#define LQ_PRESSURE_W 8
#endif
#if LQ_PRESSURE_W == 16
#define FV     float16
#define IV     int16
#define UV     uint16
#define VLOAD  vload16
#define VSTORE vstore16
#define CONV_I convert_int16
#define LANES  (IV)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define SHIFT1 (UV)(15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30)
#else
#define FV     float8
#define IV     int8
#define UV     uint8
#define VLOAD  vload8
#define VSTORE vstore8
#define CONV_I convert_int8
#define LANES  (IV)(0, 1, 2, 3, 4, 5, 6, 7)
#define SHIFT1 (UV)(7, 8, 9, 10, 11, 12, 13, 14)
#endif
/* free(kind) of lq_pressure_free, lane-wise: −1 where a face toward that kind may move */
#define FREEV(f) (((f) != LQ_MAC_SOLID) & ((f) != LQ_MAC_INFLOW))

/* One colour (parity) of row (j, k), 0 < j < NY − 1, 0 < k < NZ − 1. */
static inline void lq_pressure_rb_row_vec(global float *u, global float *v, global float *w,
                                          global float *p, global const uchar *flags,
                                          global const float *sw, int j, int k, int parity,
                                          float idx, float idy, float idz, float beta, float tx,
                                          float ty, float tz)
{
    const int sz = NX * NY;
    const int c0 = LQ_MAC_CELL(0, j, k, NX, NY), qu0 = LQ_MAC_U(0, j, k, NX, NY),
              qv0 = LQ_MAC_V(0, j, k, NX, NY), qw0 = LQ_MAC_W(0, j, k, NX, NY);
    /* a row without FULL cells (the air above a pool, walls) changes nothing: skip it,
     * reading only its flags, so the air's faces never travel through the cache */
    IV any_full = (IV)(0);
    int i0 = 0;
    for (; i0 + LQ_PRESSURE_W <= NX; i0 += LQ_PRESSURE_W)
        any_full |= CONV_I(VLOAD(0, flags + c0 + i0)) == LQ_MAC_FULL;
    int found = any(any_full);
    for (int i = i0; i < NX; i++) found |= flags[c0 + i] == LQ_MAC_FULL;
    if (!found) return;
    FV prev_dp = (FV)(0.0f);
    IV prev_act = (IV)(0);
    for (i0 = 0; i0 + LQ_PRESSURE_W <= NX; i0 += LQ_PRESSURE_W) {
        int c = c0 + i0, qu = qu0 + i0, qv = qv0 + i0, qw = qw0 + i0;
        IV ii = LANES + i0;
        IV fc = CONV_I(VLOAD(0, flags + c));
        IV act = (fc == LQ_MAC_FULL) & (((ii + j + k + parity) & 1) == 0);
        FV ul = VLOAD(0, u + qu), uh = VLOAD(0, u + qu + 1);
        FV vl = VLOAD(0, v + qv), vh = VLOAD(0, v + qv + NX);
        FV wl = VLOAD(0, w + qw), wh = VLOAD(0, w + qw + sz);
        /* eq. 5 as lq_pressure_div, eq. 6 */
        FV dudx = (uh - ul) * idx, dvdy = (vh - vl) * idy, dwdz = (wh - wl) * idz;
        FV bv = (FV)(beta), wlo = (FV)(1.0f), whi = (FV)(1.0f); /* as lq_pressure_rb_cell */
        if (sw) {
            bv = beta * VLOAD(0, sw + NX * NY * NZ + c);
            whi = VLOAD(0, sw + c);
            wlo = VLOAD(0, sw + c - NX);
        }
        FV dp = bv * -((dudx + dvdy) + dwdz);
        /* eq. 8: the low x-face from this cell or, shifted one lane, the cell below */
        FV dpm = shuffle2(prev_dp, dp, SHIFT1);
        IV actm = shuffle2(prev_act, act, SHIFT1);
        IV mlo = act & (ii > 0) & FREEV(CONV_I(VLOAD(0, flags + c - 1)));
        IV mhi = actm & FREEV(fc);
        VSTORE(select(select(ul, ul + tx * dpm, mhi), ul - tx * dp, mlo), 0, u + qu);
        IV my0 = act & FREEV(CONV_I(VLOAD(0, flags + c - NX)));
        IV my1 = act & FREEV(CONV_I(VLOAD(0, flags + c + NX)));
        VSTORE(select(vl, vl - ty * (wlo * dp), my0), 0, v + qv);
        VSTORE(select(vh, vh + ty * (whi * dp), my1), 0, v + qv + NX);
        IV mz0 = act & FREEV(CONV_I(VLOAD(0, flags + c - sz)));
        IV mz1 = act & FREEV(CONV_I(VLOAD(0, flags + c + sz)));
        VSTORE(select(wl, wl - tz * dp, mz0), 0, w + qw);
        VSTORE(select(wh, wh + tz * dp, mz1), 0, w + qw + sz);
        FV pc = VLOAD(0, p + c);
        VSTORE(select(pc, pc + dp, act), 0, p + c);
        prev_dp = dp;
        prev_act = act;
    }
    /* the high x-face of the last vector cell (its low face is the next cell's) */
    if (i0 < NX) {
        float d = prev_dp.s7;
        int a = prev_act.s7;
#if LQ_PRESSURE_W == 16
        d = prev_dp.sf;
        a = prev_act.sf;
#endif
        if (i0 > 0 && a && lq_pressure_free(flags[c0 + i0])) u[qu0 + i0] = u[qu0 + i0] + tx * d;
    }
    for (int i = i0 + ((i0 + j + k + parity) & 1); i < NX; i += 2)
        lq_pressure_rb_cell(u, v, w, p, flags, sw, i, j, k, NX, NY, NZ, idx, idy, idz, beta, tx, ty,
                            tz);
}

/* One colour of plane k; vector rows unless `scalar`. */
static inline void lq_pressure_rb_plane_vec(global float *u, global float *v, global float *w,
                                            global float *p, global const uchar *flags,
                                            global const float *sw, int k, int parity, int scalar,
                                            float idx, float idy, float idz, float beta, float tx,
                                            float ty, float tz)
{
    if (scalar || k == 0 || k == NZ - 1) {
        lq_pressure_rb_plane(u, v, w, p, flags, sw, k, parity, NX, NY, NZ, idx, idy, idz, beta, tx,
                             ty, tz);
        return;
    }
    for (int j = 0; j < NY; j++) {
        if (j == 0 || j == NY - 1) {
            for (int i = (j + k + parity) & 1; i < NX; i += 2)
                lq_pressure_rb_cell(u, v, w, p, flags, sw, i, j, k, NX, NY, NZ, idx, idy, idz, beta,
                                    tx, ty, tz);
        } else {
            lq_pressure_rb_row_vec(u, v, w, p, flags, sw, j, k, parity, idx, idy, idz, beta, tx, ty,
                                   tz);
        }
    }
}

kernel void pressure_rb_slabs(global float *u, global float *v, global float *w, global float *p,
                              global const uchar *flags, global const float *sw, int weighted,
                              int slab, float idx, float idy, float idz, float beta, float tx,
                              float ty, float tz, global const int *ctl)
{
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return; /* the solve has stopped */
    int k0 = get_global_id(0) * slab;
    if (k0 >= NZ) return;
    int k1 = min(k0 + slab, NZ);
    global const float *s = LQ_PRESSURE_SW;
    for (int k = k0; k < k1; k++) { /* as lq_pressure_rb_slab */
        lq_pressure_rb_plane_vec(u, v, w, p, flags, s, k, 0, k == k0 || k == k1 - 1, idx, idy, idz,
                                 beta, tx, ty, tz);
        if (k - 1 > k0)
            lq_pressure_rb_plane_vec(u, v, w, p, flags, s, k - 1, 1, 0, idx, idy, idz, beta, tx, ty,
                                     tz);
    }
}

/* The black cells of the slabs' edge planes: ((NX + 1) / 2) × NY × (2 × slabs). */
kernel void pressure_rb_edges(global float *u, global float *v, global float *w, global float *p,
                              global const uchar *flags, global const float *sw, int weighted,
                              int slab, float idx, float idy, float idz, float beta, float tx,
                              float ty, float tz, global const int *ctl)
{
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return; /* the solve has stopped */
    int j = get_global_id(1), k = lq_pressure_edge_plane(get_global_id(2), slab, NZ);
    int i = 2 * (int)get_global_id(0) + ((j + k + 1) & 1);
    if (k < 0 || i >= NX || j >= NY) return;
    lq_pressure_rb_cell(u, v, w, p, flags, LQ_PRESSURE_SW, i, j, k, NX, NY, NZ, idx, idy, idz, beta,
                        tx, ty, tz);
}

kernel void pressure_jacobi_dp(global float *dp, global const float *u, global const float *v,
                               global const float *w, global const uchar *flags,
                               global const float *sw, int weighted, float idx, float idy,
                               float idz, float beta, global const int *ctl)
{
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return; /* the solve has stopped */
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pressure_jacobi_dp_cell(dp, u, v, w, flags, LQ_PRESSURE_SW, i, j, k, NX, NY, NZ, idx, idy,
                               idz, beta);
}

kernel void pressure_jacobi_apply(global float *u, global float *v, global float *w,
                                  global float *p, global const float *dp,
                                  global const uchar *flags, global const float *sw, int weighted,
                                  float tx, float ty, float tz, global const int *ctl)
{
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return; /* the solve has stopped */
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pressure_jacobi_apply_cell(u, v, w, p, dp, flags, LQ_PRESSURE_SW, i, j, k, NX, NY, tx, ty,
                                  tz);
}

/* mac.surface_solve, once a step after the cells are classified: out = the flags the
 * iteration reads (SURFACE as FULL), p of the EMPTY cells (lq_pressure_surface_prep_cell);
 * NX × NY × NZ. */
kernel void pressure_surface_prep(global const uchar *flags, global uchar *out, global float *p,
                                  global float *sw, global const int *count,
                                  global const float *table, int per_cell)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_pressure_surface_prep_cell(flags, out, p, sw, count, table, LQ_MAC_CELL(i, j, k, NX, NY), NX,
                                  NX * NY, NX * NY * NZ, per_cell);
}

/* The solve's stopping test on the device (pressure.c, lq_pressure_solve): after each
 * check's max |D| (dmax), one work-item counts the check's sweeps and stops the sweeps
 * (ctl's state) at max |D| < eps or a value that is not finite, as the host loop's test;
 * every sweep after that does nothing, so the host can enqueue checks in batches. */
kernel void pressure_check(global const uint *dmax, global int *ctl, float eps, int nsweeps)
{
    if (get_global_id(0) != 0) return;
    ctl[LQ_PRESSURE_CTL_MAX] = as_int(dmax[0]); /* after the stop: the same value again */
    if (ctl[LQ_PRESSURE_CTL_CHECKS] == 0) ctl[LQ_PRESSURE_CTL_MAX0] = as_int(dmax[0]);
    if (ctl[LQ_PRESSURE_CTL_STATE] != LQ_PRESSURE_RUN) return;
    float m = as_float(dmax[0]);
    ctl[LQ_PRESSURE_CTL_SWEEPS] += nsweeps;
    ctl[LQ_PRESSURE_CTL_CHECKS] += 1;
    if (!(m < eps) && isfinite(m)) return;
    ctl[LQ_PRESSURE_CTL_STATE] = LQ_PRESSURE_STOPPED;
}
