/*
 * plscontrol_cell.h — per-cell math of the `pls` control particles (Rasmussen et al. 2004
 * §4: "Particle Based Controls"), shared by kernels/pls/plscontrol.cl and the reference
 * twins (host/ops/pls/plscontrol_ref.c).
 *
 * A control particle (§4.1) is a record of LQ_PLSCONTROL_STRIDE floats: its position
 * (m, grid-relative: the world position minus grid.origin), radius R (m), a value vector
 * (velocity, m/s), a scalar value (ν m²/s, a target divergence 1/s, or a φ offset m), a
 * unit axis (cylinders; the animator's normal of a φ particle), the cylinder's half
 * length L (m), a strength in [0, 1] (an animatable factor on its α), a code (kind,
 * shape and falloff as one small integer, exact in a float) and its extent (m: the
 * radius of a ball holding its whole region of influence). Kinds: velocity, viscosity,
 * level set (φ), divergence, and erasers (CSG shapes that remove liquid, fig. 2).
 *
 * Shapes and falloff (§4.2). A sphere holds the cell centres x with d = |x − p| ≤ R; a
 * cylinder those with |(x − p)·a| ≤ L and d = |(x − p) − ((x − p)·a) a| ≤ R (the distance
 * to the axis through p). With s = d / R the falloff is box 1, hat 1 − s, or the smooth
 * cubic 1 − s²(3 − 2s) (value 1 and zero slope at s = 0, value 0 and zero slope at
 * s = 1); α_i = strength × falloff(s), 0 outside the shape.
 *
 * Blending (§4.3, eq. 4). In each cell the particles of one kind give A = Σ α_i,
 * α = max α_i and the weighted average V_p = Σ α_i V_i / A ("if a cell is undergoing
 * control by N particles on the same liquid property, a weighted average is taken");
 * then V = (1 − α) V_liquid + α V_p. α is the strongest particle's, so overlapping
 * particles never exceed one particle's strength and a cell under one particle gets its
 * falloff exactly. Per kind:
 *   - velocity: gathered at cell centres (α, V_p as a vector); a face takes the mean of
 *     its two cells' α and the α-weighted mean of their V_p. A liquid cell (φ ≤ 0, no
 *     object) with α > LQ_PLSCONTROL_HARD (0.9) is under hard control: its faces are set
 *     to V_p (the mean of the two cells' V_p between two hard cells), and the cell is
 *     solid for the projection (a Neumann boundary whose flux enters the right-hand side),
 *     so the pressure solve makes the liquid outside follow smoothly (§4.3);
 *   - viscosity: ν per cell, the liquid's ν blended toward the particles' (§5.1);
 *   - level set: φ_i(x) = (x − p)·a − value for a cylinder (the signed distance to its
 *     cross-sectional plane through p, shifted by value along the normal a: §4.3's
 *     ridges), |x − p| − value for a sphere (a ball of radius value); φ blended by eq. 4;
 *   - erasers: φ = max(φ, −sd_i(x)) with sd_i the signed distance of the eraser's shape
 *     (a sphere, or a capped cylinder), for every eraser with strength > 0 whose extent
 *     holds the cell centre: CSG difference, order-free. The host widens an eraser's
 *     extent by LQ_PLSCONTROL_ERASE_BAND cells so that the cells just outside it take
 *     the new surface's distance too;
 *   - divergence: a target divergence D = α D_p in the projection's right-hand side (the
 *     liquid's own target is 0): b += (h²/dt) D on the unknowns, so that ∇·u = D after
 *     the projection (expansion D > 0, contraction D < 0; [FOA03]).
 *
 * Binning (no loop over particles per cell). The grid is cut into tiles of T×T×T cells
 * (T ≥ LQ_PLSCONTROL_TILE, chosen per binning so that the largest extent e ≤ T h). A
 * particle's key is the tile holding its position, clamped into the grid (−1: its ball
 * misses the grid, or its strength is 0). A counting sort orders the particles by key:
 * per-tile counts (integer atomics), their exclusive prefix by the shared block scan
 * (common/scan_cell.h), a scatter with per-tile fill counters, then each tile's slice
 * sorted by particle index (insertion sort). The result — each tile's particles in
 * increasing index — does not depend on the order the atomics ran in. A cell at x then
 * visits the tiles overlapping [x − e, x + e] per axis (at most 2 per axis) in increasing
 * z, y, x and each tile's particles in order: every sum is taken in one fixed order on
 * both backends, bit for bit. Particles outside the grid within reach of it sit in its
 * edge tiles, which the cells at the edge visit.
 *
 * Where the passes run. The grid is also cut into blocks of LQ_PLSCONTROL_BLOCK³ cells;
 * each binned particle marks the blocks within its extent plus one cell (an int per
 * block set to 1: the same map whatever the order), and the marked blocks are listed in
 * increasing index by the shared scan. Outside the marked blocks no particle reaches a
 * cell: every α there is 0. The velocity passes run over the listed blocks only (a cell
 * of an unlisted block counts as α = 0 wherever a face reads it, and the projection's
 * solid field there keeps its base value: the objects' sdf, or +h); the passes that must
 * write every cell (φ's kill field, ν) skip the gather in unmarked blocks. So the cost
 * follows the particles, not the grid.
 *
 * No contraction, correctly rounded divide and sqrt on both sides (lq_shared.h).
 */
#ifndef LQ_PLSCONTROL_CELL_H
#define LQ_PLSCONTROL_CELL_H

#include "common/mac_grid.h"
#include "common/scan_cell.h"

/* The record (floats) */
#define LQ_PLSCONTROL_STRIDE   16
#define LQ_PLSCONTROL_X        0  /* x, y, z: m, grid-relative */
#define LQ_PLSCONTROL_R        3  /* radius, m */
#define LQ_PLSCONTROL_V        4  /* vx, vy, vz: m/s (velocity particles) */
#define LQ_PLSCONTROL_VALUE    7  /* ν (m²/s), D (1/s) or the φ offset (m) */
#define LQ_PLSCONTROL_AXIS     8  /* ax, ay, az: unit (cylinders; a φ particle's normal) */
#define LQ_PLSCONTROL_HALF     11 /* L, the cylinder's half length, m */
#define LQ_PLSCONTROL_STRENGTH 12 /* [0, 1] */
#define LQ_PLSCONTROL_CODE     13 /* kind + LQ_PLSCONTROL_SHAPE_MUL shape + ... falloff */
#define LQ_PLSCONTROL_EXTENT   14 /* m: radius of a ball around x holding its region */

/* Kinds (bit k of a kind mask: 1 << k) */
#define LQ_PLSCONTROL_VELOCITY   0
#define LQ_PLSCONTROL_VISCOSITY  1
#define LQ_PLSCONTROL_PHI        2
#define LQ_PLSCONTROL_DIVERGENCE 3
#define LQ_PLSCONTROL_ERASER     4
#define LQ_PLSCONTROL_KINDS      5
/* Shapes, falloffs */
#define LQ_PLSCONTROL_SPHERE    0
#define LQ_PLSCONTROL_CYLINDER  1
#define LQ_PLSCONTROL_BOX       0
#define LQ_PLSCONTROL_HAT       1
#define LQ_PLSCONTROL_SMOOTH    2
#define LQ_PLSCONTROL_SHAPE_MUL 8
#define LQ_PLSCONTROL_FALL_MUL  32

#define LQ_PLSCONTROL_HARD       0.9f  /* §4.3: "we enforce a hard control on a cell if α > .9" */
#define LQ_PLSCONTROL_TILE       1     /* smallest tile side, cells */
#define LQ_PLSCONTROL_BLOCK      8     /* side of an activity block, cells */
#define LQ_PLSCONTROL_BLOCK3     512   /* its cells */
#define LQ_PLSCONTROL_ERASE_BAND 2.0f  /* cells an eraser's reach is widened by */
#define LQ_PLSCONTROL_MOVED      1e-3f /* |Δφ| above this many cells: the cell was moved */

/* Counters (int) */
#define LQ_PLSCONTROL_CNT_HARD   0 /* cells under hard velocity control */
#define LQ_PLSCONTROL_CNT_MOVED  1 /* cells whose φ the level-set control or erasers moved */
#define LQ_PLSCONTROL_CNT_LIVE   2 /* the scan's running total (the binned particles) */
#define LQ_PLSCONTROL_CNT_DROP   3 /* the scan's overflow (never: the room is the count) */
#define LQ_PLSCONTROL_CNT_BLOCKS 4 /* the active blocks' scan: their count */
#define LQ_PLSCONTROL_CNT_BDROP  5 /* its overflow (never) */
#define LQ_PLSCONTROL_CNT_COUNT  6

LQ_INLINE int lq_plscontrol_kind(LQ_GLOBAL const float *r)
{
    return (int)r[LQ_PLSCONTROL_CODE] % LQ_PLSCONTROL_SHAPE_MUL;
}

LQ_INLINE int lq_plscontrol_shape(LQ_GLOBAL const float *r)
{
    return ((int)r[LQ_PLSCONTROL_CODE] / LQ_PLSCONTROL_SHAPE_MUL) % 4;
}

LQ_INLINE int lq_plscontrol_falloff(LQ_GLOBAL const float *r)
{
    return (int)r[LQ_PLSCONTROL_CODE] / LQ_PLSCONTROL_FALL_MUL;
}

/* The falloff curve at s = d / R in [0, 1] (§4.2). */
LQ_INLINE float lq_plscontrol_curve(int falloff, float s)
{
    if (falloff == LQ_PLSCONTROL_HAT) return 1.0f - s;
    if (falloff == LQ_PLSCONTROL_SMOOTH) return 1.0f - s * s * (3.0f - 2.0f * s);
    return 1.0f;
}

/* x − p along the axis (*along) and the distance to the axis (cylinders) or to p
 * (spheres, *along = 0). */
LQ_INLINE float lq_plscontrol_dist(LQ_GLOBAL const float *r, float x, float y, float z,
                                   float *along)
{
    float dx = x - r[LQ_PLSCONTROL_X], dy = y - r[LQ_PLSCONTROL_X + 1],
          dz = z - r[LQ_PLSCONTROL_X + 2];
    *along = 0.0f;
    if (lq_plscontrol_shape(r) == LQ_PLSCONTROL_CYLINDER) {
        float ax = r[LQ_PLSCONTROL_AXIS], ay = r[LQ_PLSCONTROL_AXIS + 1],
              az = r[LQ_PLSCONTROL_AXIS + 2];
        float t = dx * ax + dy * ay + dz * az;
        *along = t;
        dx = dx - t * ax;
        dy = dy - t * ay;
        dz = dz - t * az;
    }
    return LQ_SQRTF(dx * dx + dy * dy + dz * dz);
}

/* α_i of particle r at (x, y, z): strength × falloff, 0 outside its shape. */
LQ_INLINE float lq_plscontrol_alpha(LQ_GLOBAL const float *r, float x, float y, float z)
{
    float along, d = lq_plscontrol_dist(r, x, y, z, &along), R = r[LQ_PLSCONTROL_R];
    if (!(d <= R) || LQ_FABSF(along) > r[LQ_PLSCONTROL_HALF]) return 0.0f;
    float s = R > 0.0f ? d / R : 0.0f;
    return r[LQ_PLSCONTROL_STRENGTH] * lq_plscontrol_curve(lq_plscontrol_falloff(r), s);
}

/* φ_i at (x, y, z) of a level-set particle (§4.3). */
LQ_INLINE float lq_plscontrol_phi_of(LQ_GLOBAL const float *r, float x, float y, float z)
{
    float dx = x - r[LQ_PLSCONTROL_X], dy = y - r[LQ_PLSCONTROL_X + 1],
          dz = z - r[LQ_PLSCONTROL_X + 2];
    if (lq_plscontrol_shape(r) == LQ_PLSCONTROL_CYLINDER)
        return (dx * r[LQ_PLSCONTROL_AXIS] + dy * r[LQ_PLSCONTROL_AXIS + 1] +
                dz * r[LQ_PLSCONTROL_AXIS + 2]) -
               r[LQ_PLSCONTROL_VALUE];
    return LQ_SQRTF(dx * dx + dy * dy + dz * dz) - r[LQ_PLSCONTROL_VALUE];
}

/* The signed distance of an eraser's shape at (x, y, z) (negative inside): a ball of
 * radius R, or a cylinder of radius R and half length L capped flat. */
LQ_INLINE float lq_plscontrol_erase_sd(LQ_GLOBAL const float *r, float x, float y, float z)
{
    float along, d = lq_plscontrol_dist(r, x, y, z, &along);
    float rad = d - r[LQ_PLSCONTROL_R];
    if (lq_plscontrol_shape(r) != LQ_PLSCONTROL_CYLINDER) return rad;
    float ax = LQ_FABSF(along) - r[LQ_PLSCONTROL_HALF];
    float ox = ax > 0.0f ? ax : 0.0f, orad = rad > 0.0f ? rad : 0.0f;
    float in = ax > rad ? ax : rad;
    return LQ_SQRTF(ox * ox + orad * orad) + (in < 0.0f ? in : 0.0f);
}

/* --- binning --------------------------------------------------------------------------- */

/* The tile of coordinate x (m) along one axis: ith = 1 / (T h), tn tiles; clamped. */
LQ_INLINE int lq_plscontrol_tile1(float x, float ith, int tn)
{
    float f = x * ith;
    if (!(f >= 0.0f)) return 0;
    if (f >= (float)tn) return tn - 1;
    return (int)f;
}

/* Particle i's key: its tile, or −1 when it can touch no cell (its ball misses the grid
 * box [0, n h] on some axis, or its strength is 0 or less). */
LQ_INLINE int lq_plscontrol_key(LQ_GLOBAL const float *part, int i, int nx, int ny, int nz, float h,
                                float ith, int tnx, int tny, int tnz)
{
    LQ_GLOBAL const float *r = part + (size_t)i * LQ_PLSCONTROL_STRIDE;
    float e = r[LQ_PLSCONTROL_EXTENT];
    float x = r[LQ_PLSCONTROL_X], y = r[LQ_PLSCONTROL_X + 1], z = r[LQ_PLSCONTROL_X + 2];
    if (!(r[LQ_PLSCONTROL_STRENGTH] > 0.0f)) return -1;
    if (!(x + e >= 0.0f && x - e <= (float)nx * h)) return -1;
    if (!(y + e >= 0.0f && y - e <= (float)ny * h)) return -1;
    if (nz > 1 && !(z + e >= 0.0f && z - e <= (float)nz * h)) return -1;
    int ti = lq_plscontrol_tile1(x, ith, tnx), tj = lq_plscontrol_tile1(y, ith, tny);
    int tk = nz > 1 ? lq_plscontrol_tile1(z, ith, tnz) : 0;
    return ti + tnx * (tj + tny * tk);
}

/* Blocks of the grid (LQ_PLSCONTROL_BLOCK cells a side): bn per axis. */
LQ_INLINE int lq_plscontrol_block(int i, int j, int k, int bnx, int bny)
{
    return i / LQ_PLSCONTROL_BLOCK +
           bnx * (j / LQ_PLSCONTROL_BLOCK + bny * (k / LQ_PLSCONTROL_BLOCK));
}

/* The cells within [x − e, x + e] along one axis of n cells: [*lo, *hi] (clamped). */
LQ_INLINE void lq_plscontrol_cells1(float x, float e, float ih, int n, int *lo, int *hi)
{
    float a = (x - e) * ih, b = (x + e) * ih;
    *lo = !(a >= 0.0f) ? 0 : (a >= (float)n ? n - 1 : (int)a);
    *hi = !(b >= 0.0f) ? 0 : (b >= (float)n ? n - 1 : (int)b);
}

/* Marks the blocks holding cells within particle i's extent plus one cell (map: an int
 * per block, set to 1). Only binned particles (key ≥ 0) mark. */
LQ_INLINE void lq_plscontrol_mark(LQ_GLOBAL const float *part, int i, int nx, int ny, int nz,
                                  float h, float ih, int bnx, int bny, LQ_GLOBAL int *map)
{
    LQ_GLOBAL const float *r = part + (size_t)i * LQ_PLSCONTROL_STRIDE;
    float e = r[LQ_PLSCONTROL_EXTENT] + h;
    int i0, i1, j0, j1, k0 = 0, k1 = 0;
    lq_plscontrol_cells1(r[LQ_PLSCONTROL_X], e, ih, nx, &i0, &i1);
    lq_plscontrol_cells1(r[LQ_PLSCONTROL_X + 1], e, ih, ny, &j0, &j1);
    if (nz > 1) lq_plscontrol_cells1(r[LQ_PLSCONTROL_X + 2], e, ih, nz, &k0, &k1);
    int B = LQ_PLSCONTROL_BLOCK;
    for (int bk = k0 / B; bk <= k1 / B; bk++)
        for (int bj = j0 / B; bj <= j1 / B; bj++)
            for (int bi = i0 / B; bi <= i1 / B; bi++) map[bi + bnx * (bj + bny * bk)] = 1;
}

/* The active blocks of scan block blk (LQ_SCAN_BLOCK map entries) listed from boff[blk]
 * in increasing index. */
LQ_INLINE void lq_plscontrol_list_block(LQ_GLOBAL const int *map, LQ_GLOBAL const int *boff,
                                        LQ_GLOBAL int *list, int blk, int nblocks)
{
    int w = boff[blk];
    for (int q = blk * LQ_SCAN_BLOCK; q < (blk + 1) * LQ_SCAN_BLOCK && q < nblocks; q++)
        if (map[q]) list[w++] = q;
}

/* Work-item g of a pass over the nlist listed blocks: its cell (i, j, k); 0 past the end
 * or outside the grid. */
LQ_INLINE int lq_plscontrol_list_cell(LQ_GLOBAL const int *list, int nlist, int g, int bnx, int bny,
                                      int nx, int ny, int nz, int *i, int *j, int *k)
{
    if (g >= nlist * LQ_PLSCONTROL_BLOCK3) return 0;
    int b = list[g / LQ_PLSCONTROL_BLOCK3], l = g % LQ_PLSCONTROL_BLOCK3, B = LQ_PLSCONTROL_BLOCK;
    *i = (b % bnx) * B + l % B;
    *j = (b / bnx % bny) * B + l / B % B;
    *k = (b / bnx / bny) * B + l / (B * B);
    return *i < nx && *j < ny && *k < nz;
}

/* Tile t's starts from its block's first slot (one item per LQ_SCAN_BLOCK tiles); the
 * fill counters zeroed for the scatter. */
LQ_INLINE void lq_plscontrol_start_block(LQ_GLOBAL const int *tcount, LQ_GLOBAL const int *boff,
                                         LQ_GLOBAL int *tstart, LQ_GLOBAL int *tfill, int blk,
                                         int ntiles)
{
    int run = boff[blk];
    for (int t = blk * LQ_SCAN_BLOCK; t < (blk + 1) * LQ_SCAN_BLOCK && t < ntiles; t++) {
        tstart[t] = run;
        tfill[t] = 0;
        run += tcount[t];
    }
}

/* Tile t's slice of order[] sorted by particle index (insertion sort). */
LQ_INLINE void lq_plscontrol_sort_tile(LQ_GLOBAL int *order, LQ_GLOBAL const int *tstart,
                                       LQ_GLOBAL const int *tcount, int t)
{
    int lo = tstart[t], hi = lo + tcount[t];
    for (int a = lo + 1; a < hi; a++) {
        int v = order[a], b = a - 1;
        while (b >= lo && order[b] > v) {
            order[b + 1] = order[b];
            b--;
        }
        order[b + 1] = v;
    }
}

/* --- the gather ------------------------------------------------------------------------ */

/* The tiles within reach e of x along one axis: [*lo, *hi]. */
LQ_INLINE void lq_plscontrol_span(float x, float e, float ith, int tn, int *lo, int *hi)
{
    *lo = lq_plscontrol_tile1(x - e, ith, tn);
    *hi = lq_plscontrol_tile1(x + e, ith, tn);
}

/* What the particles of the kinds in `mask` give at one point. */
typedef struct lq_plscontrol_acc {
    float a, m, s[3]; /* Σ α_i, max α_i, Σ α_i V_i (the blended kind) */
    float erase;      /* max of −sd_i over the erasers (valid when nerase > 0) */
    int nerase;
} lq_plscontrol_acc;

/* The binned particles of the binning's tiles (tn[3], ith = 1/(T h)) and its reach e. */
typedef struct lq_plscontrol_bins {
    LQ_GLOBAL const float *part;
    LQ_GLOBAL const int *order, *tstart, *tcount;
    int tnx, tny, tnz;
    float ith, reach;
    LQ_GLOBAL const int *map; /* the active blocks (1), bn per axis */
    int bnx, bny;
} lq_plscontrol_bins;

/* Cell (i, j, k) lies in an active block (a particle may reach it). */
LQ_INLINE int lq_plscontrol_live(const lq_plscontrol_bins *b, int i, int j, int k)
{
    return b->map[lq_plscontrol_block(i, j, k, b->bnx, b->bny)] != 0;
}

/* One particle's share at (x, y, z) for the blended `kind` (and the erasers when
 * `erasers`). */
LQ_INLINE void lq_plscontrol_add(LQ_GLOBAL const float *r, int kind, int erasers, float x, float y,
                                 float z, lq_plscontrol_acc *acc)
{
    int k = lq_plscontrol_kind(r);
    if (k == LQ_PLSCONTROL_ERASER) {
        if (!erasers) return;
        /* within its extent only: the result must not depend on the tiles */
        float dx = x - r[LQ_PLSCONTROL_X], dy = y - r[LQ_PLSCONTROL_X + 1],
              dz = z - r[LQ_PLSCONTROL_X + 2], ex = r[LQ_PLSCONTROL_EXTENT];
        if (dx * dx + dy * dy + dz * dz > ex * ex) return;
        float e = -lq_plscontrol_erase_sd(r, x, y, z);
        if (acc->nerase == 0 || e > acc->erase) acc->erase = e;
        acc->nerase++;
        return;
    }
    if (k != kind) return;
    float al = lq_plscontrol_alpha(r, x, y, z);
    if (!(al > 0.0f)) return;
    acc->a = acc->a + al;
    if (al > acc->m) acc->m = al;
    if (kind == LQ_PLSCONTROL_VELOCITY) {
        acc->s[0] = acc->s[0] + al * r[LQ_PLSCONTROL_V];
        acc->s[1] = acc->s[1] + al * r[LQ_PLSCONTROL_V + 1];
        acc->s[2] = acc->s[2] + al * r[LQ_PLSCONTROL_V + 2];
    } else if (kind == LQ_PLSCONTROL_PHI) {
        acc->s[0] = acc->s[0] + al * lq_plscontrol_phi_of(r, x, y, z);
    } else {
        acc->s[0] = acc->s[0] + al * r[LQ_PLSCONTROL_VALUE];
    }
}

/* The gather at (x, y, z): tiles in increasing z, y, x, each tile's particles in index
 * order. Returns 0 (and a zero acc) when no binned particle is within reach. */
LQ_INLINE int lq_plscontrol_gather(const lq_plscontrol_bins *b, int kind, int erasers, float x,
                                   float y, float z, int dim3, lq_plscontrol_acc *acc)
{
    int i0, i1, j0, j1, k0 = 0, k1 = 0, any = 0;
    acc->a = acc->m = 0.0f;
    acc->s[0] = acc->s[1] = acc->s[2] = 0.0f;
    acc->erase = 0.0f;
    acc->nerase = 0;
    lq_plscontrol_span(x, b->reach, b->ith, b->tnx, &i0, &i1);
    lq_plscontrol_span(y, b->reach, b->ith, b->tny, &j0, &j1);
    if (dim3) lq_plscontrol_span(z, b->reach, b->ith, b->tnz, &k0, &k1);
    for (int tk = k0; tk <= k1; tk++)
        for (int tj = j0; tj <= j1; tj++)
            for (int ti = i0; ti <= i1; ti++) {
                int t = ti + b->tnx * (tj + b->tny * tk), lo = b->tstart[t], n = b->tcount[t];
                for (int q = lo; q < lo + n; q++) {
                    LQ_GLOBAL const float *r = b->part + (size_t)b->order[q] * LQ_PLSCONTROL_STRIDE;
                    lq_plscontrol_add(r, kind, erasers, x, y, z, acc);
                    any = 1;
                }
            }
    return any;
}

/* --- applying the control -------------------------------------------------------------- */

/* Cell c is liquid under hard velocity control: α > 0.9, φ ≤ 0, not an object cell. */
LQ_INLINE int lq_plscontrol_hard(LQ_GLOBAL const float *ca, LQ_GLOBAL const float *phi,
                                 LQ_GLOBAL const float *sdf, int has_sdf, int c)
{
    return ca[c] > LQ_PLSCONTROL_HARD && phi[c] <= 0.0f && !(has_sdf && sdf[c] <= 0.0f);
}

/* The projection's solid field where no particle reaches: the objects' sdf, or +h. */
LQ_INLINE void lq_plscontrol_base_cell(LQ_GLOBAL const float *sdf, int has_sdf, float h, int c,
                                       LQ_GLOBAL float *solid)
{
    solid[c] = has_sdf ? sdf[c] : h;
}

/* Velocity, per cell: α (ca), V_p (cv, 3 per cell), and the projection's solid field
 * (solid: −h/2 in hard cells, the objects' sdf or +h elsewhere); returns 1 for a hard
 * cell. */
LQ_INLINE int lq_plscontrol_velocity_cell(const lq_plscontrol_bins *b, LQ_GLOBAL const float *phi,
                                          LQ_GLOBAL const float *sdf, int has_sdf, float h, int i,
                                          int j, int k, int nx, int ny, int nz, LQ_GLOBAL float *ca,
                                          LQ_GLOBAL float *cv, LQ_GLOBAL float *solid)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_plscontrol_acc acc;
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    lq_plscontrol_gather(b, LQ_PLSCONTROL_VELOCITY, 0, x, y, z, nz > 1, &acc);
    ca[c] = acc.m;
    for (int q = 0; q < 3; q++) cv[3 * c + q] = acc.a > 0.0f ? acc.s[q] / acc.a : 0.0f;
    int hard = lq_plscontrol_hard(ca, phi, sdf, has_sdf, c);
    solid[c] = hard ? -0.5f * h : (has_sdf ? sdf[c] : h);
    return hard;
}

/* The face on `axis` at face coordinates (i, j, k), between the cells one step down the
 * axis and (i, j, k): its new value from uf (eq. 4; hard cells' V_p). Domain-edge faces
 * and faces beside an object cell keep uf. */
LQ_INLINE float lq_plscontrol_face(const lq_plscontrol_bins *b, float uf, int axis, int i, int j,
                                   int k, int nx, int ny, int nz, LQ_GLOBAL const float *ca,
                                   LQ_GLOBAL const float *cv, LQ_GLOBAL const float *phi,
                                   LQ_GLOBAL const float *sdf, int has_sdf)
{
    int ca_ = axis == 0 ? i : (axis == 1 ? j : k), na = axis == 0 ? nx : (axis == 1 ? ny : nz);
    if (ca_ <= 0 || ca_ >= na) return uf;
    int im = i - (axis == 0), jm = j - (axis == 1), km = k - (axis == 2);
    int cp = LQ_MAC_CELL(i, j, k, nx, ny), cm = LQ_MAC_CELL(im, jm, km, nx, ny);
    if (has_sdf && (sdf[cm] <= 0.0f || sdf[cp] <= 0.0f)) return uf;
    /* a cell of an inactive block: α = 0 (its ca, cv are stale) */
    int lm = lq_plscontrol_live(b, im, jm, km), lp = lq_plscontrol_live(b, i, j, k);
    int hm = lm && lq_plscontrol_hard(ca, phi, sdf, has_sdf, cm);
    int hp = lp && lq_plscontrol_hard(ca, phi, sdf, has_sdf, cp);
    float vm = lm ? cv[3 * cm + axis] : 0.0f, vp = lp ? cv[3 * cp + axis] : 0.0f;
    if (hm && hp) return 0.5f * (vm + vp);
    if (hm) return vm;
    if (hp) return vp;
    float am = lm ? ca[cm] : 0.0f, ap = lp ? ca[cp] : 0.0f, as = am + ap;
    if (!(as > 0.0f)) return uf;
    float af = 0.5f * as, vf = (am * vm + ap * vp) / as;
    return (1.0f - af) * uf + af * vf;
}

/* The faces a cell of an active block owns: its −x, −y, −z faces, and each + face whose
 * far cell lies in an inactive block (inside the grid). */
LQ_INLINE void lq_plscontrol_faces_cell(const lq_plscontrol_bins *b, int i, int j, int k, int nx,
                                        int ny, int nz, LQ_GLOBAL float *u, LQ_GLOBAL float *v,
                                        LQ_GLOBAL float *w, LQ_GLOBAL const float *ca,
                                        LQ_GLOBAL const float *cv, LQ_GLOBAL const float *phi,
                                        LQ_GLOBAL const float *sdf, int has_sdf)
{
    for (int a = 0; a < (nz > 1 ? 3 : 2); a++) {
        LQ_GLOBAL float *q = a == 0 ? u : (a == 1 ? v : w);
        for (int s = 0; s < 2; s++) {
            int fi = i + (s && a == 0), fj = j + (s && a == 1), fk = k + (s && a == 2);
            if (s && ((a == 0 && fi >= nx) || (a == 1 && fj >= ny) || (a == 2 && fk >= nz) ||
                      lq_plscontrol_live(b, fi, fj, fk)))
                continue;
            int f = a == 0 ? LQ_MAC_U(fi, fj, fk, nx, ny)
                           : (a == 1 ? LQ_MAC_V(fi, fj, fk, nx, ny) : LQ_MAC_W(fi, fj, fk, nx, ny));
            q[f] =
                lq_plscontrol_face(b, q[f], a, fi, fj, fk, nx, ny, nz, ca, cv, phi, sdf, has_sdf);
        }
    }
}

/* Level set, per cell: φ blended (eq. 4), then the erasers (CSG); kill: −1 where φ
 * moved by more than LQ_PLSCONTROL_MOVED cells (its level-set particles are deleted and
 * reseeded, §4.3), the objects' sdf or +h elsewhere. Returns 1 for a moved cell. */
LQ_INLINE int lq_plscontrol_phi_cell(const lq_plscontrol_bins *b, int kinds, LQ_GLOBAL float *phi,
                                     LQ_GLOBAL const float *sdf, int has_sdf, float h, int i, int j,
                                     int k, int nx, int ny, int nz, LQ_GLOBAL float *kill)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_plscontrol_acc acc;
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    int erasers = (kinds >> LQ_PLSCONTROL_ERASER) & 1;
    float p0 = phi[c], p = p0;
    if (lq_plscontrol_live(b, i, j, k) &&
        lq_plscontrol_gather(b, LQ_PLSCONTROL_PHI, erasers, x, y, z, nz > 1, &acc)) {
        if (acc.m > 0.0f) p = (1.0f - acc.m) * p0 + acc.m * (acc.s[0] / acc.a);
        if (acc.nerase > 0 && acc.erase > p) p = acc.erase;
        phi[c] = p;
    }
    int moved = LQ_FABSF(p - p0) > LQ_PLSCONTROL_MOVED * h;
    kill[c] = moved ? -1.0f : (has_sdf ? sdf[c] : h);
    return moved;
}

/* Viscosity, per cell: ν = (1 − α) ν_liquid + α ν_p, ν_liquid = scale × nu_in[c] (has_nu)
 * or scale. */
LQ_INLINE void lq_plscontrol_viscosity_cell(const lq_plscontrol_bins *b,
                                            LQ_GLOBAL const float *nu_in, int has_nu, float scale,
                                            float h, int i, int j, int k, int nx, int ny, int nz,
                                            LQ_GLOBAL float *nu_out)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_plscontrol_acc acc;
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    float nl = has_nu ? scale * nu_in[c] : scale;
    if (lq_plscontrol_live(b, i, j, k) &&
        lq_plscontrol_gather(b, LQ_PLSCONTROL_VISCOSITY, 0, x, y, z, nz > 1, &acc) && acc.m > 0.0f)
        nl = (1.0f - acc.m) * nl + acc.m * (acc.s[0] / acc.a);
    nu_out[c] = nl;
}

/* Divergence, per unknown cell of the projection (unknown: its mask has the unknown
 * bit): b += scale α D_p, scale = h²/dt. */
LQ_INLINE void lq_plscontrol_divergence_cell(const lq_plscontrol_bins *b,
                                             LQ_GLOBAL const unsigned char *mask, int unknown,
                                             float scale, float h, int i, int j, int k, int nx,
                                             int ny, int nz, LQ_GLOBAL float *rhs)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (!(mask[c] & unknown) || !lq_plscontrol_live(b, i, j, k)) return;
    lq_plscontrol_acc acc;
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    if (lq_plscontrol_gather(b, LQ_PLSCONTROL_DIVERGENCE, 0, x, y, z, nz > 1, &acc) && acc.m > 0.0f)
        rhs[c] = rhs[c] + scale * (acc.m * (acc.s[0] / acc.a));
}

#endif
