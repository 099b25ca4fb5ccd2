/*
 * texparticles_ref.h — texture particles (Rasmussen et al. 2004 §6, "Rendering"):
 * particles placed on the initial liquid surface, each carrying its initial position (its
 * rest coordinate), advected with the flow so that a renderer can texture the liquid by
 * looking the texture up at the rest coordinate interpolated from the particles nearest a
 * surface point (host/views/texmap.h). The math and its invariants are in
 * kernels/pls/texparticles_cell.h; launchers host/ops/pls/texparticles.c, kernels
 * kernels/pls/texparticles.cl, reference twins host/ops/pls/texparticles_ref.c (same
 * arguments).
 *
 * Grid: the `pls` convention (no wall layer; φ at cell centres, a signed distance when
 * seeding; u, v, w on the faces; positions in metres in [0, nx h] × ...; 2D: nz = 1).
 *
 * Storage: lq_texparticles_state holds one buffer of `capacity` particles
 * (LQ_TEXPARTICLES_STRIDE = 6 floats each: position, rest coordinate), n of them live.
 * Particles are made once (lq_texparticles_seed) and never deleted, so n is fixed for a
 * run and the buffer is the whole state (a checkpoint saves it whole).
 *
 * Use (host/solvers/pls.c): at the start, once φ is a signed distance,
 * lq_texparticles_seed over the band cells that lq_texparticles_band_cells listed; every
 * step lq_texparticles_advect (through the velocity the level-set particles moved with)
 * and, when asked, lq_texparticles_project onto the reinitialised φ.
 *
 * Invariant: every operation gives the same particles on both backends bit for bit.
 */
#ifndef LQ_HOST_TEXPARTICLES_REF_H
#define LQ_HOST_TEXPARTICLES_REF_H

#include <stdint.h>

#include "core/kernel.h"
#include "pls/texparticles_cell.h"

#define LQ_TEXPARTICLES_SETTLE_ITERS  4 /* Newton steps that settle a new particle on φ = 0 */
#define LQ_TEXPARTICLES_PROJECT_ITERS 1 /* and that keep it there each step (project) */

typedef struct lq_texparticles_params {
    float h;      /* m, cell size */
    float dt;     /* s (advection) */
    float band;   /* m: cells with |φ| < band are seeded; the projection reaches band + h */
    int per_cell; /* particles per band cell */
    uint32_t seed;
} lq_texparticles_params;

typedef struct lq_texparticles_state {
    int nx, ny, nz, capacity;
    int n;         /* live particles (fixed once seeded) */
    lq_field part; /* capacity · LQ_TEXPARTICLES_STRIDE floats */
} lq_texparticles_state;

typedef struct lq_texparticles_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel settle, project, advect;
} lq_texparticles_ops;

/* The kernels' scalars for a grid of nx × ny × nz cells: 1/h, h, the domain, prm->dt,
 * reach = band + h and `iters` Newton steps. */
static inline lq_texparticles_coef lq_texparticles_coef_of(const lq_texparticles_params *prm,
                                                           int nx, int ny, int nz, int iters)
{
    double h = prm->h;
    return lq_texparticles_coef_make((float)(1.0 / h), (float)h, (float)(nx * h), (float)(ny * h),
                                     (float)(nz * h), prm->dt, (float)(prm->band + h), iters);
}

/* Reference twins (host/ops/pls/texparticles_ref.c): same arguments, host storage. */
void lq_texparticles_ref_settle(lq_texparticles_state *st, const lq_field *phi,
                                lq_texparticles_coef c);
void lq_texparticles_ref_project(lq_texparticles_state *st, const lq_field *phi,
                                 lq_texparticles_coef c);
void lq_texparticles_ref_advect(lq_texparticles_state *st, const lq_field *u, const lq_field *v,
                                const lq_field *w, lq_texparticles_coef c);

#endif
