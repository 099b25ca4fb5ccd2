
/*
 * heightfield.cl — OpenCL kernels of the Kass–Miller height-field water (`shallow`).
 * Each kernel is one launch of a per-line or per-cell function of heightfield_cell.h;
 * host/ops/hf/heightfield_ref.c runs the same functions in plain loops.
 *
 * Build defines: NX, NZ (grid cells). Buffers: h1 = h(n−1), hn = h(n),
 * b ground, cp Thomas scratch, L labels, u (NX+1)·NZ x-faces, w NX·(NZ+1) z-faces.
 */
#include "hf/heightfield_cell.h"

#define LQ_CONCAT_(a, b) a##b
#define LQ_CONCAT(a, b)  LQ_CONCAT_(a, b)

/*
 * The tridiagonal solves process LQ_VEC lines per work-item as one vector (LQ_VEC = 1,
 * 4, 8 or 16, chosen per device at build time): CPUs run the Thomas recurrence of
 * LQ_VEC lines in SIMD lanes instead of waiting on one line's divide chain, GPUs take
 * LQ_VEC = 1 and one line per work-item. Lane by lane the arithmetic is that of
 * lq_heightfield_solve_line (the reference twin): the same operations in the same order, with
 * the branches of lq_heightfield_edge_depth written as selects in the same priority. Lines left
 * over (count % LQ_VEC) use lq_heightfield_solve_line itself.
 */
#ifndef LQ_VEC
#define LQ_VEC 1
#endif
#if LQ_VEC == 1
typedef float floatv;
#define LQ_SELECT(a, b, c) ((c) ? (b) : (a))
#elif LQ_VEC == 4
typedef float4 floatv;
#define LQ_SELECT(a, b, c) select((a), (b), (c))
#elif LQ_VEC == 8
typedef float8 floatv;
#define LQ_SELECT(a, b, c) select((a), (b), (c))
#elif LQ_VEC == 16
typedef float16 floatv;
#define LQ_SELECT(a, b, c) select((a), (b), (c))
#else
#error "LQ_VEC must be 1, 4, 8 or 16"
#endif

/* LQ_VEC values at p[0], p[lane_stride], ... (contiguous when lane_stride == 1). The
 * strided form names each lane, so compilers build the vector in registers. */
#define LQ_G(l) p[(l)*lane_stride]
static inline floatv lq_heightfield_loadv(const global float *p, int lane_stride)
{
#if LQ_VEC == 1
    return *p;
#else
    if (lane_stride == 1) return LQ_CONCAT(vload, LQ_VEC)(0, p);
#if LQ_VEC == 4
    return (floatv)(LQ_G(0), LQ_G(1), LQ_G(2), LQ_G(3));
#elif LQ_VEC == 8
    return (floatv)(LQ_G(0), LQ_G(1), LQ_G(2), LQ_G(3), LQ_G(4), LQ_G(5), LQ_G(6), LQ_G(7));
#else
    return (floatv)(LQ_G(0), LQ_G(1), LQ_G(2), LQ_G(3), LQ_G(4), LQ_G(5), LQ_G(6), LQ_G(7), LQ_G(8),
                    LQ_G(9), LQ_G(10), LQ_G(11), LQ_G(12), LQ_G(13), LQ_G(14), LQ_G(15));
#endif
#endif
}

static inline void lq_heightfield_storev(floatv v, global float *p, int lane_stride)
{
#if LQ_VEC == 1
    *p = v;
#else
    if (lane_stride == 1) {
        LQ_CONCAT(vstore, LQ_VEC)(v, 0, p);
        return;
    }
    LQ_G(0) = v.s0;
    LQ_G(1) = v.s1;
    LQ_G(2) = v.s2;
    LQ_G(3) = v.s3;
#if LQ_VEC >= 8
    LQ_G(4) = v.s4;
    LQ_G(5) = v.s5;
    LQ_G(6) = v.s6;
    LQ_G(7) = v.s7;
#endif
#if LQ_VEC == 16
    LQ_G(8) = v.s8;
    LQ_G(9) = v.s9;
    LQ_G(10) = v.sa;
    LQ_G(11) = v.sb;
    LQ_G(12) = v.sc;
    LQ_G(13) = v.sd;
    LQ_G(14) = v.se;
    LQ_G(15) = v.sf;
#endif
#endif
}
#undef LQ_G

static inline floatv lq_heightfield_edge_depthv(floatv ha, floatv ba, floatv hb, floatv bb)
{
    floatv da = ha - ba, db = hb - bb, zero = 0.0f;
    floatv r = zero;
    r = LQ_SELECT(r, 0.5f * db, (db > zero) && (hb > ba));
    r = LQ_SELECT(r, 0.5f * da, (da > zero) && (ha > bb));
    r = LQ_SELECT(r, 0.5f * (da + db), (da > zero) && (db > zero));
    return r;
}

/* lq_heightfield_solve_line for LQ_VEC lines at once: lane l is the line starting at
 * first + l·lane_stride. */
static inline void lq_heightfield_solve_linev(const global float *h1, const global float *b,
                                              const global float *base, global float *out,
                                              global float *cp, int first, int lane_stride,
                                              int stride, int n, float kappa, int add_base,
                                              float e_lo, float e_hi)
{
    floatv a_left = 0.0f, c_prev = 0.0f, d_prev = 0.0f, zero = 0.0f;
    floatv hc = lq_heightfield_loadv(h1 + first, lane_stride),
           bc = lq_heightfield_loadv(b + first, lane_stride);
    floatv ext = e_lo > 0.0f ? e_lo * sqrt(LQ_SELECT(zero, hc - bc, hc > bc)) : zero;
    int idx = first;
    for (int t = 0; t + 1 < n; t++, idx += stride) {
        floatv hn = lq_heightfield_loadv(h1 + idx + stride, lane_stride);
        floatv bn = lq_heightfield_loadv(b + idx + stride, lane_stride);
        floatv a_right = kappa * lq_heightfield_edge_depthv(hc, bc, hn, bn);
        floatv m = ((1.0f + a_left + a_right) + ext) + a_left * c_prev;
        floatv inv = 1.0f / m;
        c_prev = -a_right * inv;
        d_prev = (lq_heightfield_loadv(out + idx, lane_stride) + a_left * d_prev) * inv;
        lq_heightfield_storev(c_prev, cp + idx, lane_stride);
        lq_heightfield_storev(d_prev, out + idx, lane_stride);
        a_left = a_right;
        hc = hn;
        bc = bn;
        ext = zero;
    }
    {
        floatv e1 = e_hi > 0.0f ? e_hi * sqrt(LQ_SELECT(zero, hc - bc, hc > bc)) : zero;
        floatv m = ((1.0f + a_left + 0.0f) + (ext + e1)) + a_left * c_prev;
        d_prev = (lq_heightfield_loadv(out + idx, lane_stride) + a_left * d_prev) * (1.0f / m);
        lq_heightfield_storev(add_base ? lq_heightfield_loadv(base + idx, lane_stride) + d_prev
                                       : d_prev,
                              out + idx, lane_stride);
    }
    floatv x = d_prev;
    idx -= stride;
    for (int t = n - 2; t >= 0; t--, idx -= stride) {
        x = lq_heightfield_loadv(out + idx, lane_stride) -
            lq_heightfield_loadv(cp + idx, lane_stride) * x;
        lq_heightfield_storev(add_base ? lq_heightfield_loadv(base + idx, lane_stride) + x : x,
                              out + idx, lane_stride);
    }
}

/*
 * Rows on CPUs (LQ_XBLOCK): eight rows per work-item in the lanes of float8, read and
 * written as 8 x 8 blocks that are transposed in registers (three rounds of shuffle2),
 * so every memory access is a contiguous vload8/vstore8 of one row while the Thomas
 * recurrence runs down eight rows at once. Needs NX % 8 == 0; the arithmetic per lane
 * is lq_heightfield_solve_line's.
 */
#if LQ_XBLOCK
static inline void lq_heightfield_transpose8(float8 *r)
{
    const uint8 even = (uint8)(0, 8, 2, 10, 4, 12, 6, 14), odd = (uint8)(1, 9, 3, 11, 5, 13, 7, 15);
    const uint8 lo2 = (uint8)(0, 1, 8, 9, 4, 5, 12, 13), hi2 = (uint8)(2, 3, 10, 11, 6, 7, 14, 15);
    const uint8 lo4 = (uint8)(0, 1, 2, 3, 8, 9, 10, 11), hi4 = (uint8)(4, 5, 6, 7, 12, 13, 14, 15);
    float8 a[8], b[8];
#pragma unroll
    for (int i = 0; i < 8; i += 2) {
        a[i] = shuffle2(r[i], r[i + 1], even);
        a[i + 1] = shuffle2(r[i], r[i + 1], odd);
    }
#pragma unroll
    for (int i = 0; i < 8; i += 4) {
        b[i] = shuffle2(a[i], a[i + 2], lo2);
        b[i + 2] = shuffle2(a[i], a[i + 2], hi2);
        b[i + 1] = shuffle2(a[i + 1], a[i + 3], lo2);
        b[i + 3] = shuffle2(a[i + 1], a[i + 3], hi2);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        r[i] = shuffle2(b[i], b[i + 4], lo4);
        r[i + 4] = shuffle2(b[i], b[i + 4], hi4);
    }
}

/* The 8 x 8 block at (row0, col) of p, as eight column vectors (lane = row). */
static inline void lq_heightfield_load_block(const global float *p, int row0, int col, float8 *c)
{
#pragma unroll
    for (int r = 0; r < 8; r++) c[r] = vload8(0, p + (row0 + r) * NX + col);
    lq_heightfield_transpose8(c);
}

static inline void lq_heightfield_store_block(global float *p, int row0, int col, float8 *c)
{
    lq_heightfield_transpose8(c);
#pragma unroll
    for (int r = 0; r < 8; r++) vstore8(c[r], 0, p + (row0 + r) * NX + col);
}

static inline float8 lq_heightfield_edge_depth8(float8 ha, float8 ba, float8 hb, float8 bb)
{
    float8 da = ha - ba, db = hb - bb, zero = 0.0f, r = 0.0f;
    r = select(r, 0.5f * db, (db > zero) && (hb > ba));
    r = select(r, 0.5f * da, (da > zero) && (ha > bb));
    r = select(r, 0.5f * (da + db), (da > zero) && (db > zero));
    return r;
}

static inline void lq_heightfield_solve_rows8(const global float *h1, const global float *b,
                                              global float *out, global float *cp, int row0,
                                              float kappa, float e_lo, float e_hi)
{
    float8 H[8], B[8], HN[8], BN[8], C[8], D[8];
    float8 a_left = 0.0f, c_prev = 0.0f, d_prev = 0.0f, zero = 0.0f;
    lq_heightfield_load_block(h1, row0, 0, H);
    lq_heightfield_load_block(b, row0, 0, B);
    /* open walls before the first and after the last cell: their diagonal terms */
    float8 ext0 = e_lo > 0.0f ? e_lo * sqrt(select(zero, H[0] - B[0], H[0] > B[0])) : zero;
    for (int c0 = 0; c0 < NX; c0 += 8) {
        int last = c0 + 8 >= NX;
        if (!last) {
            lq_heightfield_load_block(h1, row0, c0 + 8, HN);
            lq_heightfield_load_block(b, row0, c0 + 8, BN);
        }
        lq_heightfield_load_block(out, row0, c0, D);
#pragma unroll
        for (int j = 0; j < 8; j++) {
            float8 hn = j < 7 ? H[j + 1] : HN[0], bn = j < 7 ? B[j + 1] : BN[0];
            float8 a_right = (last && j == 7)
                                 ? (float8)0.0f
                                 : kappa * lq_heightfield_edge_depth8(H[j], B[j], hn, bn);
            float8 ext = (c0 == 0 && j == 0) ? ext0 : zero;
            if (last && j == 7) /* the last cell */
                ext = ext +
                      (e_hi > 0.0f ? e_hi * sqrt(select(zero, H[7] - B[7], H[7] > B[7])) : zero);
            float8 m = ((1.0f + a_left + a_right) + ext) + a_left * c_prev;
            float8 inv = 1.0f / m;
            c_prev = -a_right * inv;
            d_prev = (D[j] + a_left * d_prev) * inv;
            C[j] = c_prev;
            D[j] = d_prev;
            a_left = a_right;
        }
        lq_heightfield_store_block(cp, row0, c0, C);
        lq_heightfield_store_block(out, row0, c0, D);
#pragma unroll
        for (int j = 0; j < 8; j++) {
            H[j] = HN[j];
            B[j] = BN[j];
        }
    }
    /* back substitution, block by block from the right */
    float8 x = 0.0f;
    for (int c0 = NX - 8; c0 >= 0; c0 -= 8) {
        lq_heightfield_load_block(cp, row0, c0, C);
        lq_heightfield_load_block(out, row0, c0, D);
#pragma unroll
        for (int j = 7; j >= 0; j--) {
            x = (c0 + j == NX - 1) ? D[j] : D[j] - C[j] * x;
            D[j] = x;
        }
        lq_heightfield_store_block(out, row0, c0, D);
    }
}
#endif

/* R of the delta form (heightfield_cell.h), one work-item per cell, into hn. */
/* Cell kernels on CPUs take LQ_VEC cells of a row per work-item as one vector (the
 * same arithmetic as the per-cell functions, lane by lane); the first and last
 * segment of a row, whose neighbours cross the row's ends, use the per-cell code. */
static inline void lq_heightfield_residual_segment(const global float *h1, const global float *u,
                                                   const global float *w, const global float *b,
                                                   const global float *href, global float *R,
                                                   int i0, int k, float kappa, float cdt, int open,
                                                   float cb)
{
#if LQ_VEC > 1
    if (i0 > 0 && i0 + LQ_VEC < NX && (open == 0 || (k > 0 && k + 1 < NZ))) {
        int idx = i0 + NX * k, fu = i0 + (NX + 1) * k;
        int dn = k > 0 ? -NX : 0, up = k + 1 < NZ ? NX : 0;
        floatv hc = lq_heightfield_loadv(h1 + idx, 1), bc = lq_heightfield_loadv(b + idx, 1);
        floatv hl = lq_heightfield_loadv(h1 + idx - 1, 1),
               hr = lq_heightfield_loadv(h1 + idx + 1, 1);
        floatv hd = lq_heightfield_loadv(h1 + idx + dn, 1),
               ht = lq_heightfield_loadv(h1 + idx + up, 1);
        floatv Dl = lq_heightfield_edge_depthv(hc, bc, hl, lq_heightfield_loadv(b + idx - 1, 1));
        floatv Dr = lq_heightfield_edge_depthv(hc, bc, hr, lq_heightfield_loadv(b + idx + 1, 1));
        floatv Dd = lq_heightfield_edge_depthv(hc, bc, hd, lq_heightfield_loadv(b + idx + dn, 1));
        floatv Dt = lq_heightfield_edge_depthv(hc, bc, ht, lq_heightfield_loadv(b + idx + up, 1));
        floatv flux = Dl * (hl - hc) + Dr * (hr - hc) + Dd * (hd - hc) + Dt * (ht - hc);
        floatv carried =
            Dl * lq_heightfield_loadv(u + fu, 1) - Dr * lq_heightfield_loadv(u + fu + 1, 1) +
            Dd * lq_heightfield_loadv(w + idx, 1) - Dt * lq_heightfield_loadv(w + idx + NX, 1);
        lq_heightfield_storev(cdt * carried + kappa * flux, R + idx, 1);
        return;
    }
#endif
    for (int i = i0; i < i0 + LQ_VEC && i < NX; i++)
        R[i + NX * k] =
            lq_heightfield_residual_cell(h1, u, w, b, href, i, k, NX, NZ, kappa, cdt, open, cb);
}

/* R of the delta form (heightfield_cell.h) into hn. */
kernel void heightfield_residual(global const float *h1, global const float *u,
                                 global const float *w, global const float *b,
                                 global const float *href, global float *hn, float kappa, float cdt,
                                 int open, float cb)
{
    int i0 = get_global_id(0) * LQ_VEC, k = get_global_id(1);
    if (i0 >= NX || k >= NZ) return;
    lq_heightfield_residual_segment(h1, u, w, b, href, hn, i0, k, kappa, cdt, open, cb);
}

/* eq. 19: rows (x direction), in place on hn (R in, Δ* out). */
kernel void heightfield_adi_x(global const float *h1, global const float *b, global float *hn,
                              global float *cp, float kappa, float e_lo, float e_hi)
{
#if LQ_XBLOCK
    int k0 = get_global_id(0) * 8;
    if (k0 >= NZ) return;
    if (k0 + 8 <= NZ) {
        lq_heightfield_solve_rows8(h1, b, hn, cp, k0, kappa, e_lo, e_hi);
        return;
    }
    for (int k = k0; k < NZ; k++)
        lq_heightfield_solve_line(h1, b, h1, hn, cp, k * NX, 1, NX, kappa, 0, e_lo, e_hi);
#else
    int k = get_global_id(0);
    if (k >= NZ) return;
    lq_heightfield_solve_line(h1, b, h1, hn, cp, k * NX, 1, NX, kappa, 0, e_lo, e_hi);
#endif
}

/* eq. 20: columns (z direction), LQ_VEC adjacent columns per work-item, in place on hn
 * (Δ* in, base + Δ out: h(n) = h(n−1) + Δ, or the last iterate plus its correction). */
kernel void heightfield_adi_z(global const float *h1, global const float *b,
                              global const float *base, global float *hn, global float *cp,
                              float kappa, float e_lo, float e_hi)
{
    int i0 = get_global_id(0) * LQ_VEC;
    if (i0 >= NX) return;
    if (i0 + LQ_VEC <= NX) {
        lq_heightfield_solve_linev(h1, b, base, hn, cp, i0, 1, NX, NZ, kappa, 1, e_lo, e_hi);
        return;
    }
    for (int i = i0; i < NX; i++)
        lq_heightfield_solve_line(h1, b, base, hn, cp, i, NX, NZ, kappa, 1, e_lo, e_hi);
}

/*
 * The parallel line solve (shallow.line_solve: pcr; heightfield_cell.h states the method):
 * one work-group of W = LQ_PCR_W{X,Z} work-items per line, the ⌊n/2⌋ odd cells' equations
 * in local memory (LQ_PCR_CAP_{X,Z} of them, 12 bytes each; the host picks this path only
 * where they fit), each work-item holding LQ_PCR_P of them between the PCR steps, so a step
 * reads the last one's equations whole before any is overwritten. Built with caps of 1
 * when the Thomas solve is chosen. Rows are read and written contiguously across the
 * group; columns with stride NX.
 */
#ifndef LQ_PCR_P
#define LQ_PCR_P     1
#define LQ_PCR_CAP_X 1
#define LQ_PCR_CAP_Z 1
#define LQ_PCR_WX    1
#define LQ_PCR_WZ    1
#endif

static inline void lq_heightfield_pcr_solve(const global float *h1, const global float *b,
                                            const global float *base, global float *out,
                                            local lq_heightfield_eq *E, int first, int stride,
                                            int n, int W, float kappa, int add_base, float e_lo,
                                            float e_hi)
{
    const int lid = get_local_id(0), n2 = n / 2;
    const lq_heightfield_eq zero = {0.0f, 0.0f, 0.0f};
    lq_heightfield_eq T[LQ_PCR_P];
    /* 1. one level of cyclic reduction, straight from the line's cells */
    for (int q = 0; q < LQ_PCR_P; q++) {
        int j = lid + q * W;
        if (j < n2)
            E[j] = lq_heightfield_pcr_cr(h1, b, out, first, stride, n, j, kappa, e_lo, e_hi);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* 2. parallel cyclic reduction down to W independent systems */
    for (int s = 1; s < W; s *= 2) {
        for (int q = 0; q < LQ_PCR_P; q++) {
            int j = lid + q * W;
            if (j < n2)
                T[q] = lq_heightfield_pcr_reduce(j >= s ? E[j - s] : zero, E[j],
                                                 j + s < n2 ? E[j + s] : zero);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int q = 0; q < LQ_PCR_P; q++) {
            int j = lid + q * W;
            if (j < n2) E[j] = T[q];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* 3. Thomas on system lid: j ≡ lid (mod W); x into d */
    if (lid < n2) lq_heightfield_pcr_thomas(E, lid, n2, W);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* 4. every cell: odd ones from the reduced system, even ones from their row */
    for (int t = lid; t < n; t += W) {
        int j = t / 2, idx = first + t * stride;
        float x;
        if (t & 1) {
            x = E[j].d;
        } else {
            lq_heightfield_eq e =
                lq_heightfield_pcr_row(h1, b, out, first, stride, n, t, kappa, e_lo, e_hi);
            x = lq_heightfield_pcr_even(e, j > 0 ? E[j - 1].d : 0.0f, j < n2 ? E[j].d : 0.0f);
        }
        out[idx] = add_base ? base[idx] + x : x;
    }
}

/* eq. 19 by the parallel solve: one work-group per row, in place on hn (R in, Δ* out). */
kernel void heightfield_pcr_x(global const float *h1, global const float *b, global float *hn,
                              float kappa, float e_lo, float e_hi)
{
    local lq_heightfield_eq E[LQ_PCR_CAP_X];
    lq_heightfield_pcr_solve(h1, b, h1, hn, E, get_group_id(0) * NX, 1, NX, LQ_PCR_WX, kappa, 0,
                             e_lo, e_hi);
}

/* eq. 20 by the parallel solve: one work-group per column, in place on hn (base + Δ out). */
kernel void heightfield_pcr_z(global const float *h1, global const float *b,
                              global const float *base, global float *hn, float kappa, float e_lo,
                              float e_hi)
{
    local lq_heightfield_eq E[LQ_PCR_CAP_Z];
    lq_heightfield_pcr_solve(h1, b, base, hn, E, get_group_id(0), NX, NZ, LQ_PCR_WZ, kappa, 1, e_lo,
                             e_hi);
}

/* The defect of the unsplit system for the iterate hn, into out (heightfield_cell.h). */
kernel void heightfield_defect(global const float *h1, global const float *hn,
                               global const float *u, global const float *w, global const float *b,
                               global const float *href, global float *out, float kappa, float cdt,
                               float kappa_s, int open, float cb, float cbt)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    out[i + NX * k] = lq_heightfield_defect_cell(h1, hn, u, w, b, href, i, k, NX, NZ, kappa, cdt,
                                                 kappa_s, open, cb, cbt);
}

/* The water open walls took this step, cell by cell along them (heightfield_cell.h): out
 * of its region's old volume (so the projection makes the region's new volume its old
 * minus this) when project, and into the running counters. One work-item per wall cell:
 * x_min, x_max, z_min, z_max in turn, walls that are not open skipped. */
kernel void heightfield_open(global const float *h1, global const float *hn, global const float *b,
                             global const float *href, global const int *L, global long *old_sum,
                             global long *acc_l, int open, float cb, float theta, float scale,
                             int project)
{
    int j = get_global_id(0), idx;
    if (j >= 2 * (NX + NZ)) return;
    int wall = j < NZ ? 0 : (j < 2 * NZ ? 1 : (j < 2 * NZ + NX ? 2 : 3));
    if (!((open >> wall) & 1)) return;
    if (wall < 2)
        idx = (wall == 0 ? 0 : NX - 1) + NX * (j - wall * NZ);
    else
        idx = (j - 2 * NZ - (wall - 2) * NX) + NX * (wall == 2 ? 0 : NZ - 1);
    lq_heightfield_open_account(h1, hn, b, href, L, old_sum, acc_l, idx, cb, theta, scale, project);
}

/* Sources over a rectangle of cells starting at (i0, k0); (ci, ck) centre in cells. */
kernel void heightfield_source(global float *h1, global const float *b, global long *acc_l, int i0,
                               int k0, float ci, float ck, float inv_r2, int mode, float amount,
                               float scale)
{
    int i = i0 + get_global_id(0), k = k0 + get_global_id(1);
    if (i >= NX || k >= NZ) return;
    float dx = (float)i + 0.5f - ci, dz = (float)k + 0.5f - ck;
    lq_heightfield_source_cell(h1, b, acc_l, i + NX * k, dx * dx + dz * dz, inv_r2, mode, amount,
                               scale);
}

/* One work-item per row. */
kernel void heightfield_label_init(global const float *h1, global const float *hn,
                                   global const float *b, global int *L)
{
    int k = get_global_id(0);
    if (k >= NZ) return;
    lq_heightfield_label_init_row(h1, hn, b, L, k, NX);
}

kernel void heightfield_label_merge(global volatile int *L)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_heightfield_label_merge_cell(L, i, k, NX, NZ);
}

kernel void heightfield_label_compress(global volatile int *L, global long *old_sum,
                                       global long *new_sum, global int *wet_count)
{
    int idx = get_global_id(0);
    if (idx >= NX * NZ) return;
    lq_heightfield_label_compress_cell(L, old_sum, new_sum, wet_count, idx);
}

/* One work-item per LQ_HEIGHTFIELD_SEGMENT cells of a row. */
#if LQ_VEC == 16
/* Sum of the fixed-point depths of 16 cells, and how many are wet. */
static inline long lq_heightfield_fixed_sum16(float16 h, float16 b, float scale, int *wet)
{
    float16 d = select((float16)0.0f, h - b, h > b), x = d * scale;
    long16 f = convert_long16_rte(select((float16)0.0f, x, x >= 0.0f && x < 9.0e18f));
    ulong16 uf = as_ulong16(f); /* wrapping sums, as LQ_WRAP_ADD */
    ulong8 a = uf.lo + uf.hi;
    ulong4 c = a.lo + a.hi;
    ulong2 e = c.lo + c.hi;
    int16 w = -(d > (float16)0.0f); /* 1 where wet */
    int8 wa = w.lo + w.hi;
    int4 wc = wa.lo + wa.hi;
    int2 we = wc.lo + wc.hi;
    *wet += we.x + we.y;
    return as_long(e.x + e.y);
}
#endif

/* One work-item per LQ_HEIGHTFIELD_SEGMENT cells of a row. On CPUs a segment whose cells all
 * belong to one region (the common case: inside a lake) is summed as vectors and
 * flushed once; integer sums, so the result is the per-cell code's exactly. */
kernel void heightfield_volume_reduce(global const float *h1, global const float *hn,
                                      global const float *b, global const int *L,
                                      global long *old_sum, global long *new_sum,
                                      global int *wet_count, float scale, int with_old)
{
    int s = get_global_id(0), k = get_global_id(1);
    int i0 = s * LQ_HEIGHTFIELD_SEGMENT;
    if (i0 >= NX || k >= NZ) return;
    int count = min(LQ_HEIGHTFIELD_SEGMENT, NX - i0), first = i0 + NX * k;
#if LQ_VEC == 16 && LQ_HEIGHTFIELD_SEGMENT == 64
    int root = L[first];
    if (count == 64 && root >= 0) {
        int16 r = (int16)root;
        int same = all(vload16(0, L + first) == r) && all(vload16(1, L + first) == r) &&
                   all(vload16(2, L + first) == r) && all(vload16(3, L + first) == r);
        if (same) {
            long sn = 0, so = 0;
            int nw = 0, unused = 0;
            for (int q = 0; q < 4; q++) {
                float16 bq = vload16(q, b + first);
                sn = LQ_WRAP_ADD(
                    sn, lq_heightfield_fixed_sum16(vload16(q, hn + first), bq, scale, &nw));
                if (with_old)
                    so = LQ_WRAP_ADD(
                        so, lq_heightfield_fixed_sum16(vload16(q, h1 + first), bq, scale, &unused));
            }
            if (with_old) atom_add(&old_sum[root], so);
            atom_add(&new_sum[root], sn);
            atomic_add(&wet_count[root], nw);
            return;
        }
    }
#endif
    lq_heightfield_volume_reduce_segment(h1, hn, b, L, old_sum, new_sum, wet_count, first, count,
                                         scale, with_old);
}

kernel void heightfield_volume_apply(global float *hn, global const float *b, global const int *L,
                                     global const long *old_sum, global const long *new_sum,
                                     global const int *wet_count, global long *next_new,
                                     global int *next_wet, global long *acc_l, float inv_scale,
                                     int last_pass)
{
    int idx = get_global_id(0);
    if (idx >= NX * NZ) return;
    lq_heightfield_volume_apply_cell(hn, b, L, old_sum, new_sum, wet_count, next_new, next_wet,
                                     acc_l, idx, inv_scale, last_pass);
}

#if LQ_VEC > 1
static inline floatv lq_heightfield_settlev(floatv h, floatv b, float eps)
{
    return LQ_SELECT(h, b - eps, h < b);
}

static inline floatv lq_heightfield_frictionv(floatv v, floatv D, float fric)
{
    floatv Dp = D * cbrt(D);
    return fric > 0.0f ? LQ_SELECT(v, v * Dp / (Dp + fric * fabs(v)), Dp > 0.0f) : v;
}

static inline floatv lq_heightfield_depthv(floatv h, floatv b)
{
    return LQ_SELECT((floatv)0.0f, h - b, h > b);
}

/* lq_heightfield_thin_film, lane by lane */
static inline floatv lq_heightfield_thin_filmv(floatv v, floatv da, floatv db, float grav,
                                               float thin)
{
    floatv zero = 0.0f;
    floatv D = LQ_SELECT(0.5f * (da + db), LQ_SELECT(db, da, da < db), (da > zero) && (db > zero));
    floatv r = LQ_SELECT((floatv)1.0f, D / thin, D > thin), cap = sqrt(0.5f * grav * D) * (r * r);
    floatv c = LQ_SELECT(LQ_SELECT(v, -cap, v < -cap), cap, v > cap);
    return thin > 0.0f ? c : v;
}
#endif

/* lq_heightfield_finish_cell for LQ_VEC cells of a row (the last segment of a row, whose +x
 * neighbour is the wall, uses the per-cell code). */
kernel void heightfield_finish(global float *hn, global const float *h1, global const float *b,
                               global float *u, global float *w, global int *acc_i, float g_new,
                               float g_old, float keep, float fric, float grav, float thin,
                               float eps, int step, int absorb, float aw, float sponge)
{
    int i0 = get_global_id(0) * LQ_VEC, k = get_global_id(1);
    if (i0 >= NX || k >= NZ) return;
#if LQ_VEC > 1
    if (i0 + LQ_VEC < NX && absorb == 0) { /* absorbing layers: the per-cell code */
        int idx = i0 + NX * k, up = k + 1 < NZ ? NX : 0;
        int fu = i0 + 1 + (NX + 1) * k, fw = idx + NX;
        floatv bc = lq_heightfield_loadv(b + idx, 1), h1c = lq_heightfield_loadv(h1 + idx, 1);
        floatv br = lq_heightfield_loadv(b + idx + 1, 1),
               bt = lq_heightfield_loadv(b + idx + up, 1);
        floatv h1r = lq_heightfield_loadv(h1 + idx + 1, 1),
               h1t = lq_heightfield_loadv(h1 + idx + up, 1);
        floatv hc = lq_heightfield_settlev(lq_heightfield_loadv(hn + idx, 1), bc, eps);
        floatv hr = lq_heightfield_settlev(lq_heightfield_loadv(hn + idx + 1, 1), br, eps);
        floatv ht = lq_heightfield_settlev(lq_heightfield_loadv(hn + idx + up, 1), bt, eps);
        floatv Du = lq_heightfield_edge_depthv(h1c, bc, h1r, br);
        floatv Dw = lq_heightfield_edge_depthv(h1c, bc, h1t, bt);
        floatv vu =
            keep * lq_heightfield_loadv(u + fu, 1) - (g_new * (hr - hc) + g_old * (h1r - h1c));
        floatv vw =
            keep * lq_heightfield_loadv(w + fw, 1) - (g_new * (ht - hc) + g_old * (h1t - h1c));
        floatv dc = lq_heightfield_depthv(hc, bc);
        vu = lq_heightfield_thin_filmv(lq_heightfield_frictionv(vu, Du, fric), dc,
                                       lq_heightfield_depthv(hr, br), grav, thin);
        vw = lq_heightfield_thin_filmv(lq_heightfield_frictionv(vw, Dw, fric), dc,
                                       lq_heightfield_depthv(ht, bt), grav, thin);
        floatv zero = 0.0f;
        lq_heightfield_storev(LQ_SELECT(zero, vu, Du > zero), u + fu, 1);
        lq_heightfield_storev(LQ_SELECT(zero, vw, Dw > zero), w + fw, 1);
        if (any(!isfinite(hc))) atomic_min(&acc_i[LQ_HEIGHTFIELD_ACC_BADSTEP], step);
        lq_heightfield_storev(hc, hn + idx, 1);
        return;
    }
#endif
    for (int i = i0; i < i0 + LQ_VEC && i < NX; i++)
        lq_heightfield_finish_cell(hn, h1, b, u, w, acc_i, i, k, NX, NZ, g_new, g_old, keep, fric,
                                   grav, thin, eps, step, absorb, aw, sponge);
}

kernel void heightfield_advect(global const float *h1, global const float *b, global const float *u,
                               global const float *w, global float *ua, global float *wa,
                               float dt_dx)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_heightfield_advect_cell(h1, b, u, w, ua, wa, i, k, NX, NZ, dt_dx);
}

kernel void heightfield_stats(global const float *h, global const float *b, global const float *u,
                              global const float *w, global long *acc_l, global int *acc_i,
                              float scale)
{
    int s = get_global_id(0), k = get_global_id(1);
    int i0 = s * LQ_HEIGHTFIELD_SEGMENT;
    if (i0 >= NX || k >= NZ) return;
    lq_heightfield_stats_segment(h, b, u, w, acc_l, acc_i, i0, k,
                                 min(LQ_HEIGHTFIELD_SEGMENT, NX - i0), NX, scale);
}
