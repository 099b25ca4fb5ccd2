/*
 * mac_grid.h — the staggered MAC grid of the 3D solvers (`mac`, later `pls`), shared by
 * kernels and reference twins (DESIGN.md, "Grid conventions"; Foster & Metaxas 1996
 * §3.1, Fig. 1).
 *
 * Cells (i, j, k), 0 ≤ i < nx, 0 ≤ j < ny, 0 ≤ k < nz, x fastest: c = i + nx (j + ny k).
 * Pressure and cell flags at cell centres. Face velocities:
 *   u[i + (nx+1) (j + ny k)]        the x-face between cells (i−1, j, k) and (i, j, k),
 *                                   0 ≤ i ≤ nx, i.e. u_{i−1/2, j, k};
 *   v[i + nx (j + (ny+1) k)]        the y-face below cell (i, j, k), 0 ≤ j ≤ ny;
 *   w[i + nx (j + ny k)]            the z-face behind cell (i, j, k), 0 ≤ k ≤ nz.
 * Spacing δx, δy, δz may differ (non-uniform per axis, uniform along it). 2D runs use
 * nz = 1.
 *
 * Cell flags (one uchar per cell, Foster & Metaxas §3.1, §3.2.2) hold only the kind
 * (LQ_MAC_*). Which of a SURFACE cell's six neighbours are EMPTY is a separate uchar
 * mask per cell (kernels/mac/macsurface_cell.h), bit n for neighbour n in the order below.
 */
#ifndef LQ_MAC_GRID_H
#define LQ_MAC_GRID_H

#include "common/lq_shared.h"

#define LQ_MAC_EMPTY   0
#define LQ_MAC_FULL    1
#define LQ_MAC_SURFACE 2
#define LQ_MAC_SOLID   3
#define LQ_MAC_INFLOW  4
#define LQ_MAC_OUTFLOW 5

/* Neighbour order used by every 6-neighbour table: −x, +x, −y, +y, −z, +z; bit n of an
 * empty-neighbour mask is neighbour n. */
#define LQ_MAC_NX_MINUS 0
#define LQ_MAC_NX_PLUS  1
#define LQ_MAC_NY_MINUS 2
#define LQ_MAC_NY_PLUS  3
#define LQ_MAC_NZ_MINUS 4
#define LQ_MAC_NZ_PLUS  5

#define LQ_MAC_CELL(i, j, k, nx, ny) ((i) + (nx) * ((j) + (ny) * (k)))
#define LQ_MAC_U(i, j, k, nx, ny)    ((i) + ((nx) + 1) * ((j) + (ny) * (k)))
#define LQ_MAC_V(i, j, k, nx, ny)    ((i) + (nx) * ((j) + ((ny) + 1) * (k)))
#define LQ_MAC_W(i, j, k, nx, ny)    ((i) + (nx) * ((j) + (ny) * (k)))

/* The difference of a cell field along `axis` at cell (i, j, k), unscaled: central
 * (half the difference of the two neighbours), one-sided at the domain edge, 0 when the
 * axis has one cell (the gradient of an sdf or φ is this over h). */
LQ_INLINE float lq_mac_grid_diff(LQ_GLOBAL const float *a, int axis, int i, int j, int k, int nx,
                                 int ny, int nz)
{
    int n = axis == 0 ? nx : axis == 1 ? ny : nz, q = axis == 0 ? i : axis == 1 ? j : k;
    int st = axis == 0 ? 1 : axis == 1 ? nx : nx * ny, c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (n < 2) return 0.0f;
    int lo = q > 0 ? c - st : c, hi = q < n - 1 ? c + st : c;
    float d = a[hi] - a[lo];
    return (q > 0 && q < n - 1) ? 0.5f * d : d;
}

#endif
