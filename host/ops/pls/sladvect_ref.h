/*
 * sladvect_ref.h — semi-Lagrangian advection for the `pls` solver (Rasmussen et al. 2004 §3,
 * after Stam 1999): the MAC face velocity advected by itself and a cell-centred scalar
 * (the level set φ, eq. 3) advected by the face velocity, both with an RK2 (midpoint)
 * backtrace and trilinear, staggering-aware sampling (kernels/pls/sladvect_cell.h states
 * the rules). Each operation has an OpenCL launcher (host/ops/pls/sladvect.c,
 * kernels/pls/sladvect.cl) and a reference twin with the same arguments
 * (host/ops/pls/sladvect_ref.c).
 *
 * Grid: mac_grid.h indexing, uniform cell size h, no wall layer: u is (nx+1)·ny·nz,
 * v nx·(ny+1)·nz, w nx·ny·(nz+1), scalars nx·ny·nz floats. 2D runs are nz = 1 (w is then
 * ignored by the backtrace and its result is 0).
 *
 * Use in a step (before the forces and the projection):
 *   lq_sladvect_advect_scalar(o, phi, phi_new, u, v, w, prm);    then swap phi and phi_new;
 *   lq_sladvect_advect_velocity(o, u, v, w, un, vn, wn, prm);    then swap (u, v, w) and (un, ...).
 * Inputs and outputs must be distinct fields. Both read only the old velocity, so the
 * order of the two calls does not matter.
 *
 * Scalar schemes (lq_sladvect_params.scheme): the plain pass, or MacCormack / BFECC, both built
 * from three plain-pass-like sweeps (forward, reverse, corrected) and limited to the
 * departure point's old values (kernels/pls/sladvect_cell.h). Both use o->scratch (allocated
 * by lq_sladvect_ops_init). MacCormack is exact under a whole-cell translation only where the
 * forward image of the cell is in the grid (its reverse pass clamps at the edge); BFECC
 * everywhere the plain pass is.
 *
 * Velocity schemes (lq_sladvect_params.velocity_scheme, the scene's pls.velocity_advection):
 * the plain pass (the default), or the same MacCormack / BFECC per face component on its own
 * lattice, the old velocity the carrier throughout, limited to the departure point's old
 * values (times the no-slip factor there). They lend o->dep (free outside
 * lq_sladvect_advect_scalar) for one component's reverse pass at a time: no memory beyond
 * the scalar's.
 *
 * Which scheme is how accurate and how fast is measured in docs/VALIDATION.md
 * ("Advection schemes") and docs/PERFORMANCE.md (## pls).
 *
 * BFECC is the default: the most accurate on smooth fields and on Zalesak with particles
 * (MacCormack also meets the 1% target with sparse reinitialisation); MacCormack is the safer
 * choice at several cells per step in a shearing flow (BFECC's reverse trace no longer cancels the
 * forward one there and it inflates thin features). With either, reinitialising every
 * step dominates the remaining loss (see plsparticles_zalesak.h): reinitialise every few
 * tens of steps, or when |∇φ| drifts, rather than every step.
 *
 * Invariant: bit for bit on both backends (same code, no contraction, no division).
 */
#ifndef LQ_HOST_SLADVECT_REF_H
#define LQ_HOST_SLADVECT_REF_H

#include "core/kernel.h"
#include "pls/sladvect_cell.h"

/* How lq_sladvect_advect_scalar carries the scalar (lq_sladvect_params.scheme) and
 * lq_sladvect_advect_velocity the velocity (.velocity_scheme). */
typedef enum lq_sladvect_scheme {
    LQ_SLADVECT_DEFAULT = 0,    /* scalar: LQ_SLADVECT_BFECC, velocity: LQ_SLADVECT_PLAIN */
    LQ_SLADVECT_PLAIN = 1,      /* one RK2 backtrace + trilinear pass (Stam 1999) */
    LQ_SLADVECT_MACCORMACK = 2, /* Selle et al. 2008, limited; 3 passes (sladvect_cell.h) */
    LQ_SLADVECT_BFECC = 3       /* Dupont & Liu 2003 / Kim et al. 2005, limited; 3 passes */
} lq_sladvect_scheme;

typedef struct lq_sladvect_params {
    float dt;   /* s */
    float h;    /* m, the cell size */
    int scheme; /* lq_sladvect_scheme of the scalar; 0 (a zeroed struct): LQ_SLADVECT_DEFAULT */
    int noslip; /* the velocity's no-slip walls: bit 2 d + side (x_min 0 ... z_max 5); 0 all
                 * free-slip */
    int velocity_scheme; /* lq_sladvect_scheme of the velocity; 0: LQ_SLADVECT_PLAIN */
} lq_sladvect_params;

/* The scheme LQ_SLADVECT_DEFAULT stands for. */
static inline lq_sladvect_scheme lq_sladvect_scheme_of(const lq_sladvect_params *prm)
{
    return prm->scheme == LQ_SLADVECT_DEFAULT ? LQ_SLADVECT_BFECC : (lq_sladvect_scheme)prm->scheme;
}

/* The velocity's scheme: LQ_SLADVECT_DEFAULT stands for the plain pass (the cheapest; what
 * the second-order schemes keep of a vortex and cost is in docs/VALIDATION.md and
 * docs/PERFORMANCE.md). */
static inline lq_sladvect_scheme lq_sladvect_velocity_scheme_of(const lq_sladvect_params *prm)
{
    return prm->velocity_scheme == LQ_SLADVECT_DEFAULT ? LQ_SLADVECT_PLAIN
                                                       : (lq_sladvect_scheme)prm->velocity_scheme;
}

/* What the kernels take, from the params in double, rounded once. */
typedef struct lq_sladvect_coef {
    float h, ih;      /* m, 1/m */
    float lx, ly, lz; /* m, the domain size */
    float dt;         /* s */
} lq_sladvect_coef;
static inline lq_sladvect_coef lq_sladvect_coef_of(const lq_sladvect_params *prm, int nx, int ny,
                                                   int nz)
{
    lq_sladvect_coef c;
    c.h = prm->h;
    c.ih = (float)(1.0 / prm->h);
    c.lx = (float)(nx * (double)prm->h);
    c.ly = (float)(ny * (double)prm->h);
    c.lz = (float)(nz * (double)prm->h);
    c.dt = prm->dt;
    return c;
}

typedef struct lq_sladvect_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel velocity, scalar, maccormack, bfecc, scalar_keep, maccormack_dep, bfecc_dep;
    lq_kernel velocity_pass, velocity_maccormack, velocity_bfecc;
    lq_field scratch; /* q~ of the scalar's error-compensated schemes (nx·ny·nz floats) */
    lq_field dep;     /* their first pass's departure points (3 nx·ny·nz floats; OpenCL); the
                       * velocity's schemes lend it for one component's q~ at a time (a face
                       * lattice is at most nx·ny·nz + the largest face plane ≤ 3 nx·ny·nz) */
    bool lent;        /* scratch and dep are views of the caller's (lq_sladvect_ops_init_lent) */
} lq_sladvect_ops;

/* Reference twins (host/ops/pls/sladvect_ref.c): same arguments, host storage. The velocity
 * by prm->velocity_scheme (the error-compensated schemes allocate a host scratch per call
 * here; the launcher lends o->dep and calls the passes below). */
void lq_sladvect_ref_advect_velocity(const lq_field *u, const lq_field *v, const lq_field *w,
                                     lq_field *un, lq_field *vn, lq_field *wn,
                                     const lq_sladvect_params *prm);
/* The velocity's passes for component comp (kernels sladvect_velocity_pass,
 * sladvect_velocity_maccormack, sladvect_velocity_bfecc): f (comp's lattice) carried along
 * (u, v, w) over dt into out (f = that component, dt = prm->dt: the plain pass; f = q^,
 * −prm->dt: the reverse pass), and the final passes, q the old component, qt = q~ (qn holds
 * q^ on entry for MacCormack). out, qt: at least comp's lattice of floats. */
void lq_sladvect_ref_velocity_pass(lq_field *out, const lq_field *f, const lq_field *u,
                                   const lq_field *v, const lq_field *w, int comp,
                                   const lq_sladvect_params *prm, float dt);
void lq_sladvect_ref_velocity_maccormack(lq_field *qn, const lq_field *q, const lq_field *qt,
                                         const lq_field *u, const lq_field *v, const lq_field *w,
                                         int comp, const lq_sladvect_params *prm);
void lq_sladvect_ref_velocity_bfecc(lq_field *qn, const lq_field *q, const lq_field *qt,
                                    const lq_field *u, const lq_field *v, const lq_field *w,
                                    int comp, const lq_sladvect_params *prm);
/* The scalar by prm->scheme; the error-compensated schemes allocate a host scratch per
 * call here (the launcher uses o->scratch and the passes below). */
void lq_sladvect_ref_advect_scalar(const lq_field *q, lq_field *qn, const lq_field *u,
                                   const lq_field *v, const lq_field *w,
                                   const lq_sladvect_params *prm);
/* The passes (kernels sladvect_scalar, sladvect_maccormack, sladvect_bfecc): the plain pass over dt
 * (m/s from prm, dt given: −prm->dt is the reverse pass), and the final passes of MacCormack (qn
 * holds q^ on entry) and BFECC, qt = q~. */
void lq_sladvect_ref_scalar_pass(const lq_field *q, lq_field *qn, const lq_field *u,
                                 const lq_field *v, const lq_field *w,
                                 const lq_sladvect_params *prm, float dt);
void lq_sladvect_ref_maccormack(lq_field *qn, const lq_field *q, const lq_field *qt,
                                const lq_field *u, const lq_field *v, const lq_field *w,
                                const lq_sladvect_params *prm);
void lq_sladvect_ref_bfecc(lq_field *qn, const lq_field *q, const lq_field *qt, const lq_field *u,
                           const lq_field *v, const lq_field *w, const lq_sladvect_params *prm);

#endif
