/*
 * texparticles_cell.h — per-particle math of the texture particles (Rasmussen et al. 2004
 * §6, "Rendering"), shared by the OpenCL kernels (kernels/pls/texparticles.cl) and their
 * reference twins (host/ops/pls/texparticles_ref.c). Grid: the `pls` convention (φ at
 * cell centres, u, v, w on the faces, positions in metres in [0, nx h] × [0, ny h] ×
 * [0, nz h]; 2D: nz = 1, z = h/2).
 *
 * Particles: LQ_TEXPARTICLES_STRIDE = 6 floats (24 bytes) each: the position (3) and the
 * rest coordinate (3), the position the particle had on the initial surface. The rest
 * coordinate is written once, when the particle is seeded, and never again: it is what
 * a renderer looks the texture up with.
 *
 * Seeding (§6: "we place particles on the initial liquid surface"). Particle m of a band
 * cell q starts at a hash-uniform position in the cell (the seed, q and m key it, so
 * both backends draw the same) and is then settled on φ = 0: up to `iters` Newton steps
 * x ← x − φ(x) N(x), N = ∇φ/|∇φ| (lq_plsparticles_normal: central differences of the
 * trilinear φ at ± h), each clamped to the domain, taken while |φ(x)| ≤ reach and N ≠ 0.
 * φ is a signed distance there (just reinitialised), so one step lands within O(κ d²)
 * of the surface and the next ones refine it. Then rest = x.
 *
 * Advection: midpoint RK2 through the staggered u, v, w (lq_markers_velocity), each stage
 * clamped to the domain, as the level-set particles move (a particle in a uniform flow
 * moves by exactly δt u, up to the rounding of x + δt u).
 *
 * Projection (optional, pls.texture.project): the same Newton steps toward φ = 0 after
 * every step, so the particles stay on the surface instead of drifting off it where the
 * advected φ and the particles part; particles farther than `reach` from it (a buried
 * surface, a drop swallowed by a pool) are left where they are.
 *
 * Invariants (bit-for-bit twins): plain float arithmetic in a fixed order, contraction
 * off, sqrt and divide correctly rounded on PoCL (-cl-fp32-correctly-rounded-divide-sqrt),
 * the host passes 1/h and the domain size; comparisons handle NaN the same on both sides.
 */
#ifndef LQ_TEXPARTICLES_CELL_H
#define LQ_TEXPARTICLES_CELL_H

#include "common/hash.h"
#include "common/lq_shared.h"
#include "mac/markers_cell.h"
#include "pls/plsparticles_cell.h"

#define LQ_TEXPARTICLES_STRIDE 6
#define LQ_TEXPARTICLES_X      0 /* position, 3 (m) */
#define LQ_TEXPARTICLES_REST   3 /* rest coordinate, 3 (m, the grid's frame) */

#define LQ_TEXPARTICLES_S_POS 7u /* hash stream of the seeding positions */

/* The scalars every per-particle function reads, made on the host in double and rounded
 * once (lq_texparticles_coef_of), passed to the kernels as arguments. */
typedef struct lq_texparticles_coef {
    float ih, h;      /* 1/m, m */
    float lx, ly, lz; /* m, the domain */
    float dt;         /* s, advection */
    float reach;      /* m, the projection leaves particles farther than this from φ = 0 */
    int iters;        /* Newton steps of a projection */
} lq_texparticles_coef;

LQ_INLINE lq_texparticles_coef lq_texparticles_coef_make(float ih, float h, float lx, float ly,
                                                         float lz, float dt, float reach, int iters)
{
    lq_texparticles_coef c;
    c.ih = ih;
    c.h = h;
    c.lx = lx;
    c.ly = ly;
    c.lz = lz;
    c.dt = dt;
    c.reach = reach;
    c.iters = iters;
    return c;
}

LQ_INLINE lq_markers_vec3 lq_texparticles_pos(const LQ_GLOBAL float *a)
{
    lq_markers_vec3 p;
    p.x = a[LQ_TEXPARTICLES_X];
    p.y = a[LQ_TEXPARTICLES_X + 1];
    p.z = a[LQ_TEXPARTICLES_X + 2];
    return p;
}

LQ_INLINE void lq_texparticles_set_pos(LQ_GLOBAL float *a, lq_markers_vec3 p)
{
    a[LQ_TEXPARTICLES_X] = p.x;
    a[LQ_TEXPARTICLES_X + 1] = p.y;
    a[LQ_TEXPARTICLES_X + 2] = p.z;
}

/* New particle m of cell q at a hash-uniform position in the cell (2D: the mid plane);
 * its rest coordinate the same until it is settled. */
LQ_INLINE void lq_texparticles_emit_one(LQ_GLOBAL float *a, int q, int m, int nx, int ny, int nz,
                                        lq_texparticles_coef c, lq_uint seed)
{
    int i = q % nx, j = (q / nx) % ny, k = q / (nx * ny);
    lq_uint b = (lq_uint)m * 4u;
    lq_markers_vec3 p;
    p.x = ((float)i + lq_hash_uniform(seed, 0u, LQ_TEXPARTICLES_S_POS, (lq_uint)q, b)) * c.h;
    p.y = ((float)j + lq_hash_uniform(seed, 0u, LQ_TEXPARTICLES_S_POS, (lq_uint)q, b + 1u)) * c.h;
    p.z = nz > 1
              ? ((float)k + lq_hash_uniform(seed, 0u, LQ_TEXPARTICLES_S_POS, (lq_uint)q, b + 2u)) *
                    c.h
              : 0.5f * c.lz;
    lq_texparticles_set_pos(a, p);
    a[LQ_TEXPARTICLES_REST] = p.x;
    a[LQ_TEXPARTICLES_REST + 1] = p.y;
    a[LQ_TEXPARTICLES_REST + 2] = p.z;
}

/* Up to c.iters Newton steps of particle a toward φ = 0 (the header's rule). */
LQ_INLINE void lq_texparticles_project_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *phi, int nx,
                                           int ny, int nz, lq_texparticles_coef c)
{
    lq_markers_vec3 p = lq_texparticles_pos(a);
    for (int it = 0; it < c.iters; it++) {
        float f = lq_plsparticles_sample(phi, p, nx, ny, nz, c.ih);
        if (!(lq_plsparticles_absf(f) <= c.reach) || f == 0.0f) break;
        lq_markers_vec3 n = lq_plsparticles_normal(phi, p, nx, ny, nz, c.ih, c.h);
        if (n.x == 0.0f && n.y == 0.0f && n.z == 0.0f) break;
        p = lq_markers_step(p, n, -f, c.lx, c.ly, c.lz);
    }
    lq_texparticles_set_pos(a, p);
}

/* A new particle settled on φ = 0; its rest coordinate is where it lands. */
LQ_INLINE void lq_texparticles_settle_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *phi, int nx,
                                          int ny, int nz, lq_texparticles_coef c)
{
    lq_texparticles_project_one(a, phi, nx, ny, nz, c);
    for (int q = 0; q < 3; q++) a[LQ_TEXPARTICLES_REST + q] = a[LQ_TEXPARTICLES_X + q];
}

/* Midpoint RK2 over c.dt through u, v, w; the rest coordinate untouched. */
LQ_INLINE void lq_texparticles_advect_one(LQ_GLOBAL float *a, const LQ_GLOBAL float *u,
                                          const LQ_GLOBAL float *v, const LQ_GLOBAL float *w,
                                          int nx, int ny, int nz, lq_texparticles_coef c)
{
    lq_markers_vec3 zero = {0.0f, 0.0f, 0.0f};
    lq_markers_vec3 p0 = lq_markers_step(lq_texparticles_pos(a), zero, 0.0f, c.lx, c.ly, c.lz);
    lq_markers_vec3 v0 = lq_markers_velocity(u, v, w, p0, nx, ny, nz, c.ih, c.ih, c.ih);
    lq_markers_vec3 pm = lq_markers_step(p0, v0, 0.5f * c.dt, c.lx, c.ly, c.lz);
    lq_markers_vec3 vm = lq_markers_velocity(u, v, w, pm, nx, ny, nz, c.ih, c.ih, c.ih);
    lq_texparticles_set_pos(a, lq_markers_step(p0, vm, c.dt, c.lx, c.ly, c.lz));
}

#endif
