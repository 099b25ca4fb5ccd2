/*
 * plsobject_cell.h — per-cell and per-face math of the `pls` solver's moving rigid objects
 * (Rasmussen et al. 2004 §5.5: "the implicit representation, φobj, is constructed each
 * time step from the animator-controlled explicit representation"), shared by
 * kernels/pls/plsobject.cl and the reference twins (host/ops/pls/plsobject_ref.c).
 *
 * Grid: pls conventions (mac_grid.h indexing, cell size h, no wall layer); positions are
 * grid-relative metres (cell (i, j, k)'s centre at ((i + ½) h, (j + ½) h, (k + ½) h)).
 *
 * An object is a descriptor of LQ_PLSOBJECT_STRIDE floats (host/ops/pls/plsobject.c fills it for
 * the time t of the step): its shape (box half sizes; sphere radius; cylinder radius, height and
 * axis) about its own centre, the centre c(t), the inverse rotation R(t)ᵀ (rows), the centre's
 * velocity v(t) and the angular velocity ω(t). A point x has the local position l = Rᵀ (x − c) and
 * the signed distance of the shape at l (negative inside); the rigid velocity there is v + ω × (x −
 * c). In 2D (flat) the shape is cut at its centre's z: the local z is 0 (only rotations about z are
 * allowed), and a box has no z faces. A mesh is a signed-distance grid in its local frame (made
 * once at load, host/ plsobject.c), sampled trilinearly at l (cell-centred samples, clamped to the
 * grid, plus the distance from l to the grid's box when l lies outside it).
 *
 * Operations:
 *  - sdf per cell: the minimum of the static objects' sdf (when given) and every moving
 *    object's signed distance at the cell centre, clamped to ±far;
 *  - object velocity per face (the face's own component, u, v or w layout): of the
 *    moving object with the smallest signed distance at the face's midpoint when it is
 *    within `band` of it and no static object is closer; 0 elsewhere. A rigid field is
 *    linear in x, so the mean of the 4 faces of another component around a face (as
 *    kernels/pls/extrap_cell.h's lq_extrap_cross takes) is exactly its value there;
 *  - §5.5.2 separation, before φ is advected: in an object cell (sdf < 0) with φ < 0,
 *    with urel = uext − uobj at the cell centre (means of the two faces per axis) and
 *    N = ∇sdf/|∇sdf|, when urel·N > 0.1 |urel| "we reset the cell's φ value to be air
 *    (i.e. we set it to |φobj|)"; with a pressure p (the projection's, kinematic) only
 *    where the liquid cells outside objects beside the cell (sdf > 0, φ ≤ 0) are in
 *    tension, Σ p < 0: the object pulls them. Without this gate the velocity rule also
 *    fired behind a ball submerged in a closed tank, where the hydrostatic pressure
 *    holds the liquid to it: the cavities it opened collapsed at depth (volume −3 %,
 *    speed spikes to 13 m/s in 20 frames; 0.3 % and 1.5 m/s with the gate);
 *  - §5.5.2 extrapolation, after φ is advected: "to set the φ values for cells inside the
 *    object, we extrapolate inwards the φ values surrounding the object": valid starts
 *    as the cells outside objects (sdf ≥ 0); each layer, an object cell not yet valid
 *    with valid neighbours takes their mean (−x +x −y +y −z +z order, a literal
 *    reciprocal) and becomes valid; cells deeper than the layers keep their value.
 *
 * Invariants: plain float arithmetic in a fixed order (contraction off), no division
 * (literal reciprocals), sqrt correctly rounded on both sides: bit for bit.
 */
#ifndef LQ_PLSOBJECT_CELL_H
#define LQ_PLSOBJECT_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "pls/plsparticles_cell.h"

#define LQ_PLSOBJECT_STRIDE 32
#define LQ_PLSOBJECT_MAX    16
/* descriptor offsets */
#define LQ_PLSOBJECT_KIND 0  /* 0 box, 1 sphere, 3 cylinder, 4 sdf grid (a mesh) */
#define LQ_PLSOBJECT_AXIS 1  /* cylinder axis 0–2 */
#define LQ_PLSOBJECT_SIZE 2  /* box: half sizes (3); sphere: radius; cylinder: radius, height */
#define LQ_PLSOBJECT_C    5  /* centre (3, m) */
#define LQ_PLSOBJECT_RT   8  /* Rᵀ, row-major (9) */
#define LQ_PLSOBJECT_V    17 /* velocity of the centre (3, m/s) */
#define LQ_PLSOBJECT_W    20 /* angular velocity (3, rad/s) */
#define LQ_PLSOBJECT_FLAT 23 /* 1 in 2D */
#define LQ_PLSOBJECT_GOFF 24 /* sdf grid: first float in the grids buffer (exact below 2^24) */
#define LQ_PLSOBJECT_GDIM 25 /* sdf grid: cells per axis (3) */
#define LQ_PLSOBJECT_GLO  28 /* sdf grid: lower corner in the local frame (3, m) */
#define LQ_PLSOBJECT_GIH  31 /* sdf grid: 1 / its cell size (1/m) */

#ifdef __OPENCL_VERSION__
#define LQ_PLSOBJECT_FLOOR(x) floor(x)
#else
#define LQ_PLSOBJECT_FLOOR(x) floorf(x)
#endif

#ifdef __OPENCL_VERSION__
typedef uchar lq_plsobject_u8;
#else
typedef unsigned char lq_plsobject_u8;
#endif

LQ_INLINE float lq_plsobject_max(float a, float b)
{
    return a > b ? a : b;
}

LQ_INLINE float lq_plsobject_min(float a, float b)
{
    return a < b ? a : b;
}

LQ_INLINE float lq_plsobject_len3(float a, float b, float c)
{
    return LQ_SQRTF(a * a + b * b + c * c);
}

/* Trilinear sample of object d's local sdf grid at local position l. */
LQ_INLINE float lq_plsobject_grid_at(LQ_GLOBAL const float *d, LQ_GLOBAL const float *grids,
                                     const float *l)
{
    float ih = d[LQ_PLSOBJECT_GIH], f[3], out = 0.0f;
    int i0[3], dim[3];
    for (int q = 0; q < 3; q++) {
        dim[q] = (int)d[LQ_PLSOBJECT_GDIM + q];
        float lo = d[LQ_PLSOBJECT_GLO + q], hi = lo + (float)dim[q] / ih;
        float o = l[q] < lo ? lo - l[q] : l[q] > hi ? l[q] - hi : 0.0f;
        out = out + o * o;
        float g = (l[q] - lo) * ih - 0.5f;
        float gm = (float)(dim[q] - 1);
        g = g < 0.0f ? 0.0f : g > gm ? gm : g;
        float fl = LQ_PLSOBJECT_FLOOR(g);
        i0[q] = (int)fl;
        if (i0[q] > dim[q] - 2) i0[q] = dim[q] - 2;
        if (i0[q] < 0) i0[q] = 0;
        f[q] = dim[q] < 2 ? 0.0f : g - (float)i0[q];
    }
    LQ_GLOBAL const float *gr = grids + (int)d[LQ_PLSOBJECT_GOFF];
    int sx = dim[0] > 1 ? 1 : 0, sy = dim[1] > 1 ? dim[0] : 0,
        sz = dim[2] > 1 ? dim[0] * dim[1] : 0;
    int b = i0[0] + dim[0] * (i0[1] + dim[1] * i0[2]);
    float c00 = gr[b] + f[0] * (gr[b + sx] - gr[b]);
    float c10 = gr[b + sy] + f[0] * (gr[b + sy + sx] - gr[b + sy]);
    float c01 = gr[b + sz] + f[0] * (gr[b + sz + sx] - gr[b + sz]);
    float c11 = gr[b + sz + sy] + f[0] * (gr[b + sz + sy + sx] - gr[b + sz + sy]);
    float c0 = c00 + f[1] * (c10 - c00), c1 = c01 + f[1] * (c11 - c01);
    return c0 + f[2] * (c1 - c0) + LQ_SQRTF(out);
}

/* Signed distance of object d's shape at point (x, y, z) (m, grid-relative). */
LQ_INLINE float lq_plsobject_sdf_at(LQ_GLOBAL const float *d, LQ_GLOBAL const float *grids, float x,
                                    float y, float z)
{
    float flat = d[LQ_PLSOBJECT_FLAT];
    float r0 = x - d[LQ_PLSOBJECT_C], r1 = y - d[LQ_PLSOBJECT_C + 1];
    float r2 = flat != 0.0f ? 0.0f : z - d[LQ_PLSOBJECT_C + 2];
    float l[3];
    for (int q = 0; q < 3; q++)
        l[q] = d[LQ_PLSOBJECT_RT + 3 * q] * r0 + d[LQ_PLSOBJECT_RT + 3 * q + 1] * r1 +
               d[LQ_PLSOBJECT_RT + 3 * q + 2] * r2;
    int kind = (int)d[LQ_PLSOBJECT_KIND];
    if (kind == 4) return lq_plsobject_grid_at(d, grids, l);
    if (kind == 1) return lq_plsobject_len3(l[0], l[1], l[2]) - d[LQ_PLSOBJECT_SIZE];
    if (kind == 0) {
        float q0 = LQ_FABSF(l[0]) - d[LQ_PLSOBJECT_SIZE],
              q1 = LQ_FABSF(l[1]) - d[LQ_PLSOBJECT_SIZE + 1];
        float q2 = flat != 0.0f ? -1.0e30f : LQ_FABSF(l[2]) - d[LQ_PLSOBJECT_SIZE + 2];
        float out = lq_plsobject_len3(lq_plsobject_max(q0, 0.0f), lq_plsobject_max(q1, 0.0f),
                                      lq_plsobject_max(q2, 0.0f));
        return out + lq_plsobject_min(lq_plsobject_max(q0, lq_plsobject_max(q1, q2)), 0.0f);
    }
    /* capped cylinder along axis: axial and radial distances combined as a 2D box */
    int ax = (int)d[LQ_PLSOBJECT_AXIS];
    float a = LQ_FABSF(l[ax]) - 0.5f * d[LQ_PLSOBJECT_SIZE + 1];
    l[ax] = 0.0f;
    float rad = lq_plsobject_len3(l[0], l[1], l[2]) - d[LQ_PLSOBJECT_SIZE];
    float pa = lq_plsobject_max(a, 0.0f), pr = lq_plsobject_max(rad, 0.0f);
    return LQ_SQRTF(pa * pa + pr * pr) + lq_plsobject_min(lq_plsobject_max(a, rad), 0.0f);
}

/* Component c of object d's rigid velocity v + ω × (x − c) at (x, y, z). */
LQ_INLINE float lq_plsobject_vel_at(LQ_GLOBAL const float *d, int c, float x, float y, float z)
{
    float r0 = x - d[LQ_PLSOBJECT_C], r1 = y - d[LQ_PLSOBJECT_C + 1];
    float r2 = d[LQ_PLSOBJECT_FLAT] != 0.0f ? 0.0f : z - d[LQ_PLSOBJECT_C + 2];
    float w0 = d[LQ_PLSOBJECT_W], w1 = d[LQ_PLSOBJECT_W + 1], w2 = d[LQ_PLSOBJECT_W + 2];
    float cr = c == 0 ? w1 * r2 - w2 * r1 : c == 1 ? w2 * r0 - w0 * r2 : w0 * r1 - w1 * r0;
    return d[LQ_PLSOBJECT_V + c] + cr;
}

/* sdf of cell (i, j, k): static (has_static) and n moving objects, clamped to ±far. */
LQ_INLINE void lq_plsobject_sdf_cell(LQ_GLOBAL float *sdf, LQ_GLOBAL const float *sdf_static,
                                     int has_static, LQ_GLOBAL const float *desc,
                                     LQ_GLOBAL const float *grids, int n, float h, float far, int i,
                                     int j, int k, int nx, int ny)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    float x = ((float)i + 0.5f) * h, y = ((float)j + 0.5f) * h, z = ((float)k + 0.5f) * h;
    float e = has_static ? sdf_static[c] : far;
    for (int q = 0; q < n; q++)
        e = lq_plsobject_min(e,
                             lq_plsobject_sdf_at(desc + q * LQ_PLSOBJECT_STRIDE, grids, x, y, z));
    sdf[c] = lq_plsobject_max(-far, lq_plsobject_min(far, e));
}

/* Object velocity at face (c; i, j, k) (see the header comment). */
LQ_INLINE void lq_plsobject_vel_face(LQ_GLOBAL float *out, LQ_GLOBAL const float *sdf_static,
                                     int has_static, LQ_GLOBAL const float *desc,
                                     LQ_GLOBAL const float *grids, int n, float h, float band,
                                     int c, int i, int j, int k, int nx, int ny, int nz)
{
    int ax = nx + (c == 0), ay = ny + (c == 1);
    int f = i + ax * (j + ay * k);
    float x = ((float)i + (c == 0 ? 0.0f : 0.5f)) * h;
    float y = ((float)j + (c == 1 ? 0.0f : 0.5f)) * h;
    float z = ((float)k + (c == 2 ? 0.0f : 0.5f)) * h;
    float best = band;
    int who = -1;
    for (int q = 0; q < n; q++) {
        float s = lq_plsobject_sdf_at(desc + q * LQ_PLSOBJECT_STRIDE, grids, x, y, z);
        if (s < best) {
            best = s;
            who = q;
        }
    }
    if (who >= 0 && has_static) {
        int ca = c == 0 ? i : c == 1 ? j : k, na = c == 0 ? nx : c == 1 ? ny : nz;
        float sa = 0.0f, sb = 0.0f;
        if (ca > 0) sa = sdf_static[LQ_MAC_CELL(i - (c == 0), j - (c == 1), k - (c == 2), nx, ny)];
        if (ca < na) sb = sdf_static[LQ_MAC_CELL(i, j, k, nx, ny)];
        if (ca == 0) sa = sb;
        if (ca == na) sb = sa;
        if (0.5f * (sa + sb) < best) who = -1;
    }
    out[f] = who < 0 ? 0.0f : lq_plsobject_vel_at(desc + who * LQ_PLSOBJECT_STRIDE, c, x, y, z);
}

/* 1 when the liquid cells outside objects (sdf > 0, φ ≤ 0) beside cell c are in tension:
 * their kinematic pressures (host/ops/pls/poisson.h, 0 off its unknowns) sum below 0; 0 when
 * there are none. */
LQ_INLINE int lq_plsobject_tension(LQ_GLOBAL const float *phi, LQ_GLOBAL const float *sdf,
                                   LQ_GLOBAL const float *p, int i, int j, int k, int nx, int ny,
                                   int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), st[3] = {1, nx, nx * ny}, q[3] = {i, j, k};
    int n[3] = {nx, ny, nz}, cnt = 0;
    float s = 0.0f;
    for (int a = 0; a < 3; a++)
        for (int d = -1; d <= 1; d += 2) {
            if (q[a] + d < 0 || q[a] + d >= n[a]) continue;
            int e = c + d * st[a];
            if (sdf[e] > 0.0f && phi[e] <= 0.0f) {
                s = s + p[e];
                cnt++;
            }
        }
    return cnt > 0 && s < 0.0f;
}

/* §5.5.2 separation at cell (i, j, k) (in place: writes only its own φ, and only in an
 * object cell; reads φ of neighbours outside objects). With use_p also the liquid beside
 * the cell must be in tension (lq_plsobject_tension; the header comment). */
LQ_INLINE void lq_plsobject_separate_cell(LQ_GLOBAL float *phi, LQ_GLOBAL const float *u,
                                          LQ_GLOBAL const float *v, LQ_GLOBAL const float *w,
                                          LQ_GLOBAL const float *uo, LQ_GLOBAL const float *vo,
                                          LQ_GLOBAL const float *wo, LQ_GLOBAL const float *sdf,
                                          LQ_GLOBAL const float *p, int use_p, int i, int j, int k,
                                          int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (!(sdf[c] < 0.0f && phi[c] < 0.0f)) return;
    if (use_p && !lq_plsobject_tension(phi, sdf, p, i, j, k, nx, ny, nz)) return;
    int u0 = LQ_MAC_U(i, j, k, nx, ny), v0 = LQ_MAC_V(i, j, k, nx, ny);
    float r[3], g[3];
    r[0] = 0.5f * ((u[u0] + u[u0 + 1]) - (uo[u0] + uo[u0 + 1]));
    r[1] = 0.5f * ((v[v0] + v[v0 + nx]) - (vo[v0] + vo[v0 + nx]));
    r[2] = 0.0f;
    if (nz > 1) {
        int w0 = LQ_MAC_W(i, j, k, nx, ny);
        r[2] = 0.5f * ((w[w0] + w[w0 + nx * ny]) - (wo[w0] + wo[w0 + nx * ny]));
    }
    for (int q = 0; q < 3; q++) g[q] = lq_mac_grid_diff(sdf, q, i, j, k, nx, ny, nz);
    float dn = r[0] * g[0] + r[1] * g[1] + r[2] * g[2];
    /* urel·N > 0.1 |urel|, N = g/|g|, without a division */
    if (dn > 0.1f * lq_plsobject_len3(r[0], r[1], r[2]) * lq_plsobject_len3(g[0], g[1], g[2]))
        phi[c] = -sdf[c];
}

/* §5.5.1's no-inflow at the projection: an object cell with φ > 0 (air to the projection,
 * poisson_cell.h LQ_POISSON_OBJECT_AIR) into which the liquid beside it (sdf > 0, φ ≤ 0)
 * flows (uext − uobj at their shared face, along the normal out of the object, < 0) is
 * made liquid, φ = −φ, so that the projection keeps it closed and the face holds the
 * object's velocity (host/ops/pls/extrap.h lq_extrap_object_bc); in place (writes only its own
 * object cell, reads φ only outside objects). Without it a sheet landing on a dry object
 * top met p = 0 in the object cells and fell into them: a ball at rest under a falling
 * column lost 2.8 % more than the static ball at the impact. */
LQ_INLINE void lq_plsobject_close_cell(LQ_GLOBAL float *phi, LQ_GLOBAL const float *u,
                                       LQ_GLOBAL const float *v, LQ_GLOBAL const float *w,
                                       LQ_GLOBAL const float *uo, LQ_GLOBAL const float *vo,
                                       LQ_GLOBAL const float *wo, LQ_GLOBAL const float *sdf, int i,
                                       int j, int k, int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    if (!(sdf[c] <= 0.0f && phi[c] > 0.0f)) return;
    int st[3] = {1, nx, nx * ny}, q[3] = {i, j, k}, n[3] = {nx, ny, nz}, in = 0;
    for (int a = 0; a < 3; a++) {
        if (n[a] < 2) continue;
        LQ_GLOBAL const float *vel = a == 0 ? u : a == 1 ? v : w;
        LQ_GLOBAL const float *ob = a == 0 ? uo : a == 1 ? vo : wo;
        int lo = a == 0   ? LQ_MAC_U(i, j, k, nx, ny)
                 : a == 1 ? LQ_MAC_V(i, j, k, nx, ny)
                          : LQ_MAC_W(i, j, k, nx, ny);
        int hi = lo + (a == 0 ? 1 : a == 1 ? nx : nx * ny); /* the face on the high side */
        if (q[a] > 0) {
            int e = c - st[a];
            /* the normal out of the object is −e_a: inflow when (u − uo) > 0 */
            if (sdf[e] > 0.0f && phi[e] <= 0.0f && vel[lo] - ob[lo] > 0.0f) in = 1;
        }
        if (q[a] < n[a] - 1) {
            int e = c + st[a];
            if (sdf[e] > 0.0f && phi[e] <= 0.0f && vel[hi] - ob[hi] < 0.0f) in = 1;
        }
    }
    if (in) phi[c] = -phi[c];
}

/* out = sdf − d at cell c: the particles' deletion surface d outside the objects
 * (host/ops/pls/plsobject.h lq_plsobject_shift). */
LQ_INLINE void lq_plsobject_shift_cell(LQ_GLOBAL float *out, LQ_GLOBAL const float *sdf, float d,
                                       int c)
{
    out[c] = sdf[c] - d;
}

/* §5.5.3 at particle a: an air particle (s = +1) whose sdf (trilinear, ih = 1/h) is
 * below d is killed (signed radius 0: lq_plsparticles_delete drops it). Liquid particles are left
 * to lq_plsparticles_delete's inside test (sdf < 0): the air particles a sheet traps on its surface
 * beside an object, where φ is extrapolated into it, escaped and ate the sheet; the liquid
 * particles within a cell of an object are what keeps a film on it (deleting them too lost
 * 2.8 % of scenes/pls_dam_break.yaml by frame 30 as its sheet fell back over the block). */
LQ_INLINE void lq_plsobject_kill_air_one(LQ_GLOBAL float *a, LQ_GLOBAL const float *sdf, float d,
                                         float ih, int nx, int ny, int nz)
{
    if (a[LQ_PLSPARTICLES_R] > 0.0f &&
        lq_plsparticles_sample(sdf, lq_plsparticles_pos(a), nx, ny, nz, ih) < d)
        a[LQ_PLSPARTICLES_R] = 0.0f;
}

/* §5.5.3 stratified liquid particles near objects (Rasmussen et al. 2004: "before updating
 * the position of any particles, we label those that are in close proximity to the object
 * (within about one grid cell) based on their φ values. After the positions of these
 * particles are updated, we use the object normal to project these particles away from
 * the object to ensure that they are no closer than their original φ value would imply
 * ... We additionally adjust the velocity of these particles to remove any normal
 * component that would cause the particle to drift closer to the object.")
 *
 * How it maps here. φ_obj is the sdf (trilinear at the particle). The label, before the
 * particles move, is written to a scratch record of 4 floats per particle (the particle
 * buffer not in use: host/ops/pls/plsobject.h lq_plsobject_strat_label): for a liquid particle (s =
 * −1) on the liquid side (φ(x0) ≤ 0, trilinear) with 0 ≤ d0 = sdf_t(x0) < band, d0 and the object
 * point q = x0 + ½δt v_obj,t(x0) (the object velocity on the faces, host/ops/pls/plsobject.h
 * o->vel, at the step's start); every other particle gets d0 = −1 (not labelled). The φ ≤ 0 gate is
 * ours: a liquid particle held off the object after the surface of a draining film has passed it is
 * escaped (Enright), and its correction re-wets the film every step: without the gate a column
 * poured over a 2D ball (64², 24 frames) ended at +15.6 % volume (+6.2 % with the gate at φ ≤ r,
 * +1.6 % at φ ≤ 0; −1.4 % without §5.5.3), scenes/pls_pour_over_rock.yaml at frame 20 +7.9 % (+3.9
 * % at φ ≤ 0; +3.4 % without). After the move (x1: RK2 through the grid velocity) and the objects'
 * update to t + δt (sdf_t+δt, v_obj,t+δt):
 *  1. the "velocity" adjustment: our particles carry no velocity (they move through the
 *     grid's), so it acts on the step's displacement relative to the object: the object
 *     point is carried on, q' = q + ½δt v_obj,t+δt(q) (≈ where the object's material
 *     point under x0 went: trapezoidal in the two velocities; q' = x0 at a static
 *     object), N = ∇sdf_t+δt/|∇sdf_t+δt| at q', and a relative displacement
 *     Δ = x1 − q' with Δ·N < 0 (towards the object) loses that part: x1 ← x1 − (Δ·N) N;
 *  2. the projection: while sdf_t+δt(x1) < d0 (at most LQ_PLSOBJECT_STRAT_ITERS times)
 *     x1 ← x1 + (d0 − sdf_t+δt(x1)) N(x1), N from the trilinear sdf at x1
 *     (lq_plsparticles_normal); every move clamped into the domain as the advection's.
 * At a plane both give exactly sdf(x1) ≥ d0 (the first alone does, the second then does
 * nothing); at a curved or moving object the second does the rest. A labelled particle
 * ends with sdf ≥ d0 ≥ 0, so lq_plsparticles_delete's inside test never takes it. */
#define LQ_PLSOBJECT_STRAT_ITERS 6

/* ∇sdf at p: central differences of the trilinear sdf at p ± h per axis, over 2 h (z only
 * in 3D). */
LQ_INLINE lq_markers_vec3 lq_plsobject_strat_grad(LQ_GLOBAL const float *sdf, lq_markers_vec3 p,
                                                  int nx, int ny, int nz, float ih, float h)
{
    lq_markers_vec3 g = {0.0f, 0.0f, 0.0f}, a, b;
    float s = 0.5f * ih;
    for (int ax = 0; ax < (nz > 1 ? 3 : 2); ax++) {
        a = p;
        b = p;
        if (ax == 0) a.x = p.x + h, b.x = p.x - h;
        if (ax == 1) a.y = p.y + h, b.y = p.y - h;
        if (ax == 2) a.z = p.z + h, b.z = p.z - h;
        float d = (lq_plsparticles_sample(sdf, a, nx, ny, nz, ih) -
                   lq_plsparticles_sample(sdf, b, nx, ny, nz, ih)) *
                  s;
        if (ax == 0) g.x = d;
        if (ax == 1) g.y = d;
        if (ax == 2) g.z = d;
    }
    return g;
}

LQ_INLINE void lq_plsobject_strat_label_one(const LQ_GLOBAL float *a, LQ_GLOBAL float *lab,
                                            LQ_GLOBAL const float *sdf, LQ_GLOBAL const float *phi,
                                            LQ_GLOBAL const float *uo, LQ_GLOBAL const float *vo,
                                            LQ_GLOBAL const float *wo, float band, float hdt,
                                            float ih, float lx, float ly, float lz, int nx, int ny,
                                            int nz)
{
    lq_markers_vec3 p = lq_plsparticles_pos(a);
    float d0 = -1.0f;
    /* a liquid particle (air: +, dead: 0) on the liquid side, φ ≤ 0 (the header comment) */
    if (a[LQ_PLSPARTICLES_R] < 0.0f && lq_plsparticles_sample(phi, p, nx, ny, nz, ih) <= 0.0f) {
        float d = lq_plsparticles_sample(sdf, p, nx, ny, nz, ih);
        if (d >= 0.0f && d < band) {
            d0 = d;
            p = lq_markers_step(p, lq_markers_velocity(uo, vo, wo, p, nx, ny, nz, ih, ih, ih), hdt,
                                lx, ly, lz);
        }
    }
    lab[0] = p.x;
    lab[1] = p.y;
    lab[2] = p.z;
    lab[3] = d0;
}

LQ_INLINE void lq_plsobject_strat_apply_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *lab,
                                            LQ_GLOBAL const float *sdf, LQ_GLOBAL const float *uo,
                                            LQ_GLOBAL const float *vo, LQ_GLOBAL const float *wo,
                                            float hdt, float ih, float h, float lx, float ly,
                                            float lz, int nx, int ny, int nz)
{
    float d0 = lab[3];
    if (!(d0 >= 0.0f) || a[LQ_PLSPARTICLES_R] == 0.0f) return;
    lq_markers_vec3 q = {lab[0], lab[1], lab[2]};
    q = lq_markers_step(q, lq_markers_velocity(uo, vo, wo, q, nx, ny, nz, ih, ih, ih), hdt, lx, ly,
                        lz);
    lq_markers_vec3 x = lq_plsparticles_pos(a);
    lq_markers_vec3 n = lq_plsparticles_normal(sdf, q, nx, ny, nz, ih, h);
    float dn = (x.x - q.x) * n.x + (x.y - q.y) * n.y + (x.z - q.z) * n.z;
    if (dn < 0.0f) x = lq_markers_step(x, n, -dn, lx, ly, lz);
    for (int it = 0; it < LQ_PLSOBJECT_STRAT_ITERS; it++) {
        float e = d0 - lq_plsparticles_sample(sdf, x, nx, ny, nz, ih);
        if (!(e > 0.0f)) break;
        /* a Newton step along N: the slope there is |∇sdf| (central differences at ± h,
         * taken no lower than ½: the trilinear sdf is not a unit-gradient distance at a
         * curved or cornered object, and a step of e alone stalled short of d0) */
        lq_markers_vec3 g = lq_plsobject_strat_grad(sdf, x, nx, ny, nz, ih, h);
        float gl = lq_plsobject_len3(g.x, g.y, g.z);
        if (!(gl > 0.0f)) break;
        float step = e / (gl > 0.5f ? gl : 0.5f) / gl;
        x = lq_markers_step(x, g, step, lx, ly, lz);
    }
    a[LQ_PLSPARTICLES_X] = x.x;
    a[LQ_PLSPARTICLES_X + 1] = x.y;
    a[LQ_PLSPARTICLES_X + 2] = x.z;
}

LQ_INLINE void lq_plsobject_phi_init(LQ_GLOBAL lq_plsobject_u8 *valid, LQ_GLOBAL const float *sdf,
                                     int c)
{
    valid[c] = (lq_plsobject_u8)(sdf[c] >= 0.0f);
}

/* The linear extrapolant of φ into cell c from the valid neighbour c + o (and c + 2o
 * when valid too and on the same side of the surface: 2 φ₁ − φ₂, limited to φ₁ ± h, the
 * most a distance changes over a cell); φ₁ alone otherwise, and also where the
 * extrapolant would change sign but no valid neighbour of c has its sign (`pos`, `neg`:
 * a neighbour with φ > 0, φ ≤ 0): it continues a surface into the object, never starts
 * one (without this rule the air under the rock of scenes/pls_pour_over_rock.yaml,
 * extrapolated linearly, made liquid inside it, and its underside got 2-6 % wet; 0 %
 * with it). */
LQ_INLINE float lq_plsobject_phi_lin(LQ_GLOBAL const float *phi,
                                     LQ_GLOBAL const lq_plsobject_u8 *vin, int c, int o, int two,
                                     int pos, int neg, float h)
{
    float f1 = phi[c + o];
    if (!two || !vin[c + 2 * o]) return f1;
    float f2 = phi[c + 2 * o];
    if ((f1 <= 0.0f) != (f2 <= 0.0f)) return f1; /* a surface between them */
    float e = f1 + (f1 - f2);
    e = e > f1 + h ? f1 + h : e < f1 - h ? f1 - h : e;
    if ((e <= 0.0f) != (f1 <= 0.0f) && !(e <= 0.0f ? neg : pos)) return f1;
    return e;
}

/* One layer of §5.5.2's inward extrapolation at cell (i, j, k): the mean of the linear
 * extrapolants from its valid neighbours (lq_plsobject_phi_lin; −x +x −y +y −z +z order, a
 * literal reciprocal). Linear, not the neighbours' mean: a flat water level through a
 * surface-piercing ball stays flat inside it (the mean bent it: a still pool round a
 * static ball and box moved at 0.01 m/s and lost 3.7e-4 of its volume in 30 frames; 4e-5
 * m/s and 2e-6 with the linear rule). Writes φ only at cells not valid in vin, which no
 * cell of the layer reads (in place, race-free). */
LQ_INLINE void lq_plsobject_phi_layer(LQ_GLOBAL float *phi, LQ_GLOBAL const lq_plsobject_u8 *vin,
                                      LQ_GLOBAL lq_plsobject_u8 *vout, float h, int i, int j, int k,
                                      int nx, int ny, int nz)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), sy = nx, sz = nx * ny;
    if (vin[c]) {
        vout[c] = (lq_plsobject_u8)1;
        return;
    }
    int off[6] = {-1, 1, -sy, sy, -sz, sz}, ok[6], two[6], pos = 0, neg = 0, n = 0;
    ok[0] = i > 0, ok[1] = i<nx - 1, ok[2] = j> 0, ok[3] = j<ny - 1, ok[4] = k> 0;
    ok[5] = k < nz - 1;
    two[0] = i > 1, two[1] = i<nx - 2, two[2] = j> 1, two[3] = j<ny - 2, two[4] = k> 1;
    two[5] = k < nz - 2;
    for (int q = 0; q < 6; q++) {
        ok[q] = ok[q] && vin[c + off[q]];
        if (ok[q] && phi[c + off[q]] > 0.0f) pos = 1;
        if (ok[q] && phi[c + off[q]] <= 0.0f) neg = 1;
    }
    float s = 0.0f;
    for (int q = 0; q < 6; q++)
        if (ok[q]) {
            s = s + lq_plsobject_phi_lin(phi, vin, c, off[q], two[q], pos, neg, h);
            n++;
        }
    if (n > 0) phi[c] = s * lq_recip6(n);
    vout[c] = (lq_plsobject_u8)(n > 0);
}

#endif
