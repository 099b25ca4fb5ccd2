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

#endif
