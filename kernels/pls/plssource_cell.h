/*
 * plssource_cell.h — per-cell, per-face and per-particle math of the `pls` solver's
 * liquid sources and sinks (scene sources[].inlet and sources[].outlet), shared by
 * kernels/pls/plssource.cl and the reference twins (host/ops/pls/plssource_ref.c).
 *
 * Method. Rasmussen et al. 2004 §5.4 hold the values sourced onto a grid "constant when
 * solving equations 1 and 2"; an inlet here is such a region inside the grid: its cells
 * are liquid, their faces hold the inlet's velocity, and the projection treats them as a
 * boundary (Neumann, like an object), so the flux through its faces is exactly what the
 * inlet delivers and the liquid around takes it up divergence-free. An outlet (a sink)
 * is CSG subtraction (fig. 2's erasers): its cells are made air every step, so the
 * projection puts p = 0 there and liquid falls or flows in at its own rate.
 *
 * Regions. Each item's region is the set of cells whose centres its shape holds (static
 * obstacles' cells left out), stored per cell as an item number and the exact signed
 * distance to the union of the region's cells (m, ≤ 0 in them, h/2 at a boundary cell's
 * centre; out to LQ_PLSSOURCE_BAND cells outside): rid (int) holds the inlet + 1 in bits
 * 0–7 and the shape outlet + 1 in bits 8–15 (0: none), ed and sd the two distances. The
 * linear Heaviside of the liquid volume (plsforce_cell.h) of such a distance is exactly
 * the region's cell count, so a region filled holds its cells' volume, and the liquid
 * leaving an inlet has the cross-section of the faces it leaves through. A level outlet
 * (liquid above a height) is a plane, d = level − y.
 *
 * Per step, the item table (LQ_PLSSOURCE_STRIDE floats an item: kind, mode, velocity,
 * level) says what each item does:
 *  - cells: the liquid of acting outlets removed, φ = max(φ, −d) (outside the cells of
 *    open inlets), its volume summed (fixed point, the volume measure's cell fractions:
 *    the accounting of the removal is exact); an open inlet fills its cells and the band
 *    around them, φ = min(φ, ed) (a closed one leaves its liquid, which then falls out or
 *    stays as any other); the projection's solid field = min(objects' sdf, ed in the open
 *    inlets' cells);
 *  - faces: a face between two open inlet cells takes the inlet's velocity (the later
 *    item's where two meet), a face on the boundary of one takes it when it points out
 *    of the inlet and 0 otherwise (closed: an inlet makes liquid, it does not draw it
 *    in), the domain edge is left alone (walls);
 *  - particles: air particles in open inlets' cells and liquid particles in acting
 *    outlets are killed (signed radius 0, dropped by the next
 *    compaction, skipped by the corrections): on the wrong side of the φ just set they
 *    would carve or add their spheres back;
 *  - content: the liquid volume in each inlet's cells (fixed point), for the accounting.
 * Grid: pls conventions (mac_grid.h indexing, no wall layer, cell size h; 2D: nz = 1, no
 * z faces). Sums are integer atomics (order-free): the twins agree bit for bit.
 */
#ifndef LQ_PLSSOURCE_CELL_H
#define LQ_PLSSOURCE_CELL_H

#include "common/mac_grid.h"

#define LQ_PLSSOURCE_MAX   16            /* items (inlets and outlets) */
#define LQ_PLSSOURCE_BAND  3             /* cells outside a region its distance reaches */
#define LQ_PLSSOURCE_BLOCK 256           /* cells per work-item of the cell passes */
#define LQ_PLSSOURCE_FIXED 4294967296.0f /* fixed-point units per cell (plsforce_cell.h) */
/* A particle's floats and its signed radius (plsparticles_cell.h's LQ_PLSPARTICLES_STRIDE and
 * _R; host/ops/pls/plssource.c checks they agree) */
#define LQ_PLSSOURCE_PSTRIDE 4
#define LQ_PLSSOURCE_PR      3

/* The item table. */
#define LQ_PLSSOURCE_STRIDE 8
#define LQ_PLSSOURCE_KIND   0 /* LQ_PLSSOURCE_INLET, _OUTLET or _LEVEL */
#define LQ_PLSSOURCE_MODE   1 /* LQ_PLSSOURCE_IDLE or _ACT */
#define LQ_PLSSOURCE_VEL    2 /* an inlet's velocity, 3 (m/s) */
#define LQ_PLSSOURCE_LEVEL  5 /* a level outlet's height (m, from the grid's origin) */

#define LQ_PLSSOURCE_INLET  0.0f
#define LQ_PLSSOURCE_OUTLET 1.0f
#define LQ_PLSSOURCE_LEVELK 2.0f
#define LQ_PLSSOURCE_IDLE   0.0f
#define LQ_PLSSOURCE_ACT    1.0f

/* Sums (long): the outlets' removal (all time) in its own slot, the inlets' contents one
 * slot each from LQ_PLSSOURCE_RED_CONTENT of another array. */
#define LQ_PLSSOURCE_RED_SINK    0
#define LQ_PLSSOURCE_RED_CONTENT 0
#define LQ_PLSSOURCE_FAR         1.0e30f /* the solid field away from solids */

LQ_INLINE float lq_plssource_tab(LQ_GLOBAL const float *tab, int item, int field)
{
    return tab[item * LQ_PLSSOURCE_STRIDE + field];
}

/* The open inlet whose cell c is (−1: none). */
LQ_INLINE int lq_plssource_open(LQ_GLOBAL const int *rid, LQ_GLOBAL const float *ed,
                                LQ_GLOBAL const float *tab, int c)
{
    int e = (rid[c] & 0xff) - 1;
    if (e < 0 || ed[c] > 0.0f) return -1;
    return lq_plssource_tab(tab, e, LQ_PLSSOURCE_MODE) == LQ_PLSSOURCE_ACT ? e : -1;
}

/* The volume measure's liquid fraction of a cell (plsforce_cell.h), fixed point. */
LQ_INLINE lq_long lq_plssource_fraction(float p, float ih)
{
    float a = 0.5f - p * ih;
    a = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    return LQ_FIXED(a * LQ_PLSSOURCE_FIXED);
}

/* φ at cell c after the acting outlets (yc: the centre's height from the grid's origin). */
LQ_INLINE float lq_plssource_drained(float p, LQ_GLOBAL const int *rid, LQ_GLOBAL const float *sd,
                                     LQ_GLOBAL const float *tab, int n, int c, float yc)
{
    int k = ((rid[c] >> 8) & 0xff) - 1;
    if (k >= 0 && lq_plssource_tab(tab, k, LQ_PLSSOURCE_MODE) == LQ_PLSSOURCE_ACT) {
        float q = -sd[c];
        p = q > p ? q : p;
    }
    for (int l = 0; l < n; l++)
        if (lq_plssource_tab(tab, l, LQ_PLSSOURCE_KIND) == LQ_PLSSOURCE_LEVELK &&
            lq_plssource_tab(tab, l, LQ_PLSSOURCE_MODE) == LQ_PLSSOURCE_ACT) {
            float q = yc - lq_plssource_tab(tab, l, LQ_PLSSOURCE_LEVEL);
            p = q > p ? q : p;
        }
    return p;
}

/* Cell c: outlets, closing and open inlets into φ, the projection's solid field (when
 * has_solid; sdf: the objects', read when has_sdf); returns the volume removed by the
 * outlets (fixed point). far: the solid field's value away from solids. */
LQ_INLINE lq_long lq_plssource_cell(LQ_GLOBAL float *phi, LQ_GLOBAL const int *rid,
                                    LQ_GLOBAL const float *ed, LQ_GLOBAL const float *sd,
                                    LQ_GLOBAL const float *tab, int n, LQ_GLOBAL const float *sdf,
                                    int has_sdf, LQ_GLOBAL float *solid, int has_solid, int c,
                                    float yc, float ih, float far)
{
    float p = phi[c];
    int open = lq_plssource_open(rid, ed, tab, c);
    lq_long removed = 0;
    if (open < 0) {
        float q = lq_plssource_drained(p, rid, sd, tab, n, c, yc);
        removed = LQ_WRAP_SUB(lq_plssource_fraction(p, ih), lq_plssource_fraction(q, ih));
        p = q;
    }
    int e = (rid[c] & 0xff) - 1; /* an open inlet's band outside its cells too: the union */
    if (e >= 0 && lq_plssource_tab(tab, e, LQ_PLSSOURCE_MODE) == LQ_PLSSOURCE_ACT)
        p = ed[c] < p ? ed[c] : p;
    phi[c] = p;
    if (has_solid) {
        float s = has_sdf ? sdf[c] : far;
        solid[c] = open >= 0 && ed[c] < s ? ed[c] : s;
    }
    return removed;
}

/* The face on `axis` at face coordinates (i, j, k) (between the cells one step down the
 * axis and (i, j, k)): its value with the open inlets' velocities held. */
LQ_INLINE float lq_plssource_face(LQ_GLOBAL const float *q, int axis, int i, int j, int k, int nx,
                                  int ny, int nz, LQ_GLOBAL const int *rid,
                                  LQ_GLOBAL const float *ed, LQ_GLOBAL const float *tab)
{
    int fx = nx + (axis == 0), fy = ny + (axis == 1);
    int f = i + fx * (j + fy * k);
    int na = axis == 0 ? nx : (axis == 1 ? ny : nz);
    int ca = axis == 0 ? i : (axis == 1 ? j : k);
    if (ca == 0 || ca == na) return q[f]; /* the domain edge: a wall */
    int cm = LQ_MAC_CELL(i - (axis == 0), j - (axis == 1), k - (axis == 2), nx, ny);
    int cp = LQ_MAC_CELL(i, j, k, nx, ny);
    int em = lq_plssource_open(rid, ed, tab, cm), ep = lq_plssource_open(rid, ed, tab, cp);
    if (em < 0 && ep < 0) return q[f];
    if (em >= 0 && ep >= 0)
        return lq_plssource_tab(tab, em > ep ? em : ep, LQ_PLSSOURCE_VEL + axis);
    if (em >= 0) { /* the face on the inlet's +axis side: out when the velocity is > 0 */
        float vm = lq_plssource_tab(tab, em, LQ_PLSSOURCE_VEL + axis);
        return vm > 0.0f ? vm : 0.0f;
    }
    float vp = lq_plssource_tab(tab, ep, LQ_PLSSOURCE_VEL + axis);
    return vp < 0.0f ? vp : 0.0f;
}

/* Particle a (LQ_PLSPARTICLES_STRIDE floats: x, y, z in metres from the grid's origin, the
 * signed radius s r): killed on the wrong side of what the cells pass just set, by its
 * cell. */
LQ_INLINE void lq_plssource_kill_one(LQ_GLOBAL float *a, LQ_GLOBAL const int *rid,
                                     LQ_GLOBAL const float *ed, LQ_GLOBAL const float *sd,
                                     LQ_GLOBAL const float *tab, int n, float ih, int nx, int ny,
                                     int nz)
{
    float sr = a[LQ_PLSSOURCE_PR];
    if (sr == 0.0f) return;
    int ijk[3], dim[3] = {nx, ny, nz};
    for (int d = 0; d < 3; d++) {
        float x = a[d] * ih;
        int i = x > 0.0f ? (int)x : 0;
        ijk[d] = i < dim[d] ? i : dim[d] - 1;
    }
    int c = LQ_MAC_CELL(ijk[0], ijk[1], ijk[2], nx, ny);
    if (lq_plssource_open(rid, ed, tab, c) >= 0) {
        if (sr > 0.0f) a[LQ_PLSSOURCE_PR] = 0.0f; /* air inside an open inlet */
        return;
    }
    if (sr > 0.0f) return;
    int k = ((rid[c] >> 8) & 0xff) - 1, kill = 0;
    if (k >= 0 && sd[c] <= 0.0f && lq_plssource_tab(tab, k, LQ_PLSSOURCE_MODE) == LQ_PLSSOURCE_ACT)
        kill = 1;
    for (int l = 0; l < n; l++)
        if (lq_plssource_tab(tab, l, LQ_PLSSOURCE_KIND) == LQ_PLSSOURCE_LEVELK &&
            lq_plssource_tab(tab, l, LQ_PLSSOURCE_MODE) == LQ_PLSSOURCE_ACT &&
            a[1] > lq_plssource_tab(tab, l, LQ_PLSSOURCE_LEVEL))
            kill = 1;
    if (kill) a[LQ_PLSSOURCE_PR] = 0.0f; /* liquid in an acting outlet */
}

/* The inlet whose cells hold cell c, for the content sums (−1: none). */
LQ_INLINE int lq_plssource_content_slot(LQ_GLOBAL const int *rid, LQ_GLOBAL const float *ed, int c)
{
    int e = (rid[c] & 0xff) - 1;
    return e >= 0 && ed[c] <= 0.0f ? e : -1;
}

#endif
