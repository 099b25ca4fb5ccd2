/*
 * momentum_cell.h — per-face math of the explicit momentum update (Foster & Metaxas
 * 1996 §3.1, eq. 2), the solid-obstacle boundary conditions (§3.2.1) and the max-speed
 * reduction behind the time step (eq. 3), shared by the OpenCL kernels
 * (kernels/mac/momentum.cl) and their reference twins (host/ops/mac/momentum_ref.c). Grid and cell
 * kinds: mac_grid.h. p is kinematic (pressure over density, m²/s²).
 *
 * Eq. 2 for a face of axis a (component q = u, v or w) at the low side of cell c, i.e.
 * between cells c − e_a and c:
 *   q̃ = q + δt { Σ_b A_b + g_a + (p_{c−e_a} − p_c)/δa + Σ_b ν/δb² (q_{+b} + q_{−b} − 2q) }
 * with the paper's averages ("averaged over the nearest available values"):
 *   A_a = (1/δa) [ (q_{c−e_a})² − (q_c)² ], q at a cell centre = ½ (its two a-faces),
 *         the square of the average;
 *   A_b = (1/δb) [ (q r)_{−b} − (q r)_{+b} ] for b ≠ a, r the b component, at the edge
 *         between the face and its b neighbour: (q r)_{−b} = ½(q_{−b} + q) · ½(r at the
 *         low b-faces of cells c − e_a and c), (q r)_{+b} = ½(q + q_{+b}) · ½(r at the
 *         high b-faces of cells c − e_a and c): each factor the average of its two
 *         nearest faces, then the product (not the average of products).
 * Terms are summed in the order A_x, A_y, A_z, g, pressure, viscosity x, y, z.
 *
 * The convective fluxes (mac.advection). Each edge flux above is centred: r (qL + qR)/2
 * for transport velocity r between the values qL (low side) and qR. `donor` (the default)
 * subtracts γ ½ |r| (qR − qL) (mac.upwind γ; at 1 donor-cell upwinding, first order, a
 * numerical viscosity of about ½ |u| δ). `limited` subtracts instead
 * D = ½ |r| ((qR − qL) − w mc(Δup, qR − qL)), Δup the difference one face further upwind
 * (qL − qLL for r ≥ 0, qRR − qR else), mc the monotonized-central limiter: the limited
 * second-order upwind (MUSCL) flux, donor cell at extrema and jumps, with w = 1 up to a
 * Courant number C = |r| δt/δ of ½ (the solver keeps its step there,
 * LQ_MOMENTUM_LIMITED_CFL) and less above (lq_momentum_limited_d). Not Lax–Wendroff's
 * w = 1 − C: its time correction assumes q_t = −(u·∇)q, but the pressure makes a steady
 * vortex's q_t 0, so that term only diffuses (ν ≈ |u|² δt/2: a Taylor–Green vortex at
 * C 0.9 lost energy at half donor cell's rate, tests/validation/test_mac_advection.c).
 * The scheme reads the same faces as donor cell plus the face two away on each side
 * along the flux's axis, with the same rule at the grid's edge (past it, the last face
 * inside: zero gradient, which makes the limiter donor cell there). Faces next to air,
 * obstacles and walls read what donor cell reads there: the air band's extrapolated
 * faces, the obstacle mirrors of §3.2.1, 0 in the air beyond the band; which faces move,
 * Gates' open pairs and hanging cells are the same for both schemes.
 *
 * Which faces move: both cells in the grid, neither SOLID nor INFLOW, at least one FULL
 * or SURFACE. The others keep their value: faces touching only EMPTY (or OUTFLOW)
 * cells, domain-edge faces, and faces touching SOLID or INFLOW cells (set by the
 * boundary operation and the inflow rule). A q neighbour across b ≠ a that lies outside
 * the grid is replaced by q itself (zero gradient: its viscous term is 0). In 2D
 * (nz = 1) every w face is a domain-edge face and w is expected to be 0, so the z terms
 * vanish.
 *
 * Gates' open pairs (Gates 2001 §2.2–2.6, kernels/mac/macsurface_cell.h): the two faces of a
 * SURFACE cell whose neighbours on both sides along axis a are EMPTY move by the body
 * force only, "the old velocity plus the body force times the time step": both become
 * ½ (q_lo + q_hi) + g_a δt, the pair's mean (lo, hi in that order on both faces, so the
 * two writers agree bit for bit). Eq. 2 there read the air beyond the face (0): a drop
 * one cell thick moving along the pair gained about ½ cfl of its speed per step on its
 * leading face, geometrically with δt ∝ 1/speed (the dam break's jet up the far wall
 * reached 14 m/s and the run blew up); and a difference between the pair's faces (stale
 * air values) is what the cell's closing face turns into a stretch every step, so the
 * pair keeps none. Gates' rules then run with no body force (host/solvers/mac.c).
 * The −y face of a SURFACE cell hanging from a ceiling (EMPTY below, SOLID or the grid's
 * top above: lq_momentum_hanging_face, kernels/mac/macsurface_cell.h) moves the same way, q + g_y
 * δt, so a film one cell thick under a ceiling falls by g.
 *
 * §3.2.1 on faces touching a SOLID cell (the boundary operation):
 *   - a face between a SOLID cell and a non-SOLID one, or between a SOLID cell and the
 *     domain edge: the normal velocity, 0;
 *   - a face between two SOLID cells (tangential, inside the obstacle): mirrored from
 *     the first "fluid face" found in the order −b, +b for b ≠ a ascending (u: −y, +y,
 *     −z, +z; v: −x, +x, −z, +z; w: −x, +x, −y, +y), a fluid face being the parallel
 *     face one cell away whose two cells are both in the grid and non-SOLID. The value
 *     is −q_fluid (no-slip) if either SOLID cell's boundary flag is 1, else +q_fluid
 *     (free-slip). No fluid face: 0 (the inside of an obstacle is at rest).
 *   - p of a SOLID cell: p of its first neighbour in the order −x, +x, −y, +y, −z, +z
 *     that is neither SOLID nor EMPTY; none: p unchanged.
 * Race-free in place: it writes only faces touching a SOLID cell and p of SOLID cells,
 * and reads only fluid faces (which touch no SOLID cell) and p of non-SOLID cells.
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, no division (the host passes 1/δ, ν/δ², δt). The max-speed reduction is a max
 * of |q| bits, which does not depend on order.
 */
#ifndef LQ_MOMENTUM_CELL_H
#define LQ_MOMENTUM_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"

#define LQ_MOMENTUM_INF_BITS 0x7f800000u /* bits of +inf: what a non-finite speed reduces to */
#define LQ_MOMENTUM_BLOCK    256         /* faces per work-item of the max |q| pass */

/* What eq. 2 takes, from the params in double, rounded once (host/ops/mac/momentum.c). */
typedef struct lq_momentum_coef {
    float idx, idy, idz; /* 1/m */
    float vx, vy, vz;    /* ν/δ² per axis, 1/s */
    float gx, gy, gz;    /* m/s² */
    float dt;            /* s */
    float gamma;         /* donor-cell share of the convective terms, [0, 1] (0: eq. 2) */
    int limited;         /* 1: the limited second-order scheme (LQ_MOMENTUM_LIMITED), γ unused */
} lq_momentum_coef;

/* mac.advection: how eq. 2's convective terms are differenced (the block above). */
#define LQ_MOMENTUM_DONOR   0 /* centred, plus γ of the donor-cell diffusion */
#define LQ_MOMENTUM_LIMITED 1 /* limited second-order upwind, monotonized-central limiter */
/* The Courant number the solver's step keeps under LQ_MOMENTUM_LIMITED: where C ≤ ½ the
 * scheme is the full second-order one (see lq_momentum_limited_d) */
#define LQ_MOMENTUM_LIMITED_CFL 0.5f

/* Index of the face of axis a on the low side of cell (i, j, k). */
LQ_INLINE int lq_momentum_face(int a, int i, int j, int k, int nx, int ny)
{
    if (a == 0) return LQ_MAC_U(i, j, k, nx, ny);
    if (a == 1) return LQ_MAC_V(i, j, k, nx, ny);
    return LQ_MAC_W(i, j, k, nx, ny);
}

LQ_INLINE int lq_momentum_is_fluid(int kind)
{
    return kind == LQ_MAC_FULL || kind == LQ_MAC_SURFACE;
}

/* Does eq. 2 move the face between cells of kinds ka and kb (both in the grid)? */
LQ_INLINE int lq_momentum_face_moves(int ka, int kb)
{
    return ka != LQ_MAC_SOLID && kb != LQ_MAC_SOLID && ka != LQ_MAC_INFLOW && kb != LQ_MAC_INFLOW &&
           (lq_momentum_is_fluid(ka) || lq_momentum_is_fluid(kb));
}

/* Kind of cell (i, j, k), or -1 outside the grid. */
LQ_INLINE int lq_momentum_kind(const LQ_GLOBAL unsigned char *flags, int i, int j, int k, int nx,
                               int ny, int nz)
{
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return -1;
    return flags[LQ_MAC_CELL(i, j, k, nx, ny)];
}

/* Gates' open pair (§2.2–2.6): the face of axis a at the low side of cell (i, j, k) lies
 * between a SURFACE cell and an EMPTY one, and the SURFACE cell's other neighbour along a
 * is EMPTY too (outside the grid is a wall, as in lq_macsurface_empty_mask). Returns the offset
 * along a (+1 or −1) of the pair's other face, 0 when the face is not in an open pair. */
LQ_INLINE int lq_momentum_open_pair(const LQ_GLOBAL unsigned char *flags, int a, int i, int j,
                                    int k, int nx, int ny, int nz)
{
    int di = a == 0, dj = a == 1, dk = a == 2;
    int ka = lq_momentum_kind(flags, i - di, j - dj, k - dk, nx, ny, nz);
    int kb = lq_momentum_kind(flags, i, j, k, nx, ny, nz);
    if (kb == LQ_MAC_SURFACE && ka == LQ_MAC_EMPTY &&
        lq_momentum_kind(flags, i + di, j + dj, k + dk, nx, ny, nz) == LQ_MAC_EMPTY)
        return 1;
    if (ka == LQ_MAC_SURFACE && kb == LQ_MAC_EMPTY &&
        lq_momentum_kind(flags, i - 2 * di, j - 2 * dj, k - 2 * dk, nx, ny, nz) == LQ_MAC_EMPTY)
        return -1;
    return 0;
}

/* Is the face of axis a at the low side of cell (i, j, k) the −y face of a SURFACE cell
 * hanging from a ceiling: EMPTY below, SOLID (or outside the grid) above
 * (kernels/mac/macsurface_cell.h, lq_macsurface_hanging)? */
LQ_INLINE int lq_momentum_hanging_face(const LQ_GLOBAL unsigned char *flags, int a, int i, int j,
                                       int k, int nx, int ny, int nz)
{
    if (a != 1 || lq_momentum_kind(flags, i, j, k, nx, ny, nz) != LQ_MAC_SURFACE ||
        lq_momentum_kind(flags, i, j - 1, k, nx, ny, nz) != LQ_MAC_EMPTY)
        return 0;
    int up = lq_momentum_kind(flags, i, j + 1, k, nx, ny, nz);
    return up == LQ_MAC_SOLID || up < 0;
}

/* |x| as ordered bits: 0 for ±0, +inf for inf and NaN (as lq_pressure_abs_bits). */
LQ_INLINE lq_uint lq_momentum_abs_bits(float x)
{
    if (!LQ_IS_FINITE(x)) return LQ_MOMENTUM_INF_BITS;
    if (x == 0.0f) return 0u;
    return LQ_FLOAT_BITS(x < 0.0f ? -x : x);
}

/* The monotonized-central limiter (van Leer 1977) as a limited difference:
 * minmod(2 up, ½ (up + loc), 2 loc), 0 where up and loc differ in sign or one is 0
 * (φ(θ) · loc for φ(θ) = max(0, min(2θ, ½(1 + θ), 2)), θ = up / loc, without dividing). */
LQ_INLINE float lq_momentum_mc(float up, float loc)
{
    if (!((up > 0.0f && loc > 0.0f) || (up < 0.0f && loc < 0.0f))) return 0.0f;
    float a = 2.0f * up, b = 2.0f * loc, m = 0.5f * (up + loc);
    if (loc > 0.0f) {
        float s = a < b ? a : b;
        return m < s ? m : s;
    }
    float s = a > b ? a : b;
    return m > s ? m : s;
}

/* The diffusive part D of the flux through one edge under LQ_MOMENTUM_LIMITED: the flux is
 * the centred r (qL + qR)/2 minus D, D = ½ |r| ((qR − qL) − w(C) mc(Δup, qR − qL)),
 * C = |r| δt/δ (dtid = δt/δ), Δup the difference one face upwind (qL − qLL for r ≥ 0,
 * qRR − qR else). The limiter at 0 leaves donor cell's ½ |r| (qR − qL). w = 1 (C ≤ ½) is
 * the limited second-order upwind flux (MUSCL with the MC slope), total-variation
 * diminishing in 1D with forward Euler for C ≤ ½; above ½, w = max(1 − C, 3 − 4C), the
 * larger of two tangents of (1 − C)/C, stays under that bound's w ≤ (1 − C)/C without a
 * division (1 − C is Lax–Wendroff's weight: Sweby 1984). */
LQ_INLINE float lq_momentum_limited_d(float r, float ql, float qr, float qll, float qrr, float dtid)
{
    float ar = LQ_FABSF(r);
    float loc = qr - ql, up = r >= 0.0f ? ql - qll : qrr - qr;
    float c = ar * dtid, wt = 1.0f - c, w2 = 3.0f - 4.0f * c;
    if (w2 > wt) wt = w2;
    if (wt > 1.0f) wt = 1.0f;
    if (wt < 0.0f) wt = 0.0f;
    return 0.5f * ar * (loc - wt * lq_momentum_mc(up, loc));
}

/* Eq. 2 for the face of axis a at the low side of cell (i, j, k); returns the new
 * value (the old one where the face does not move). */
LQ_INLINE float lq_momentum_step_face(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                      const LQ_GLOBAL float *w, const LQ_GLOBAL float *p,
                                      const LQ_GLOBAL unsigned char *flags, int a, int i, int j,
                                      int k, int nx, int ny, int nz, lq_momentum_coef cf)
{
    const LQ_GLOBAL float *comp[3] = {u, v, w};
    const LQ_GLOBAL float *q = comp[a];
    int c[3] = {i, j, k}, n[3] = {nx, ny, nz};
    float id[3] = {cf.idx, cf.idy, cf.idz}, vis[3] = {cf.vx, cf.vy, cf.vz};
    float g[3] = {cf.gx, cf.gy, cf.gz};
    int e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int f = lq_momentum_face(a, i, j, k, nx, ny);
    float q0 = q[f];
    if (c[a] == 0 || c[a] == n[a]) return q0; /* domain edge */
    int cb = LQ_MAC_CELL(i, j, k, nx, ny);
    int ca = LQ_MAC_CELL(i - e[a][0], j - e[a][1], k - e[a][2], nx, ny);
    /* air: a face with no liquid on either side carries nothing (stale values left
     * behind when cells empty would feed the markers' sampling at the surface) */
    int ka = flags[ca], kb = flags[cb];
    int side_empty = ka == LQ_MAC_EMPTY || kb == LQ_MAC_EMPTY;
    if (side_empty && !lq_momentum_is_fluid(ka) && !lq_momentum_is_fluid(kb)) return 0.0f;
    if (!lq_momentum_face_moves(ka, kb)) return q0;
    const float h = 0.5f;
    /* an open pair and a hanging cell's bottom face both have an EMPTY side: the faces
     * between two liquid cells skip the tests */
    int pair = side_empty ? lq_momentum_open_pair(flags, a, i, j, k, nx, ny, nz) : 0;
    if (pair != 0) { /* Gates' open pair: the pair's mean plus the body force only */
        float qo = q[lq_momentum_face(a, i + pair * e[a][0], j + pair * e[a][1], k + pair * e[a][2],
                                      nx, ny)];
        float lo = pair > 0 ? q0 : qo, hi = pair > 0 ? qo : q0;
        return h * (lo + hi) + cf.dt * g[a];
    }
    /* a cell hanging from a ceiling: its open bottom face by the body force only, as an
     * open pair's (Gates' rules then take the least of it, continuity and 0) */
    if (side_empty && lq_momentum_hanging_face(flags, a, i, j, k, nx, ny, nz))
        return q0 + cf.dt * g[a];

    float qm = q[lq_momentum_face(a, i - e[a][0], j - e[a][1], k - e[a][2], nx, ny)];
    float qp = q[lq_momentum_face(a, i + e[a][0], j + e[a][1], k + e[a][2], nx, ny)];
    float qlo[3], qhi[3]; /* q's neighbours across each axis (clamped to q itself) */
    float sum = 0.0f;
    for (int b = 0; b < 3; b++) {
        if (b == a) {
            qlo[b] = qm;
            qhi[b] = qp;
            float cm = h * (qm + q0), cp = h * (q0 + qp);
            sum = sum + (cm * cm - cp * cp) * id[b];
            if (cf.limited) { /* the faces two away along a (zero gradient past the edge) */
                float qmm = c[a] >= 2 ? q[lq_momentum_face(a, i - 2 * e[a][0], j - 2 * e[a][1],
                                                           k - 2 * e[a][2], nx, ny)]
                                      : qm;
                float qpp = c[a] + 2 <= n[a]
                                ? q[lq_momentum_face(a, i + 2 * e[a][0], j + 2 * e[a][1],
                                                     k + 2 * e[a][2], nx, ny)]
                                : qp;
                float dtid = cf.dt * id[b];
                float dp = lq_momentum_limited_d(cp, q0, qp, qm, qpp, dtid);
                float dm = lq_momentum_limited_d(cm, qm, q0, qmm, qp, dtid);
                sum = sum + (dp - dm) * id[b];
                continue;
            }
            /* donor cell: upwind the transported velocity by γ */
            float up = LQ_FABSF(cp) * (q0 - qp) - LQ_FABSF(cm) * (qm - q0);
            sum = sum - cf.gamma * h * up * id[b];
            continue;
        }
        qlo[b] =
            c[b] > 0 ? q[lq_momentum_face(a, i - e[b][0], j - e[b][1], k - e[b][2], nx, ny)] : q0;
        qhi[b] = c[b] < n[b] - 1
                     ? q[lq_momentum_face(a, i + e[b][0], j + e[b][1], k + e[b][2], nx, ny)]
                     : q0;
        const LQ_GLOBAL float *r = comp[b];
        int il = i - e[a][0], jl = j - e[a][1], kl = k - e[a][2]; /* cell c − e_a */
        float rlo = h * (r[lq_momentum_face(b, il, jl, kl, nx, ny)] +
                         r[lq_momentum_face(b, i, j, k, nx, ny)]);
        float rhi = h * (r[lq_momentum_face(b, il + e[b][0], jl + e[b][1], kl + e[b][2], nx, ny)] +
                         r[lq_momentum_face(b, i + e[b][0], j + e[b][1], k + e[b][2], nx, ny)]);
        float ql = h * (qlo[b] + q0), qh = h * (q0 + qhi[b]);
        sum = sum + (ql * rlo - qh * rhi) * id[b];
        if (cf.limited) { /* the faces two away along b (zero gradient past the grid) */
            float qll = c[b] >= 2 ? q[lq_momentum_face(a, i - 2 * e[b][0], j - 2 * e[b][1],
                                                       k - 2 * e[b][2], nx, ny)]
                                  : qlo[b];
            float qhh = c[b] + 2 <= n[b] - 1
                            ? q[lq_momentum_face(a, i + 2 * e[b][0], j + 2 * e[b][1],
                                                 k + 2 * e[b][2], nx, ny)]
                            : qhi[b];
            float dtid = cf.dt * id[b];
            float dh = lq_momentum_limited_d(rhi, q0, qhi[b], qlo[b], qhh, dtid);
            float dl = lq_momentum_limited_d(rlo, qlo[b], q0, qll, qhi[b], dtid);
            sum = sum + (dh - dl) * id[b];
            continue;
        }
        float up = LQ_FABSF(rhi) * (q0 - qhi[b]) - LQ_FABSF(rlo) * (qlo[b] - q0);
        sum = sum - cf.gamma * h * up * id[b];
    }
    sum = sum + g[a];
    sum = sum + (p[ca] - p[cb]) * id[a];
    for (int b = 0; b < 3; b++) sum = sum + vis[b] * ((qhi[b] + qlo[b]) - 2.0f * q0);
    return q0 + cf.dt * sum;
}

/* §3.2.1 for the face of axis a at the low side of cell (i, j, k): stores the new value
 * when the face touches a SOLID cell (see the block above); other faces are untouched. */
LQ_INLINE void lq_momentum_boundary_face(LQ_GLOBAL float *q, const LQ_GLOBAL unsigned char *flags,
                                         const LQ_GLOBAL unsigned char *bnd, int a, int i, int j,
                                         int k, int nx, int ny, int nz)
{
    int e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int c[3] = {i, j, k}, n[3] = {nx, ny, nz};
    int ka = lq_momentum_kind(flags, i - e[a][0], j - e[a][1], k - e[a][2], nx, ny, nz);
    int kb = lq_momentum_kind(flags, i, j, k, nx, ny, nz);
    int sa = ka == LQ_MAC_SOLID, sb = kb == LQ_MAC_SOLID;
    int f = lq_momentum_face(a, i, j, k, nx, ny);
    if (!sa && !sb) return;
    if (!(sa && sb)) { /* normal face of an obstacle, or of a SOLID cell at the edge */
        q[f] = 0.0f;
        return;
    }
    int noslip = bnd[LQ_MAC_CELL(i - e[a][0], j - e[a][1], k - e[a][2], nx, ny)] != 0 ||
                 bnd[LQ_MAC_CELL(i, j, k, nx, ny)] != 0;
    for (int b = 0; b < 3; b++) {
        if (b == a) continue;
        for (int s = -1; s <= 1; s += 2) {
            int cn = c[b] + s;
            if (cn < 0 || cn >= n[b]) continue;
            int i2 = i + s * e[b][0], j2 = j + s * e[b][1], k2 = k + s * e[b][2];
            int k1 = lq_momentum_kind(flags, i2 - e[a][0], j2 - e[a][1], k2 - e[a][2], nx, ny, nz);
            int k2k = lq_momentum_kind(flags, i2, j2, k2, nx, ny, nz);
            if (k1 < 0 || k2k < 0 || k1 == LQ_MAC_SOLID || k2k == LQ_MAC_SOLID) continue;
            float qf = q[lq_momentum_face(a, i2, j2, k2, nx, ny)];
            q[f] = noslip ? -qf : qf;
            return;
        }
    }
    q[f] = 0.0f;
}

/* §3.2.1: p of a SOLID cell from its first neighbour (−x, +x, −y, +y, −z, +z) that is
 * neither SOLID nor EMPTY. */
LQ_INLINE void lq_momentum_boundary_p(LQ_GLOBAL float *p, const LQ_GLOBAL unsigned char *flags,
                                      int i, int j, int k, int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (flags[c] != LQ_MAC_SOLID) return;
    int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (int m = 0; m < 6; m++) {
        int i2 = i + d[m][0], j2 = j + d[m][1], k2 = k + d[m][2];
        int kn = lq_momentum_kind(flags, i2, j2, k2, nx, ny, nz);
        if (kn < 0 || kn == LQ_MAC_SOLID || kn == LQ_MAC_EMPTY) continue;
        p[c] = p[LQ_MAC_CELL(i2, j2, k2, nx, ny)];
        return;
    }
}

#endif
