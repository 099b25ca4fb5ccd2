/*
 * markers_cell.h — per-particle and per-cell math of marker particles (Foster & Metaxas
 * 1996 §4.1), shared by the OpenCL kernels (kernels/mac/markers.cl) and their reference
 * twins (host/ops/mac/markers_ref.c). Grid, face arrays and cell kinds: mac_grid.h.
 *
 * Sampling. Each velocity component is interpolated trilinearly on its own face lattice
 * (the 3D form of the paper's area weighting, Fig. 3):
 *   u at (i δx, (j+½) δy, (k+½) δz),  0 ≤ i ≤ nx, 0 ≤ j < ny, 0 ≤ k < nz;
 *   v at ((i+½) δx, j δy, (k+½) δz);  w at ((i+½) δx, (j+½) δy, k δz).
 * A point is turned into continuous lattice coordinates (x/δx − offset, ...) and clamped
 * to the lattice, so beyond the outermost nodes the value is held constant. A lattice one
 * node thick along an axis (u and v in 2D, nz = 1) is constant along it. Trilinear
 * interpolation reproduces a linear field up to float rounding.
 *
 * Advection: second-order Runge–Kutta (midpoint), x½ = x + (δt/2) u(x),
 * x' = x + δt u(x½), each stage clamped to the domain [0, nx δx] × [0, ny δy] × [0, nz δz].
 * A particle whose x' lies in a SOLID cell slides along it: its move along x, else y,
 * else z is dropped (the first that leaves it outside the SOLID cells), and only if none
 * does it stays at x. Markers never enter obstacles; pushed back whole, one pressed on a
 * wall by a tiny normal velocity (an air face's) froze there, its cell stayed SURFACE and
 * Gates' open pair sped up by g δt every step (Moonlight Cove: 14 m/s). A
 * start outside the domain (or NaN) is first clamped into it, so every particle ends in
 * the domain.
 *
 * Classification (§4.1), three passes, each race-free: (1) per cell, count = −1 for a
 * fixed kind (SOLID, INFLOW, OUTFLOW) and 0 otherwise; (2) per particle, an integer
 * atomic increment of its cell's count unless the cell is fixed (flags only read; the
 * sum does not depend on order); (3) per cell, reading only counts, the flags of fixed
 * cells (which it never writes) and writing only its own flag: fixed cells keep their
 * kind; a cell with no particles is EMPTY (air) unless it is a cavity (lq_markers_cavity: its
 * +y neighbour holds particles and every neighbour in the grid holds particles or is
 * SOLID or INFLOW), which is FULL; a cell with particles is SURFACE when a neighbour in
 * the grid is air, or when it lies under a SOLID cell (or the grid's top) with particles
 * below it and air two below (a film leaving a ceiling, spread over two rows), and FULL
 * otherwise. A neighbour outside the grid is a wall, not EMPTY. A position outside the
 * grid (or NaN) counts in the nearest cell, as lq_markers_cell_of clamps.
 *
 * Cavities: with 4 markers per cell (2D) or 8 (3D) the markers of a stretched flow leave
 * cells inside the liquid with none. As EMPTY cells they held the atmosphere's pressure
 * inside the liquid and pulled their neighbours in (scenes/mac_dam_break.yaml: 2.1 m/s
 * beside the block at frame 23; a marker-less cell 0.4 m deep in still water: 0.49 m/s
 * in the first frame), which also refilled them with markers. FULL, the pressure
 * iteration keeps them divergence-free. No markers are added: the volume (from the
 * markers) stays exact, but a cavity keeps no markers until the flow brings some (the
 * a = 40 dam break of VALIDATION.md has 30-50 of them at a time from step ~150 on), and
 * the phi view shows each as a small hole. Air under a ceiling is not a cavity (a pocket
 * there is trapped air or the gap a falling film leaves; relaxed as liquid, it held the
 * film up by suction).
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, no division (the host passes 1/δ and the domain size), comparisons instead of
 * fmin/fmax so NaN is handled the same on both sides.
 */
#ifndef LQ_MARKERS_CELL_H
#define LQ_MARKERS_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"

typedef struct lq_markers_vec3 {
    float x, y, z;
} lq_markers_vec3;

/* x clamped to [lo, hi]; NaN becomes lo. */
LQ_INLINE float lq_markers_clampf(float x, float lo, float hi)
{
    if (!(x >= lo)) return lo;
    if (x > hi) return hi;
    return x;
}

LQ_INLINE float lq_markers_lerp(float a, float b, float f)
{
    return (1.0f - f) * a + f * b;
}

/* Node index along one axis of m nodes for the clamped coordinate g ≥ 0, and the
 * fraction toward the next node (0 when the axis has one node). */
LQ_INLINE int lq_markers_node(float g, int m, float *f)
{
    int i = (int)g;
    if (i > m - 2) i = m - 2;
    if (i < 0) i = 0;
    *f = m > 1 ? g - (float)i : 0.0f;
    return i;
}

/* Trilinear sample of lattice a (m0 × m1 × m2 nodes, first index fastest) at continuous
 * node coordinates (g0, g1, g2), clamped to the lattice. */
LQ_INLINE float lq_markers_lattice(const LQ_GLOBAL float *a, int m0, int m1, int m2, float g0,
                                   float g1, float g2)
{
    float f0, f1, f2;
    int i = lq_markers_node(lq_markers_clampf(g0, 0.0f, (float)(m0 - 1)), m0, &f0);
    int j = lq_markers_node(lq_markers_clampf(g1, 0.0f, (float)(m1 - 1)), m1, &f1);
    int k = lq_markers_node(lq_markers_clampf(g2, 0.0f, (float)(m2 - 1)), m2, &f2);
    int s0 = m0 > 1 ? 1 : 0, s1 = m1 > 1 ? m0 : 0, s2 = m2 > 1 ? m0 * m1 : 0;
    int b = i + m0 * (j + m1 * k);
    float c00 = lq_markers_lerp(a[b], a[b + s0], f0);
    float c10 = lq_markers_lerp(a[b + s1], a[b + s1 + s0], f0);
    float c01 = lq_markers_lerp(a[b + s2], a[b + s2 + s0], f0);
    float c11 = lq_markers_lerp(a[b + s2 + s1], a[b + s2 + s1 + s0], f0);
    return lq_markers_lerp(lq_markers_lerp(c00, c10, f1), lq_markers_lerp(c01, c11, f1), f2);
}

/* u, v, w each on its own face lattice at the point (x, y, z) (m); idx = 1/δx, ... */
LQ_INLINE float lq_markers_sample_u(const LQ_GLOBAL float *u, float x, float y, float z, int nx,
                                    int ny, int nz, float idx, float idy, float idz)
{
    return lq_markers_lattice(u, nx + 1, ny, nz, x * idx, y * idy - 0.5f, z * idz - 0.5f);
}
LQ_INLINE float lq_markers_sample_v(const LQ_GLOBAL float *v, float x, float y, float z, int nx,
                                    int ny, int nz, float idx, float idy, float idz)
{
    return lq_markers_lattice(v, nx, ny + 1, nz, x * idx - 0.5f, y * idy, z * idz - 0.5f);
}
LQ_INLINE float lq_markers_sample_w(const LQ_GLOBAL float *w, float x, float y, float z, int nx,
                                    int ny, int nz, float idx, float idy, float idz)
{
    return lq_markers_lattice(w, nx, ny, nz + 1, x * idx - 0.5f, y * idy - 0.5f, z * idz);
}

LQ_INLINE lq_markers_vec3 lq_markers_velocity(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                              const LQ_GLOBAL float *w, lq_markers_vec3 p, int nx,
                                              int ny, int nz, float idx, float idy, float idz)
{
    lq_markers_vec3 r;
    r.x = lq_markers_sample_u(u, p.x, p.y, p.z, nx, ny, nz, idx, idy, idz);
    r.y = lq_markers_sample_v(v, p.x, p.y, p.z, nx, ny, nz, idx, idy, idz);
    r.z = lq_markers_sample_w(w, p.x, p.y, p.z, nx, ny, nz, idx, idy, idz);
    return r;
}

/* The cell holding the point, the nearest cell for a point outside the grid (or NaN). */
LQ_INLINE int lq_markers_cell_of(lq_markers_vec3 p, int nx, int ny, int nz, float idx, float idy,
                                 float idz)
{
    int i = (int)lq_markers_clampf(p.x * idx, 0.0f, (float)nx);
    int j = (int)lq_markers_clampf(p.y * idy, 0.0f, (float)ny);
    int k = (int)lq_markers_clampf(p.z * idz, 0.0f, (float)nz);
    if (i > nx - 1) i = nx - 1;
    if (j > ny - 1) j = ny - 1;
    if (k > nz - 1) k = nz - 1;
    return LQ_MAC_CELL(i, j, k, nx, ny);
}

/* Does the liquid of the cell holding the point leave a ceiling: a SURFACE cell under a
 * SOLID cell (or the grid's top)? Its v is then its bottom face's, not a blend toward
 * the ceiling's 0 (see lq_markers_marker_velocity). */
LQ_INLINE int lq_markers_leaves_ceiling(const LQ_GLOBAL unsigned char *flags, int c, int nx, int ny)
{
    int j = (c / nx) % ny;
    return flags[c] == LQ_MAC_SURFACE && (j == ny - 1 || flags[c + nx] == LQ_MAC_SOLID);
}

/* The velocity a marker at p moves with. In a cell whose liquid leaves a ceiling
 * (lq_markers_leaves_ceiling) v is sampled on the cell's bottom face row: the ceiling face's 0 is
 * the wall's, not the liquid's, and blended in it held the markers by the ceiling back while those
 * below fell, so a film one cell thick spread over three rows, the top one became FULL and the
 * pressure held it up by suction. */
LQ_INLINE lq_markers_vec3 lq_markers_marker_velocity(const LQ_GLOBAL float *u,
                                                     const LQ_GLOBAL float *v,
                                                     const LQ_GLOBAL float *w,
                                                     const LQ_GLOBAL unsigned char *flags,
                                                     lq_markers_vec3 p, int nx, int ny, int nz,
                                                     float idx, float idy, float idz)
{
    lq_markers_vec3 r = lq_markers_velocity(u, v, w, p, nx, ny, nz, idx, idy, idz);
    int c = lq_markers_cell_of(p, nx, ny, nz, idx, idy, idz);
    if (lq_markers_leaves_ceiling(flags, c, nx, ny))
        r.y = lq_markers_lattice(v, nx, ny + 1, nz, p.x * idx - 0.5f, (float)((c / nx) % ny),
                                 p.z * idz - 0.5f);
    return r;
}

/* p + s·d, clamped to the domain [0, lx] × [0, ly] × [0, lz]. */
LQ_INLINE lq_markers_vec3 lq_markers_step(lq_markers_vec3 p, lq_markers_vec3 d, float s, float lx,
                                          float ly, float lz)
{
    lq_markers_vec3 r;
    r.x = lq_markers_clampf(p.x + s * d.x, 0.0f, lx);
    r.y = lq_markers_clampf(p.y + s * d.y, 0.0f, ly);
    r.z = lq_markers_clampf(p.z + s * d.z, 0.0f, lz);
    return r;
}

/* One midpoint step of particle n (pos: x, y, z per particle, m). */
LQ_INLINE void lq_markers_advect_one(LQ_GLOBAL float *pos, const LQ_GLOBAL float *u,
                                     const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                     const LQ_GLOBAL unsigned char *flags, int n, int nx, int ny,
                                     int nz, float idx, float idy, float idz, float lx, float ly,
                                     float lz, float dt)
{
    lq_markers_vec3 p0;
    p0.x = pos[3 * n];
    p0.y = pos[3 * n + 1];
    p0.z = pos[3 * n + 2];
    lq_markers_vec3 zero = {0.0f, 0.0f, 0.0f};
    p0 = lq_markers_step(p0, zero, 0.0f, lx, ly, lz); /* a start outside the domain is clamped */
    lq_markers_vec3 v0 = lq_markers_marker_velocity(u, v, w, flags, p0, nx, ny, nz, idx, idy, idz);
    lq_markers_vec3 pm = lq_markers_step(p0, v0, 0.5f * dt, lx, ly, lz);
    lq_markers_vec3 vm = lq_markers_marker_velocity(u, v, w, flags, pm, nx, ny, nz, idx, idy, idz);
    lq_markers_vec3 p1 = lq_markers_step(p0, vm, dt, lx, ly, lz);
    if (flags[lq_markers_cell_of(p1, nx, ny, nz, idx, idy, idz)] == LQ_MAC_SOLID) {
        /* slide along the wall: drop the move along one axis (x, y, z in turn) */
        lq_markers_vec3 q = p1;
        q.x = p0.x;
        if (flags[lq_markers_cell_of(q, nx, ny, nz, idx, idy, idz)] != LQ_MAC_SOLID) {
            p1 = q;
        } else {
            q = p1;
            q.y = p0.y;
            if (flags[lq_markers_cell_of(q, nx, ny, nz, idx, idy, idz)] != LQ_MAC_SOLID) {
                p1 = q;
            } else {
                q = p1;
                q.z = p0.z;
                p1 = flags[lq_markers_cell_of(q, nx, ny, nz, idx, idy, idz)] != LQ_MAC_SOLID ? q
                                                                                             : p0;
            }
        }
    }
    pos[3 * n] = p1.x;
    pos[3 * n + 1] = p1.y;
    pos[3 * n + 2] = p1.z;
}

/* Kinds the markers never change. */
LQ_INLINE int lq_markers_fixed(int kind)
{
    return kind == LQ_MAC_SOLID || kind == LQ_MAC_INFLOW || kind == LQ_MAC_OUTFLOW;
}

/* Classification pass 1, cell c. */
LQ_INLINE void lq_markers_clear_cell(LQ_GLOBAL int *count, const LQ_GLOBAL unsigned char *flags,
                                     int c)
{
    count[c] = lq_markers_fixed(flags[c]) ? -1 : 0;
}

/* Classification pass 2, particle n. */
LQ_INLINE void lq_markers_count_one(LQ_GLOBAL LQ_VOLATILE int *count, const LQ_GLOBAL float *pos,
                                    const LQ_GLOBAL unsigned char *flags, int n, int nx, int ny,
                                    int nz, float idx, float idy, float idz)
{
    lq_markers_vec3 p;
    p.x = pos[3 * n];
    p.y = pos[3 * n + 1];
    p.z = pos[3 * n + 2];
    int c = lq_markers_cell_of(p, nx, ny, nz, idx, idy, idz);
    if (!lq_markers_fixed(flags[c])) LQ_ATOMIC_ADD(&count[c], 1);
}

/* The rules of classification pass 3 for marker counts (lq_markers_label_cell's rules). */
#define LQ_MARKERS_CEILING  1 /* a film leaving a ceiling, spread over two rows, stays SURFACE */
#define LQ_MARKERS_CAVITIES 2 /* a marker-less cell closed in by liquid is FULL */

/* Does neighbour cell n (in the grid) close a cavity: liquid (markers) or a SOLID or
 * INFLOW cell (fixed, count −1; its flag is never written by pass 3, so reading it is
 * race-free)? An OUTFLOW cell is open to the outside: it does not. */
LQ_INLINE int lq_markers_closes(const LQ_GLOBAL unsigned char *flags, const LQ_GLOBAL int *count,
                                int n)
{
    return count[n] > 0 || (count[n] < 0 && flags[n] != LQ_MAC_OUTFLOW);
}

/* Is cell (i, j, k) a cavity: no markers, every neighbour in the grid closing it
 * (lq_markers_closes; outside the grid is a wall) and liquid above it (+y)? Air under a SOLID
 * ceiling is left EMPTY: a pocket there is trapped air, or the gap a film leaves as it
 * falls from the ceiling (relaxed as FULL, it held the film up by suction). */
LQ_INLINE int lq_markers_cavity(const LQ_GLOBAL unsigned char *flags, const LQ_GLOBAL int *count,
                                int i, int j, int k, int nx, int ny, int nz, int rules)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), sz = nx * ny;
    if (!(rules & LQ_MARKERS_CAVITIES) || count[c] != 0) return 0;
    int nb[6] = {i > 0 ? c - 1 : -1,       i < nx - 1 ? c + 1 : -1, j > 0 ? c - nx : -1,
                 j < ny - 1 ? c + nx : -1, k > 0 ? c - sz : -1,     k < nz - 1 ? c + sz : -1};
    if (nb[3] < 0 || count[nb[3]] <= 0) return 0;
    for (int d = 0; d < 6; d++)
        if (nb[d] >= 0 && !lq_markers_closes(flags, count, nb[d])) return 0;
    return 1;
}

/* Is cell (i, j, k) air: no markers and not a cavity? */
LQ_INLINE int lq_markers_air(const LQ_GLOBAL unsigned char *flags, const LQ_GLOBAL int *count,
                             int i, int j, int k, int nx, int ny, int nz, int rules)
{
    return count[LQ_MAC_CELL(i, j, k, nx, ny)] == 0 &&
           !lq_markers_cavity(flags, count, i, j, k, nx, ny, nz, rules);
}

/* Classification pass 3, cell (i, j, k). rules: LQ_MARKERS_CEILING | LQ_MARKERS_CAVITIES when count
 * holds marker counts (§4.1), a sample of the liquid whose gaps the ceiling-film and
 * cavity rules above correct (the cavity rule can be left out: `mac.fill_cavities`); 0 for
 * the exact liquid/air state of the height field and the chains (kernels/mac/machf.cl,
 * chains.cl): an air cell there is air (a bubble the chains enclose is one), and the
 * plain rule applies. */
LQ_INLINE void lq_markers_label_cell(LQ_GLOBAL unsigned char *flags, const LQ_GLOBAL int *count,
                                     int i, int j, int k, int nx, int ny, int nz, int rules)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), n = count[c];
    if (n < 0) return;
    if (n == 0) { /* a cavity is liquid whose markers spread out: FULL */
        flags[c] = lq_markers_cavity(flags, count, i, j, k, nx, ny, nz, rules) ? LQ_MAC_FULL
                                                                               : LQ_MAC_EMPTY;
        return;
    }
    int surface = (i > 0 && lq_markers_air(flags, count, i - 1, j, k, nx, ny, nz, rules)) ||
                  (i < nx - 1 && lq_markers_air(flags, count, i + 1, j, k, nx, ny, nz, rules)) ||
                  (j > 0 && lq_markers_air(flags, count, i, j - 1, k, nx, ny, nz, rules)) ||
                  (j < ny - 1 && lq_markers_air(flags, count, i, j + 1, k, nx, ny, nz, rules)) ||
                  (k > 0 && lq_markers_air(flags, count, i, j, k - 1, nx, ny, nz, rules)) ||
                  (k < nz - 1 && lq_markers_air(flags, count, i, j, k + 1, nx, ny, nz, rules));
    /* a film hanging from a ceiling, spread over two rows as it leaves it: under a SOLID
     * cell (or the grid's top), liquid below, air two below */
    int ceiling = j == ny - 1 || (count[c + nx] < 0 && flags[c + nx] == LQ_MAC_SOLID);
    if ((rules & LQ_MARKERS_CEILING) && !surface && ceiling && j >= 2 && count[c - nx] > 0 &&
        lq_markers_air(flags, count, i, j - 2, k, nx, ny, nz, rules))
        surface = 1;
    flags[c] = surface ? LQ_MAC_SURFACE : LQ_MAC_FULL;
}

#endif
