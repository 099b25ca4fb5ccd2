/*
 * macspray_cell.h — per-cell and per-particle math of the `mac` solver's spray and foam
 * (Foster & Metaxas 1996 §4.3, last paragraph), shared by the OpenCL kernels
 * (kernels/mac/macspray.cl) and their reference twins (host/ops/mac/macspray_ref.c). Grid, face
 * arrays and cell kinds: mac_grid.h; velocity sampling: markers_cell.h.
 *
 * §4.3: "Whenever the vertical velocity of the surface is greater than some positive
 * threshold, a set of particles are introduced just below the surface and the local
 * fluid velocity is used to set their initial velocity. The particles are then removed
 * from the Navier-Stokes calculation and affected only by gravity, wind, and air
 * resistance. [...] a small probability that airborne particles will separate over time
 * [...] Foam is introduced whenever spray collides with the height field. Foam has a
 * random life span proportional to the size of its parent spray particle."
 *
 * Particles: LQ_MACSPRAY_STRIDE floats each (layout below), positions in grid coordinates
 * (m, the domain [0, nx δx] × [0, ny δy] × [0, nz δz], as the markers).
 *
 * Emission (per cell). A SURFACE cell whose cell above is EMPTY (the surface faces up)
 * and whose upward velocity, the mean of its two v faces, exceeds the threshold emits
 * (int)(per_cell + ξ) particles (ξ uniform in [0, 1) per cell and step; per_cell = rate ·
 * δx δz · δt, so the mean is exact), at most LQ_MACSPRAY_MAX_PER_CELL. Each lands uniformly in
 * the cell horizontally and in its lower half vertically ("just below the surface"), with
 * the liquid's velocity there (trilinear samples of the faces) plus a separation
 * perturbation uniform in ±spread per axis, and a radius uniform in [0.75, 1.25) · radius.
 *
 * Flight (spray, and foam over an EMPTY cell). Gravity g and air resistance toward the
 * wind w at rate k (1/s): dv/dt = g + k (w − v). Solved exactly over δt:
 *   v' = κ v + (1 − κ) w + A g,   x' = x + A v + B w + C g,
 * κ = e^{−kδt}, A = (1 − κ)/k, B = δt − A, C = (δt − A)/k (→ δt, 0, δt²/2 as k → 0); the
 * host computes κ, 1 − κ, A, B, C in double (series for small kδt), so drag 0 is the
 * closed-form parabola and drag > 0 the exponential approach to w + g/k.
 * Spray ending outside the domain or in a SOLID, INFLOW or OUTFLOW cell is removed.
 * Spray ending in a FULL or SURFACE cell while moving down (v'_y < 0) has hit the liquid:
 * it becomes foam (foam on) with age 0 and life = foam_life · (r / radius) · (0.5 + ξ),
 * ξ in [0, 1), or is removed (foam off). (Freshly emitted spray starts inside a
 * SURFACE cell moving up, so it is not taken for a hit.) Airborne spray (in an EMPTY
 * cell) separates with probability p_split = separation · δt per step: the compaction
 * writes it twice, each half with radius r · 2^{−1/3} and velocity v ± s, s uniform in
 * ±spread per axis (momentum kept).
 *
 * Foam ages by δt and is removed once age > life. In a FULL or SURFACE cell it moves
 * with the liquid (trilinear samples), plus `rise` upward in a FULL cell (submerged foam
 * floats up to the surface); in an EMPTY cell (the surface fell away under it) it flies
 * as above. Leaving the domain removes it; a move ending in a SOLID, INFLOW or OUTFLOW
 * cell is not made (it stays, at rest).
 *
 * Volume: the spray is decorative, as in the paper ("removed from the Navier-Stokes
 * calculation"): it takes no liquid from the grid and returns none.
 *
 * Determinism: random numbers are an integer hash of (seed, step, stream, a, b), the
 * same on both backends; counts per cell or per block of particles, an exclusive scan
 * of block sums and per-block sequential writes put every particle in the same slot on
 * both backends; counters are integer atomics (order-free). Contraction is off, no
 * library functions of floats are called in the kernels (the host supplies κ, A, B, C).
 */
#ifndef LQ_MACSPRAY_CELL_H
#define LQ_MACSPRAY_CELL_H

#include "common/hash.h"
#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "common/scan_cell.h"
#include "mac/markers_cell.h"

/* Particle layout. */
#define LQ_MACSPRAY_STRIDE 12
#define LQ_MACSPRAY_X      0  /* position, 3 (m) */
#define LQ_MACSPRAY_V      3  /* velocity, 3 (m/s) */
#define LQ_MACSPRAY_R      6  /* radius (m) */
#define LQ_MACSPRAY_KIND   7  /* LQ_MACSPRAY_DEAD, _SPRAY, _FOAM */
#define LQ_MACSPRAY_AGE    8  /* s since emission (spray) or since landing (foam) */
#define LQ_MACSPRAY_LIFE   9  /* s, foam only */
#define LQ_MACSPRAY_SPLIT  10 /* 1: the compaction writes it as two halves */

#define LQ_MACSPRAY_DEAD  0.0f
#define LQ_MACSPRAY_SPRAY 1.0f
#define LQ_MACSPRAY_FOAM  2.0f

/* Counters (int). LIVE persists; the others are this step's (the host zeroes them). */
#define LQ_MACSPRAY_CNT_LIVE    0
#define LQ_MACSPRAY_CNT_EMITTED 1 /* written by emission */
#define LQ_MACSPRAY_CNT_DROPPED 2 /* not written: buffer full (emission and separation) */
#define LQ_MACSPRAY_CNT_REMOVED                                                                    \
    3 /* left the domain, hit a wall, foam expired, spray hit (foam off) */
#define LQ_MACSPRAY_CNT_FOAMED 4 /* spray turned to foam */
#define LQ_MACSPRAY_CNT_SPLIT  5 /* separations decided */
#define LQ_MACSPRAY_CNT_SPRAY  6 /* live spray after the step */
#define LQ_MACSPRAY_CNT_FOAM   7 /* live foam after the step */
#define LQ_MACSPRAY_CNT_COUNT  8

/* Coefficients (floats, one small buffer the host fills each step). */
#define LQ_MACSPRAY_C_DT        0
#define LQ_MACSPRAY_C_IDX       1  /* 1/δx, 1/δy, 1/δz */
#define LQ_MACSPRAY_C_DX        4  /* δx, δy, δz */
#define LQ_MACSPRAY_C_L         7  /* domain size, 3 */
#define LQ_MACSPRAY_C_KEEP      10 /* κ */
#define LQ_MACSPRAY_C_ONEKEEP   11 /* 1 − κ */
#define LQ_MACSPRAY_C_A         12
#define LQ_MACSPRAY_C_B         13
#define LQ_MACSPRAY_C_C         14
#define LQ_MACSPRAY_C_G         15 /* gravity, 3 */
#define LQ_MACSPRAY_C_WIND      18 /* wind, 3 */
#define LQ_MACSPRAY_C_THRESHOLD 21
#define LQ_MACSPRAY_C_PER_CELL  22 /* mean particles per emitting cell per step */
#define LQ_MACSPRAY_C_RADIUS    23
#define LQ_MACSPRAY_C_IRADIUS   24 /* 1 / radius */
#define LQ_MACSPRAY_C_SPREAD    25
#define LQ_MACSPRAY_C_PSPLIT    26
#define LQ_MACSPRAY_C_FOAM_LIFE 27
#define LQ_MACSPRAY_C_FOAM_RISE 28
#define LQ_MACSPRAY_C_FOAM_ON   29
#define LQ_MACSPRAY_C_COUNT     30

#define LQ_MACSPRAY_BLOCK        LQ_SCAN_BLOCK /* cells or particles per block (scan_cell.h) */
#define LQ_MACSPRAY_MAX_PER_CELL 64
#define LQ_MACSPRAY_HALF_R       0.793700526f /* 2^{-1/3}: radius of half the volume */

/* Random streams. */
#define LQ_MACSPRAY_S_COUNT 1u
#define LQ_MACSPRAY_S_EMIT  2u
#define LQ_MACSPRAY_S_STEP  3u
#define LQ_MACSPRAY_S_SPLIT 4u

/* Kinds a particle may not enter. */
LQ_INLINE int lq_macspray_blocked(int kind)
{
    return kind == LQ_MAC_SOLID || kind == LQ_MAC_INFLOW || kind == LQ_MAC_OUTFLOW;
}

LQ_INLINE int lq_macspray_in_domain(lq_markers_vec3 p, const LQ_GLOBAL float *c)
{
    return p.x >= 0.0f && p.x < c[LQ_MACSPRAY_C_L] && p.y >= 0.0f && p.y < c[LQ_MACSPRAY_C_L + 1] &&
           p.z >= 0.0f && p.z < c[LQ_MACSPRAY_C_L + 2];
}

/* --- emission --------------------------------------------------------------------- */

/* Particles cell (i, j, k) emits this step. */
LQ_INLINE int lq_macspray_emit_count(const LQ_GLOBAL float *v, const LQ_GLOBAL unsigned char *flags,
                                     const LQ_GLOBAL float *c, int i, int j, int k, int nx, int ny,
                                     lq_uint seed, lq_uint step)
{
    int q = LQ_MAC_CELL(i, j, k, nx, ny);
    if (flags[q] != LQ_MAC_SURFACE || j + 1 >= ny || flags[q + nx] != LQ_MAC_EMPTY) return 0;
    float vy = 0.5f * (v[LQ_MAC_V(i, j, k, nx, ny)] + v[LQ_MAC_V(i, j + 1, k, nx, ny)]);
    if (!(vy > c[LQ_MACSPRAY_C_THRESHOLD])) return 0;
    float per = c[LQ_MACSPRAY_C_PER_CELL];
    if (!(per > 0.0f)) return 0;
    float xi = lq_hash_uniform(seed, step, LQ_MACSPRAY_S_COUNT, (lq_uint)q, 0u);
    float nf = per + xi;
    int n = nf < (float)LQ_MACSPRAY_MAX_PER_CELL ? (int)nf : LQ_MACSPRAY_MAX_PER_CELL;
    return n;
}

/* Particle m of cell q = (i, j, k). */
LQ_INLINE void lq_macspray_emit_particle(LQ_GLOBAL float *p, const LQ_GLOBAL float *u,
                                         const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                         const LQ_GLOBAL float *c, int q, int m, int nx, int ny,
                                         int nz, lq_uint seed, lq_uint step)
{
    int i = q % nx, j = (q / nx) % ny, k = q / (nx * ny);
    float r[7];
    for (int a = 0; a < 7; a++)
        r[a] = lq_hash_uniform(seed, step, LQ_MACSPRAY_S_EMIT, (lq_uint)q, (lq_uint)(8 * m + a));
    lq_markers_vec3 x;
    x.x = ((float)i + r[0]) * c[LQ_MACSPRAY_C_DX];
    x.y = ((float)j + 0.5f * r[1]) * c[LQ_MACSPRAY_C_DX + 1];
    x.z = nz > 1 ? ((float)k + r[2]) * c[LQ_MACSPRAY_C_DX + 2] : 0.5f * c[LQ_MACSPRAY_C_DX + 2];
    lq_markers_vec3 vl = lq_markers_velocity(u, v, w, x, nx, ny, nz, c[LQ_MACSPRAY_C_IDX],
                                             c[LQ_MACSPRAY_C_IDX + 1], c[LQ_MACSPRAY_C_IDX + 2]);
    float s = c[LQ_MACSPRAY_C_SPREAD];
    p[LQ_MACSPRAY_X] = x.x;
    p[LQ_MACSPRAY_X + 1] = x.y;
    p[LQ_MACSPRAY_X + 2] = x.z;
    p[LQ_MACSPRAY_V] = vl.x + s * (2.0f * r[3] - 1.0f);
    p[LQ_MACSPRAY_V + 1] = vl.y + s * (2.0f * r[4] - 1.0f);
    p[LQ_MACSPRAY_V + 2] = nz > 1 ? vl.z + s * (2.0f * r[5] - 1.0f) : 0.0f;
    p[LQ_MACSPRAY_R] = c[LQ_MACSPRAY_C_RADIUS] * (0.75f + 0.5f * r[6]);
    p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_SPRAY;
    p[LQ_MACSPRAY_AGE] = 0.0f;
    p[LQ_MACSPRAY_LIFE] = 0.0f;
    p[LQ_MACSPRAY_SPLIT] = 0.0f;
    p[LQ_MACSPRAY_SPLIT + 1] = 0.0f;
}

/* --- flight, landing, foam ----------------------------------------------------------- */

/* The exact step of dv/dt = g + k (w − v) (see the header comment). */
LQ_INLINE void lq_macspray_fly(lq_markers_vec3 *x, lq_markers_vec3 *vel, const LQ_GLOBAL float *c)
{
    float keep = c[LQ_MACSPRAY_C_KEEP], one = c[LQ_MACSPRAY_C_ONEKEEP];
    float A = c[LQ_MACSPRAY_C_A], B = c[LQ_MACSPRAY_C_B], C = c[LQ_MACSPRAY_C_C];
    const LQ_GLOBAL float *g = c + LQ_MACSPRAY_C_G, *wd = c + LQ_MACSPRAY_C_WIND;
    x->x = x->x + A * vel->x + B * wd[0] + C * g[0];
    x->y = x->y + A * vel->y + B * wd[1] + C * g[1];
    x->z = x->z + A * vel->z + B * wd[2] + C * g[2];
    vel->x = keep * vel->x + one * wd[0] + A * g[0];
    vel->y = keep * vel->y + one * wd[1] + A * g[1];
    vel->z = keep * vel->z + one * wd[2] + A * g[2];
}

/* One step of particle p (its index `n` keys its random numbers). */
LQ_INLINE void lq_macspray_advance_one(LQ_GLOBAL float *p, LQ_GLOBAL LQ_VOLATILE int *cnt,
                                       const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                       const LQ_GLOBAL float *w,
                                       const LQ_GLOBAL unsigned char *flags,
                                       const LQ_GLOBAL float *c, int n, int nx, int ny, int nz,
                                       lq_uint seed, lq_uint step)
{
    float kind = p[LQ_MACSPRAY_KIND];
    if (kind == LQ_MACSPRAY_DEAD) return;
    float idx = c[LQ_MACSPRAY_C_IDX], idy = c[LQ_MACSPRAY_C_IDX + 1],
          idz = c[LQ_MACSPRAY_C_IDX + 2];
    float dt = c[LQ_MACSPRAY_C_DT];
    lq_markers_vec3 x0, x, vel;
    x0.x = p[LQ_MACSPRAY_X];
    x0.y = p[LQ_MACSPRAY_X + 1];
    x0.z = p[LQ_MACSPRAY_X + 2];
    vel.x = p[LQ_MACSPRAY_V];
    vel.y = p[LQ_MACSPRAY_V + 1];
    vel.z = p[LQ_MACSPRAY_V + 2];
    x = x0;
    float age = p[LQ_MACSPRAY_AGE] + dt;
    p[LQ_MACSPRAY_AGE] = age;
    if (kind == LQ_MACSPRAY_SPRAY) {
        lq_macspray_fly(&x, &vel, c);
        p[LQ_MACSPRAY_X] = x.x;
        p[LQ_MACSPRAY_X + 1] = x.y;
        p[LQ_MACSPRAY_X + 2] = x.z;
        p[LQ_MACSPRAY_V] = vel.x;
        p[LQ_MACSPRAY_V + 1] = vel.y;
        p[LQ_MACSPRAY_V + 2] = vel.z;
        if (!lq_macspray_in_domain(x, c)) {
            p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_DEAD;
            LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_REMOVED], 1);
            return;
        }
        int f = flags[lq_markers_cell_of(x, nx, ny, nz, idx, idy, idz)];
        if (lq_macspray_blocked(f)) {
            p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_DEAD;
            LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_REMOVED], 1);
        } else if ((f == LQ_MAC_FULL || f == LQ_MAC_SURFACE) && vel.y < 0.0f) {
            if (c[LQ_MACSPRAY_C_FOAM_ON] != 0.0f) { /* §4.3: foam where spray hits */
                float xi = lq_hash_uniform(seed, step, LQ_MACSPRAY_S_STEP, (lq_uint)n, 0u);
                p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_FOAM;
                p[LQ_MACSPRAY_AGE] = 0.0f;
                p[LQ_MACSPRAY_LIFE] = c[LQ_MACSPRAY_C_FOAM_LIFE] *
                                      (p[LQ_MACSPRAY_R] * c[LQ_MACSPRAY_C_IRADIUS]) * (0.5f + xi);
                LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_FOAMED], 1);
            } else {
                p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_DEAD;
                LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_REMOVED], 1);
            }
        } else if (f == LQ_MAC_EMPTY && lq_hash_uniform(seed, step, LQ_MACSPRAY_S_STEP, (lq_uint)n,
                                                        1u) < c[LQ_MACSPRAY_C_PSPLIT]) {
            p[LQ_MACSPRAY_SPLIT] = 1.0f;
            LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_SPLIT], 1);
        }
        return;
    }
    /* foam */
    if (age > p[LQ_MACSPRAY_LIFE]) {
        p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_DEAD;
        LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_REMOVED], 1);
        return;
    }
    int f0 = flags[lq_markers_cell_of(x0, nx, ny, nz, idx, idy, idz)];
    if (f0 == LQ_MAC_EMPTY) {
        lq_macspray_fly(&x, &vel, c);
    } else {
        lq_markers_vec3 vl = lq_markers_velocity(u, v, w, x0, nx, ny, nz, idx, idy, idz);
        vel.x = vl.x;
        vel.y = f0 == LQ_MAC_FULL ? vl.y + c[LQ_MACSPRAY_C_FOAM_RISE] : vl.y;
        vel.z = nz > 1 ? vl.z : 0.0f;
        x.x = x0.x + dt * vel.x;
        x.y = x0.y + dt * vel.y;
        x.z = x0.z + dt * vel.z;
    }
    if (!lq_macspray_in_domain(x, c)) {
        p[LQ_MACSPRAY_KIND] = LQ_MACSPRAY_DEAD;
        LQ_ATOMIC_ADD(&cnt[LQ_MACSPRAY_CNT_REMOVED], 1);
        return;
    }
    if (lq_macspray_blocked(flags[lq_markers_cell_of(x, nx, ny, nz, idx, idy, idz)])) {
        x = x0;
        vel.x = 0.0f;
        vel.y = 0.0f;
        vel.z = 0.0f;
    }
    p[LQ_MACSPRAY_X] = x.x;
    p[LQ_MACSPRAY_X + 1] = x.y;
    p[LQ_MACSPRAY_X + 2] = x.z;
    p[LQ_MACSPRAY_V] = vel.x;
    p[LQ_MACSPRAY_V + 1] = vel.y;
    p[LQ_MACSPRAY_V + 2] = vel.z;
}

/* --- compaction ---------------------------------------------------------------------- */

/* Slots particle p takes after compaction: 0 dead, 2 separating, 1 otherwise. */
LQ_INLINE int lq_macspray_outputs(const LQ_GLOBAL float *p)
{
    if (p[LQ_MACSPRAY_KIND] == LQ_MACSPRAY_DEAD) return 0;
    return p[LQ_MACSPRAY_SPLIT] != 0.0f ? 2 : 1;
}

/* Writes source particle n (at a) to o; a separating one as two halves, the second at
 * o + LQ_MACSPRAY_STRIDE when `two` (there is room for it). */
LQ_INLINE void lq_macspray_copy_out(LQ_GLOBAL float *o, const LQ_GLOBAL float *a, int n, int two,
                                    const LQ_GLOBAL float *c, int nz, lq_uint seed, lq_uint step)
{
    for (int j = 0; j < LQ_MACSPRAY_STRIDE; j++) o[j] = a[j];
    if (a[LQ_MACSPRAY_SPLIT] == 0.0f) return;
    float s = c[LQ_MACSPRAY_C_SPREAD], kick[3];
    for (int ax = 0; ax < 3; ax++)
        kick[ax] =
            s * (2.0f * lq_hash_uniform(seed, step, LQ_MACSPRAY_S_SPLIT, (lq_uint)n, (lq_uint)ax) -
                 1.0f);
    if (nz == 1) kick[2] = 0.0f;
    float r = a[LQ_MACSPRAY_R] * LQ_MACSPRAY_HALF_R;
    o[LQ_MACSPRAY_R] = r;
    o[LQ_MACSPRAY_SPLIT] = 0.0f;
    for (int ax = 0; ax < 3; ax++) o[LQ_MACSPRAY_V + ax] = a[LQ_MACSPRAY_V + ax] + kick[ax];
    if (!two) {
        return; /* braces: LQ_GLOBAL is empty in C, and clang took the next line for the if's */
    }
    LQ_GLOBAL float *o2 = o + LQ_MACSPRAY_STRIDE;
    for (int j = 0; j < LQ_MACSPRAY_STRIDE; j++) o2[j] = o[j];
    for (int ax = 0; ax < 3; ax++) o2[LQ_MACSPRAY_V + ax] = a[LQ_MACSPRAY_V + ax] - kick[ax];
}

#endif
