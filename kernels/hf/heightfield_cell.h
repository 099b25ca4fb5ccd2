/*
 * heightfield_cell.h — per-cell and per-line math of the Kass–Miller height-field water
 * ("Height-Field Fluids for Computer Graphics", §3–5), shared verbatim by the OpenCL
 * kernels (kernels/hf/heightfield.cl) and the reference twin (host/ops/hf/heightfield_ref.c).
 *
 * Discretisation (eq. 6–8): water surface h and ground b at cell centres of an
 * nx × nz grid (x fastest); depths d = h − b live at cell centres and the velocities
 * of eq. 7 on the faces between them. Depth is frozen at h(n−1) for a whole step
 * (§4, "regard d as a constant during the iteration").
 *
 * Edge depth D between neighbours a, b is the (d_a + d_b)/2 of eq. 16 when both are
 * wet. When only one is wet, the paper's rule d = 0 on the dry side gives d_wet/2;
 * we open that edge only when the wet surface stands above the dry cell's ground
 * (h_wet > b_dry), so water never flows out of a dry cell whose virtual level
 * b − ε lies above a resting shoreline — a lake at rest on a beach stays at rest.
 *
 * With a = κ·D, κ = g Δt²/Δx², the matrix of eq. 15–16 is
 *   e_i = 1 + a_{i−1/2} + a_{i+1/2},  f_i = −a_{i+1/2},
 * symmetric with unit row and column sums, so one solve conserves Σh exactly in exact
 * arithmetic, and diagonally dominant, so the Thomas algorithm needs no pivoting.
 *
 * Delta form. Eq. 17, A h(n) = h(n−1) + (1−τ)(h(n−1) − h(n−2)), is solved for the
 * change Δ = h(n) − h(n−1):  A Δ = R  (R: lq_heightfield_residual_cell),
 * the same linear system, but R is built from differences and velocities, which are
 * exactly zero for water at rest, so a lake over an uneven bed stays exactly flat instead of being
 * pushed by the round-off of a full-height solve every step (that round-off repeats
 * identically each step and acts as a steady force: measured 0.05 m/s after 1000
 * steps). In 3D the split A_z A_x Δ = R (eq. 19, 20) uses the residual of the whole
 * unsplit operator, the usual delta-form ADI: it differs from the product form only
 * by an O(Δt⁴) term, and its steady states are those of the unsplit scheme.
 *
 * The θ-scheme. Eq. 9–10 evaluate both right-hand sides at the end of the step (first
 * order, every mode damped by (1+μ)^−½). With eq. 6–7 taken at θ h(n) + (1−θ) h(n−1)
 * and θ u(n) + (1−θ) u(n−1) instead, the same elimination gives
 *   (I − θ² κ L) Δ = (1 − θτ) Δt/Δx Σ ±D u(n−1) + θ κ L h(n−1),
 *   u(n) = (1−τ) u(n−1) − g Δt/Δx ∇(θ h(n) + (1−θ) h(n−1)),
 * with L the D-weighted Laplacian of eq. 8 (Δx² L h = Σ_edges D (h_nb − h)): the matrix
 * of eq. 15–16 with θ²κ for κ, and R with θκ. θ = 1 is the paper's scheme; θ = ½ is
 * Crank–Nicolson, second order and without numerical damping (|z| = 1); in between,
 * grid-scale modes at large Courant numbers are damped and long waves nearly not.
 *
 * The splitting error. For constant depth A_z A_x = A + θ⁴κ² L_z L_x: the extra term
 * vanishes for waves along an axis and grows like (θ²μ/2)² for diagonal ones, which then
 * travel and decay differently (at Courant number 11 a drop's ring stood 39 % further out
 * along the diagonal than along the axis, docs/VALIDATION.md). The two 1D operators
 * commute there, so the order of the sweeps cannot remove it. Instead the split
 * solve is repeated on the defect of the unsplit system (lq_heightfield_defect_cell):
 *   Δ ← Δ + A_z⁻¹ A_x⁻¹ (R − A Δ).
 * With X = A_x − I, Z = A_z − I (symmetric, positive semidefinite for any depths, wet
 * and dry) the error goes by T = (I+X)⁻¹(I+Z)⁻¹ Z X, similar to (I+Z)⁻¹Z · X(I+X)⁻¹,
 * a product of two symmetric matrices of norm below 1: the iteration converges for
 * every bed, and each pass conserves Σ Δ exactly in exact arithmetic.
 */
#ifndef LQ_HEIGHTFIELD_CELL_H
#define LQ_HEIGHTFIELD_CELL_H

#include "common/lq_shared.h"

/* Fixed-point volume sums (order independent, so twins agree bit for bit): a depth
 * d in metres counts LQ_FIXED(d · scale) with scale = 2^S chosen per run. */

/* Slots of the small accumulator buffers (lq_long acc_l[], int acc_i[]). */
#define LQ_HEIGHTFIELD_ACC_VOLUME   0 /* Σ fixed(depth) (stats) */
#define LQ_HEIGHTFIELD_ACC_DRAINED  1 /* Σ fixed(depth removed by drains) */
#define LQ_HEIGHTFIELD_ACC_LOST     2 /* Σ fixed(volume of components that dried out entirely) */
#define LQ_HEIGHTFIELD_ACC_OPEN_OUT 3 /* Σ fixed(depth that left through open walls) */
#define LQ_HEIGHTFIELD_ACC_OPEN_IN  4 /* Σ fixed(depth that came in through them) */
#define LQ_HEIGHTFIELD_ACC_L_COUNT  6
#define LQ_HEIGHTFIELD_ACC_WET      0 /* wet cells (stats) */
#define LQ_HEIGHTFIELD_ACC_MAXDEPTH 1 /* float bits of the largest depth (stats) */
#define LQ_HEIGHTFIELD_ACC_MAXSPEED 2 /* float bits of the largest cell-centred speed (stats) */
#define LQ_HEIGHTFIELD_ACC_BAD      3 /* non-finite cells seen by the stats pass */
#define LQ_HEIGHTFIELD_ACC_BADSTEP                                                                 \
    4 /* first step whose finish saw a non-finite h (INT_MAX: none) */
#define LQ_HEIGHTFIELD_ACC_I_COUNT 8

/* Cells per work-item in the segment-walking reductions. */
#define LQ_HEIGHTFIELD_SEGMENT 64

/* Sources (heightfield_source): how `amount` (metres of depth) is spread over the disc. */
#define LQ_HEIGHTFIELD_SOURCE_BUMP    0 /* add amount · (1 − r²/R²)² */
#define LQ_HEIGHTFIELD_SOURCE_UNIFORM 1 /* add amount */
#define LQ_HEIGHTFIELD_SOURCE_DRAIN   2 /* remove min(amount, depth) */

LQ_INLINE float lq_heightfield_depth(float h, float b)
{
    return h > b ? h - b : 0.0f;
}

/* Edge depth D of eq. 16 with the shoreline rule described above. */
LQ_INLINE float lq_heightfield_edge_depth(float ha, float ba, float hb, float bb)
{
    /* selects, not branches, in the priority order of the rule above: compilers that
     * vectorize across work-items keep doing so */
    float da = ha - ba, db = hb - bb, r = 0.0f;
    r = (db > 0.0f && hb > ba) ? 0.5f * db : r;
    r = (da > 0.0f && ha > bb) ? 0.5f * da : r;
    r = (da > 0.0f && db > 0.0f) ? 0.5f * (da + db) : r;
    return r;
}

/*
 * R of the delta form at cell (i, k), from eq. 6 and 7 with the depth frozen:
 *   R = −(1−τ) Δt/Δx Σ_faces ±D u(n−1)  +  κ Σ_edges D (h_nb − h),   κ = g Δt²/Δx²:
 * the water carried by the face velocities of the last step through the faces of this
 * step's depth, plus this step's gravity term. With the depth unchanged between steps
 * the first term is exactly the paper's (1−τ)(h(n−1) − h(n−2)) (the face velocities
 * are those of eq. 7, see lq_heightfield_finish_cell); when a shoreline moves the faces carry
 * their velocity into the new depth, which is what keeps a front running up a beach
 * instead of restarting from rest every step. `cdt` = (1−θτ) Δt/Δx and `kappa` = θκ
 * (the θ-scheme above; θ = 1: (1−τ) Δt/Δx and κ). Faces on closed walls hold u = 0
 * and have no neighbour.
 */
/* Open walls (issue 18): bit 0 x_min, 1 x_max, 2 z_min, 3 z_max (walls: open). How many
 * of them cell (i, k) lies against. */
#define LQ_HEIGHTFIELD_OPEN_X_MIN 1
#define LQ_HEIGHTFIELD_OPEN_X_MAX 2
#define LQ_HEIGHTFIELD_OPEN_Z_MIN 4
#define LQ_HEIGHTFIELD_OPEN_Z_MAX 8
LQ_INLINE int lq_heightfield_open_count(int i, int k, int nx, int nz, int open)
{
    return ((open & LQ_HEIGHTFIELD_OPEN_X_MIN) && i == 0) +
           ((open & LQ_HEIGHTFIELD_OPEN_X_MAX) && i == nx - 1) +
           ((open & LQ_HEIGHTFIELD_OPEN_Z_MIN) && k == 0) +
           ((open & LQ_HEIGHTFIELD_OPEN_Z_MAX) && k == nz - 1);
}

/*
 * The radiation condition at an open wall (Sommerfeld; in shallow water Flather's
 * u = √(g/d) η): the wall face carries water out at q = √(g d) (h − h0) per unit width,
 * h0 the surface there at the start (href), d the frozen depth of the cell beside it. A
 * long wave's own u = c η / d with c = √(g d), so a wave meeting the wall leaves as if
 * the water went on. In the θ-scheme the wall face's flux at θ h(n) + (1 − θ) h(n−1)
 * gives the boundary cell
 *   (1 + θ C_b) Δ + ... = R − C_b (h(n−1) − h0),   C_b = Δt √(g d) / Δx:
 * a diagonal term in the line solve across the wall (e_lo, e_hi of
 * lq_heightfield_solve_line, = θ Δt √g / Δx) and this term in R (`cb` = Δt √g / Δx).
 * Both are a cell's own, so A stays symmetric and diagonally dominant.
 */
LQ_INLINE float lq_heightfield_open_rate(float h, float b, float cb)
{
    return cb * LQ_SQRTF(lq_heightfield_depth(h, b));
}

LQ_INLINE float lq_heightfield_residual_cell(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *u,
                                             const LQ_GLOBAL float *w, const LQ_GLOBAL float *b,
                                             const LQ_GLOBAL float *href, int i, int k, int nx,
                                             int nz, float kappa, float cdt, int open, float cb)
{
    int idx = i + nx * k, fu = i + (nx + 1) * k;
    /* At a wall the neighbour index is the cell itself: its difference is exactly zero
     * and the wall face holds u = 0, so no branch is needed (see lq_heightfield_edge_depth). */
    int l = i > 0 ? idx - 1 : idx, r = i + 1 < nx ? idx + 1 : idx;
    int d = k > 0 ? idx - nx : idx, t = k + 1 < nz ? idx + nx : idx;
    float hc = h1[idx], bc = b[idx];
    float hl = h1[l], hr = h1[r], hd = h1[d], ht = h1[t];
    float Dl = lq_heightfield_edge_depth(hc, bc, hl, b[l]),
          Dr = lq_heightfield_edge_depth(hc, bc, hr, b[r]);
    float Dd = lq_heightfield_edge_depth(hc, bc, hd, b[d]),
          Dt = lq_heightfield_edge_depth(hc, bc, ht, b[t]);
    float flux = Dl * (hl - hc) + Dr * (hr - hc) + Dd * (hd - hc) + Dt * (ht - hc);
    float carried = Dl * u[fu] - Dr * u[fu + 1] + Dd * w[idx] - Dt * w[idx + nx];
    float R = cdt * carried + kappa * flux;
    int nb = open ? lq_heightfield_open_count(i, k, nx, nz, open) : 0;
    if (nb) R -= (float)nb * lq_heightfield_open_rate(hc, bc, cb) * (hc - href[idx]);
    return R;
}

/*
 * Solves A x = r (eq. 15–16) along one line of n cells, cells first + t·stride, in
 * place: r is read from `out` and x written there; when add_base, base + x is written
 * instead (the last sub-iteration turns Δ into h(n) with base = h(n−1), or adds a
 * correction to the last iterate). The edge coefficients come from the frozen depth
 * (h1, b). `cp` is scratch of the same layout. Thomas algorithm: forward elimination
 * storing c'_t in cp and d'_t in out, then back substitution.
 */
LQ_INLINE void lq_heightfield_solve_line(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *b,
                                         const LQ_GLOBAL float *base, LQ_GLOBAL float *out,
                                         LQ_GLOBAL float *cp, int first, int stride, int n,
                                         float kappa, int add_base, float e_lo, float e_hi)
{
    float a_left = 0.0f, c_prev = 0.0f, d_prev = 0.0f;
    float hc = h1[first], bc = b[first];
    /* an open wall before the first cell or after the last: its diagonal term */
    float ext = e_lo > 0.0f ? e_lo * LQ_SQRTF(lq_heightfield_depth(hc, bc)) : 0.0f;
    int idx = first;
    /* Every load is unconditional (the last cell is peeled off below), so compilers
     * that vectorize across work-items (PoCL) keep doing so. */
    for (int t = 0; t + 1 < n; t++, idx += stride) {
        float hn = h1[idx + stride], bn = b[idx + stride];
        float a_right = kappa * lq_heightfield_edge_depth(hc, bc, hn, bn);
        /* e_t − f_{t−1} c'_{t−1}, with f_{t−1} = −a_left */
        float m = ((1.0f + a_left + a_right) + ext) + a_left * c_prev;
        float inv = 1.0f / m;
        c_prev = -a_right * inv;
        d_prev = (out[idx] + a_left * d_prev) * inv;
        cp[idx] = c_prev;
        out[idx] = d_prev;
        a_left = a_right;
        hc = hn;
        bc = bn;
        ext = 0.0f;
    }
    {
        float e1 = e_hi > 0.0f ? e_hi * LQ_SQRTF(lq_heightfield_depth(hc, bc)) : 0.0f;
        float m = ((1.0f + a_left + 0.0f) + (ext + e1)) + a_left * c_prev;
        d_prev = (out[idx] + a_left * d_prev) * (1.0f / m);
        out[idx] = add_base ? base[idx] + d_prev : d_prev;
    }
    /* back substitution: x_t = d'_t − c'_t x_{t+1} */
    float x = d_prev;
    idx -= stride;
    for (int t = n - 2; t >= 0; t--, idx -= stride) {
        x = out[idx] - cp[idx] * x;
        out[idx] = add_base ? base[idx] + x : x;
    }
}

/*
 * The parallel line solve (shallow.line_solve: pcr, for GPUs): the same system A x = r
 * of lq_heightfield_solve_line, solved by a hybrid of cyclic reduction (CR), parallel
 * cyclic reduction (PCR) and Thomas (Hockney 1965; Zhang, Cohen & Owens, "Fast
 * Tridiagonal Solvers on the GPU", PPoPP 2010, §3–4; Kim et al. 2011 for PCR–Thomas):
 *   1. one CR level: the equation of each odd cell t = 2j+1 takes those of its even
 *      neighbours into itself, leaving a system of n2 = ⌊n/2⌋ equations that couple
 *      odd cells only (index j);
 *   2. PCR on that system, strides 1, 2, ..., W/2: each equation j takes those of
 *      j ± s into itself, after which it couples j only to j ± W, so the system falls
 *      apart into W independent ones, j ≡ r (mod W), each ⌈n2/W⌉ long;
 *   3. Thomas on each of them;
 *   4. the even cells from their own equation and their two odd neighbours.
 * Every equation is kept normalised to a unit diagonal, a x_{t−s} + x_t + c x_{t+s} = d
 * (three numbers a cell), and an equation past either end of the line is all zeros, so
 * every cell runs the same arithmetic. A is diagonally dominant and stays so under
 * reduction (so nothing pivots); each step's results depend only on the last step's,
 * so the kernel (one work-group of W per line, the reduced line in local memory) and
 * the reference twin (plain loops) compute the same numbers with these functions.
 * W = lq_heightfield_pcr_width(n2) depends on the line's length only.
 */
typedef struct lq_heightfield_eq {
    float a, c, d; /* a x_{t−s} + x_t + c x_{t+s} = d */
} lq_heightfield_eq;

#define LQ_HEIGHTFIELD_PCR_GROUP 256 /* most subsystems, and the work-group size */

/* W: the subsystems (the work-group's size): the smallest power of two ≥ n2, at most
 * LQ_HEIGHTFIELD_PCR_GROUP. */
LQ_INLINE int lq_heightfield_pcr_width(int n2)
{
    int w = 1;
    while (w < n2 && w < LQ_HEIGHTFIELD_PCR_GROUP) w *= 2;
    return w;
}

/* Cell t's own row of A x = r, normalised: the edge coefficients of lq_heightfield_solve_line
 * (open walls' diagonal terms at the ends), r from out. */
LQ_INLINE lq_heightfield_eq lq_heightfield_pcr_row(const LQ_GLOBAL float *h1,
                                                   const LQ_GLOBAL float *b,
                                                   const LQ_GLOBAL float *out, int first,
                                                   int stride, int n, int t, float kappa,
                                                   float e_lo, float e_hi)
{
    int idx = first + t * stride;
    float hc = h1[idx], bc = b[idx];
    float a_left =
        t > 0 ? kappa * lq_heightfield_edge_depth(h1[idx - stride], b[idx - stride], hc, bc) : 0.0f;
    float a_right =
        t + 1 < n ? kappa * lq_heightfield_edge_depth(hc, bc, h1[idx + stride], b[idx + stride])
                  : 0.0f;
    float ext = (t == 0 && e_lo > 0.0f ? e_lo * LQ_SQRTF(lq_heightfield_depth(hc, bc)) : 0.0f) +
                (t + 1 == n && e_hi > 0.0f ? e_hi * LQ_SQRTF(lq_heightfield_depth(hc, bc)) : 0.0f);
    float inv = 1.0f / (((1.0f + a_left) + a_right) + ext);
    lq_heightfield_eq e = {-a_left * inv, -a_right * inv, out[idx] * inv};
    return e;
}

/* Equation m takes lo (stride s before it) and hi (after it) into itself: it then couples
 * to the cells 2s away. lo, hi all zeros past the line's ends. */
LQ_INLINE lq_heightfield_eq lq_heightfield_pcr_reduce(lq_heightfield_eq lo, lq_heightfield_eq m,
                                                      lq_heightfield_eq hi)
{
    float inv = 1.0f / ((1.0f - m.a * lo.c) - m.c * hi.a);
    lq_heightfield_eq e = {-(m.a * lo.a) * inv, -(m.c * hi.c) * inv,
                           ((m.d - m.a * lo.d) - m.c * hi.d) * inv};
    return e;
}

/* Step 1 for odd cell t = 2j+1: its row with its even neighbours' taken in. */
LQ_INLINE lq_heightfield_eq lq_heightfield_pcr_cr(const LQ_GLOBAL float *h1,
                                                  const LQ_GLOBAL float *b,
                                                  const LQ_GLOBAL float *out, int first, int stride,
                                                  int n, int j, float kappa, float e_lo, float e_hi)
{
    int t = 2 * j + 1;
    lq_heightfield_eq zero = {0.0f, 0.0f, 0.0f};
    lq_heightfield_eq lo =
        lq_heightfield_pcr_row(h1, b, out, first, stride, n, t - 1, kappa, e_lo, e_hi);
    lq_heightfield_eq m =
        lq_heightfield_pcr_row(h1, b, out, first, stride, n, t, kappa, e_lo, e_hi);
    lq_heightfield_eq hi =
        t + 1 < n ? lq_heightfield_pcr_row(h1, b, out, first, stride, n, t + 1, kappa, e_lo, e_hi)
                  : zero;
    return lq_heightfield_pcr_reduce(lo, m, hi);
}

/* Step 3, forward elimination of one equation of a subsystem: (c', d') from the previous
 * one's (both 0 for the first); back substitution is then x = d' − c' x_next. */
LQ_INLINE lq_heightfield_eq lq_heightfield_pcr_forward(lq_heightfield_eq e, lq_heightfield_eq prev)
{
    float inv = 1.0f / (1.0f - e.a * prev.c);
    lq_heightfield_eq r = {e.a, e.c * inv, (e.d - e.a * prev.d) * inv};
    return r;
}

/* Step 3 on subsystem r of the n2 reduced equations (r, r + W, r + 2W, …): forward
 * elimination, then back substitution, x into d. */
LQ_INLINE void lq_heightfield_pcr_thomas(LQ_LOCAL_MEM lq_heightfield_eq *E, int r, int n2, int W)
{
    lq_heightfield_eq prev = {0.0f, 0.0f, 0.0f};
    int last = r;
    for (int j = r; j < n2; j += W) {
        prev = lq_heightfield_pcr_forward(E[j], prev);
        E[j] = prev;
        last = j;
    }
    float x = 0.0f;
    for (int j = last; j >= r; j -= W) {
        x = E[j].d - E[j].c * x;
        E[j].d = x;
    }
}

/* Step 4: even cell t's solution from its row and its odd neighbours' x (0 past the ends). */
LQ_INLINE float lq_heightfield_pcr_even(lq_heightfield_eq e, float x_lo, float x_hi)
{
    return (e.d - e.a * x_lo) - e.c * x_hi;
}

/*
 * The defect of the unsplit system at cell (i, k) for the iterate hn = h(n−1) + Δ:
 *   R − A Δ = R − Δ + κ_s Σ_edges D (Δ_nb − Δ),   κ_s = θ²κ,
 * R as in lq_heightfield_residual_cell (`kappa` = θκ, `cdt`), the edge depths D of the
 * frozen h(n−1). Zero when Δ solves A Δ = R; the split solve of it is the next
 * correction (the iteration in the header).
 */
LQ_INLINE float lq_heightfield_defect_cell(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *hn,
                                           const LQ_GLOBAL float *u, const LQ_GLOBAL float *w,
                                           const LQ_GLOBAL float *b, const LQ_GLOBAL float *href,
                                           int i, int k, int nx, int nz, float kappa, float cdt,
                                           float kappa_s, int open, float cb, float cbt)
{
    int idx = i + nx * k;
    int l = i > 0 ? idx - 1 : idx, r = i + 1 < nx ? idx + 1 : idx;
    int d = k > 0 ? idx - nx : idx, t = k + 1 < nz ? idx + nx : idx;
    float hc = h1[idx], bc = b[idx];
    float Dl = lq_heightfield_edge_depth(hc, bc, h1[l], b[l]),
          Dr = lq_heightfield_edge_depth(hc, bc, h1[r], b[r]);
    float Dd = lq_heightfield_edge_depth(hc, bc, h1[d], b[d]),
          Dt = lq_heightfield_edge_depth(hc, bc, h1[t], b[t]);
    float xc = hn[idx] - hc;
    float lap = Dl * ((hn[l] - h1[l]) - xc) + Dr * ((hn[r] - h1[r]) - xc) +
                Dd * ((hn[d] - h1[d]) - xc) + Dt * ((hn[t] - h1[t]) - xc);
    float R = lq_heightfield_residual_cell(h1, u, w, b, href, i, k, nx, nz, kappa, cdt, open, cb);
    float out = (R - xc) + kappa_s * lap;
    int nb = open ? lq_heightfield_open_count(i, k, nx, nz, open) : 0;
    if (nb) out -= (float)nb * lq_heightfield_open_rate(hc, bc, cbt) * xc;
    return out;
}

/* The water an open wall took out of cell (i, k) this step (m of depth; negative: let
 * in), once per open wall it lies against: C_b (θ h(n) + (1 − θ) h(n−1) − h0) with h(n)
 * as the solve left it (before the volume projection, which makes the region's volume
 * its old one minus this). */
LQ_INLINE float lq_heightfield_open_cell(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *hn,
                                         const LQ_GLOBAL float *b, const LQ_GLOBAL float *href,
                                         int idx, float cb, float theta)
{
    float hc = h1[idx], bc = b[idx];
    return lq_heightfield_open_rate(hc, bc, cb) *
           ((theta * hn[idx] + (1.0f - theta) * hc) - href[idx]);
}

LQ_INLINE lq_long lq_heightfield_fixed_signed(float x)
{
    return x >= 0.0f ? LQ_FIXED(x) : -LQ_FIXED(-x);
}

/* heightfield_open for wall cell idx: its water out of its region's old volume (when the
 * volume projection runs: L holds the regions' roots) and into the running counters. */
LQ_INLINE void lq_heightfield_open_account(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *hn,
                                           const LQ_GLOBAL float *b, const LQ_GLOBAL float *href,
                                           const LQ_GLOBAL int *L, LQ_GLOBAL lq_long *old_sum,
                                           LQ_GLOBAL lq_long *acc_l, int idx, float cb, float theta,
                                           float scale, int project)
{
    float q = lq_heightfield_open_cell(h1, hn, b, href, idx, cb, theta);
    if (q == 0.0f) return;
    lq_long f = lq_heightfield_fixed_signed(q * scale);
    if (project && L[idx] >= 0) LQ_ATOMIC_ADD_LONG(&old_sum[L[idx]], -f);
    if (f > 0)
        LQ_ATOMIC_ADD_LONG(&acc_l[LQ_HEIGHTFIELD_ACC_OPEN_OUT], f);
    else
        LQ_ATOMIC_ADD_LONG(&acc_l[LQ_HEIGHTFIELD_ACC_OPEN_IN], -f);
}

/* Union–find with atomic_min (Playne & Hawick 2018): labels only decrease, every label
 * points at a smaller-or-equal index, so each component ends as one tree whose root
 * is its smallest cell index, whatever the order of the unions. */
LQ_INLINE int lq_heightfield_cc_find(LQ_VOLATILE LQ_GLOBAL int *L, int x)
{
    int p = L[x];
    while (p != x) {
        x = p;
        p = L[x];
    }
    return x;
}

LQ_INLINE void lq_heightfield_cc_union(LQ_VOLATILE LQ_GLOBAL int *L, int a, int b)
{
    int done = 0;
    while (!done) {
        a = lq_heightfield_cc_find(L, a);
        b = lq_heightfield_cc_find(L, b);
        if (a < b) {
            int old = LQ_ATOMIC_MIN(&L[b], a);
            done = old == b;
            b = old;
        } else if (b < a) {
            int old = LQ_ATOMIC_MIN(&L[a], b);
            done = old == a;
            a = old;
        } else {
            done = 1;
        }
    }
}

/* Weight of a source at squared distance r2 from its centre (cells²); inv_r2 = 1/R².
 * The bump is (1 − r²/R²)², smooth and made of products only, so both sides agree. */
LQ_INLINE float lq_heightfield_source_weight(int mode, float r2, float inv_r2)
{
    float q = 1.0f - r2 * inv_r2;
    if (q <= 0.0f) return 0.0f;
    return mode == LQ_HEIGHTFIELD_SOURCE_BUMP ? q * q : 1.0f;
}

/* h after the wet/dry rule of §4: a cell below its ground holds b − ε. */
LQ_INLINE float lq_heightfield_settle(float h, float b, float eps)
{
    return h < b ? b - eps : h;
}

/*
 * Sources and sinks (§4: "add or subtract the amounts from the current and last values
 * of h"): the depth of h(n−1) changes and the face velocities do not, so water appears
 * or leaves at rest. Added water starts at the ground of a dry cell. A drain removes at
 * most the depth present and counts what it took.
 */
LQ_INLINE void lq_heightfield_source_cell(LQ_GLOBAL float *h1, const LQ_GLOBAL float *b,
                                          LQ_GLOBAL lq_long *acc_l, int idx, float r2, float inv_r2,
                                          int mode, float amount, float scale)
{
    float w = lq_heightfield_source_weight(mode, r2, inv_r2);
    if (w == 0.0f) return;
    float bc = b[idx], a = h1[idx];
    if (mode == LQ_HEIGHTFIELD_SOURCE_DRAIN) {
        float d = lq_heightfield_depth(a, bc);
        float take = amount < d ? amount : d;
        if (take <= 0.0f) return;
        h1[idx] = a - take;
        LQ_ATOMIC_ADD_LONG(&acc_l[LQ_HEIGHTFIELD_ACC_DRAINED], LQ_FIXED(take * scale));
    } else {
        h1[idx] = (a > bc ? a : bc) + amount * w;
    }
}

/* Connected wet regions (§4, volume projection), step 1, one row: a cell takes part
 * when it is wet before or after the solve; a run of taking-part cells along the row
 * starts labelled with its first cell, so the row's horizontal joins are done here. */
LQ_INLINE void lq_heightfield_label_init_row(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *hn,
                                             const LQ_GLOBAL float *b, LQ_GLOBAL int *L, int k,
                                             int nx)
{
    int start = -1;
    for (int idx = nx * k; idx < nx * (k + 1); idx++) {
        float bc = b[idx];
        int part = h1[idx] > bc || hn[idx] > bc;
        start = part ? (start >= 0 ? start : idx) : -1;
        L[idx] = start;
    }
}

/* Step 2: join runs of neighbouring rows (4-connectivity). Two runs that overlap are
 * joined once, at the first column of their overlap. */
LQ_INLINE void lq_heightfield_label_merge_cell(LQ_VOLATILE LQ_GLOBAL int *L, int i, int k, int nx,
                                               int nz)
{
    int idx = i + nx * k;
    if (k + 1 >= nz || L[idx] < 0 || L[idx + nx] < 0) return;
    if (i > 0 && L[idx - 1] >= 0 && L[idx - 1 + nx] >= 0) return; /* same two runs */
    lq_heightfield_cc_union(L, idx, idx + nx);
}

/* Step 3: point every cell at its root and clear the root's accumulators (slot 0). */
LQ_INLINE void lq_heightfield_label_compress_cell(LQ_VOLATILE LQ_GLOBAL int *L,
                                                  LQ_GLOBAL lq_long *old_sum,
                                                  LQ_GLOBAL lq_long *new_sum,
                                                  LQ_GLOBAL int *wet_count, int idx)
{
    if (L[idx] < 0) return;
    int r = lq_heightfield_cc_find(L, idx);
    L[idx] = r;
    if (r == idx) {
        old_sum[idx] = 0;
        new_sum[idx] = 0;
        wet_count[idx] = 0;
    }
}

/* Step 4: per-region sums of the old depth (first pass only), the new depth and the
 * number of wet cells, over one segment of a row, flushed once per run of equal
 * labels. Fixed-point sums: the result does not depend on the order. */
LQ_INLINE void lq_heightfield_volume_reduce_segment(
    const LQ_GLOBAL float *h1, const LQ_GLOBAL float *hn, const LQ_GLOBAL float *b,
    const LQ_GLOBAL int *L, LQ_GLOBAL lq_long *old_sum, LQ_GLOBAL lq_long *new_sum,
    LQ_GLOBAL int *wet_count, int first, int count, float scale, int with_old)
{
    int root = -1, nw = 0;
    lq_long so = 0, sn = 0;
    for (int t = first; t < first + count; t++) {
        int l = L[t];
        if (l < 0) continue;
        if (l != root) {
            if (root >= 0) {
                if (with_old) LQ_ATOMIC_ADD_LONG(&old_sum[root], so);
                LQ_ATOMIC_ADD_LONG(&new_sum[root], sn);
                LQ_ATOMIC_ADD(&wet_count[root], nw);
            }
            root = l;
            so = 0;
            sn = 0;
            nw = 0;
        }
        float bc = b[t];
        float dn = lq_heightfield_depth(hn[t], bc);
        if (with_old) so = LQ_WRAP_ADD(so, LQ_FIXED(lq_heightfield_depth(h1[t], bc) * scale));
        sn = LQ_WRAP_ADD(sn, LQ_FIXED(dn * scale));
        nw += dn > 0.0f;
    }
    if (root >= 0) {
        if (with_old) LQ_ATOMIC_ADD_LONG(&old_sum[root], so);
        LQ_ATOMIC_ADD_LONG(&new_sum[root], sn);
        LQ_ATOMIC_ADD(&wet_count[root], nw);
    }
}

/* Step 5: spread the region's volume difference uniformly over its wet cells (§4).
 * A uniform removal can dry out thin cells and so remove less than asked; the next pass
 * sees the rest. On the last pass a removal scales the region's depths instead
 * (d ← d (1 + δ/V_new)), which cannot overshoot, so the bookkeeping closes whatever is
 * left. Roots clear the other slot for the next pass; on the last pass a region with
 * old volume but no wet cell left counts as lost. */
LQ_INLINE void
lq_heightfield_volume_apply_cell(LQ_GLOBAL float *hn, const LQ_GLOBAL float *b,
                                 const LQ_GLOBAL int *L, const LQ_GLOBAL lq_long *old_sum,
                                 const LQ_GLOBAL lq_long *new_sum, const LQ_GLOBAL int *wet_count,
                                 LQ_GLOBAL lq_long *next_new, LQ_GLOBAL int *next_wet,
                                 LQ_GLOBAL lq_long *acc_l, int idx, float inv_scale, int last_pass)
{
    int l = L[idx];
    if (l < 0) return;
    lq_long vnew = new_sum[l];
    lq_long delta = LQ_WRAP_SUB(old_sum[l], vnew);
    int n = wet_count[l];
    if (l == idx) {
        next_new[idx] = 0;
        next_wet[idx] = 0;
        if (last_pass && n == 0 && delta != 0)
            LQ_ATOMIC_ADD_LONG(&acc_l[LQ_HEIGHTFIELD_ACC_LOST], delta);
    }
    if (n == 0 || delta == 0) return;
    float h = hn[idx], bc = b[idx];
    if (!(h > bc)) return;
    if (last_pass && delta < 0)
        hn[idx] = h + (h - bc) * ((float)delta / (float)vnew); /* h unchanged when tiny */
    else
        hn[idx] = h + ((float)delta * inv_scale) / (float)n;
}

/* Bed friction (Manning): a face velocity v over edge depth D becomes
 * v / (1 + g Δt n² |v| / D^{4/3}); `fric` = g Δt n². Implicit in |v|, so it can only
 * slow the water, and it bounds the speed of thin sheets running down dry slopes,
 * which the paper's frictionless equations let accelerate without limit. */
LQ_INLINE float lq_heightfield_friction(float v, float D, float fric)
{
    /* written v·D^{4/3} / (D^{4/3} + g Δt n² |v|): no 0/0 when D^{4/3} underflows */
    float v_abs = v < 0.0f ? -v : v, Dp = D * LQ_CBRTF(D);
    return (fric > 0.0f && Dp > 0.0f) ? v * Dp / (Dp + fric * v_abs) : v;
}

/* The thin-film limiter (shallow.thin_film = `thin`, issue 18), on a face between cells
 * whose new depths are da, db: with D the shallower of the two (half the wet one's at a
 * shoreline), water shallower than `thin` runs no faster than √(g D / 2) along each axis,
 * so no cell under `thin` deep moves faster than its critical speed √(g d) (a cell's
 * velocity is the mean of its faces' along each axis, each face capped by a depth no
 * greater than the cell's); deeper, √(g D / 2) (D/thin)², which joins it continuously and
 * no longer binds a few `thin` deep. Without it a sheet micrometres thin on the beach ran
 * at 3.28 m/s. `grav` = g (m/s²); thin = 0: off. */
LQ_INLINE float lq_heightfield_thin_film(float v, float da, float db, float grav, float thin)
{
    float D = (da > 0.0f && db > 0.0f) ? (da < db ? da : db) : 0.5f * (da + db);
    float r = D > thin ? D / thin : 1.0f, cap = LQ_SQRTF(0.5f * grav * D) * (r * r);
    float c = v > cap ? cap : (v < -cap ? -cap : v);
    return thin > 0.0f ? c : v;
}

/* The absorbing layer (walls: absorbing, issue 18): how deep into a layer `aw` cells wide
 * a face at (fx, fz) (cell units from the grid's corner) lies, 0 (outside) to 1 (at the
 * wall), the largest over the absorbing walls in `absorb` (bits as the open walls'). */
LQ_INLINE float lq_heightfield_layer(float fx, float fz, int nx, int nz, int absorb, float aw)
{
    float dist[4] = {fx, (float)nx - fx, fz, (float)nz - fz}, r = 0.0f;
    for (int q = 0; q < 4; q++) {
        float t = 1.0f - dist[q] / aw;
        r = ((absorb >> q) & 1) && t > r ? t : r;
    }
    return r;
}

/*
 * End of step: apply the wet/dry rule to h(n) and update the face velocities of eq. 7
 * in the θ-scheme's form (header),
 *   u(n) = (1 − τ) u(n−1) − g Δt/Δx (θ (h_{i+1}(n) − h_i(n)) + (1−θ) (h_{i+1}(n−1) − h_i(n−1)))
 * on open faces (then the absorbing layers' damping, bed friction and the thin-film
 * limiter), 0 on closed ones: `g_new` = θ g
 * Δt/Δx, `g_old` = (1−θ) g Δt/Δx (θ = 1: the paper's eq. 7 at the end of the step). Each cell owns
 * the face on its +x side (u) and on its +z side (w); wall faces stay 0. Neighbours' h(n) are read
 * through lq_heightfield_settle, which is idempotent, so the order of cells does not matter.
 */
LQ_INLINE void lq_heightfield_finish_cell(LQ_GLOBAL float *hn, const LQ_GLOBAL float *h1,
                                          const LQ_GLOBAL float *b, LQ_GLOBAL float *u,
                                          LQ_GLOBAL float *w, LQ_GLOBAL int *acc_i, int i, int k,
                                          int nx, int nz, float g_new, float g_old, float keep,
                                          float fric, float grav, float thin, float eps, int step,
                                          int absorb, float aw, float sponge)
{
    int idx = i + nx * k;
    /* The last cell of a row (column) writes the wall face beyond it: with itself as
     * the neighbour the difference is zero and that face's u is 0, so it stays 0. */
    int r = i + 1 < nx ? idx + 1 : idx, t = k + 1 < nz ? idx + nx : idx;
    int fu = i + 1 + (nx + 1) * k, fw = idx + nx;
    float bc = b[idx], h1c = h1[idx], br = b[r], bt = b[t], h1r = h1[r], h1t = h1[t];
    float hc = lq_heightfield_settle(hn[idx], bc, eps);
    float hr = lq_heightfield_settle(hn[r], br, eps), ht = lq_heightfield_settle(hn[t], bt, eps);
    float Du = lq_heightfield_edge_depth(h1c, bc, h1r, br),
          Dw = lq_heightfield_edge_depth(h1c, bc, h1t, bt);
    float vu = keep * u[fu] - (g_new * (hr - hc) + g_old * (h1r - h1c));
    float vw = keep * w[fw] - (g_new * (ht - hc) + g_old * (h1t - h1c));
    if (absorb) { /* the layer: σ Δt = sponge √D r², implicit, so it only slows */
        float ru = lq_heightfield_layer((float)(i + 1), (float)k + 0.5f, nx, nz, absorb, aw);
        float rw = lq_heightfield_layer((float)i + 0.5f, (float)(k + 1), nx, nz, absorb, aw);
        vu = vu / (1.0f + sponge * LQ_SQRTF(Du) * (ru * ru));
        vw = vw / (1.0f + sponge * LQ_SQRTF(Dw) * (rw * rw));
    }
    float dc = lq_heightfield_depth(hc, bc);
    vu = lq_heightfield_thin_film(lq_heightfield_friction(vu, Du, fric), dc,
                                  lq_heightfield_depth(hr, br), grav, thin);
    vw = lq_heightfield_thin_film(lq_heightfield_friction(vw, Dw, fric), dc,
                                  lq_heightfield_depth(ht, bt), grav, thin);
    u[fu] = Du > 0.0f ? vu : 0.0f;
    w[fw] = Dw > 0.0f ? vw : 0.0f;
    if (!LQ_IS_FINITE(hc)) LQ_ATOMIC_MIN(&acc_i[LQ_HEIGHTFIELD_ACC_BADSTEP], step);
    hn[idx] = hc;
}

/* Bilinear sample of a staggered field f (nfx x nfz values, x fastest) at index
 * coordinates (fx, fz), clamped to the field. */
LQ_INLINE float lq_heightfield_sample(const LQ_GLOBAL float *f, int nfx, int nfz, float fx,
                                      float fz)
{
    float mx = (float)(nfx - 1), mz = (float)(nfz - 1);
    fx = fx < 0.0f ? 0.0f : (fx > mx ? mx : fx);
    fz = fz < 0.0f ? 0.0f : (fz > mz ? mz : fz);
    int i0 = (int)fx, k0 = (int)fz;
    int i1 = i0 + 1 < nfx ? i0 + 1 : i0, k1 = k0 + 1 < nfz ? k0 + 1 : k0;
    float tx = fx - (float)i0, tz = fz - (float)k0;
    float lo = f[i0 + nfx * k0] * (1.0f - tx) + f[i1 + nfx * k0] * tx;
    float hi = f[i0 + nfx * k1] * (1.0f - tx) + f[i1 + nfx * k1] * tx;
    return lo * (1.0f - tz) + hi * tz;
}

/*
 * Advection of the face velocities (shallow.advection; the paper drops this term,
 * eq. 1 → 3): semi-Lagrangian, the velocity of an open face becomes the velocity found
 * one step upstream of it, (u, w) interpolated bilinearly on their staggered grids.
 * Closed faces hold 0. Each cell owns the faces on its +x and +z sides; reads u, w and
 * writes ua, wa (other buffers), so the order of cells does not matter. `dt_dx` is
 * Δt/Δx: displacements in index units.
 */
LQ_INLINE void lq_heightfield_advect_cell(const LQ_GLOBAL float *h1, const LQ_GLOBAL float *b,
                                          const LQ_GLOBAL float *u, const LQ_GLOBAL float *w,
                                          LQ_GLOBAL float *ua, LQ_GLOBAL float *wa, int i, int k,
                                          int nx, int nz, float dt_dx)
{
    int idx = i + nx * k;
    float hc = h1[idx], bc = b[idx];
    if (i + 1 < nx) {
        int fu = i + 1 + (nx + 1) * k;
        float v = 0.0f;
        if (lq_heightfield_edge_depth(hc, bc, h1[idx + 1], b[idx + 1]) > 0.0f) {
            float wf = 0.25f * (w[idx] + w[idx + nx] + w[idx + 1] + w[idx + 1 + nx]);
            float uf = (u[fu - 1] + u[fu] + u[fu + 1]) / 3.0f;
            v = lq_heightfield_sample(u, nx + 1, nz, (float)(i + 1) - dt_dx * uf,
                                      (float)k - dt_dx * wf);
        }
        ua[fu] = v;
    }
    if (k + 1 < nz) {
        int fw = idx + nx, f0 = i + (nx + 1) * k, f1 = f0 + nx + 1;
        float v = 0.0f;
        if (lq_heightfield_edge_depth(hc, bc, h1[idx + nx], b[idx + nx]) > 0.0f) {
            float uf = 0.25f * (u[f0] + u[f0 + 1] + u[f1] + u[f1 + 1]);
            float wf = (w[fw - nx] + w[fw] + w[fw + nx]) / 3.0f;
            v = lq_heightfield_sample(w, nx, nz + 1, (float)i - dt_dx * uf,
                                      (float)(k + 1) - dt_dx * wf);
        }
        wa[fw] = v;
    }
}

/* Frame statistics over one row segment: volume, wet cells, largest depth, largest
 * cell-centred speed, non-finite cells. */
LQ_INLINE void lq_heightfield_stats_segment(const LQ_GLOBAL float *h, const LQ_GLOBAL float *b,
                                            const LQ_GLOBAL float *u, const LQ_GLOBAL float *w,
                                            LQ_GLOBAL lq_long *acc_l, LQ_GLOBAL int *acc_i, int i0,
                                            int k, int count, int nx, float scale)
{
    lq_long vol = 0;
    int wet = 0, bad = 0;
    float dmax = 0.0f, smax = 0.0f;
    for (int i = i0; i < i0 + count; i++) {
        int idx = i + nx * k;
        float hc = h[idx];
        if (!LQ_IS_FINITE(hc)) {
            bad++;
            continue;
        }
        float d = lq_heightfield_depth(hc, b[idx]);
        vol = LQ_WRAP_ADD(vol, LQ_FIXED(d * scale));
        wet += d > 0.0f;
        dmax = d > dmax ? d : dmax;
        float uc = 0.5f * (u[i + (nx + 1) * k] + u[i + 1 + (nx + 1) * k]);
        float wc = 0.5f * (w[idx] + w[idx + nx]);
        float s = LQ_SQRTF(uc * uc + wc * wc);
        smax = s > smax ? s : smax;
    }
    LQ_ATOMIC_ADD_LONG(&acc_l[LQ_HEIGHTFIELD_ACC_VOLUME], vol);
    LQ_ATOMIC_ADD(&acc_i[LQ_HEIGHTFIELD_ACC_WET], wet);
    LQ_ATOMIC_ADD(&acc_i[LQ_HEIGHTFIELD_ACC_BAD], bad);
    LQ_ATOMIC_MAX_UINT((LQ_GLOBAL lq_uint *)&acc_i[LQ_HEIGHTFIELD_ACC_MAXDEPTH],
                       LQ_FLOAT_BITS(dmax));
    LQ_ATOMIC_MAX_UINT((LQ_GLOBAL lq_uint *)&acc_i[LQ_HEIGHTFIELD_ACC_MAXSPEED],
                       LQ_FLOAT_BITS(smax));
}

#endif
