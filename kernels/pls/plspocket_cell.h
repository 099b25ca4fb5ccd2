/*
 * plspocket_cell.h — per-cell math of the `pls` solver's enslaved liquid pockets
 * (Rasmussen et al. 2004 §5.6, "Enslaving Isolated Free Liquid Pockets"), shared by
 * kernels/pls/plspocket.cl and the reference twins (host/ops/pls/plspocket_ref.c).
 *
 * The problem (§5.6). Hard control (§4.3), objects, open inlets and the domain walls are
 * Neumann boundaries of the projection. A connected region of liquid cells that reaches
 * no air is "completely surrounded by Neumann boundary conditions": its block of the
 * system is singular and solvable only when the boundaries' net flux into it is zero,
 * which "there is no guarantee" of — hard control that squeezes or stretches it, an
 * object pushing into it. The solve then fails or stalls. "We enslave the velocity field
 * inside the pockets instead": their cells leave the pressure solve and take the diffused
 * velocity of their boundary.
 *
 * Cells. With the projection's own rules (kernels/pls/poisson_cell.h): a cell is liquid
 * when lq_poisson_liquid holds for the solid field the projection takes (objects, open
 * inlets and hard cells ≤ 0; the object-air mode as the projection's); it is open when it
 * would get an air or Dirichlet term there (a face toward a cell neither solid nor liquid,
 * or toward the domain edge with Dirichlet walls). A pocket is a connected component of
 * liquid cells (through faces) none of which is open — §5.6's flood fill "terminates"
 * at hard boundaries (solids) and at air; where it reached air the region is ignored.
 *
 * Connected components on the device, in three passes:
 *   1. block-local: one work-item per LQ_PLSPOCKET_B³ block labels its liquid cells with
 *      the least cell index of their component inside the block (forward and backward
 *      sweeps over the block until nothing changes: serial, so the same on both sides);
 *      every cell then points at its local root (a cell whose label is itself);
 *   2. global hooks, repeated until a round changes nothing: for each pair of liquid cells
 *      across a block's +x, +y, +z face whose roots r₁ < r₂ differ, lab[r₂] ← min(lab[r₂],
 *      r₁) (an atomic min: labels only fall, and always name a cell of the same merged
 *      component), then every cell jumps to its root (find: follow labels until one names
 *      itself). A hook lost to a concurrent one leaves its pair with two roots, so the
 *      round counts it and another follows. At the end every liquid cell holds the least
 *      index of its component: a result that does not depend on the order of the atomics,
 *      so both backends agree bit for bit although their rounds may differ;
 *   3. every open cell marks its root open (LQ_PLSPOCKET_OPEN set in the root's label:
 *      every writer writes the same value); a liquid cell whose root is not open is in a
 *      pocket: its solid-field value becomes −h/2 (solid to the projection in every mode,
 *      its φ being ≤ 0), all others keep the projection's value (or +h without one).
 * The labels are borrowed: an int per cell of the solver's that is free from this stage to
 * the projection (its right-hand side), as are the pockets' solid field (φ's scratch) and
 * the enslaving's other buffer per component (the velocity's scratch), so pockets cost no
 * device memory of their own.
 *
 * Enslaving the velocity (§5.6: "iterating through the enslaved region a couple of times
 * updating the velocity value of each enslaved cell with the average value of its
 * neighbors"). On the MAC grid the unknowns are the faces between two pocket cells (a
 * pocket's face toward a solid keeps the solid's velocity: the hard particles', the
 * object's, the inlet's, 0 at a wall; none faces air). Each such face starts unknown (a
 * NaN) and each pass, Jacobi-style (read one buffer, write the other), takes the mean of
 * its known neighbours of the same component (the six faces ±x, ±y, ±z of the face grid
 * inside the domain; in 2D four): after n passes the faces within n of the boundary have
 * a value, grown inward as an extrapolation, and the later passes average it. The pass
 * count is at least the scene's (pls.pocket_passes) and as many more as the deepest face
 * needs. Every other face is copied through. The passes run over the pockets' bounding box
 * (its cells' faces) widened by two faces and clipped to the grid: every face a pocket face
 * reads lies inside, so the two buffers agree wherever a pass reads, and the cost follows
 * the pockets, not the grid. Sums in one fixed neighbour order, the mean
 * by lq_recip6's literals: bit for bit.
 */
#ifndef LQ_PLSPOCKET_CELL_H
#define LQ_PLSPOCKET_CELL_H

#include "common/mac_grid.h"
#include "pls/poisson_cell.h"

#define LQ_PLSPOCKET_B     8          /* block side of the local labelling, cells */
#define LQ_PLSPOCKET_OPEN  0x40000000 /* in a root's label: its component reaches air */
#define LQ_PLSPOCKET_MASK  0x3fffffff /* a label's cell index (grids up to 2^30 cells) */
#define LQ_PLSPOCKET_CHUNK 256        /* cells per work-item of the mark pass */

/* Counters (ints). */
#define LQ_PLSPOCKET_CNT_CHANGED  0  /* hooks made in a round */
#define LQ_PLSPOCKET_CNT_OPEN     1  /* open liquid cells */
#define LQ_PLSPOCKET_CNT_CELLS    2  /* pocket cells */
#define LQ_PLSPOCKET_CNT_POCKETS  3  /* pockets (roots not open) */
#define LQ_PLSPOCKET_CNT_UNKNOWN  4  /* faces still without a value after a pass */
#define LQ_PLSPOCKET_CNT_BOX      5  /* 6: the pocket cells' least i, j, k, then greatest */
#define LQ_PLSPOCKET_CNT_CHANGED2 11 /* hooks made in a round (odd rounds: slot 0 even) */
#define LQ_PLSPOCKET_CNT_ROUNDS   12 /* rounds that ran (device-side rounds) */
#define LQ_PLSPOCKET_CNT_COUNT    13

/* Liquid to the projection (its unknowns and the cells that would be). */
LQ_INLINE int lq_plspocket_liquid(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *solid,
                                  int mode, int c)
{
    return lq_poisson_liquid(phi, solid, mode, c);
}

/* An air or Dirichlet term in c's equation (lq_poisson_setup_cell's rule); c liquid. */
LQ_INLINE int lq_plspocket_open(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *solid, int mode,
                                int wall_dirichlet, int i, int j, int k, int nx, int ny, int nz)
{
    int faces = nz > 1 ? 6 : 4;
    for (int n = 0; n < faces; n++) {
        int q = lq_poisson_neighbour(i, j, k, n, nx, ny, nz);
        if (q < 0) {
            if (wall_dirichlet) return 1;
        } else if (!lq_poisson_solid(phi, solid, mode, q) && phi[q] > 0.0f) {
            return 1;
        }
    }
    return 0;
}

/* One cell of a block sweep: c's label lowered to its in-block liquid neighbours' least;
 * returns 1 when it fell. */
LQ_INLINE int lq_plspocket_relax(LQ_GLOBAL int *lab, int c, int i, int j, int k, int i0, int i1,
                                 int j0, int j1, int k0, int k1, int nx, int ny)
{
    int m = lab[c];
    if (m < 0) return 0;
    int nb[6] = {i > i0 ? c - 1 : -1,       i + 1 < i1 ? c + 1 : -1,
                 j > j0 ? c - nx : -1,      j + 1 < j1 ? c + nx : -1,
                 k > k0 ? c - nx * ny : -1, k + 1 < k1 ? c + nx * ny : -1};
    for (int f = 0; f < 6; f++)
        if (nb[f] >= 0 && lab[nb[f]] >= 0 && lab[nb[f]] < m) m = lab[nb[f]];
    if (m == lab[c]) return 0;
    lab[c] = m;
    return 1;
}

/* The sweeps of pass 1 on a block [i0, i1) × [j0, j1) × [k0, k1) whose n member cells
 * hold their own index (the others −1): shared by the liquid here and mac's air
 * (kernels/mac/macpocket_cell.h). */
LQ_INLINE void lq_plspocket_settle_block(LQ_GLOBAL int *lab, int n, int i0, int i1, int j0, int j1,
                                         int k0, int k1, int nx, int ny)
{
    if (n == 0) return;
    int changed = 1, first = LQ_MAC_CELL(i0, j0, k0, nx, ny);
    if (n == (i1 - i0) * (j1 - j0) * (k1 - k0)) { /* all members: one component, its corner */
        for (int k = k0; k < k1; k++)
            for (int j = j0; j < j1; j++)
                for (int i = i0; i < i1; i++) lab[LQ_MAC_CELL(i, j, k, nx, ny)] = first;
        changed = 0;
    }
    while (changed) {
        changed = 0;
        for (int k = k0; k < k1; k++)
            for (int j = j0; j < j1; j++)
                for (int i = i0; i < i1; i++)
                    lq_plspocket_relax(lab, LQ_MAC_CELL(i, j, k, nx, ny), i, j, k, i0, i1, j0, j1,
                                       k0, k1, nx, ny);
        for (int k = k1 - 1; k >= k0; k--)
            for (int j = j1 - 1; j >= j0; j--)
                for (int i = i1 - 1; i >= i0; i--)
                    changed |= lq_plspocket_relax(lab, LQ_MAC_CELL(i, j, k, nx, ny), i, j, k, i0,
                                                  i1, j0, j1, k0, k1, nx, ny);
    }
}

/* Pass 1 on block (bi, bj, bk): lab = least index of the local component, −1 off the
 * liquid. Forward and backward sweeps until a backward sweep changes nothing (then the
 * forward one before it left every label at most its lower neighbours' and nothing moved
 * since: a fixed point); a convex block takes one of each, a block all liquid (the common
 * case) none, one all dry nothing. */
LQ_INLINE void lq_plspocket_local_block(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *solid,
                                        int mode, int bi, int bj, int bk, int nx, int ny, int nz,
                                        LQ_GLOBAL int *lab)
{
    int i0 = bi * LQ_PLSPOCKET_B, j0 = bj * LQ_PLSPOCKET_B, k0 = bk * LQ_PLSPOCKET_B;
    int i1 = i0 + LQ_PLSPOCKET_B < nx ? i0 + LQ_PLSPOCKET_B : nx;
    int j1 = j0 + LQ_PLSPOCKET_B < ny ? j0 + LQ_PLSPOCKET_B : ny;
    int k1 = k0 + LQ_PLSPOCKET_B < nz ? k0 + LQ_PLSPOCKET_B : nz;
    int n = 0;
    for (int k = k0; k < k1; k++)
        for (int j = j0; j < j1; j++)
            for (int i = i0; i < i1; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny),
                    liq = lq_plspocket_liquid(phi, solid, mode, c);
                lab[c] = liq ? c : -1;
                n += liq;
            }
    lq_plspocket_settle_block(lab, n, i0, i1, j0, j1, k0, k1, nx, ny);
}

/* The root of c's component as the labels stand (c liquid). */
LQ_INLINE int lq_plspocket_root(LQ_GLOBAL LQ_VOLATILE int *lab, int c)
{
    int r = lab[c];
    while (lab[r] != r) r = lab[r];
    return r;
}

/* Pass 2's hooks at cell c = (i, j, k) toward its neighbours across its block's + faces;
 * returns the hooks made. */
LQ_INLINE int lq_plspocket_hook(LQ_GLOBAL LQ_VOLATILE int *lab, int i, int j, int k, int nx, int ny,
                                int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), made = 0;
    if (lab[c] < 0) return 0;
    int across[3] = {i % LQ_PLSPOCKET_B == LQ_PLSPOCKET_B - 1 && i + 1 < nx ? c + 1 : -1,
                     j % LQ_PLSPOCKET_B == LQ_PLSPOCKET_B - 1 && j + 1 < ny ? c + nx : -1,
                     k % LQ_PLSPOCKET_B == LQ_PLSPOCKET_B - 1 && k + 1 < nz ? c + nx * ny : -1};
    for (int a = 0; a < 3; a++) {
        int q = across[a];
        if (q < 0 || lab[q] < 0) continue;
        int r1 = lq_plspocket_root(lab, c), r2 = lq_plspocket_root(lab, q);
        if (r1 == r2) continue;
        int lo = r1 < r2 ? r1 : r2, hi = r1 < r2 ? r2 : r1;
        LQ_ATOMIC_MIN(&lab[hi], lo);
        made++;
    }
    return made;
}

/* A pocket cell (after pass 3): liquid, its root not open. */
LQ_INLINE int lq_plspocket_in(LQ_GLOBAL const int *lab, int c)
{
    return lab[c] >= 0 && !(lab[lab[c] & LQ_PLSPOCKET_MASK] & LQ_PLSPOCKET_OPEN);
}

/* Pocket cell c counted into a chunk's tally: cells, roots, the box (least i, j, k, then
 * greatest). */
LQ_INLINE void lq_plspocket_tally(LQ_GLOBAL const int *lab, int c, int nx, int ny, int *cells,
                                  int *roots, int box[6])
{
    int ijk[3] = {c % nx, (c / nx) % ny, c / (nx * ny)};
    ++*cells;
    *roots += lab[c] == c;
    for (int a = 0; a < 3; a++) {
        if (ijk[a] < box[a]) box[a] = ijk[a];
        if (ijk[a] > box[3 + a]) box[3 + a] = ijk[a];
    }
}

/* Face (i, j, k) of component `axis` (face-grid dims fx, fy, fz) lies between two pocket
 * cells: an unknown of the enslaving. */
LQ_INLINE int lq_plspocket_face_in(LQ_GLOBAL const int *lab, int axis, int i, int j, int k, int nx,
                                   int ny, int nz)
{
    int di = axis == 0, dj = axis == 1, dk = axis == 2;
    if (i - di < 0 || j - dj < 0 || k - dk < 0 || i >= nx || j >= ny || k >= nz) return 0;
    return lq_plspocket_in(lab, LQ_MAC_CELL(i, j, k, nx, ny)) &&
           lq_plspocket_in(lab, LQ_MAC_CELL(i - di, j - dj, k - dk, nx, ny));
}

/* A face without a value yet (NAN and isnan: <math.h> in C, built in in OpenCL C). */
#define LQ_PLSPOCKET_NAN      NAN
#define LQ_PLSPOCKET_ISNAN(x) isnan(x)

/* One enslaving pass at face (i, j, k) of component `axis`: the mean of its known
 * neighbours when it is a pocket face (NaN while it has none), else its value; *unknown
 * gets 1 when the result is still NaN. pass0: the start, every pocket face unknown. */
LQ_INLINE float lq_plspocket_face(LQ_GLOBAL const float *src, LQ_GLOBAL const int *lab, int axis,
                                  int i, int j, int k, int nx, int ny, int nz, int pass0,
                                  int *unknown)
{
    int fx = nx + (axis == 0), fy = ny + (axis == 1), fz = nz + (axis == 2);
    int f = i + fx * (j + fy * k);
    *unknown = 0;
    if (!lq_plspocket_face_in(lab, axis, i, j, k, nx, ny, nz)) return src[f];
    if (pass0) {
        *unknown = 1;
        return LQ_PLSPOCKET_NAN;
    }
    int nb[6] = {i > 0 ? f - 1 : -1,
                 i + 1 < fx ? f + 1 : -1,
                 j > 0 ? f - fx : -1,
                 j + 1 < fy ? f + fx : -1,
                 nz > 1 && k > 0 ? f - fx * fy : -1,
                 nz > 1 && k + 1 < fz ? f + fx * fy : -1};
    float s = 0.0f;
    int n = 0;
    for (int q = 0; q < 6; q++) {
        if (nb[q] < 0) continue;
        float x = src[nb[q]];
        if (LQ_PLSPOCKET_ISNAN(x)) continue;
        s = s + x;
        n++;
    }
    if (n == 0) {
        *unknown = 1;
        return LQ_PLSPOCKET_NAN;
    }
    return s * lq_recip6(n);
}

#endif
