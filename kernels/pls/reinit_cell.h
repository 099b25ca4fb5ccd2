/*
 * reinit_cell.h — per-cell math of level-set reinitialisation (φ → signed distance with
 * the zero level set kept in place; Rasmussen et al. 2004 §3 keep φ a signed distance,
 * after Osher & Fedkiw 2002 ch. 7), shared by the OpenCL kernels (kernels/pls/reinit.cl)
 * and their reference twins (host/ops/pls/reinit_ref.c). Cells as mac_grid.h, uniform size h,
 * φ at cell centres (m, liquid φ ≤ 0). A neighbour beyond the domain edge is a mirror
 * of the cell itself (zero normal derivative).
 *
 * Interface cells. A cell is "near" when one of its 6 neighbours has φ0 of the
 * opposite sign (φ0_c φ0_n < 0) or φ0_c = 0. Its sub-cell distance is D_c = φ0_c / |∇φ0|
 * (Russo & Smereka 2000) with the gradient taken per axis from the one-sided difference
 * toward the nearer crossing where the axis has one, the central difference elsewhere
 * (lq_reinit_near). Exact for a plane at any scaling. Measured against the alternatives
 * (test_reinit_ops, distorted sphere R = 10.8 h): Russo–Smereka's max of one- and
 * two-sided differences on every axis moved the interface 0.093 h (it overestimates
 * |∇φ0| where φ0 is not a distance), the plane through the axis crossings 0.067 h but
 * with |φ − d| up to 0.38 h (an axis without a crossing is ignored).
 *
 * Kept interface cells (keep > 0): a near cell whose |∇φ0| (the same one-sided
 * differences) is within keep of 1 keeps D = φ0_c, so where φ is already close to a
 * distance the reinitialisation leaves the zero crossings between near cells exactly
 * where they were; elsewhere Russo–Smereka's D, which moves them slightly whenever φ0 is
 * not exactly the discrete distance (curved or cornered surfaces) — every call, so a
 * drop at rest reinitialised every step shrinks (24³ grid, R = 7 h: −4.1 % in 36 steps
 * with keep 0, 0 with keep 0.2; test_reinit_ops: 50 calls on a sphere change none of
 * its 827 interface cells with keep 0.2, every one with 0).
 *
 * PDE (LQ_REINIT_PDE): φ_τ + S(φ0)(|∇φ| − 1) = 0, S = sign φ0, first-order Godunov
 * upwinding (S > 0: |∇φ|² = Σ_a max(max(D⁻φ, 0)², min(D⁺φ, 0)²), S < 0 with the
 * roles swapped), TVD-RK2 in pseudo-time (φ¹ = φⁿ − Δτ L(φⁿ), φⁿ⁺¹ = ½(φⁿ + φ¹ −
 * Δτ L(φ¹))), Δτ = cfl·h; near cells use the sub-cell fix L = (S |φ| − D)/h instead,
 * which pins the interface to the φ0 = 0 crossing.
 *
 * FIM (LQ_REINIT_FIM, a Jacobi "fast iterative" eikonal solve): near cells are set to
 * D once and kept; every other cell starts at S·band·h and each iteration replaces its
 * magnitude by min(|φ|, U), U the upwind solution of the Godunov eikonal equation
 * Σ_a ((U − m_a)⁺)² = h² from the smaller neighbour magnitude m_a per axis (sorted
 * closed form). Values only decrease and reach the discrete distance in a bounded
 * number of sweeps (the fast marching result, computed in parallel).
 *
 * Band: every result is clamped to [−band·h, band·h].
 *
 * Departure (lq_reinit_departure_cell): ||∇φ| − 1| at a cell with |φ| < w (central
 * differences, one-sided at the domain edge, an axis of one cell left out), to decide
 * when φ has drifted far enough from a distance to need reinitialising; summed in fixed
 * point (LQ_REINIT_DEP_FIXED per unit, integer atomics: order-free) with the count of
 * cells.
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, comparisons instead of fmin/fmax; sqrt and the divides (by Σ g², by 3) are
 * correctly rounded on both sides (PoCL builds with -cl-fp32-correctly-rounded-divide-
 * sqrt, C's are IEEE). The reported change is an atomic max of non-negative float bits
 * (order-free).
 */
#ifndef LQ_REINIT_CELL_H
#define LQ_REINIT_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"

#define LQ_REINIT_PDE 0
#define LQ_REINIT_FIM 1

#define LQ_REINIT_DEP_FIXED 1048576.0f /* fixed-point units of the departure sum (2²⁰) */
#define LQ_REINIT_DEP_MAX   1000.0f    /* a cell's departure is counted up to this */
#define LQ_REINIT_DEP_BLOCK 256        /* cells per work-item of the departure sum */

LQ_INLINE float lq_reinit_absf(float x)
{
    return x < 0.0f ? -x : x;
}
LQ_INLINE float lq_reinit_maxf(float a, float b)
{
    return a > b ? a : b;
}
LQ_INLINE float lq_reinit_minf(float a, float b)
{
    return a < b ? a : b;
}
LQ_INLINE float lq_reinit_sign(float x)
{
    return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
}
LQ_INLINE float lq_reinit_clamp(float x, float b)
{
    if (x > b) return b;
    if (x < -b) return -b;
    return x;
}

/* The six neighbour indices of cell (i, j, k) (−x, +x, −y, +y, −z, +z), the cell itself
 * beyond the domain edge. */
LQ_INLINE void lq_reinit_nbrs(int *nb, int i, int j, int k, int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), sz = nx * ny;
    nb[0] = i > 0 ? c - 1 : c;
    nb[1] = i < nx - 1 ? c + 1 : c;
    nb[2] = j > 0 ? c - nx : c;
    nb[3] = j < ny - 1 ? c + nx : c;
    nb[4] = k > 0 ? c - sz : c;
    nb[5] = k < nz - 1 ? c + sz : c;
}

/* Is the cell next to the interface; *d gets its sub-cell distance (m) when it is:
 * D = h φ0_c / sqrt(Σ_a g_a²) with g_a per axis the one-sided difference toward the nearer
 * zero crossing (the larger |φ0_c − φ0_n| over neighbours of the opposite sign) where the
 * axis has one, and the central difference (one-sided at the domain edge) where it does
 * not; 0 when φ0_c = 0. */
LQ_INLINE int lq_reinit_near(const LQ_GLOBAL float *phi0, const int *nb, int c, float h, float keep,
                             float *d)
{
    float p = phi0[c];
    int near = p == 0.0f;
    for (int n = 0; n < 6; n++) near |= p * phi0[nb[n]] < 0.0f;
    if (!near) return 0;
    if (p == 0.0f) {
        *d = 0.0f;
        return 1;
    }
    float s = 0.0f;
    for (int a = 0; a < 3; a++) {
        float m = phi0[nb[2 * a]], q = phi0[nb[2 * a + 1]], g = 0.0f;
        if (p * m < 0.0f) g = lq_reinit_absf(p - m);
        if (p * q < 0.0f) g = lq_reinit_maxf(g, lq_reinit_absf(q - p));
        if (g == 0.0f) {
            int one = nb[2 * a] == c || nb[2 * a + 1] == c;
            g = lq_reinit_absf(q - m);
            if (!one) g = 0.5f * g;
        }
        s = s + g * g;
    }
    /* kept: |∇φ0| within keep of 1 (g² between (1 − keep)² h² and (1 + keep)² h²) */
    float lo = (1.0f - keep) * h, hi = (1.0f + keep) * h;
    if (keep > 0.0f && s >= lo * lo && s <= hi * hi) {
        *d = p;
        return 1;
    }
    *d = h * p / LQ_SQRTF(s);
    return 1;
}

/* One forward-Euler pseudo-time step of the PDE at cell c from field f (m): the new
 * value, clamped to ±bh. dth = Δτ/h. */
LQ_INLINE float lq_reinit_pde_step(const LQ_GLOBAL float *phi0, const LQ_GLOBAL float *f,
                                   const int *nb, int c, float h, float ih, float dth, float bh,
                                   float keep)
{
    float p0 = phi0[c], s = lq_reinit_sign(p0), p = f[c], d;
    if (lq_reinit_near(phi0, nb, c, h, keep, &d))
        return lq_reinit_clamp(p - dth * (s * lq_reinit_absf(p) - d), bh);
    float g2 = 0.0f;
    for (int a = 0; a < 3; a++) {
        float dm = (p - f[nb[2 * a]]) * ih, dp = (f[nb[2 * a + 1]] - p) * ih, x, y;
        if (s > 0.0f) {
            x = lq_reinit_maxf(dm, 0.0f);
            y = lq_reinit_minf(dp, 0.0f);
        } else {
            x = lq_reinit_minf(dm, 0.0f);
            y = lq_reinit_maxf(dp, 0.0f);
        }
        g2 = g2 + lq_reinit_maxf(x * x, y * y);
    }
    float G = LQ_SQRTF(g2) - 1.0f;
    return lq_reinit_clamp(p - (dth * h) * (s * G), bh);
}

/* Start: phi0 = φ (kept for the whole reinitialisation); φ clamped to the band (PDE) or
 * set to D near the interface and S·bh elsewhere (FIM). */
LQ_INLINE void lq_reinit_init_cell(LQ_GLOBAL float *phi, LQ_GLOBAL float *phi0, int method, int i,
                                   int j, int k, int nx, int ny, float bh)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    float p = phi[c];
    phi0[c] = p;
    if (method == LQ_REINIT_PDE)
        phi[c] = lq_reinit_clamp(p, bh);
    else
        phi[c] = lq_reinit_sign(p) * bh; /* near cells are set by lq_reinit_fim_seed_cell */
}

/* FIM start, after init (reads phi0 only): near cells to their sub-cell distance. */
LQ_INLINE void lq_reinit_fim_seed_cell(LQ_GLOBAL float *phi, const LQ_GLOBAL float *phi0, int i,
                                       int j, int k, int nx, int ny, int nz, float h, float bh,
                                       float keep)
{
    int nb[6], c = LQ_MAC_CELL(i, j, k, nx, ny);
    float d;
    lq_reinit_nbrs(nb, i, j, k, nx, ny, nz);
    if (lq_reinit_near(phi0, nb, c, h, keep, &d)) phi[c] = lq_reinit_clamp(d, bh);
}

/* Records |a − b| into the max (float bits of a non-negative value order as uints). */
LQ_INLINE void lq_reinit_note_change(LQ_GLOBAL LQ_VOLATILE lq_uint *mx, float a, float b)
{
    float e = lq_reinit_absf(a - b);
    if (e > 0.0f) LQ_ATOMIC_MAX_UINT(mx, LQ_FLOAT_BITS(e));
}

/* PDE stage 1: f1 = φⁿ − Δτ L(φⁿ). */
LQ_INLINE void lq_reinit_pde_stage1(LQ_GLOBAL float *f1, const LQ_GLOBAL float *phi,
                                    const LQ_GLOBAL float *phi0, int i, int j, int k, int nx,
                                    int ny, int nz, float h, float ih, float dth, float bh,
                                    float keep)
{
    int nb[6], c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_reinit_nbrs(nb, i, j, k, nx, ny, nz);
    f1[c] = lq_reinit_pde_step(phi0, phi, nb, c, h, ih, dth, bh, keep);
}

/* PDE stage 2, in place on φ (reads only φ at c): φⁿ⁺¹ = ½(φⁿ + f1 − Δτ L(f1)). */
LQ_INLINE void lq_reinit_pde_stage2(LQ_GLOBAL float *phi, const LQ_GLOBAL float *f1,
                                    const LQ_GLOBAL float *phi0, LQ_GLOBAL LQ_VOLATILE lq_uint *mx,
                                    int note, int i, int j, int k, int nx, int ny, int nz, float h,
                                    float ih, float dth, float bh, float keep)
{
    int nb[6], c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_reinit_nbrs(nb, i, j, k, nx, ny, nz);
    float old = phi[c];
    float r = lq_reinit_clamp(
        0.5f * (old + lq_reinit_pde_step(phi0, f1, nb, c, h, ih, dth, bh, keep)), bh);
    phi[c] = r;
    if (note) lq_reinit_note_change(mx, r, old);
}

/* Sorts three floats ascending. */
LQ_INLINE void lq_reinit_sort3(float *a, float *b, float *c)
{
    float t;
    if (*a > *b) t = *a, *a = *b, *b = t;
    if (*b > *c) t = *b, *b = *c, *c = t;
    if (*a > *b) t = *a, *a = *b, *b = t;
}

/* FIM sweep: out = min(|in|, U) with the sign of φ0 at cells not near the interface,
 * in unchanged at near cells. h2 = h². */
LQ_INLINE void lq_reinit_fim_cell(LQ_GLOBAL float *out, const LQ_GLOBAL float *in,
                                  const LQ_GLOBAL float *phi0, LQ_GLOBAL LQ_VOLATILE lq_uint *mx,
                                  int note, int i, int j, int k, int nx, int ny, int nz, float h,
                                  float h2, float bh)
{
    int nb[6], c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_reinit_nbrs(nb, i, j, k, nx, ny, nz);
    float p0 = phi0[c], p = in[c];
    int near = p0 == 0.0f;
    for (int n = 0; n < 6; n++) near |= p0 * phi0[nb[n]] < 0.0f;
    if (near) {
        out[c] = p;
        return;
    }
    float s = lq_reinit_sign(p0), m[3];
    for (int a = 0; a < 3; a++) {
        int lo = nb[2 * a], hi = nb[2 * a + 1];
        float x = lo == c ? bh : s * in[lo], y = hi == c ? bh : s * in[hi];
        m[a] = lq_reinit_minf(x, y);
    }
    lq_reinit_sort3(&m[0], &m[1], &m[2]);
    float U = m[0] + h;
    if (U > m[1]) {
        float d = m[0] - m[1];
        U = 0.5f * (m[0] + m[1] + LQ_SQRTF(2.0f * h2 - d * d));
        if (U > m[2]) {
            float t = m[0] + m[1] + m[2];
            float q = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] - h2;
            U = (t + LQ_SQRTF(lq_reinit_maxf(t * t - 3.0f * q, 0.0f))) / 3.0f;
        }
    }
    float a = s * p, r = s * lq_reinit_minf(lq_reinit_minf(a, U), bh);
    out[c] = r;
    if (note) lq_reinit_note_change(mx, r, p);
}

/* ||∇φ| − 1| at cell (i, j, k) in fixed point, *in = 1, when |φ| < w; else 0, *in = 0. */
LQ_INLINE lq_long lq_reinit_departure_cell(const LQ_GLOBAL float *phi, int i, int j, int k, int nx,
                                           int ny, int nz, float ih, float w, int *in)
{
    int nb[6], c = LQ_MAC_CELL(i, j, k, nx, ny);
    float p = phi[c];
    *in = 0;
    if (!(lq_reinit_absf(p) < w)) return 0;
    lq_reinit_nbrs(nb, i, j, k, nx, ny, nz);
    float g2 = 0.0f;
    for (int a = 0; a < 3; a++) {
        int lo = nb[2 * a], hi = nb[2 * a + 1];
        float g;
        if (lo == c && hi == c)
            g = 0.0f;
        else if (lo == c)
            g = (phi[hi] - p) * ih;
        else if (hi == c)
            g = (p - phi[lo]) * ih;
        else
            g = (phi[hi] - phi[lo]) * (0.5f * ih);
        g2 = g2 + g * g;
    }
    float e = lq_reinit_absf(LQ_SQRTF(g2) - 1.0f);
    *in = 1;
    return LQ_FIXED(lq_reinit_minf(e, LQ_REINIT_DEP_MAX) * LQ_REINIT_DEP_FIXED);
}

#endif
