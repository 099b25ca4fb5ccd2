/*
 * macbc_cell.h — the `mac` solver's inflow, outflow and air-band velocity rules, one
 * face at a time (Foster & Metaxas 1996 §3.2.2 and §7.1), shared by the kernels
 * (kernels/mac/macbc.cl) and the reference twins (host/ops/mac/macbc_ref.c).
 *
 * A face is addressed by its component array q (u, v or w: the axis a = 0, 1, 2), its
 * index (i, j, k) in that array (dims nx + δ_a0 × ny + δ_a1 × nz + δ_a2) and the two
 * cells it separates: lo = (i, j, k) − e_a (if i_a ≥ 1) and hi = (i, j, k) (if
 * i_a < n_a); a missing side is outside the grid.
 *
 * Inflow (§3.2.2: "the required input velocity is set on the cell faces and held
 * fixed"): every face of an INFLOW cell of inlet r (region[c] = r + 1) takes component
 * a of the inlet's velocity vel[3 r + a], except faces toward a SOLID cell (the
 * obstacle rule owns those). When both sides are INFLOW cells the lower side's inlet
 * wins.
 *
 * Outflow (§3.2.2: velocities in an outflow cell follow the adjacent fluid): a face of an
 * OUTFLOW cell whose other side is not liquid takes the value of the face across the
 * outflow cell when that face touches a liquid (FULL or SURFACE) cell — zero gradient
 * through the outflow layer, so liquid leaves at its own rate. Race-free: the faces read
 * touch liquid, the faces written do not.
 *
 * Air band: a face with no liquid on either side, no SOLID, INFLOW or OUTFLOW side, and
 * at least one EMPTY side (the first layer of faces outside the liquid) takes the mean of
 * its up to six same-component neighbour faces (±1 along each axis) that touch liquid.
 * Newly filled cells and the markers near the surface then see the liquid's velocity
 * instead of a stale or zero one. Race-free for the same reason as outflow. A second
 * pass (layer 2) gives the air faces none of whose neighbours touch liquid the mean of
 * their neighbours of layer 1 (written by the first pass, read-only in the second): a
 * cell the liquid enters diagonally within one step (CFL < 1) has all its faces in the
 * band; with one layer its far faces read 0, and a one-cell drop's open pair (Gates'
 * body force only, kernels/mac/momentum_cell.h) froze that 0 into the drop. The mean
 * multiplies by a literal reciprocal (no division), summing in a fixed order, so the
 * twins agree bit for bit.
 */
#ifndef LQ_MACBC_CELL_H
#define LQ_MACBC_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"

/* Face (i, j, k) of axis a: the two cells' indices (−1 outside the grid), and the
 * face array's stride along a. */
LQ_INLINE void lq_macbc_sides(int a, int i, int j, int k, int nx, int ny, int nz, int *lo, int *hi,
                              int *stride)
{
    int fx = nx + (a == 0), fy = ny + (a == 1);
    int ia = a == 0 ? i : a == 1 ? j : k, na = a == 0 ? nx : a == 1 ? ny : nz;
    int di = a == 0, dj = a == 1, dk = a == 2;
    *lo = ia >= 1 ? LQ_MAC_CELL(i - di, j - dj, k - dk, nx, ny) : -1;
    *hi = ia < na ? LQ_MAC_CELL(i, j, k, nx, ny) : -1;
    *stride = a == 0 ? 1 : a == 1 ? fx : fx * fy;
}

LQ_INLINE int lq_macbc_face(int a, int i, int j, int k, int nx, int ny)
{
    int fx = nx + (a == 0), fy = ny + (a == 1);
    return i + fx * (j + fy * k);
}

LQ_INLINE int lq_macbc_liquid(int kind)
{
    return kind == LQ_MAC_FULL || kind == LQ_MAC_SURFACE;
}

/* Inflow rule, face (i, j, k) of axis a. */
LQ_INLINE void lq_macbc_inflow_face(LQ_GLOBAL float *q, const LQ_GLOBAL unsigned char *flags,
                                    const LQ_GLOBAL unsigned char *region,
                                    const LQ_GLOBAL float *vel, int a, int i, int j, int k, int nx,
                                    int ny, int nz)
{
    int lo, hi, st;
    lq_macbc_sides(a, i, j, k, nx, ny, nz, &lo, &hi, &st);
    int klo = lo >= 0 ? flags[lo] : -1, khi = hi >= 0 ? flags[hi] : -1;
    int r = 0;
    if (klo == LQ_MAC_INFLOW) r = region[lo];
    if (r == 0 && khi == LQ_MAC_INFLOW) r = region[hi];
    if (r == 0 || klo == LQ_MAC_SOLID || khi == LQ_MAC_SOLID) return;
    q[lq_macbc_face(a, i, j, k, nx, ny)] = vel[3 * (r - 1) + a];
}

/* Outflow rule, face (i, j, k) of axis a. */
LQ_INLINE void lq_macbc_outflow_face(LQ_GLOBAL float *q, const LQ_GLOBAL unsigned char *flags,
                                     int a, int i, int j, int k, int nx, int ny, int nz)
{
    int lo, hi, st;
    lq_macbc_sides(a, i, j, k, nx, ny, nz, &lo, &hi, &st);
    int klo = lo >= 0 ? flags[lo] : -1, khi = hi >= 0 ? flags[hi] : -1;
    int f = lq_macbc_face(a, i, j, k, nx, ny);
    int ia = a == 0 ? i : a == 1 ? j : k, na = a == 0 ? nx : a == 1 ? ny : nz;
    int cs = a == 0 ? 1 : a == 1 ? nx : nx * ny; /* cell stride along a */
    if (klo == LQ_MAC_OUTFLOW && !lq_macbc_liquid(khi) && ia >= 2) {
        /* the face across lo, between lo − e_a and lo */
        if (lq_macbc_liquid(flags[lo - cs])) q[f] = q[f - st];
    } else if (khi == LQ_MAC_OUTFLOW && !lq_macbc_liquid(klo) && ia + 1 < na) {
        if (lq_macbc_liquid(flags[hi + cs])) q[f] = q[f + st];
    }
}

/* Outflow pressure, cell c (coordinates i, j, k): an OUTFLOW cell takes the pressure of its
 * first liquid neighbour in the order −x, +x, −y, +y, −z, +z (none: p unchanged), so
 * eq. 2 sees no pressure gradient across the outflow face (zero gradient). Reads only
 * liquid cells' p, writes only OUTFLOW cells': race-free. */
LQ_INLINE void lq_macbc_outflow_pressure_cell(LQ_GLOBAL float *p,
                                              const LQ_GLOBAL unsigned char *flags, int i, int j,
                                              int k, int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), sz = nx * ny;
    if (flags[c] != LQ_MAC_OUTFLOW) return;
    int nb[6] = {i > 0 ? c - 1 : -1,       i < nx - 1 ? c + 1 : -1, j > 0 ? c - nx : -1,
                 j < ny - 1 ? c + nx : -1, k > 0 ? c - sz : -1,     k < nz - 1 ? c + sz : -1};
    for (int d = 0; d < 6; d++)
        if (nb[d] >= 0 && lq_macbc_liquid(flags[nb[d]])) {
            p[c] = p[nb[d]];
            return;
        }
}

/* Does face (i, j, k) of axis a touch a liquid cell? */
LQ_INLINE int lq_macbc_known(const LQ_GLOBAL unsigned char *flags, int a, int i, int j, int k,
                             int nx, int ny, int nz)
{
    int lo, hi, st;
    lq_macbc_sides(a, i, j, k, nx, ny, nz, &lo, &hi, &st);
    return (lo >= 0 && lq_macbc_liquid(flags[lo])) || (hi >= 0 && lq_macbc_liquid(flags[hi]));
}

LQ_INLINE int lq_macbc_blocked(int kind)
{
    return kind == LQ_MAC_SOLID || kind == LQ_MAC_INFLOW || kind == LQ_MAC_OUTFLOW;
}

/* Is face (i, j, k) of axis a in the air: both sides in the grid, neither liquid nor
 * SOLID, INFLOW or OUTFLOW? */
LQ_INLINE int lq_macbc_air(const LQ_GLOBAL unsigned char *flags, int a, int i, int j, int k, int nx,
                           int ny, int nz)
{
    int lo, hi, st;
    lq_macbc_sides(a, i, j, k, nx, ny, nz, &lo, &hi, &st);
    if (lo < 0 || hi < 0) return 0;
    int klo = flags[lo], khi = flags[hi];
    return !(lq_macbc_liquid(klo) || lq_macbc_liquid(khi) || lq_macbc_blocked(klo) ||
             lq_macbc_blocked(khi));
}

/* Neighbour d (±1 along x, y, z in that order) of face (i, j, k) of axis a; 0 when it
 * lies outside the face lattice. */
LQ_INLINE int lq_macbc_nb(int a, int d, int i, int j, int k, int nx, int ny, int nz, int *ii,
                          int *jj, int *kk)
{
    int fx = nx + (a == 0), fy = ny + (a == 1), fz = nz + (a == 2);
    *ii = i + (d == 0 ? -1 : d == 1 ? 1 : 0);
    *jj = j + (d == 2 ? -1 : d == 3 ? 1 : 0);
    *kk = k + (d == 4 ? -1 : d == 5 ? 1 : 0);
    return !(*ii < 0 || *jj < 0 || *kk < 0 || *ii >= fx || *jj >= fy || *kk >= fz);
}

/* Is face (i, j, k) of axis a in the band's first layer: in the air, with a neighbour
 * that touches liquid? */
LQ_INLINE int lq_macbc_layer1(const LQ_GLOBAL unsigned char *flags, int a, int i, int j, int k,
                              int nx, int ny, int nz)
{
    if (!lq_macbc_air(flags, a, i, j, k, nx, ny, nz)) return 0;
    for (int d = 0; d < 6; d++) {
        int ii, jj, kk;
        if (lq_macbc_nb(a, d, i, j, k, nx, ny, nz, &ii, &jj, &kk) &&
            lq_macbc_known(flags, a, ii, jj, kk, nx, ny, nz))
            return 1;
    }
    return 0;
}

/* The air band in three passes over one axis's faces, each face's class kept in cls (uchar
 * per face): pass 0 classifies (LQ_MACBC_KNOWN: touches liquid; LQ_MACBC_AIR: lq_macbc_air;
 * else LQ_MACBC_OTHER); pass 1 gives each AIR face with a KNOWN neighbour (layer 1) the mean
 * of those neighbours and marks it LQ_MACBC_BAND1; pass 2 gives each AIR face still unmarked
 * the mean of its BAND1 neighbours (layer 2). The same faces and sums as testing each face's
 * neighbourhood anew (layer 2 tested 6 × 7 cell pairs a face): read, on PoCL, that cost 25 ms
 * a step of the 32³ mac dam break, 69 % of its step. Race-free: pass 1 reads KNOWN classes and
 * faces, which no pass writes, and changes only AIR to BAND1; pass 2 reads BAND1 faces and
 * writes AIR ones. */
#define LQ_MACBC_OTHER 0
#define LQ_MACBC_KNOWN 1
#define LQ_MACBC_AIR   2
#define LQ_MACBC_BAND1 3

LQ_INLINE void lq_macbc_class_face(LQ_GLOBAL unsigned char *cls,
                                   const LQ_GLOBAL unsigned char *flags, int a, int i, int j, int k,
                                   int nx, int ny, int nz)
{
    unsigned char c = lq_macbc_air(flags, a, i, j, k, nx, ny, nz)     ? LQ_MACBC_AIR
                      : lq_macbc_known(flags, a, i, j, k, nx, ny, nz) ? LQ_MACBC_KNOWN
                                                                      : LQ_MACBC_OTHER;
    cls[lq_macbc_face(a, i, j, k, nx, ny)] = c;
}

/* Pass 1 (from = LQ_MACBC_KNOWN) or 2 (from = LQ_MACBC_BAND1) at face (i, j, k) of axis a. */
LQ_INLINE void lq_macbc_band_face(LQ_GLOBAL float *q, LQ_GLOBAL unsigned char *cls, int a, int i,
                                  int j, int k, int nx, int ny, int nz, int from)
{
    int f = lq_macbc_face(a, i, j, k, nx, ny);
    if (cls[f] != LQ_MACBC_AIR) return;
    int n = 0;
    float s = 0.0f;
    for (int d = 0; d < 6; d++) {
        int ii, jj, kk;
        if (!lq_macbc_nb(a, d, i, j, k, nx, ny, nz, &ii, &jj, &kk)) continue;
        int g = lq_macbc_face(a, ii, jj, kk, nx, ny);
        if (cls[g] != from) continue;
        s = s + q[g];
        n++;
    }
    if (n == 0) return;
    float r = n == 1   ? 1.0f
              : n == 2 ? 0.5f
              : n == 3 ? 0.333333343f
              : n == 4 ? 0.25f
              : n == 5 ? 0.2f
                       : 0.166666672f;
    q[f] = s * r;
    if (from == LQ_MACBC_KNOWN) cls[f] = LQ_MACBC_BAND1;
}

#endif
