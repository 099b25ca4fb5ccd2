/*
 * sladvect_cell.h — per-face and per-cell math of semi-Lagrangian advection ("stable
 * fluids", Stam 1999, as used by Rasmussen et al. 2004 §3 for the convective terms and
 * the level set, eq. 3), shared by the OpenCL kernels (kernels/sladvect.cl) and their
 * reference twins (host/ref/sladvect.c). Grid: the staggered MAC indexing of mac_grid.h
 * with one uniform cell size h and no wall layer (the domain edge is the wall).
 *
 * Backtrace (second-order Runge–Kutta, midpoint, backwards in time): from the sample
 * position x, x½ = x − (δt/2) u(x), x' = x − δt u(x½), each stage clamped to the domain
 * [0, nx h] × [0, ny h] × [0, nz h]; u is the full staggered velocity sampled trilinearly
 * on each component's own face lattice (markers_cell.h, lq_mk_velocity). In 2D (nz = 1)
 * the z component is dropped (w is ignored). The new value is the old field sampled
 * trilinearly at x'. Unconditionally stable: the result is an interpolation of old
 * values (no new extrema).
 *
 * Velocity: each face component is backtraced from its own face position (u from
 * (i h, (j+½) h, (k+½) h), ...) and sampled from its own lattice. Faces on the domain
 * edge (u at i = 0 or nx, v at j = 0 or ny, w at k = 0 or nz) are set to 0 (walls).
 * Scalar: backtraced from the cell centre ((i+½) h, ...) and sampled on the cell-centre
 * lattice, which clamps at the outermost centres (the value is held constant out to the
 * domain edge).
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

#include "lq_shared.h"
#include "mac_grid.h"
#include "markers_cell.h"

/* The RK2 departure point of p over dt (m), in the domain [0, lx] × [0, ly] × [0, lz]. */
LQ_INLINE lq_mk_vec3 lq_sl_backtrace(const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                     const LQ_GLOBAL float *w, lq_mk_vec3 p, int nx, int ny, int nz,
                                     float ih, float lx, float ly, float lz, float dt)
{
    lq_mk_vec3 v0 = lq_mk_velocity(u, v, w, p, nx, ny, nz, ih, ih, ih);
    if (nz == 1) v0.z = 0.0f;
    lq_mk_vec3 pm = lq_mk_step(p, v0, -0.5f * dt, lx, ly, lz);
    lq_mk_vec3 vm = lq_mk_velocity(u, v, w, pm, nx, ny, nz, ih, ih, ih);
    if (nz == 1) vm.z = 0.0f;
    return lq_mk_step(p, vm, -dt, lx, ly, lz);
}

/* Sample position of node a (0, 1, 2, ...) along an axis: a h or (a + ½) h. */
LQ_INLINE float lq_sl_at(int a, int face, float h)
{
    return face ? (float)a * h : ((float)a + 0.5f) * h;
}

/* Face component `comp` (0 u, 1 v, 2 w) at face (i, j, k) of its lattice, from the old
 * velocity (u, v, w) into out. */
LQ_INLINE void lq_sl_velocity_face(LQ_GLOBAL float *out, const LQ_GLOBAL float *u,
                                   const LQ_GLOBAL float *v, const LQ_GLOBAL float *w, int comp,
                                   int i, int j, int k, int nx, int ny, int nz, float h, float ih,
                                   float lx, float ly, float lz, float dt)
{
    int mx = nx + (comp == 0), my = ny + (comp == 1);
    int idx = i + mx * (j + my * k);
    int edge = comp == 0   ? (i == 0 || i == nx)
               : comp == 1 ? (j == 0 || j == ny)
                           : (k == 0 || k == nz);
    if (edge) {
        out[idx] = 0.0f;
        return;
    }
    lq_mk_vec3 p;
    p.x = lq_sl_at(i, comp == 0, h);
    p.y = lq_sl_at(j, comp == 1, h);
    p.z = lq_sl_at(k, comp == 2, h);
    lq_mk_vec3 q = lq_sl_backtrace(u, v, w, p, nx, ny, nz, ih, lx, ly, lz, dt);
    float r;
    if (comp == 0)
        r = lq_mk_sample_u(u, q.x, q.y, q.z, nx, ny, nz, ih, ih, ih);
    else if (comp == 1)
        r = lq_mk_sample_v(v, q.x, q.y, q.z, nx, ny, nz, ih, ih, ih);
    else
        r = lq_mk_sample_w(w, q.x, q.y, q.z, nx, ny, nz, ih, ih, ih);
    out[idx] = r;
}

/* Cell-centred scalar q at a point (m): trilinear on the centre lattice, clamped. */
LQ_INLINE float lq_sl_sample_cell(const LQ_GLOBAL float *q, float x, float y, float z, int nx,
                                  int ny, int nz, float ih)
{
    return lq_mk_lattice(q, nx, ny, nz, x * ih - 0.5f, y * ih - 0.5f, z * ih - 0.5f);
}

/* Cell (i, j, k) of the scalar q into qn. */
LQ_INLINE void lq_sl_scalar_cell(LQ_GLOBAL float *qn, const LQ_GLOBAL float *q,
                                 const LQ_GLOBAL float *u, const LQ_GLOBAL float *v,
                                 const LQ_GLOBAL float *w, int i, int j, int k, int nx, int ny,
                                 int nz, float h, float ih, float lx, float ly, float lz, float dt)
{
    lq_mk_vec3 p;
    p.x = lq_sl_at(i, 0, h);
    p.y = lq_sl_at(j, 0, h);
    p.z = lq_sl_at(k, 0, h);
    lq_mk_vec3 d = lq_sl_backtrace(u, v, w, p, nx, ny, nz, ih, lx, ly, lz, dt);
    qn[LQ_MAC_CELL(i, j, k, nx, ny)] = lq_sl_sample_cell(q, d.x, d.y, d.z, nx, ny, nz, ih);
}

#endif
