/*
 * chains_cell.h — per-point and per-cell math of the 2D free-surface particle chains of
 * the `mac` solver (Foster & Metaxas 1996 §4.2, Fig. 5), shared by the OpenCL kernels
 * (kernels/mac/chains.cl) and their reference twins (host/ops/mac/chains_ref.c). Grid: mac_grid.h,
 * nz = 1 only.
 *
 * Chains. Points are x, y, z per point (m; the markers' layout, so lq_markers_advect
 * moves them). Connectivity is one int per point, next[p]: ≥ 0 the point the segment
 * from p goes to; −2 − q for the last point of an open chain whose first point is q (no
 * segment, but the winding number closes the chain with the straight line p → q, so an
 * open chain should end inside walls or obstacles); −1 unused. The liquid lies to the
 * LEFT of the direction of travel: a closed chain around liquid runs counter-clockwise
 * (x right, y up), a bubble's chain clockwise inside its liquid's chain.
 *
 * Classification (§4.2), the paper's region growing done as parallel label
 * propagation, five race-free passes over an int label per cell:
 *  1. clear: label = −1 in SOLID, INFLOW and OUTFLOW cells, else the cell's own index;
 *  2. mark (per point): the cells the segment p → next[p] passes are "crossed" (−2,
 *     an atomic min; fixed cells are skipped): the segment is sampled at m + 1 evenly
 *     spaced points, m = ⌊2 max(|Δx|/δx, |Δy|/δy)⌋ + 1, so consecutive samples are
 *     less than half a cell apart along each axis and the crossed cells of a chain are
 *     8-connected — a wall that a 4-connected region cannot pass (Fig. 5's S cells);
 *  3. grow (repeated until no label changes; the launcher loops): every cell with a
 *     label ≥ 0 takes the smallest label among itself, its 4 neighbours with labels ≥ 0
 *     and the label of the cell its label names (pointer jumping), by atomic min. Labels
 *     only decrease and stay indices of cells of the same 4-connected region, so the
 *     fixed point — each region labelled with its smallest cell index, its root — does
 *     not depend on the order of updates (twins agree although the iterates differ);
 *  4. side (per root cell): the winding number of the root's centre about all chains
 *     (Sunday's crossing rule: sign tests of one cross product, no division); liquid
 *     when > 0. state[root] = 1 (liquid) or 0. Region growing finds the regions the
 *     surface cells separate, as the paper's alternating Empty/Full growth does; one
 *     point-in-polygon test per region decides which side it is on, instead of the
 *     paper's assumption that the grid corner above the origin is empty;
 *  5. spread: state = −1 fixed, 1 crossed, else state[root]; then the marker path's
 *     labelling (lq_markers_label_cell): a liquid cell with an EMPTY neighbour is SURFACE,
 *     another liquid cell FULL, the rest EMPTY. Crossed cells are liquid, as in the
 *     paper (Fig. 5(a) sets them Full, then Surface); one along a wall with no EMPTY
 *     neighbour ends FULL, the same flags the marker path gives.
 *
 * Invariants (bit-for-bit twins): integer labels, cross products in one order without
 * contraction; the sub-sample parameter s/m is one division (correctly rounded on
 * devices that offer -cl-fp32-correctly-rounded-divide-sqrt, which cl.c asks for).
 */
#ifndef LQ_CHAINS_CELL_H
#define LQ_CHAINS_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "mac/markers_cell.h"

#define LQ_CHAINS_CROSSED (-2)

/* Pass 1, cell c. */
LQ_INLINE void lq_chains_clear_cell(LQ_GLOBAL int *label, const LQ_GLOBAL unsigned char *flags,
                                    int c)
{
    label[c] = lq_markers_fixed(flags[c]) ? -1 : c;
}

/* The cell holding (x, y), the nearest one outside the grid (NaN: cell 0). */
LQ_INLINE int lq_chains_cell(float x, float y, int nx, int ny, float idx, float idy)
{
    int i = (int)lq_markers_clampf(x * idx, 0.0f, (float)nx);
    int j = (int)lq_markers_clampf(y * idy, 0.0f, (float)ny);
    if (i > nx - 1) i = nx - 1;
    if (j > ny - 1) j = ny - 1;
    return i + nx * j;
}

/* Pass 2, point p. */
LQ_INLINE void lq_chains_mark_point(LQ_GLOBAL LQ_VOLATILE int *label, const LQ_GLOBAL float *pos,
                                    const LQ_GLOBAL int *next, const LQ_GLOBAL unsigned char *flags,
                                    int p, int nx, int ny, float idx, float idy)
{
    float ax = pos[3 * p], ay = pos[3 * p + 1];
    int q = next[p], m = 0;
    float bx = ax, by = ay;
    if (q >= 0) {
        bx = pos[3 * q];
        by = pos[3 * q + 1];
        float gx = (bx - ax) * idx, gy = (by - ay) * idy;
        if (gx < 0.0f) gx = -gx;
        if (gy < 0.0f) gy = -gy;
        float g = gx > gy ? gx : gy;
        /* a garbage segment (NaN, far outside) is sampled at its ends only */
        m = (int)lq_markers_clampf(2.0f * g, 0.0f, (float)(4 * (nx + ny))) + 1;
    }
    float fm = (float)m;
    for (int s = 0; s <= m; s++) {
        float t = m > 0 ? (float)s / fm : 0.0f;
        float x = ax + t * (bx - ax), y = ay + t * (by - ay);
        int c = lq_chains_cell(x, y, nx, ny, idx, idy);
        if (!lq_markers_fixed(flags[c])) LQ_ATOMIC_MIN(&label[c], LQ_CHAINS_CROSSED);
    }
}

/* Pass 3, cell (i, j): returns 1 when its label dropped. */
LQ_INLINE int lq_chains_grow_cell(LQ_GLOBAL LQ_VOLATILE int *label, int i, int j, int nx, int ny)
{
    int c = i + nx * j, l = label[c];
    if (l < 0) return 0;
    int m = l, b;
    if (i > 0 && (b = label[c - 1]) >= 0 && b < m) m = b;
    if (i < nx - 1 && (b = label[c + 1]) >= 0 && b < m) m = b;
    if (j > 0 && (b = label[c - nx]) >= 0 && b < m) m = b;
    if (j < ny - 1 && (b = label[c + nx]) >= 0 && b < m) m = b;
    if ((b = label[m]) >= 0 && b < m) m = b; /* pointer jumping */
    if (m >= l) return 0;
    LQ_ATOMIC_MIN(&label[c], m);
    return 1;
}

/* 2 × the signed area of (a, b, p): > 0 when p is left of a → b. */
LQ_INLINE float lq_chains_left(float ax, float ay, float bx, float by, float px, float py)
{
    return (bx - ax) * (py - ay) - (px - ax) * (by - ay);
}

/* Winding number of (px, py) about the n points' chains (open chains closed). */
LQ_INLINE int lq_chains_winding(const LQ_GLOBAL float *pos, const LQ_GLOBAL int *next, int n,
                                float px, float py)
{
    int wn = 0;
    for (int p = 0; p < n; p++) {
        int q = next[p];
        if (q == -1) continue;
        if (q < 0) q = -2 - q;
        float ax = pos[3 * p], ay = pos[3 * p + 1], bx = pos[3 * q], by = pos[3 * q + 1];
        if (ay <= py) {
            if (by > py && lq_chains_left(ax, ay, bx, by, px, py) > 0.0f) wn++;
        } else {
            if (by <= py && lq_chains_left(ax, ay, bx, by, px, py) < 0.0f) wn--;
        }
    }
    return wn;
}

/* Pass 4, cell (i, j): a region's root decides its side. */
LQ_INLINE void lq_chains_side_cell(LQ_GLOBAL int *state, const LQ_GLOBAL int *label,
                                   const LQ_GLOBAL float *pos, const LQ_GLOBAL int *next, int n,
                                   int i, int j, int nx, float dx, float dy)
{
    int c = i + nx * j;
    if (label[c] != c) return;
    float px = ((float)i + 0.5f) * dx, py = ((float)j + 0.5f) * dy;
    state[c] = lq_chains_winding(pos, next, n, px, py) > 0 ? 1 : 0;
}

/* Pass 5a, cell c: the marker path's count convention (−1 fixed, 0 empty, > 0 liquid).
 * Roots keep what pass 4 wrote; others read only roots. */
LQ_INLINE void lq_chains_spread_cell(LQ_GLOBAL int *state, const LQ_GLOBAL int *label, int c)
{
    int l = label[c];
    if (l == -1)
        state[c] = -1;
    else if (l == LQ_CHAINS_CROSSED)
        state[c] = 1;
    else if (l != c)
        state[c] = state[l];
}

#endif
