/*
 * pressure_cell.h — per-cell math of the pressure iteration (Foster & Metaxas 1996
 * §3.1, eq. 5–9; boundaries §3.2), shared by the OpenCL kernels (kernels/mac/pressure.cl)
 * and their reference twins (host/ops/mac/pressure_ref.c). Grid and cell kinds: mac_grid.h.
 *
 * Eq. 5: D = −((u_{i+1/2} − u_{i−1/2})/δx + (v_{j+1/2} − v_{j−1/2})/δy
 *              + (w_{k+1/2} − w_{k−1/2})/δz)            (1/s; D > 0 is an influx)
 * Eq. 6–7: δp = β D, β = β0 / (2 δt (1/δx² + 1/δy² + 1/δz²)) (an axis one cell thick,
 *          as z in 2D, has no free faces and leaves its term out: host/ops/mac/pressure.c).
 * Eq. 8: each face of the cell moves by ±(δt/δ) δp, outward positive; eq. 9: p += δp.
 * p is kinematic (pressure over density, m²/s²), as in eq. 2.
 *
 * Which faces move. Only FULL cells are relaxed (§6 step 6). A FULL cell moves a face
 * unless the cell across it is
 *   SOLID   (§3.2.1: the normal velocity of an obstacle face stays 0),
 *   INFLOW  (§3.2.2: the inflow velocity is held fixed),
 *   outside the grid (the domain edge is a wall; scenes bound it with SOLID cells).
 * Faces toward OUTFLOW cells relax freely (§3.2.2: the liquid leaves at the rate
 * continuity asks; the solver gives an OUTFLOW cell its liquid neighbour's pressure before
 * eq. 2, host/ops/mac/macbc.h, so the outflow is not also driven by a drop to atmospheric pressure
 * at every depth: with p = 0 there a whole sea drained in a second). Faces toward SURFACE (and
 * EMPTY) cells are the FULL cell's own faces and move with its δp by eq. 8: the surface cell's
 * pressure is the applied one (§3.2.3) and is not relaxed; the free-surface velocity
 * rules (eq. 10 and the 64 Empty-Fluid cases) are a separate module the solver applies
 * after the iteration. With mac.surface_solve the solver hands the iteration flags with
 * SURFACE read as FULL (lq_pressure_surface_prep_cell below): the surface cells are relaxed too.
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, no division (the host passes reciprocals). In a red-black colour pass no two
 * cells of the colour share a face (neighbours differ in the parity of i + j + k), so
 * every face and every D read is written by at most one work-item per pass and the
 * order of cells within a pass does not matter. The Jacobi variant reads only the previous
 * velocities (pass 1) and then the stored δp (pass 2, each face written by the cell
 * above it). The max |D| is a max, which does not depend on order.
 */
#ifndef LQ_PRESSURE_CELL_H
#define LQ_PRESSURE_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"

#define LQ_PRESSURE_INF_BITS 0x7f800000u /* bits of +inf: what a non-finite D reduces to */
#define LQ_PRESSURE_BLOCK    256         /* cells per work-item of the max |D| pass */

/* The device-side stop of the iteration (pressure.cl pressure_check; host/ops/mac/pressure.c):
 * int ctl[8] — its state, the sweeps and the checks made, the last and the first max |D|. */
#define LQ_PRESSURE_CTL_STATE  0
#define LQ_PRESSURE_CTL_SWEEPS 1
#define LQ_PRESSURE_CTL_CHECKS 2
#define LQ_PRESSURE_CTL_MAX    3 /* the bits of the last max |D| */
#define LQ_PRESSURE_CTL_MAX0   4 /* the bits of the start's max |D| */
#define LQ_PRESSURE_CTL_COUNT  8
#define LQ_PRESSURE_RUN        0
#define LQ_PRESSURE_STOPPED    1

/* Can a FULL cell move its face toward a cell of this kind? */
LQ_INLINE int lq_pressure_free(int kind)
{
    return kind != LQ_MAC_SOLID && kind != LQ_MAC_INFLOW;
}

/* Does the face between cells of kinds a and b move in the Jacobi variant: one of
 * them is relaxed and neither holds it fixed (the same faces the red-black pass
 * moves). */
LQ_INLINE int lq_pressure_face_moves(int a, int b)
{
    return (a == LQ_MAC_FULL || b == LQ_MAC_FULL) && lq_pressure_free(a) && lq_pressure_free(b);
}

/* mac.surface_solve (Foster & Fedkiw 2001's free surface): the iteration sees a SURFACE
 * cell as FULL, so it is relaxed too and moves its faces toward EMPTY cells by its own δp,
 * while the EMPTY cells, never relaxed, hold the atmosphere's side of the pressure line
 * through the surface (set here, before the momentum step, which reads it across the
 * surface, lagged a step as the fill pressure is, kernels/mac/macsurface_cell.h): 0, except above
 * an up-facing surface cell U (SURFACE, FULL cell F below, EMPTY cell E above) whose marker
 * fill f puts the surface f δy above U's bottom.
 *
 * Where the relaxation's own air sits decides a sub-cell wave's period. δp is 0 in E, so
 * with U's faces unweighted (mac.surface_solve_ghost: empty) the air of U above the surface
 * and of E below its centre, 3/2 − f cells, is accelerated with the liquid: a lid of that
 * much mass on the surface. Measured (tests/validation/test_mac_validation.c, 2D, a k = 0.03): a
 * wave with its still level mid-cell ran +6.9 % slow (the lid model, ω² = g k tanh kh / (1 + k d
 * tanh kh) with d = 1 cell, gives +7.6 %); mode 2 resolved, d = ½, +2.7 %. Weighting U's +y
 * face by 1/f (a lid of ½ cell always) made it worse (+9.2 %: with the head capped; +3.9 %
 * uncapped, and the resolved mode 2 still +3.1 %).
 * `fill` (the default) is the ghost fluid method proper (Gibou et al. 2002): the surface
 * lies θ = f − ½ above U's centre; when θ ≥ LQ_PRESSURE_THETA_MIN, U is relaxed and its +y face
 * moves by (1/θ)(δt/δy) δp, U's β scaled to its diagonal, and E holds the line from U's
 * centre p_E = p_U (1 − 1/θ) (p_U capped at ± its hydrostatic |g| θ δy), so the momentum
 * step and the iteration together give the face −(1/θ)(0 − p_U)/δy. Otherwise U's centre is
 * in the air: U is held (not relaxed; Gates' rules close it, as without the option) at the
 * line from F's centre, p_U = p_F (f − ½)/(f + ½), and F's +y face moves by 1/(f + ½); E
 * holds the line's p_F (f − 3/2)/(f + ½) (p_F capped at |g| (f + ½) δy). At rest both give
 * the hydrostatic pressure with the surface at f. `empty`: U always relaxed, unweighted,
 * E on the line from F.
 *
 * Per cell the prep writes out (the kind the iteration reads), sw[c] (the weight of c's +y
 * face: the face U–E or F–U) and sw[n + c] (c's β factor), p of E cells and held U cells.
 * The host's table (lq_pressure_surface_table) holds, per marker count m, LQ_PRESSURE_ST floats:
 * weight, β factor, relaxed (1/0), E's line from F (1/0), E's ratio, E's cap, a held U's
 * ratio, its cap. Off (the default), the iteration reads the flags as they are: only FULL
 * cells are relaxed and a surface cell keeps its applied pressure (§3.2.3). Race-free: each
 * work-item writes only its own cell; p is read from relaxed U and F cells, never written
 * there. */
#define LQ_PRESSURE_THETA_MIN 0.02 /* the least θ (cells) a relaxed surface cell is weighted by */

LQ_INLINE unsigned char lq_pressure_surface_kind(unsigned char kind)
{
    return kind == LQ_MAC_SURFACE ? (unsigned char)LQ_MAC_FULL : kind;
}

#define LQ_PRESSURE_ST                                                                             \
    8 /* floats per marker count in the surface table (lq_pressure_surface_table) */

/* Is c an up-facing surface cell: SURFACE, FULL below it, EMPTY above it (n cells)? */
LQ_INLINE int lq_pressure_up_facing(const LQ_GLOBAL unsigned char *flags, int c, int nx, int n)
{
    return c >= nx && c + nx < n && flags[c] == LQ_MAC_SURFACE && flags[c - nx] == LQ_MAC_FULL &&
           flags[c + nx] == LQ_MAC_EMPTY;
}

LQ_INLINE int lq_pressure_clamp_count(int m, int per_cell)
{
    return m < 0 ? 0 : (m > per_cell ? per_cell : m);
}

/* Does cell c (not on the grid's edge: the outer layer is SOLID) share a face with a FULL
 * cell? sz = nx ny, the z stride; 2D (one plane) has no z neighbours. */
LQ_INLINE int lq_pressure_touches_full(const LQ_GLOBAL unsigned char *flags, int c, int nx, int sz,
                                       int n)
{
    int i = c % nx;
    return (i > 0 && flags[c - 1] == LQ_MAC_FULL) || (i < nx - 1 && flags[c + 1] == LQ_MAC_FULL) ||
           (c % sz >= nx && flags[c - nx] == LQ_MAC_FULL) ||
           (c % sz < sz - nx && flags[c + nx] == LQ_MAC_FULL) ||
           (c >= sz && flags[c - sz] == LQ_MAC_FULL) ||
           (c + sz < n && flags[c + sz] == LQ_MAC_FULL);
}

/* Has cell c (not on the grid's edge) EMPTY cells on both sides along some axis (Gates' open
 * pair, which eq. 2 moves by the body force only, kernels/mac/momentum_cell.h)? */
LQ_INLINE int lq_pressure_open_pair(const LQ_GLOBAL unsigned char *flags, int c, int nx, int sz,
                                    int n)
{
    int i = c % nx, e = LQ_MAC_EMPTY;
    return (i > 0 && i < nx - 1 && flags[c - 1] == e && flags[c + 1] == e) ||
           (c % sz >= nx && c % sz < sz - nx && flags[c - nx] == e && flags[c + nx] == e) ||
           (c >= sz && c + sz < n && flags[c - sz] == e && flags[c + sz] == e);
}

/* A SURFACE cell that is not up-facing and has no FULL neighbour (a drop, spray) or has
 * EMPTY cells on both sides along an axis (a jet or film one cell thick: Gates' open pair) is
 * held at the atmosphere's 0 and closed by Gates' rules, the paper's way (§3.2.3). Eq. 2 moves
 * an open pair's faces by the body force only (kernels/mac/momentum_cell.h), so relaxed, the
 * iteration moved faces that its p never acted on and p drifted: in the a = 40 dam break a
 * two-cell drop at the far wall reached p = −15 m²/s² and eq. 2 threw its faces to 12–14 m/s
 * (frames 96, 103); the falling tip of scenes/mac_water_jet.yaml went to p = −4 and drew the
 * air beside it in (its bottom face 5.2–5.6 m/s against a free fall of 3.1). Held: the dam
 * break's largest speed 2.23 m/s (the paper's way 2.18), the jet's 4.88 (was 5.76). An
 * up-facing cell keeps the ghost fluid (an EMPTY cell above it reads its p). */
LQ_INLINE void lq_pressure_surface_prep_cell(const LQ_GLOBAL unsigned char *flags,
                                             LQ_GLOBAL unsigned char *out, LQ_GLOBAL float *p,
                                             LQ_GLOBAL float *sw, const LQ_GLOBAL int *count,
                                             const LQ_GLOBAL float *t, int c, int nx, int sz, int n,
                                             int per_cell)
{
    unsigned char f = flags[c];
    float w = 1.0f, b = 1.0f;
    out[c] = lq_pressure_surface_kind(f);
    if (f == LQ_MAC_SURFACE && !lq_pressure_up_facing(flags, c, nx, n) &&
        (!lq_pressure_touches_full(flags, c, nx, sz, n) ||
         lq_pressure_open_pair(flags, c, nx, sz, n))) {
        out[c] = f;
        p[c] = 0.0f;
    } else if (per_cell > 0 && f == LQ_MAC_SURFACE && lq_pressure_up_facing(flags, c, nx, n)) {
        const LQ_GLOBAL float *r = t + LQ_PRESSURE_ST * lq_pressure_clamp_count(count[c], per_cell);
        if (r[2] != 0.0f) { /* relaxed, its +y face weighted */
            w = r[0];
            b = r[1];
        } else { /* held at the line from the FULL cell below through the surface */
            out[c] = f;
            float head = p[c - nx];
            if (head > r[7]) head = r[7];
            p[c] = head * r[6];
        }
    } else if (per_cell > 0 && f == LQ_MAC_FULL && c + nx < n &&
               lq_pressure_up_facing(flags, c + nx, nx, n)) {
        const LQ_GLOBAL float *r =
            t + LQ_PRESSURE_ST * lq_pressure_clamp_count(count[c + nx], per_cell);
        if (r[2] == 0.0f) { /* the surface cell above is held: this cell's +y face weighted */
            w = r[0];
            b = r[1];
        }
    } else if (f == LQ_MAC_EMPTY) {
        float q = 0.0f;
        if (per_cell > 0 && c >= nx && lq_pressure_up_facing(flags, c - nx, nx, n)) {
            const LQ_GLOBAL float *r =
                t + LQ_PRESSURE_ST * lq_pressure_clamp_count(count[c - nx], per_cell);
            float head = r[3] != 0.0f ? p[c - 2 * nx] : p[c - nx];
            if (head > r[5]) head = r[5];
            if (r[3] == 0.0f && head < -r[5]) head = -r[5];
            q = head * r[4];
        }
        p[c] = q;
    }
    sw[c] = w;
    sw[n + c] = b;
}

/* Eq. 5 for cell (i, j, k); idx = 1/δx, ... */
LQ_INLINE float lq_pressure_div(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                const LQ_GLOBAL float *w, int i, int j, int k, int nx, int ny,
                                float idx, float idy, float idz)
{
    int qu = LQ_MAC_U(i, j, k, nx, ny), qv = LQ_MAC_V(i, j, k, nx, ny),
        qw = LQ_MAC_W(i, j, k, nx, ny);
    float dudx = (u[qu + 1] - u[qu]) * idx;
    float dvdy = (v[qv + nx] - v[qv]) * idy;
    float dwdz = (w[qw + nx * ny] - w[qw]) * idz;
    return -((dudx + dvdy) + dwdz);
}

/* The round-off bound of eq. 5 in cell (i, j, k): LQ_PRESSURE_ROUNDOFF float32 epsilons of each
 * face speed over its cell size, summed (1/s). A face stored in float32 is resolved only to half an
 * ulp, ≤ ½ 2⁻²³ |u|, and every relaxation of a neighbour rounds it again, so the iteration
 * cannot take D below a few of these: measured in the a = 40 dam break (1.43 mm cells, faces
 * ~0.5 m/s) red-black sweeps stalled at 1.5–2.2 of (2⁻²³ Σ|u_f|)/δ, 1.5e-4–2.4e-4 1/s,
 * above ε = 1e-4, and every step from frame 12 ran to mac.max_sweeps. */
#define LQ_PRESSURE_ROUNDOFF 4.0f
#define LQ_PRESSURE_FLT_EPS  1.1920929e-7f /* 2⁻²³, FLT_EPSILON */

LQ_INLINE float lq_pressure_roundoff(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                     const LQ_GLOBAL float *w, int i, int j, int k, int nx, int ny,
                                     float idx, float idy, float idz)
{
    int qu = LQ_MAC_U(i, j, k, nx, ny), qv = LQ_MAC_V(i, j, k, nx, ny),
        qw = LQ_MAC_W(i, j, k, nx, ny);
    float su = (LQ_FABSF(u[qu]) + LQ_FABSF(u[qu + 1])) * idx;
    float sv = (LQ_FABSF(v[qv]) + LQ_FABSF(v[qv + nx])) * idy;
    float s = (su + sv) + (LQ_FABSF(w[qw]) + LQ_FABSF(w[qw + nx * ny])) * idz;
    return (LQ_PRESSURE_ROUNDOFF * LQ_PRESSURE_FLT_EPS) * s;
}

/* The residual the iteration stops on, stored in div and returned: in a FULL cell eq. 5's D
 * less its round-off bound (lq_pressure_roundoff; 0 when D is within it, the sign of D kept), 0
 * elsewhere. The iteration stops when every cell's is below ε: |D| < ε + the bound, so ε
 * (absolute, 1/s) is what float32 can resolve at any speed and cell size. */
LQ_INLINE float lq_pressure_div_cell(LQ_GLOBAL float *div, const LQ_GLOBAL float *u,
                                     const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                     const LQ_GLOBAL unsigned char *flags, int i, int j, int k,
                                     int nx, int ny, float idx, float idy, float idz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    float d = 0.0f;
    if (flags[c] == LQ_MAC_FULL) {
        float x = lq_pressure_div(u, v, w, i, j, k, nx, ny, idx, idy, idz);
        float r = lq_pressure_roundoff(u, v, w, i, j, k, nx, ny, idx, idy, idz);
        float a = (x < 0.0f ? -x : x) - r;
        d = !(a > 0.0f) ? (LQ_IS_FINITE(x) ? 0.0f : x) : (x < 0.0f ? -a : a);
    }
    div[c] = d;
    return d;
}

/* |d| as ordered bits (non-negative floats sort as their bit patterns): 0 for ±0,
 * +inf for inf and NaN, so a max over cells is exact and order-independent. */
LQ_INLINE lq_uint lq_pressure_abs_bits(float d)
{
    if (!LQ_IS_FINITE(d)) return LQ_PRESSURE_INF_BITS;
    if (d == 0.0f) return 0u;
    return LQ_FLOAT_BITS(d < 0.0f ? -d : d);
}

/* Eq. 6–9 for one FULL cell of the colour being relaxed (the caller picks the colour):
 * beta = β of eq. 7, tx = δt/δx, ... sw: the surface weights of mac.surface_solve
 * (lq_pressure_surface_prep_cell: sw[c] the weight of cell c's +y face, sw[n + c] the factor on
 * its β), or NULL (0 in OpenCL): all 1. A weight w moves that face by w (δt/δy) δp (the
 * ghost fluid's 1/θ) and the cell's β is scaled to its larger diagonal; w = 1 gives the
 * unweighted result bit for bit. */
LQ_INLINE void lq_pressure_rb_cell(LQ_GLOBAL float *u, LQ_GLOBAL float *v, LQ_GLOBAL float *w,
                                   LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                   const LQ_GLOBAL float *sw, int i, int j, int k, int nx, int ny,
                                   int nz, float idx, float idy, float idz, float beta, float tx,
                                   float ty, float tz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (flags[c] != LQ_MAC_FULL) return;
    float b = beta, wlo = 1.0f, whi = 1.0f;
    if (sw) {
        b = beta * sw[nx * ny * nz + c];
        whi = sw[c];
        if (j > 0) wlo = sw[c - nx];
    }
    float dp = b * lq_pressure_div(u, v, w, i, j, k, nx, ny, idx, idy, idz);
    int qu = LQ_MAC_U(i, j, k, nx, ny), qv = LQ_MAC_V(i, j, k, nx, ny),
        qw = LQ_MAC_W(i, j, k, nx, ny), sz = nx * ny;
    if (i > 0 && lq_pressure_free(flags[c - 1])) u[qu] = u[qu] - tx * dp;
    if (i < nx - 1 && lq_pressure_free(flags[c + 1])) u[qu + 1] = u[qu + 1] + tx * dp;
    if (j > 0 && lq_pressure_free(flags[c - nx])) v[qv] = v[qv] - ty * (wlo * dp);
    if (j < ny - 1 && lq_pressure_free(flags[c + nx])) v[qv + nx] = v[qv + nx] + ty * (whi * dp);
    if (k > 0 && lq_pressure_free(flags[c - sz])) w[qw] = w[qw] - tz * dp;
    if (k < nz - 1 && lq_pressure_free(flags[c + sz])) w[qw + sz] = w[qw + sz] + tz * dp;
    p[c] = p[c] + dp;
}

/* One colour of one plane k: every cell (i, j, k) of that colour, rows in order. */
LQ_INLINE void lq_pressure_rb_plane(LQ_GLOBAL float *u, LQ_GLOBAL float *v, LQ_GLOBAL float *w,
                                    LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                    const LQ_GLOBAL float *sw, int k, int parity, int nx, int ny,
                                    int nz, float idx, float idy, float idz, float beta, float tx,
                                    float ty, float tz)
{
    for (int j = 0; j < ny; j++)
        for (int i = (j + k + parity) & 1; i < nx; i += 2)
            lq_pressure_rb_cell(u, v, w, p, flags, sw, i, j, k, nx, ny, nz, idx, idy, idz, beta, tx,
                                ty, tz);
}

/* Both colours of the planes [k0, k1) of a slab as a wavefront: red plane k, then black
 * plane k − 1, for k = k0 ... k1 − 1, leaving black planes k0 and k1 − 1 (the ones whose
 * red neighbours lie in other slabs) to lq_pr_rb_edge_planes. This is the red-then-black
 * sweep exactly: a black cell of plane k − 1 shares faces only with red cells of planes
 * k − 2, k − 1 and k, all relaxed by then, and no red cell relaxed later (planes > k)
 * shares a face with it; the slabs touch no common face while black planes at their
 * edges wait. The planes k − 2 ... k stay in cache between the two colours, so a sweep
 * streams u, v, w, p and the flags once instead of twice. */
LQ_INLINE void lq_pressure_rb_slab(LQ_GLOBAL float *u, LQ_GLOBAL float *v, LQ_GLOBAL float *w,
                                   LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                   const LQ_GLOBAL float *sw, int k0, int k1, int nx, int ny,
                                   int nz, float idx, float idy, float idz, float beta, float tx,
                                   float ty, float tz)
{
    for (int k = k0; k < k1; k++) {
        lq_pressure_rb_plane(u, v, w, p, flags, sw, k, 0, nx, ny, nz, idx, idy, idz, beta, tx, ty,
                             tz);
        if (k - 1 > k0)
            lq_pressure_rb_plane(u, v, w, p, flags, sw, k - 1, 1, nx, ny, nz, idx, idy, idz, beta,
                                 tx, ty, tz);
    }
}

/* The plane of edge q (0 ≤ q < 2 × slabs) that lq_pressure_rb_slab leaves black: the first
 * plane of slab q / 2 for even q, its last for odd q; −1 when a one-plane slab's last
 * is its first. */
LQ_INLINE int lq_pressure_edge_plane(int q, int slab, int nz)
{
    int k0 = (q >> 1) * slab, k1 = k0 + slab < nz ? k0 + slab : nz;
    if (k0 >= nz) return -1;
    if ((q & 1) == 0) return k0;
    return k1 - 1 > k0 ? k1 - 1 : -1;
}

/* Jacobi pass 1: δp = β D of a FULL cell from the velocities as they are, 0 elsewhere
 * (beta already carries the Jacobi relaxation factor). */
LQ_INLINE void lq_pressure_jacobi_dp_cell(LQ_GLOBAL float *dp, const LQ_GLOBAL float *u,
                                          const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                          const LQ_GLOBAL unsigned char *flags,
                                          const LQ_GLOBAL float *sw, int i, int j, int k, int nx,
                                          int ny, int nz, float idx, float idy, float idz,
                                          float beta)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    float b = sw ? beta * sw[nx * ny * nz + c] : beta; /* as lq_pressure_rb_cell */
    dp[c] = flags[c] == LQ_MAC_FULL ? b * lq_pressure_div(u, v, w, i, j, k, nx, ny, idx, idy, idz)
                                    : 0.0f;
}

/* Jacobi pass 2, cell (i, j, k): its −x, −y, −z faces from both cells' δp (eq. 8 of
 * both: u_{i−1/2} += (δt/δx)(δp_{i−1} − δp_i)), and its pressure (eq. 9). Faces on the
 * domain edge never move, so the low faces of all cells are all the faces that can. */
LQ_INLINE void lq_pressure_jacobi_apply_cell(LQ_GLOBAL float *u, LQ_GLOBAL float *v,
                                             LQ_GLOBAL float *w, LQ_GLOBAL float *p,
                                             const LQ_GLOBAL float *dp,
                                             const LQ_GLOBAL unsigned char *flags,
                                             const LQ_GLOBAL float *sw, int i, int j, int k, int nx,
                                             int ny, float tx, float ty, float tz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), fc = flags[c], sz = nx * ny;
    float d = dp[c];
    if (i > 0 && lq_pressure_face_moves(flags[c - 1], fc)) {
        int q = LQ_MAC_U(i, j, k, nx, ny);
        u[q] = u[q] + tx * (dp[c - 1] - d);
    }
    if (j > 0 && lq_pressure_face_moves(flags[c - nx], fc)) {
        int q = LQ_MAC_V(i, j, k, nx, ny);
        float wf = sw ? sw[c - nx] : 1.0f; /* the face's weight (lq_pressure_rb_cell) */
        v[q] = v[q] + ty * (wf * (dp[c - nx] - d));
    }
    if (k > 0 && lq_pressure_face_moves(flags[c - sz], fc)) {
        int q = LQ_MAC_W(i, j, k, nx, ny);
        w[q] = w[q] + tz * (dp[c - sz] - d);
    }
    if (fc == LQ_MAC_FULL) p[c] = p[c] + d;
}

#endif
