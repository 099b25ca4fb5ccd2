/*
 * plswindow_cell.h — the moving grid window of Rasmussen et al. 2004 §5.3, per element:
 * shared by kernels/pls/plswindow.cl and the reference twins (host/ops/pls/plswindow_ref.c).
 *
 * The window moves by whole cells only, so no value is interpolated: moved by d cells
 * (d > 0: towards +axis), element (i, j, k) of a lattice takes the old element
 * (i + dx, j + dy, k + dz) ("translated left by three cells, φ_{i,j,k} ← φ_{i+3,j,k}").
 * Elements whose source lies outside the old lattice are the cells the window uncovers:
 *  - LQ_PLSWINDOW_FILL: a constant (φ: air at the reinitialisation's cap; p: 0; ν₀: the
 *    scene's ν);
 *  - LQ_PLSWINDOW_CLAMP: the nearest kept element (the source index clamped into the old
 *    lattice), the velocity's extrapolation into the uncovered cells.
 * Along a face lattice's own axis `wall` only the old open faces 1 .. f − 2 are kept: the
 * old edge faces hold the wall's 0, not the liquid's velocity, so a face that lands on one
 * is uncovered too (a normal velocity is copied from the nearest kept open face).
 * With `wall` = a (0–2), the faces on the window's edge along a (index 0 and f − 1) are set
 * to 0 after the move: the window's faces are the solver's closed walls (pls conventions);
 * wall = −1: none (cell-centred fields).
 *
 * Particles: each record's first three floats are x, y, z relative to the window's origin
 * (m); moved by d cells they lose d h (one subtraction of a host-rounded float per axis).
 * A record left outside [0, n h) on an axis is killed (its signed radius at `rslot` set to
 * 0, the particle level set's dead mark; the next compaction drops it) and counted.
 *
 * Bounding box of the liquid: the least and greatest i, j, k of the cells with φ < 0, one
 * row (j, k) at a time, min / max with integer atomics (order-free, exact).
 */
#ifndef LQ_PLSWINDOW_CELL_H
#define LQ_PLSWINDOW_CELL_H

#include "common/lq_shared.h"

#define LQ_PLSWINDOW_FILL  0
#define LQ_PLSWINDOW_CLAMP 1

/* The bounding box record: min i, j, k, then max i, j, k (none: min > max). */
#define LQ_PLSWINDOW_BOX      6
#define LQ_PLSWINDOW_NONE_MIN 2147483647
#define LQ_PLSWINDOW_NONE_MAX (-1)

#ifdef __OPENCL_VERSION__
#define LQ_PLSWINDOW_ATOMIC_MAX(p, v) atomic_max((p), (v))
#else
static inline int lq_plswindow_atomic_max_int(int *p, int v)
{
    int old = *p;
    if (v > old) *p = v;
    return old;
}
#define LQ_PLSWINDOW_ATOMIC_MAX(p, v) lq_plswindow_atomic_max_int((p), (v))
#endif

LQ_INLINE int lq_plswindow_clampi(int x, int lo, int hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The moved lattice's element (i, j, k) of a lattice fx × fy × fz (src: the old one). */
LQ_INLINE float lq_plswindow_shift_at(const LQ_GLOBAL float *src, int i, int j, int k, int fx,
                                      int fy, int fz, int dx, int dy, int dz, int mode, float fill,
                                      int wall)
{
    int e[3] = {i, j, k}, f[3] = {fx, fy, fz};
    if (wall >= 0 && f[wall] > 1 && (e[wall] == 0 || e[wall] == f[wall] - 1)) return 0.0f;
    /* the kept elements: along the wall axis the old open faces only (the old edge faces
     * hold a wall's 0, no velocity of the liquid) */
    int lo[3] = {0, 0, 0}, hi[3] = {fx - 1, fy - 1, fz - 1};
    if (wall >= 0 && f[wall] > 2) {
        lo[wall] = 1;
        hi[wall] = f[wall] - 2;
    }
    int si = i + dx, sj = j + dy, sk = k + dz;
    if (si >= lo[0] && si <= hi[0] && sj >= lo[1] && sj <= hi[1] && sk >= lo[2] && sk <= hi[2])
        return src[si + fx * (sj + fy * sk)];
    if (mode == LQ_PLSWINDOW_FILL) return fill;
    si = lq_plswindow_clampi(si, lo[0], hi[0]);
    sj = lq_plswindow_clampi(sj, lo[1], hi[1]);
    sk = lq_plswindow_clampi(sk, lo[2], hi[2]);
    return src[si + fx * (sj + fy * sk)];
}

/* Particle q moved by (−dxh, −dyh, −dzh); returns 1 when it was alive and is now outside
 * [0, ext) on an axis (then killed), else 0. */
LQ_INLINE int lq_plswindow_particle(LQ_GLOBAL float *part, int q, int stride, int rslot, float dxh,
                                    float dyh, float dzh, float ex, float ey, float ez)
{
    LQ_GLOBAL float *a = part + (long)q * stride;
    float x = a[0] - dxh, y = a[1] - dyh, z = a[2] - dzh;
    a[0] = x;
    a[1] = y;
    a[2] = z;
    if (a[rslot] == 0.0f) return 0; /* dead already */
    if (x >= 0.0f && x < ex && y >= 0.0f && y < ey && z >= 0.0f && z < ez) return 0;
    a[rslot] = 0.0f;
    return 1;
}

/* Row (j, k): the least and greatest i with φ < 0 into lo, hi (none: lo > hi). */
LQ_INLINE void lq_plswindow_row(const LQ_GLOBAL float *phi, int j, int k, int nx, int ny, int *lo,
                                int *hi)
{
    const LQ_GLOBAL float *r = phi + (long)nx * (j + (long)ny * k);
    *lo = LQ_PLSWINDOW_NONE_MIN;
    *hi = LQ_PLSWINDOW_NONE_MAX;
    for (int i = 0; i < nx; i++)
        if (r[i] < 0.0f) {
            if (*lo > i) *lo = i;
            *hi = i;
        }
}

/* One row's box into the record (integer atomics). */
LQ_INLINE void lq_plswindow_row_box(LQ_GLOBAL int *box, int j, int k, int lo, int hi)
{
    if (lo > hi) return;
    LQ_ATOMIC_MIN(box + 0, lo);
    LQ_ATOMIC_MIN(box + 1, j);
    LQ_ATOMIC_MIN(box + 2, k);
    LQ_PLSWINDOW_ATOMIC_MAX(box + 3, hi);
    LQ_PLSWINDOW_ATOMIC_MAX(box + 4, j);
    LQ_PLSWINDOW_ATOMIC_MAX(box + 5, k);
}

#endif
