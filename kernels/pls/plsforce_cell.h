/*
 * plsforce_cell.h — the small per-step operations of the `pls` solver that no other
 * module has (Rasmussen et al. 2004 §3, eq. 2's body force g and the CFL step of the
 * semi-Lagrangian scheme), shared by kernels/pls/plsforce.cl and the reference twins
 * (host/ops/pls/plsforce_ref.c):
 *  - body force: u_f += g_axis·dt on every interior face with liquid (φ ≤ 0) on at least
 *    one side and no solid cell (sdf ≤ 0, the same test as poisson_cell.h's lq_poisson_solid)
 *    on either side; faces on the domain edge (walls) and faces touching an object get 0
 *    (objects at rest, walls closed); faces with air on both sides keep their value (the
 *    extrapolation overwrites the band; beyond it they must not gather g·dt step after
 *    step, which would shrink the CFL step for nothing);
 *  - max |q| over a face array: a max of the bits of |q| (order-free, exact; a NaN's bits
 *    exceed +inf's, so a blown-up field shows as not finite);
 *  - liquid volume from φ: each cell's liquid fraction by the smoothed Heaviside
 *    clamp(½ − φ/h, 0, 1) (a linear ramp one cell wide: exact for a plane parallel to a
 *    cell face, φ = 0 at the centre gives ½), 0 in solid cells, summed as fixed point
 *    (2³² per cell) with integer atomics: order-free, exact; non-finite φ counted.
 *    A measure of φ's values, not of its zero set: where φ is not a signed distance
 *    (|∇φ| ≠ 1, as after the advection or the particles' corrections) it moves while
 *    the surface stays, so it misreads what the reinitialisation does (measured on the
 *    dam break: −23 % summed over the run's reinitialisations where the zero set moved
 *    −6 %, and +24 % over the run without any);
 *  - liquid volume of the zero set (lq_plsforce_volume_pl): the volume of {φ ≤ 0} for
 *    the piecewise-linear φ on the dual grid (cubes between 8 cell centres, each cut into
 *    6 tetrahedra along its main diagonal, Kuhn's triangulation; φ linear in each), exact
 *    per tetrahedron in closed form (lq_plsforce_tet_neg). It depends only on where φ
 *    crosses zero along the tetrahedra's edges, so scaling φ by any positive factor, or
 *    reinitialising it without moving its zero set, leaves it unchanged. The domain edge:
 *    a mirror layer (zero normal derivative) and half the cube's weight per axis it
 *    leaves the domain by (the half-cell between the wall and the first centre, on which
 *    φ is constant along the normal). A cube with a solid corner (sdf ≤ 0) counts, for
 *    each of its corners outside the solids, an eighth of that cell's per-cell fraction
 *    (each cell's eight octants in its eight cubes make up the per-cell measure): φ inside
 *    the objects (extrapolated into them, §5.5.2, and turned to air by separation) does not
 *    count, and beside an object the measure is the per-cell one. Summed as fixed point
 *    like the per-cell measure; a cube with a non-finite corner is counted bad.
 *  - shift (lq_plsforce_shift): φ += δ in every cell that is not solid, the opt-in global
 *    volume correction's one step (pls.volume_correction);
 * Grid: pls conventions (mac_grid.h indexing, no wall layer, cell size h; 2D nz = 1 has
 * no z faces: w is left alone).
 */
#ifndef LQ_PLSFORCE_CELL_H
#define LQ_PLSFORCE_CELL_H

#include "common/mac_grid.h"

#define LQ_PLSFORCE_BLOCK   256           /* elements per work-item of the reductions */
#define LQ_PLSFORCE_FIXED   4294967296.0f /* fixed-point units per cell of volume (2³²) */
#define LQ_PLSFORCE_RED_VOL 0             /* lq_long slots of the volume reduction */
#define LQ_PLSFORCE_RED_BAD 1

LQ_INLINE int lq_plsforce_solid(LQ_GLOBAL const float *sdf, int has_sdf, int c)
{
    return has_sdf && sdf[c] <= 0.0f;
}

/* The face on `axis` at face coordinates (i, j, k) (between the cells one step down the
 * axis and (i, j, k)): its value after the body force. gdt: g_axis·dt. */
LQ_INLINE float lq_plsforce_body_face(LQ_GLOBAL const float *q, int axis, int i, int j, int k,
                                      int nx, int ny, int nz, LQ_GLOBAL const float *phi,
                                      LQ_GLOBAL const float *sdf, int has_sdf, float gdt)
{
    int fx = nx + (axis == 0), fy = ny + (axis == 1);
    int f = i + fx * (j + fy * k);
    int na = axis == 0 ? nx : (axis == 1 ? ny : nz);
    int ca = axis == 0 ? i : (axis == 1 ? j : k);
    if (ca == 0 || ca == na) return 0.0f; /* the domain edge: a closed wall */
    int cm = LQ_MAC_CELL(i - (axis == 0), j - (axis == 1), k - (axis == 2), nx, ny);
    int cp = LQ_MAC_CELL(i, j, k, nx, ny);
    if (lq_plsforce_solid(sdf, has_sdf, cm) || lq_plsforce_solid(sdf, has_sdf, cp)) return 0.0f;
    if (phi[cm] > 0.0f && phi[cp] > 0.0f) return q[f];
    return q[f] + gdt;
}

LQ_INLINE lq_uint lq_plsforce_abs_bits(float x)
{
    return LQ_FLOAT_BITS(x) & 0x7fffffffu;
}

/* Liquid fraction of cell c in fixed point; *bad set when φ is not finite. ih = 1/h. */
LQ_INLINE lq_long lq_plsforce_volume_cell(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                          int has_sdf, int c, float ih, int *bad)
{
    float p = phi[c];
    if (!LQ_IS_FINITE(p)) {
        *bad = 1;
        return 0;
    }
    if (lq_plsforce_solid(sdf, has_sdf, c)) return 0;
    float a = 0.5f - p * ih;
    a = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    return LQ_FIXED(a * LQ_PLSFORCE_FIXED);
}

/* The fraction of a tetrahedron where the linear function with vertex values f[0..3] is
 * ≤ 0. Closed forms with every subtraction between values of opposite sign (so no
 * cancellation): one vertex ≤ 0 (a), A = −a: A³ / Π(b + A); two (a, b; A = −a, B = −b;
 * c, d > 0): [cd(A² + AB + B²) + (c + d)AB(A + B) + A²B²] / [(c + A)(d + A)(c + B)(d + B)]
 * (the two one-vertex terms of the divided-difference form over one denominator, the
 * factor A − B cancelled); three: 1 minus the one-vertex form of the positive one. */
LQ_INLINE float lq_plsforce_tet_neg(float f0, float f1, float f2, float f3)
{
    float f[4] = {f0, f1, f2, f3}, neg[4], pos[4];
    int nn = 0, np = 0;
    for (int q = 0; q < 4; q++) {
        if (f[q] <= 0.0f)
            neg[nn++] = -f[q];
        else
            pos[np++] = f[q];
    }
    if (nn == 0) return 0.0f;
    if (np == 0) return 1.0f;
    if (nn == 1) {
        float A = neg[0];
        return A * A * A / ((pos[0] + A) * (pos[1] + A) * (pos[2] + A));
    }
    if (nn == 3) {
        float P = pos[0];
        return 1.0f - P * P * P / ((neg[0] + P) * (neg[1] + P) * (neg[2] + P));
    }
    float A = neg[0], B = neg[1], c = pos[0], d = pos[1];
    float num = c * d * (A * A + A * B + B * B) + (c + d) * A * B * (A + B) + A * A * B * B;
    return num / ((c + A) * (d + A) * (c + B) * (d + B));
}

/* The fixed-point liquid volume of the dual cube (i, j, k), i in [0, nx], ... (its corners
 * the cells i − 1 and i, clamped to the domain, and so on): its weight (½ per axis on
 * the domain edge) times the mean of its 6 tetrahedra's fractions, or with a solid corner
 * an eighth of each fluid corner's per-cell fraction (ih = 1/h); *bad set when a corner's
 * φ is not finite. */
LQ_INLINE lq_long lq_plsforce_volume_pl_cube(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                             int has_sdf, int i, int j, int k, int nx, int ny,
                                             int nz, float ih, int *bad)
{
    float v[8], cells = 0.0f;
    int fluid = 0, nneg = 0;
    for (int q = 0; q < 8; q++) {
        int a = i - 1 + (q & 1), b = j - 1 + ((q >> 1) & 1), e = k - 1 + (q >> 2);
        a = a < 0 ? 0 : (a > nx - 1 ? nx - 1 : a);
        b = b < 0 ? 0 : (b > ny - 1 ? ny - 1 : b);
        e = e < 0 ? 0 : (e > nz - 1 ? nz - 1 : e);
        int c = LQ_MAC_CELL(a, b, e, nx, ny);
        v[q] = phi[c];
        if (!LQ_IS_FINITE(v[q])) {
            *bad = 1;
            return 0;
        }
        if (!lq_plsforce_solid(sdf, has_sdf, c)) {
            float f = 0.5f - v[q] * ih;
            cells = cells + (f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f));
            fluid++;
        }
        nneg += v[q] <= 0.0f;
    }
    float w = (i == 0 || i == nx ? 0.5f : 1.0f) * (j == 0 || j == ny ? 0.5f : 1.0f) *
              (k == 0 || k == nz ? 0.5f : 1.0f);
    if (fluid < 8) return LQ_FIXED(w * (0.125f * cells) * LQ_PLSFORCE_FIXED);
    if (nneg == 0) return 0;
    float frac = 1.0f;
    if (nneg < 8) {
        /* Kuhn's 6 tetrahedra round the diagonal from corner 0 to corner 7 */
        float t = lq_plsforce_tet_neg(v[0], v[1], v[3], v[7]);
        t = t + lq_plsforce_tet_neg(v[0], v[1], v[5], v[7]);
        t = t + lq_plsforce_tet_neg(v[0], v[2], v[3], v[7]);
        t = t + lq_plsforce_tet_neg(v[0], v[2], v[6], v[7]);
        t = t + lq_plsforce_tet_neg(v[0], v[4], v[5], v[7]);
        t = t + lq_plsforce_tet_neg(v[0], v[4], v[6], v[7]);
        frac = t / 6.0f;
    }
    return LQ_FIXED(w * frac * LQ_PLSFORCE_FIXED);
}

/* φ at cell c after the global correction's shift δ (m); solid cells keep theirs. */
LQ_INLINE float lq_plsforce_shift_cell(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                       int has_sdf, int c, float delta)
{
    return lq_plsforce_solid(sdf, has_sdf, c) ? phi[c] : phi[c] + delta;
}

#endif
