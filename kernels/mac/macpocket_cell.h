/*
 * macpocket_cell.h — per-cell math of the `mac` solver's sealed air pockets
 * (mac.air_pockets: gas), shared by kernels/mac/macpocket.cl and the reference twins
 * (host/ops/mac/macpocket_ref.c).
 *
 * The problem. Foster & Metaxas's EMPTY cells are all at the atmosphere's pressure
 * (§3.2.3), so air sealed under liquid (a tunnel under a falling sheet, a diving bell)
 * has no pressure of its own and closes as a void. Here the air cells are labelled into
 * connected components on the device and a component that does not reach the open air
 * gets a pressure of its own (an ideal gas, host/solvers/mac.c), held in its EMPTY cells
 * for the momentum step and the pressure iteration.
 *
 * Cells. Air is an EMPTY cell. Components connect through faces (six in 3D, four in 2D).
 * A component is open (atmospheric) when one of its cells lies in the top layer of the
 * domain's inside (the layer next to the wall opposite gravity: `up`, the face direction
 * LQ_MAC_N*_* of −g's largest component, +y without gravity) or shares a face with an
 * OUTFLOW cell (an outlet drains to the atmosphere). Every other component is sealed: a
 * pocket. A closed tank whose liquid reaches the top layer everywhere has no atmosphere
 * at all, and every air component in it is a pocket.
 *
 * Connected components: the pattern and the functions of kernels/pls/plspocket_cell.h
 * (block-local labels by serial sweeps, then rounds of atomic-min hooks across the blocks'
 * faces and jumps to the roots): every air cell ends with the least cell index of its
 * component, whatever the order of the atomics, so both backends agree bit for bit; an
 * open cell then marks its root LQ_PLSPOCKET_OPEN.
 *
 * Volume (tally). A pocket's air in units of a marker's share of a cell (cell volume /
 * per_cell): per_cell for each of its EMPTY cells, plus per_cell − m (m: the cell's marker
 * count, held to [0, per_cell]) for each SURFACE cell whose first EMPTY neighbour (in the
 * order −x, +x, −y, +y, −z, +z) is in the pocket: the partly filled cells at its wall
 * count their air, so the volume moves smoothly as the surface does, not a cell at a time.
 * Integers added atomically into vol[root]: exact and order-free.
 *
 * Pressure (apply), after lq_pressure_surface_prep (mac.surface_solve): the prep held the
 * atmosphere's side at 0; a pocket's cells hold its gauge pressure a (gauge[root], m²/s²)
 * instead, with the ghost-fluid lines of pressure_cell.h drawn to a rather than to 0:
 *   EMPTY cell E of a pocket: a, or above an up-facing surface cell U, a + (head − a) r4
 *     (head: U's p, or the FULL cell's below it when U is held; capped as the prep caps it);
 *   SURFACE cell the prep held (a drop, an open pair, an up-facing cell under half full)
 *     whose first EMPTY neighbour is in a pocket: a, or a held U a + min(p_F − a, r7) r6.
 * With a = 0 both are the prep's values. Race-free as the prep: each work-item writes its
 * own cell and reads p only in relaxed cells (FULL and relaxed U), which it never writes.
 */
#ifndef LQ_MACPOCKET_CELL_H
#define LQ_MACPOCKET_CELL_H

#include "common/mac_grid.h"
#include "mac/pressure_cell.h"
#include "pls/plspocket_cell.h"

/* Counters (ints). */
#define LQ_MACPOCKET_CNT_CHANGED  0 /* hooks made in a round (even rounds) */
#define LQ_MACPOCKET_CNT_CHANGED2 1 /* the same, odd rounds */
#define LQ_MACPOCKET_CNT_ROUNDS   2 /* rounds that ran (device-side rounds) */
#define LQ_MACPOCKET_CNT_OPEN     3 /* open air cells */
#define LQ_MACPOCKET_CNT_SEALED   4 /* air cells in pockets */
#define LQ_MACPOCKET_CNT_ROOTS    5 /* pockets */
#define LQ_MACPOCKET_CNT_COUNT    6

/* The neighbour of (i, j, k) across face d (LQ_MAC_N*_*), −1 off the grid or along z in 2D. */
LQ_INLINE int lq_macpocket_neighbour(int i, int j, int k, int d, int nx, int ny, int nz)
{
    int ii = i + (d == LQ_MAC_NX_PLUS) - (d == LQ_MAC_NX_MINUS);
    int jj = j + (d == LQ_MAC_NY_PLUS) - (d == LQ_MAC_NY_MINUS);
    int kk = k + (d == LQ_MAC_NZ_PLUS) - (d == LQ_MAC_NZ_MINUS);
    if (ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= ny || kk >= nz) return -1;
    return LQ_MAC_CELL(ii, jj, kk, nx, ny);
}

/* Pass 1 on block (bi, bj, bk): lab = least index of the local air component, −1 off the
 * air (lq_plspocket_local_block's sweeps, with air for liquid). */
LQ_INLINE void lq_macpocket_local_block(LQ_GLOBAL const unsigned char *flags, int bi, int bj,
                                        int bk, int nx, int ny, int nz, LQ_GLOBAL int *lab)
{
    int i0 = bi * LQ_PLSPOCKET_B, j0 = bj * LQ_PLSPOCKET_B, k0 = bk * LQ_PLSPOCKET_B;
    int i1 = i0 + LQ_PLSPOCKET_B < nx ? i0 + LQ_PLSPOCKET_B : nx;
    int j1 = j0 + LQ_PLSPOCKET_B < ny ? j0 + LQ_PLSPOCKET_B : ny;
    int k1 = k0 + LQ_PLSPOCKET_B < nz ? k0 + LQ_PLSPOCKET_B : nz;
    int n = 0;
    for (int k = k0; k < k1; k++)
        for (int j = j0; j < j1; j++)
            for (int i = i0; i < i1; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny), air = flags[c] == LQ_MAC_EMPTY;
                lab[c] = air ? c : -1;
                n += air;
            }
    lq_plspocket_settle_block(lab, n, i0, i1, j0, j1, k0, k1, nx, ny);
}

/* Is air cell (i, j, k) open: in the inside's top layer (toward face `up`) or beside an
 * OUTFLOW cell? */
LQ_INLINE int lq_macpocket_open(LQ_GLOBAL const unsigned char *flags, int up, int i, int j, int k,
                                int nx, int ny, int nz)
{
    int ax = up >> 1, hi = up & 1, x = ax == 0 ? i : ax == 1 ? j : k;
    int n = ax == 0 ? nx : ax == 1 ? ny : nz;
    if (n > 1 && (hi ? x == n - 2 : x == 1)) return 1;
    for (int d = 0; d < (nz > 1 ? 6 : 4); d++) {
        int q = lq_macpocket_neighbour(i, j, k, d, nx, ny, nz);
        if (q >= 0 && flags[q] == LQ_MAC_OUTFLOW) return 1;
    }
    return 0;
}

/* The pocket root of SURFACE cell (i, j, k)'s first EMPTY neighbour, −1 when that
 * neighbour's air is open or it has none (labels after the open pass). */
LQ_INLINE int lq_macpocket_surface_root(LQ_GLOBAL const unsigned char *flags,
                                        LQ_GLOBAL const int *lab, int i, int j, int k, int nx,
                                        int ny, int nz)
{
    for (int d = 0; d < (nz > 1 ? 6 : 4); d++) {
        int q = lq_macpocket_neighbour(i, j, k, d, nx, ny, nz);
        if (q < 0 || flags[q] != LQ_MAC_EMPTY) continue;
        return lq_plspocket_in(lab, q) ? (lab[q] & LQ_PLSPOCKET_MASK) : -1;
    }
    return -1;
}

/* Cell (i, j, k)'s air counted into its pocket's vol[root] (marker shares); returns 1
 * when the cell is a pocket's EMPTY cell. */
LQ_INLINE int lq_macpocket_tally(LQ_GLOBAL const unsigned char *flags, LQ_GLOBAL const int *lab,
                                 LQ_GLOBAL const int *count, int per_cell, int i, int j, int k,
                                 int nx, int ny, int nz, LQ_GLOBAL LQ_VOLATILE int *vol)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (flags[c] == LQ_MAC_EMPTY) {
        if (!lq_plspocket_in(lab, c)) return 0;
        LQ_ATOMIC_ADD(&vol[lab[c] & LQ_PLSPOCKET_MASK], per_cell);
        return 1;
    }
    if (flags[c] != LQ_MAC_SURFACE) return 0;
    int r = lq_macpocket_surface_root(flags, lab, i, j, k, nx, ny, nz);
    int air = per_cell - lq_pressure_clamp_count(count[c], per_cell);
    if (r >= 0 && air > 0) LQ_ATOMIC_ADD(&vol[r], air);
    return 0;
}

/* Cell (i, j, k)'s pressure with its pocket's gauge (the header's rules); flags: the
 * cells' kinds, pflags: the prep's (what the iteration relaxes), t: the surface table. */
LQ_INLINE void lq_macpocket_apply_cell(LQ_GLOBAL const unsigned char *flags,
                                       LQ_GLOBAL const unsigned char *pflags,
                                       LQ_GLOBAL const int *lab, LQ_GLOBAL const float *gauge,
                                       LQ_GLOBAL const int *count, LQ_GLOBAL const float *t,
                                       int per_cell, int i, int j, int k, int nx, int ny, int nz,
                                       LQ_GLOBAL float *p)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), n = nx * ny * nz;
    unsigned char f = flags[c];
    if (f == LQ_MAC_EMPTY) {
        if (!lq_plspocket_in(lab, c)) return;
        float a = gauge[lab[c] & LQ_PLSPOCKET_MASK], q = a;
        if (per_cell > 0 && c >= nx && lq_pressure_up_facing(flags, c - nx, nx, n)) {
            const LQ_GLOBAL float *r =
                t + LQ_PRESSURE_ST * lq_pressure_clamp_count(count[c - nx], per_cell);
            float head = (r[3] != 0.0f ? p[c - 2 * nx] : p[c - nx]) - a;
            if (head > r[5]) head = r[5];
            if (r[3] == 0.0f && head < -r[5]) head = -r[5];
            q = a + head * r[4];
        }
        p[c] = q;
        return;
    }
    if (f != LQ_MAC_SURFACE || pflags[c] != LQ_MAC_SURFACE) return; /* only held cells */
    int root = lq_macpocket_surface_root(flags, lab, i, j, k, nx, ny, nz);
    if (root < 0) return;
    float a = gauge[root], q = a;
    if (per_cell > 0 && lq_pressure_up_facing(flags, c, nx, n)) {
        const LQ_GLOBAL float *r = t + LQ_PRESSURE_ST * lq_pressure_clamp_count(count[c], per_cell);
        float head = p[c - nx] - a;
        if (head > r[7]) head = r[7];
        q = a + head * r[6];
    }
    p[c] = q;
}

#endif
