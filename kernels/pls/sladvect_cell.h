/*
 * sladvect_cell.h — per-face and per-cell math of semi-Lagrangian advection ("stable
 * fluids", Stam 1999, as used by Rasmussen et al. 2004 §3 for the convective terms and
 * the level set, eq. 3), shared by the OpenCL kernels (kernels/pls/sladvect.cl) and their
 * reference twins (host/ops/pls/sladvect_ref.c). Grid: the staggered MAC indexing of mac_grid.h
 * with one uniform cell size h and no wall layer (the domain edge is the wall).
 *
 * Backtrace (second-order Runge–Kutta, midpoint, backwards in time): from the sample
 * position x, x½ = x − (δt/2) u(x), x' = x − δt u(x½), each stage clamped to the domain
 * [0, nx h] × [0, ny h] × [0, nz h]; u is the full staggered velocity sampled trilinearly
 * on each component's own face lattice (markers_cell.h, lq_markers_velocity; at the start
 * point, a face or a cell centre, read off the lattices: lq_sladvect_face_velocity). In 2D (nz = 1)
 * the z component is dropped (w is ignored). The new value is the old field sampled
 * trilinearly at x'. Unconditionally stable: the result is an interpolation of old
 * values (no new extrema).
 *
 * Velocity: each face component is backtraced from its own face position (u from
 * (i h, (j+½) h, (k+½) h), ...) and sampled from its own lattice. Faces on the domain
 * edge (u at i = 0 or nx, v at j = 0 or ny, w at k = 0 or nz) are set to 0 (walls).
 * Tangential components at walls: free-slip holds the outermost value out to the wall
 * (the clamped sample); a no-slip wall (per wall, the `noslip` bits as in
 * viscosity_cell.h) mirrors it negatively beyond, so the sample falls linearly to 0 at
 * the wall within its last half cell (lq_sladvect_noslip). The backtrace itself samples
 * the clamped velocity either way (it is shared with the scalar).
 * Scalar: backtraced from the cell centre ((i+½) h, ...) and sampled on the cell-centre
 * lattice, which clamps at the outermost centres (the value is held constant out to the
 * domain edge).
 *
 * Error-compensated schemes (MacCormack, BFECC), limited: for the scalar and for each face
 * component of the velocity, at the end of this file.
 *
 * A linear velocity field is sampled exactly (up to rounding), so for a linear field
 * advected by a linear velocity the result is the field at the RK2 departure point
 * (I − δt A + δt²/2 A²) x + ... to float rounding; a translation by a whole number of
 * cells with power-of-two δt and h is exact.
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, no division (the host passes 1/h and the domain size).
 */
#ifndef LQ_SLADVECT_CELL_H
#define LQ_SLADVECT_CELL_H

#include "common/lq_shared.h"
#include "common/mac_grid.h"
#include "mac/markers_cell.h"

/* The RK2 departure point of p over dt (m), in the domain [0, lx] × [0, ly] × [0, lz], from
 * the first stage's velocity v0 = u(p). */
LQ_INLINE lq_markers_vec3 lq_sladvect_backtrace_v0(const LQ_GLOBAL float *u,
                                                   const LQ_GLOBAL float *v,
                                                   const LQ_GLOBAL float *w, lq_markers_vec3 p,
                                                   lq_markers_vec3 v0, int nx, int ny, int nz,
                                                   float ih, float lx, float ly, float lz, float dt)
{
    if (nz == 1) v0.z = 0.0f;
    lq_markers_vec3 pm = lq_markers_step(p, v0, -0.5f * dt, lx, ly, lz);
    lq_markers_vec3 vm = lq_markers_velocity(u, v, w, pm, nx, ny, nz, ih, ih, ih);
    if (nz == 1) vm.z = 0.0f;
    return lq_markers_step(p, vm, -dt, lx, ly, lz);
}

/* ... with v0 sampled at p. */
LQ_INLINE lq_markers_vec3 lq_sladvect_backtrace(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                                const LQ_GLOBAL float *w, lq_markers_vec3 p, int nx,
                                                int ny, int nz, float ih, float lx, float ly,
                                                float lz, float dt)
{
    lq_markers_vec3 v0 = lq_markers_velocity(u, v, w, p, nx, ny, nz, ih, ih, ih);
    return lq_sladvect_backtrace_v0(u, v, w, p, v0, nx, ny, nz, ih, lx, ly, lz, dt);
}

/* The first stage's velocity where the backtraces start, read off the lattices (the
 * trilinear sample there, its weights ½ or 1 and 0 exactly: the sample at the computed
 * position p had weights off by the rounding of p/h, ~1e-7): at an interior face of
 * component comp (the face's own value, and the other two the mean of the 4 faces
 * around it) and at a cell centre (each component the mean of the cell's 2 faces). In
 * 2D (nz = 1) the z component is not read (the backtrace drops it). */
LQ_INLINE float lq_sladvect_mean4(const LQ_GLOBAL float *a, int b, int s0, int s1)
{
    return lq_markers_lerp(lq_markers_lerp(a[b], a[b + s0], 0.5f),
                           lq_markers_lerp(a[b + s1], a[b + s1 + s0], 0.5f), 0.5f);
}

LQ_INLINE lq_markers_vec3 lq_sladvect_face_velocity(const LQ_GLOBAL float *u,
                                                    const LQ_GLOBAL float *v,
                                                    const LQ_GLOBAL float *w, int comp, int i,
                                                    int j, int k, int nx, int ny, int nz)
{
    int ux = nx + 1, vx = nx, vy = ny + 1, wx = nx;
    lq_markers_vec3 r;
    r.z = 0.0f;
    if (comp == 0) { /* (i, j+½, k+½): v at (i−½, j+½, k), w at (i−½, j, k+½) */
        r.x = u[i + ux * (j + ny * k)];
        r.y = lq_sladvect_mean4(v, (i - 1) + vx * (j + vy * k), 1, vx);
        if (nz > 1) r.z = lq_sladvect_mean4(w, (i - 1) + wx * (j + ny * k), 1, wx * ny);
    } else if (comp == 1) { /* (i+½, j, k+½): u at (i+½, j−½, k), w at (i, j−½, k+½) */
        r.x = lq_sladvect_mean4(u, i + ux * ((j - 1) + ny * k), 1, ux);
        r.y = v[i + vx * (j + vy * k)];
        if (nz > 1) r.z = lq_sladvect_mean4(w, i + wx * ((j - 1) + ny * k), wx, wx * ny);
    } else { /* (i+½, j+½, k): u at (i+½, j, k−½), v at (i, j+½, k−½) */
        r.x = lq_sladvect_mean4(u, i + ux * (j + ny * (k - 1)), 1, ux * ny);
        r.y = lq_sladvect_mean4(v, i + vx * (j + vy * (k - 1)), vx, vx * vy);
        r.z = w[i + wx * (j + ny * k)];
    }
    return r;
}

LQ_INLINE lq_markers_vec3 lq_sladvect_centre_velocity(const LQ_GLOBAL float *u,
                                                      const LQ_GLOBAL float *v,
                                                      const LQ_GLOBAL float *w, int i, int j, int k,
                                                      int nx, int ny, int nz)
{
    lq_markers_vec3 r;
    r.x = lq_markers_lerp(u[LQ_MAC_U(i, j, k, nx, ny)], u[LQ_MAC_U(i + 1, j, k, nx, ny)], 0.5f);
    r.y = lq_markers_lerp(v[LQ_MAC_V(i, j, k, nx, ny)], v[LQ_MAC_V(i, j + 1, k, nx, ny)], 0.5f);
    r.z = nz > 1 ? lq_markers_lerp(w[LQ_MAC_W(i, j, k, nx, ny)], w[LQ_MAC_W(i, j, k + 1, nx, ny)],
                                   0.5f)
                 : 0.0f;
    return r;
}

/* Sample position of node a (0, 1, 2, ...) along an axis: a h or (a + ½) h. */
LQ_INLINE float lq_sladvect_at(int a, int face, float h)
{
    return face ? (float)a * h : ((float)a + 0.5f) * h;
}

/* Sample r of component comp at the departure point q, with the no-slip walls (bit
 * 2 d + side of noslip, d ≠ comp) applied: within h/2 of such a wall the clamped sample
 * holds the outermost value v0, where the ghost −v0 beyond the wall gives v0 · 2δ/h (δ
 * the distance to the wall: the trilinear sample with that ghost layer, exactly). */
LQ_INLINE float lq_sladvect_noslip(float r, lq_markers_vec3 q, int comp, int nz, float ih, float lx,
                                   float ly, float lz, int noslip)
{
    float pos[3] = {q.x, q.y, q.z}, len[3] = {lx, ly, lz};
    for (int d = 0; d < (nz > 1 ? 3 : 2); d++) {
        if (d == comp) continue;
        float lo = pos[d], hi = len[d] - pos[d];
        if ((noslip >> (2 * d) & 1) && lo * (2.0f * ih) < 1.0f) r = r * (lo * (2.0f * ih));
        if ((noslip >> (2 * d + 1) & 1) && hi * (2.0f * ih) < 1.0f) r = r * (hi * (2.0f * ih));
    }
    return r;
}

/* Face (i, j, k) of component comp lies on the domain edge (a wall: the advected value is 0). */
LQ_INLINE int lq_sladvect_face_edge(int comp, int i, int j, int k, int nx, int ny, int nz)
{
    return comp == 0 ? (i == 0 || i == nx) : comp == 1 ? (j == 0 || j == ny) : (k == 0 || k == nz);
}

/* The RK2 departure point of face (i, j, k) of component comp over dt (−δt: the forward
 * image, the reverse pass's). */
LQ_INLINE lq_markers_vec3 lq_sladvect_face_departure(
    const LQ_GLOBAL float *u, const LQ_GLOBAL float *v, const LQ_GLOBAL float *w, int comp, int i,
    int j, int k, int nx, int ny, int nz, float h, float ih, float lx, float ly, float lz, float dt)
{
    lq_markers_vec3 p;
    p.x = lq_sladvect_at(i, comp == 0, h);
    p.y = lq_sladvect_at(j, comp == 1, h);
    p.z = lq_sladvect_at(k, comp == 2, h);
    lq_markers_vec3 v0 = lq_sladvect_face_velocity(u, v, w, comp, i, j, k, nx, ny, nz);
    return lq_sladvect_backtrace_v0(u, v, w, p, v0, nx, ny, nz, ih, lx, ly, lz, dt);
}

/* Face (i, j, k) of comp's lattice: its index in the component's array, or −1 for a face on
 * the domain's edge, whose result (in out) is 0. */
LQ_INLINE int lq_sladvect_face_open(LQ_GLOBAL float *out, int comp, int i, int j, int k, int nx,
                                    int ny, int nz)
{
    int mx = nx + (comp == 0), my = ny + (comp == 1);
    int idx = i + mx * (j + my * k);
    if (!lq_sladvect_face_edge(comp, i, j, k, nx, ny, nz)) return idx;
    out[idx] = 0.0f;
    return -1;
}

/* The plain pass of one face field: f, on component comp's lattice (that component of the
 * velocity, or its forward result in the reverse pass of the error-compensated schemes),
 * carried along (u, v, w) over dt into out at face (i, j, k); edge faces 0, no-slip walls
 * by lq_sladvect_noslip (noslip 0: all free-slip, the clamped sample). */
LQ_INLINE void lq_sladvect_face_pass(LQ_GLOBAL float *out, const LQ_GLOBAL float *f,
                                     const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                     const LQ_GLOBAL float *w, int comp, int i, int j, int k,
                                     int nx, int ny, int nz, float h, float ih, float lx, float ly,
                                     float lz, float dt, int noslip)
{
    int idx = lq_sladvect_face_open(out, comp, i, j, k, nx, ny, nz);
    if (idx < 0) return;
    lq_markers_vec3 q =
        lq_sladvect_face_departure(u, v, w, comp, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt);
    float r;
    if (comp == 0)
        r = lq_markers_sample_u(f, q.x, q.y, q.z, nx, ny, nz, ih, ih, ih);
    else if (comp == 1)
        r = lq_markers_sample_v(f, q.x, q.y, q.z, nx, ny, nz, ih, ih, ih);
    else
        r = lq_markers_sample_w(f, q.x, q.y, q.z, nx, ny, nz, ih, ih, ih);
    if (noslip) r = lq_sladvect_noslip(r, q, comp, nz, ih, lx, ly, lz, noslip);
    out[idx] = r;
}

/* Face component `comp` (0 u, 1 v, 2 w) at face (i, j, k) of its lattice, from the old
 * velocity (u, v, w) into out: the plain pass of the component along the velocity. */
LQ_INLINE void lq_sladvect_velocity_face(LQ_GLOBAL float *out, const LQ_GLOBAL float *u,
                                         const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                         int comp, int i, int j, int k, int nx, int ny, int nz,
                                         float h, float ih, float lx, float ly, float lz, float dt,
                                         int noslip)
{
    const LQ_GLOBAL float *f = comp == 0 ? u : comp == 1 ? v : w;
    lq_sladvect_face_pass(out, f, u, v, w, comp, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt,
                          noslip);
}

/* Cell-centred scalar q at a point (m): trilinear on the centre lattice, clamped. */
LQ_INLINE float lq_sladvect_sample_cell(const LQ_GLOBAL float *q, float x, float y, float z, int nx,
                                        int ny, int nz, float ih)
{
    return lq_markers_lattice(q, nx, ny, nz, x * ih - 0.5f, y * ih - 0.5f, z * ih - 0.5f);
}

/* Cell (i, j, k) of the scalar q into qn. */
LQ_INLINE void lq_sladvect_scalar_cell(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                       const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                       const LQ_GLOBAL float *w, int i, int j, int k, int nx,
                                       int ny, int nz, float h, float ih, float lx, float ly,
                                       float lz, float dt)
{
    lq_markers_vec3 p;
    p.x = lq_sladvect_at(i, 0, h);
    p.y = lq_sladvect_at(j, 0, h);
    p.z = lq_sladvect_at(k, 0, h);
    lq_markers_vec3 v0 = lq_sladvect_centre_velocity(u, v, w, i, j, k, nx, ny, nz);
    lq_markers_vec3 d = lq_sladvect_backtrace_v0(u, v, w, p, v0, nx, ny, nz, ih, lx, ly, lz, dt);
    qn[LQ_MAC_CELL(i, j, k, nx, ny)] = lq_sladvect_sample_cell(q, d.x, d.y, d.z, nx, ny, nz, ih);
}

/* Min and max of the lattice values (8, or 4 in 2D) that the trilinear sample of lq_markers_lattice
 * at node coordinates (g0, g1, g2) blends, with the same clamping and node choice. */
LQ_INLINE void lq_sladvect_lattice_range(const LQ_GLOBAL float *a, int m0, int m1, int m2, float g0,
                                         float g1, float g2, float *lo, float *hi)
{
    float f0, f1, f2;
    int i = lq_markers_node(lq_markers_clampf(g0, 0.0f, (float)(m0 - 1)), m0, &f0);
    int j = lq_markers_node(lq_markers_clampf(g1, 0.0f, (float)(m1 - 1)), m1, &f1);
    int k = lq_markers_node(lq_markers_clampf(g2, 0.0f, (float)(m2 - 1)), m2, &f2);
    int s0 = m0 > 1 ? 1 : 0, s1 = m1 > 1 ? m0 : 0, s2 = m2 > 1 ? m0 * m1 : 0;
    int b = i + m0 * (j + m1 * k);
    float l = a[b], m = a[b];
    for (int c = 1; c < 8; c++) {
        float x = a[b + ((c & 1) ? s0 : 0) + ((c & 2) ? s1 : 0) + ((c & 4) ? s2 : 0)];
        l = x < l ? x : l;
        m = x > m ? x : m;
    }
    *lo = l;
    *hi = m;
}

/* BFECC's final samples in one: the trilinear samples of q and qt (lq_markers_lattice's, the
 * same arithmetic) and the range of q's blended values (lq_sladvect_lattice_range's), from
 * one node computation and each lattice's 8 values loaded once. */
LQ_INLINE void lq_sladvect_bfecc_samples(const LQ_GLOBAL float *q, const LQ_GLOBAL float *qt,
                                         int m0, int m1, int m2, float g0, float g1, float g2,
                                         float *a, float *b, float *lo, float *hi)
{
    float f0, f1, f2, x[8], y[8];
    int i = lq_markers_node(lq_markers_clampf(g0, 0.0f, (float)(m0 - 1)), m0, &f0);
    int j = lq_markers_node(lq_markers_clampf(g1, 0.0f, (float)(m1 - 1)), m1, &f1);
    int k = lq_markers_node(lq_markers_clampf(g2, 0.0f, (float)(m2 - 1)), m2, &f2);
    int s0 = m0 > 1 ? 1 : 0, s1 = m1 > 1 ? m0 : 0, s2 = m2 > 1 ? m0 * m1 : 0;
    int base = i + m0 * (j + m1 * k);
    for (int c = 0; c < 8; c++) {
        int o = base + ((c & 1) ? s0 : 0) + ((c & 2) ? s1 : 0) + ((c & 4) ? s2 : 0);
        x[c] = q[o];
        y[c] = qt[o];
    }
    float l = x[0], m = x[0];
    for (int c = 1; c < 8; c++) {
        l = x[c] < l ? x[c] : l;
        m = x[c] > m ? x[c] : m;
    }
    *lo = l;
    *hi = m;
    *a = lq_markers_lerp(
        lq_markers_lerp(lq_markers_lerp(x[0], x[1], f0), lq_markers_lerp(x[2], x[3], f0), f1),
        lq_markers_lerp(lq_markers_lerp(x[4], x[5], f0), lq_markers_lerp(x[6], x[7], f0), f1), f2);
    *b = lq_markers_lerp(
        lq_markers_lerp(lq_markers_lerp(y[0], y[1], f0), lq_markers_lerp(y[2], y[3], f0), f1),
        lq_markers_lerp(lq_markers_lerp(y[4], y[5], f0), lq_markers_lerp(y[6], y[7], f0), f1), f2);
}

/* The RK2 departure point of the centre of cell (i, j, k) over dt. */
LQ_INLINE lq_markers_vec3 lq_sladvect_departure(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                                const LQ_GLOBAL float *w, int i, int j, int k,
                                                int nx, int ny, int nz, float h, float ih, float lx,
                                                float ly, float lz, float dt)
{
    lq_markers_vec3 p;
    p.x = lq_sladvect_at(i, 0, h);
    p.y = lq_sladvect_at(j, 0, h);
    p.z = lq_sladvect_at(k, 0, h);
    lq_markers_vec3 v0 = lq_sladvect_centre_velocity(u, v, w, i, j, k, nx, ny, nz);
    return lq_sladvect_backtrace_v0(u, v, w, p, v0, nx, ny, nz, ih, lx, ly, lz, dt);
}

/* r clamped to [lo, hi] (the limiter of Selle et al. 2008, §4: no new extrema). */
LQ_INLINE float lq_sladvect_limit(float r, float lo, float hi)
{
    return r < lo ? lo : r > hi ? hi : r;
}

/*
 * Error-compensated advection of a cell-centred scalar, both built from the plain pass
 * above A(q; δt) (RK2 backtrace + trilinear) and its reverse A(q; −δt) (forward trace):
 *   q^ = A(q; δt),  q~ = A(q^; −δt)  (q~ − q estimates twice the one-pass error e).
 * MacCormack (Selle, Fedkiw, Kim, Liu & Osher 2008, eq. 5–7):
 *   qn = q^ + ½ (q − q~),
 * BFECC (Dupont & Liu 2003; Kim, Liu, Llamas & Rossignac 2005):
 *   qn = A(q + ½ (q − q~); δt) = 1.5 A(q; δt) − 0.5 A(q~; δt) (trilinear sampling is linear
 *   in the field, so the corrected field is sampled as the two samples' blend).
 * Both are second order in space and time for smooth q (the plain pass: first order in h²/δt
 * from trilinear interpolation), both limited: the result is clamped to the range of the
 * old q at the cell's departure point (the values the plain pass blends), so neither makes
 * new extrema nor oscillates at kinks. 3 backtraces and 3 passes over the grid per step.
 */

/* MacCormack: qn holds q^ on entry (read and written at the own cell only), qt = q~. */
LQ_INLINE void lq_sladvect_maccormack_cell(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                           const LQ_GLOBAL float *qt, const LQ_GLOBAL float *u,
                                           const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                           int i, int j, int k, int nx, int ny, int nz, float h,
                                           float ih, float lx, float ly, float lz, float dt)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_markers_vec3 d = lq_sladvect_departure(u, v, w, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt);
    float lo, hi;
    lq_sladvect_lattice_range(q, nx, ny, nz, d.x * ih - 0.5f, d.y * ih - 0.5f, d.z * ih - 0.5f, &lo,
                              &hi);
    float r = qn[c] + 0.5f * (q[c] - qt[c]);
    qn[c] = lq_sladvect_limit(r, lo, hi);
}

/* BFECC: qn = the limited A(q + ½ (q − q~)) from q and qt = q~. */
LQ_INLINE void lq_sladvect_bfecc_cell(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                      const LQ_GLOBAL float *qt, const LQ_GLOBAL float *u,
                                      const LQ_GLOBAL float *v, const LQ_GLOBAL float *w, int i,
                                      int j, int k, int nx, int ny, int nz, float h, float ih,
                                      float lx, float ly, float lz, float dt)
{
    lq_markers_vec3 d = lq_sladvect_departure(u, v, w, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt);
    float g0 = d.x * ih - 0.5f, g1 = d.y * ih - 0.5f, g2 = d.z * ih - 0.5f;
    float a, b, lo, hi;
    lq_sladvect_bfecc_samples(q, qt, nx, ny, nz, g0, g1, g2, &a, &b, &lo, &hi);
    float r = a + 0.5f * (a - b);
    qn[LQ_MAC_CELL(i, j, k, nx, ny)] = lq_sladvect_limit(r, lo, hi);
}

/* --- the departure kept (kernels only; the twins recompute it, with the same floats) ---
 * The first pass of MacCormack and BFECC and their final pass trace the same departure
 * point (the cell centre over +dt): the first pass stores it, 3 planes of nx·ny·nz floats
 * in dep, and the final pass reads it back instead of tracing again. */

/* lq_sladvect_scalar_cell, keeping the departure in dep. */
LQ_INLINE void lq_sladvect_scalar_cell_keep(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                            const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                            const LQ_GLOBAL float *w, LQ_GLOBAL float *dep, int i,
                                            int j, int k, int nx, int ny, int nz, float h, float ih,
                                            float lx, float ly, float lz, float dt)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny), n = nx * ny * nz;
    lq_markers_vec3 d = lq_sladvect_departure(u, v, w, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt);
    dep[c] = d.x;
    dep[n + c] = d.y;
    dep[2 * n + c] = d.z;
    qn[c] = lq_sladvect_sample_cell(q, d.x, d.y, d.z, nx, ny, nz, ih);
}

LQ_INLINE lq_markers_vec3 lq_sladvect_dep_at(const LQ_GLOBAL float *dep, int c, int n)
{
    lq_markers_vec3 d;
    d.x = dep[c];
    d.y = dep[n + c];
    d.z = dep[2 * n + c];
    return d;
}

/* lq_sladvect_maccormack_cell with the kept departure. */
LQ_INLINE void lq_sladvect_maccormack_cell_dep(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                               const LQ_GLOBAL float *qt,
                                               const LQ_GLOBAL float *dep, int i, int j, int k,
                                               int nx, int ny, int nz, float ih)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_markers_vec3 d = lq_sladvect_dep_at(dep, c, nx * ny * nz);
    float lo, hi;
    lq_sladvect_lattice_range(q, nx, ny, nz, d.x * ih - 0.5f, d.y * ih - 0.5f, d.z * ih - 0.5f, &lo,
                              &hi);
    float r = qn[c] + 0.5f * (q[c] - qt[c]);
    qn[c] = lq_sladvect_limit(r, lo, hi);
}

/* lq_sladvect_bfecc_cell with the kept departure. */
LQ_INLINE void lq_sladvect_bfecc_cell_dep(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                          const LQ_GLOBAL float *qt, const LQ_GLOBAL float *dep,
                                          int i, int j, int k, int nx, int ny, int nz, float ih)
{
    int c = LQ_MAC_CELL(i, j, k, nx, ny);
    lq_markers_vec3 d = lq_sladvect_dep_at(dep, c, nx * ny * nz);
    float g0 = d.x * ih - 0.5f, g1 = d.y * ih - 0.5f, g2 = d.z * ih - 0.5f;
    float a, b, lo, hi;
    lq_sladvect_bfecc_samples(q, qt, nx, ny, nz, g0, g1, g2, &a, &b, &lo, &hi);
    float r = a + 0.5f * (a - b);
    qn[c] = lq_sladvect_limit(r, lo, hi);
}

/*
 * Error-compensated advection of the face velocity: the scalar's MacCormack and BFECC
 * above (Selle et al. 2008 eq. 5–7; Dupont & Liu 2003, Kim et al. 2005) applied to each
 * face component q on its own lattice, the carrier the old velocity throughout (u, v, w
 * frozen over the step, as the plain pass has it):
 *   q^ = A(q; δt) (the plain pass, lq_sladvect_velocity_face),  q~ = A(q^; −δt)
 *   (lq_sladvect_face_pass with f = q^ and −δt: the face's forward image),
 *   MacCormack: qn = q^ + ½ (q − q~);  BFECC: qn = A(q + ½ (q − q~); δt).
 * The limiter clamps to the range the plain pass's sample can take at the face's departure
 * point: the old lattice values it blends (lq_sladvect_lattice_range), times the no-slip
 * factor there where a no-slip wall is within h/2 (the factor is ≥ 0, so the range keeps its
 * order; without it the limiter would undo the wall). Edge faces stay 0. The components
 * are independent (each reads the old velocity and its own q^ and q~), so one scratch face
 * field serves the three in turn.
 */

/* Component comp's lattice sizes and the node coordinates of a point q there (those of
 * lq_markers_sample_u / _v / _w, the same floats). */
LQ_INLINE void lq_sladvect_face_lattice(int comp, lq_markers_vec3 q, int nx, int ny, int nz,
                                        float ih, int *m0, int *m1, int *m2, float *g0, float *g1,
                                        float *g2)
{
    *m0 = nx + (comp == 0);
    *m1 = ny + (comp == 1);
    *m2 = nz + (comp == 2);
    *g0 = comp == 0 ? q.x * ih : q.x * ih - 0.5f;
    *g1 = comp == 1 ? q.y * ih : q.y * ih - 0.5f;
    *g2 = comp == 2 ? q.z * ih : q.z * ih - 0.5f;
}

/* MacCormack at face (i, j, k) of comp: qn holds q^ on entry (read and written at the own
 * face only), q the old component, qt = q~. */
LQ_INLINE void
lq_sladvect_velocity_maccormack_face(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                     const LQ_GLOBAL float *qt, const LQ_GLOBAL float *u,
                                     const LQ_GLOBAL float *v, const LQ_GLOBAL float *w, int comp,
                                     int i, int j, int k, int nx, int ny, int nz, float h, float ih,
                                     float lx, float ly, float lz, float dt, int noslip)
{
    int idx = lq_sladvect_face_open(qn, comp, i, j, k, nx, ny, nz);
    if (idx < 0) return;
    lq_markers_vec3 d =
        lq_sladvect_face_departure(u, v, w, comp, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt);
    int m0, m1, m2;
    float g0, g1, g2, lo, hi;
    lq_sladvect_face_lattice(comp, d, nx, ny, nz, ih, &m0, &m1, &m2, &g0, &g1, &g2);
    lq_sladvect_lattice_range(q, m0, m1, m2, g0, g1, g2, &lo, &hi);
    if (noslip) {
        lo = lq_sladvect_noslip(lo, d, comp, nz, ih, lx, ly, lz, noslip);
        hi = lq_sladvect_noslip(hi, d, comp, nz, ih, lx, ly, lz, noslip);
    }
    float r = qn[idx] + 0.5f * (q[idx] - qt[idx]);
    qn[idx] = lq_sladvect_limit(r, lo, hi);
}

/* BFECC at face (i, j, k) of comp: qn = the limited A(q + ½ (q − q~)) from the old
 * component q and qt = q~ (qn is only written). */
LQ_INLINE void lq_sladvect_velocity_bfecc_face(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                               const LQ_GLOBAL float *qt, const LQ_GLOBAL float *u,
                                               const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                               int comp, int i, int j, int k, int nx, int ny,
                                               int nz, float h, float ih, float lx, float ly,
                                               float lz, float dt, int noslip)
{
    int idx = lq_sladvect_face_open(qn, comp, i, j, k, nx, ny, nz);
    if (idx < 0) return;
    lq_markers_vec3 d =
        lq_sladvect_face_departure(u, v, w, comp, i, j, k, nx, ny, nz, h, ih, lx, ly, lz, dt);
    int m0, m1, m2;
    float g0, g1, g2, a, b, lo, hi;
    lq_sladvect_face_lattice(comp, d, nx, ny, nz, ih, &m0, &m1, &m2, &g0, &g1, &g2);
    lq_sladvect_bfecc_samples(q, qt, m0, m1, m2, g0, g1, g2, &a, &b, &lo, &hi);
    float r = a + 0.5f * (a - b);
    if (noslip) {
        r = lq_sladvect_noslip(r, d, comp, nz, ih, lx, ly, lz, noslip);
        lo = lq_sladvect_noslip(lo, d, comp, nz, ih, lx, ly, lz, noslip);
        hi = lq_sladvect_noslip(hi, d, comp, nz, ih, lx, ly, lz, noslip);
    }
    qn[idx] = lq_sladvect_limit(r, lo, hi);
}

#endif
