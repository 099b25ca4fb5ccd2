/*
 * viscosity_ref.h — variable viscosity for the `pls` solver (Rasmussen et al. 2004 §5.1,
 * eq. 5–16): the explicit–implicit split. The asymmetric cross terms plus one symmetric
 * term are added explicitly from uⁿ (eq. 8–10), then three symmetric positive definite
 * systems (I − Δt A_a) u_a** = u_a* (eq. 11–16), one per velocity component, are solved
 * with preconditioned CG: Jacobi (the default), or one multigrid V-cycle per iteration
 * (prm->precond, pls.viscosity_precond: mg; viscosity_cell.h's multigrid section), which
 * keeps the count near the pressure solve's at large νΔt/h² (docs/PERFORMANCE.md, pls).
 * Discretisation, face kinds, boundary conditions and the reduction order:
 * kernels/pls/viscosity_cell.h. Launchers host/ops/pls/viscosity.c (the CG loop is written once
 * there on top of the single operations, so it runs on either backend and agrees bit for bit),
 * kernels kernels/pls/viscosity.cl, twins host/ops/pls/viscosity_ref.c.
 *
 * Grid: pls conventions (no wall layer, cell size h; u (nx+1)·ny·nz, v nx·(ny+1)·nz,
 * w nx·ny·(nz+1); ν, φ, sdf per cell; sdf may be NULL). 2D: nz = 1, w untouched.
 * ν: kinematic viscosity (m²/s) per cell centre, a field the caller owns, filled by
 * lq_viscosity_fill from a constant (e.g. lq_timefn_eval of a `pls.viscosity*` time function
 * each step) and optional boxes (per region).
 *
 * Place in the pls step: after advection and body force (u* = advected uⁿ + g Δt),
 * before the pressure projection:
 *   lq_viscosity_fill(o, nu, nu_of_t, boxes, nbox, h);  (when ν changes)
 *   lq_viscosity_step(o, u, v, w, un, vn, wn, nu, phi, sdf, prm, &st);
 * where u, v, w still hold uⁿ (read for eq. 8–10) and un, vn, wn hold u* on entry and
 * u** on return (only the UNKNOWN faces, liquid on at least one side, change; faces with
 * air on both sides keep their value for the extrapolation to overwrite). In the pls
 * step (host/solvers/pls.c) the roles are swapped by the step's buffer swap: uⁿ in un,
 * vn, wn and u* in u, v, w. φ: the level set the faces are
 * classified by (the advected one).
 *
 * Boundary conditions: walls (domain edge) no-slip (ghost −u) or free-slip (no shear
 * flux), each wall its own, prm->noslip's bits; normal wall faces stay at their stored value (0);
 * objects (sdf ≤ 0): faces touching them are Dirichlet at their stored value; the free surface:
 * zero viscous flux to air faces (the simplest zero-stress condition).
 *
 * Rigid rotation: with LQ_VISCOSITY_CROSS_MASKED (default) every flux an UNKNOWN face drops at
 * the surface drops as the whole shear ν(∂_d u_a + ∂_a u_d), which is 0 for a rigid
 * rotation everywhere else; (I − ΔtA) u_rigid = u_rigid + ΔtE(u_rigid) holds exactly, so a
 * spinning liquid ball keeps its angular velocity (to the CG tolerance), for any ν field.
 * Measured (tests/validation/test_viscosity_validation.c, full_viscosity_validation.c; ball R = 0.3
 * in the unit box, Ω = 1, 100 viscous steps per revolution, Ω after one revolution / before):
 * MASKED   2D 32²: 0.999998 (ν = 0.1), 1.000002 (ν random in [0.02, 0.1]); 3D 32³:
 * 0.999966, 1.000001. NONE
 * ([CMVHT02]: no explicit part; the zero-flux surface makes the implicit Laplacian diffuse the
 * rotation away): 2D ν = 0.1: 0.000000 (stopped), ν = 0.001: 0.778 (2D), 0.736 (3D). UNMASKED (eq.
 * 8–10 read literally: cross terms at every face pair, the implicit flux to air 0): unmatched
 * explicit surface terms; ν = 0.1 (νΔt/h² = 6.4): blows up (NaN); ν = 0.001: 0.809 (2D), 0.761
 * (3D). So the Rasmussen split as literally written does spin the ball down (or is unstable at
 * large νΔt/h²); the stress-consistent masking is the default here.
 *
 * Invariant: bit for bit on both backends (same per-face code, no contraction, one
 * correctly rounded divide per face in the preconditioner, fixed-order group sums added
 * in double on the host); the CG's iteration count is the same.
 */
#ifndef LQ_HOST_VISCOSITY_REF_H
#define LQ_HOST_VISCOSITY_REF_H

#include "core/kernel.h"
#include "pls/viscosity_cell.h"

typedef struct lq_viscosity_box {
    float lo[3], hi[3]; /* m, cell centres inside (bounds included; 2D ignores z) */
    float nu;           /* m²/s */
} lq_viscosity_box;

typedef struct lq_viscosity_params {
    float dt, h;  /* s, m */
    int noslip;   /* walls: bit 2 d + side no-slip (LQ_VISCOSITY_NOSLIP_ALL), clear free-slip */
    int cross;    /* LQ_VISCOSITY_CROSS_MASKED (default), _NONE, _UNMASKED */
    float tol;    /* stop at ‖r‖ ≤ tol ‖b‖ per component (0: 1e-6) */
    int max_iter; /* per component (0: 500) */
    int precond;  /* LQ_VISCOSITY_PRECOND_JACOBI (0, default) or _MG */
} lq_viscosity_params;

#define LQ_VISCOSITY_PRECOND_JACOBI 0
#define LQ_VISCOSITY_PRECOND_MG     1

typedef struct lq_viscosity_stats {
    int unknowns[3];    /* UNKNOWN faces per component */
    int iterations[3];  /* CG iterations per component */
    double residual[3]; /* final true ‖b − Ax‖ / ‖b‖ per component (0 when b = 0) */
    int converged;      /* all components reached tol */
    char message[160];  /* one line for logs */
} lq_viscosity_stats;

typedef struct lq_viscosity_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    lq_field kind;          /* uchar per face of the current axis (max face count) */
    lq_field diag;          /* W per face: the system diagonal is 1 + Δt/h² W */
    lq_field b, r, z, d, q; /* float per face (max face count) */
    lq_field partial;       /* one float per reduction group */
    lq_field boxes;         /* LQ_VISCOSITY_MAX_BOXES · LQ_VISCOSITY_BOX_FLOATS floats */
    float *partial_host;
    /* set by lq_viscosity_setup: the system the single operations below work on */
    int axis, noslip;
    float kk; /* Δt/h² */
    const lq_field *nu;
    int pc; /* LQ_VISCOSITY_PRECOND_* of the last setup */
    /* multigrid (viscosity_cell.h), allocated on the first setup that asks for it: per
     * level B, links, x, b, t; level 0's x and b are the CG's z and r (mgx[0], mgb[0]
     * unused); the current axis' level count and dimensions */
    int mg_alloc, mg_levels, mg_dim[LQ_VISCOSITY_MG_LEVELS][3];
    lq_field mgB[LQ_VISCOSITY_MG_LEVELS], mgL[LQ_VISCOSITY_MG_LEVELS];
    lq_field mgx[LQ_VISCOSITY_MG_LEVELS], mgb[LQ_VISCOSITY_MG_LEVELS];
    lq_field mgt[LQ_VISCOSITY_MG_LEVELS];
    cl_program program;
    lq_kernel fill, expl, setup, apply, rhs, residual, cg_update, cg_direction, precond, reduce;
    lq_kernel mg_setup, mg_coarsen, mg_smooth, mg_residual, mg_restrict, mg_prolong;
} lq_viscosity_ops;

/* --- single operations (tests diff them) ------------------------------------------------ */

/* Face count of component `axis`; the reduction layout for n elements. */
static inline int lq_viscosity_count(const lq_viscosity_ops *o, int axis)
{
    return (o->nx + (axis == 0)) * (o->ny + (axis == 1)) * (o->nz + (axis == 2));
}
static inline void lq_viscosity_layout(int n, int *groups, int *span)
{
    int g = (n + LQ_VISCOSITY_LOCAL - 1) / LQ_VISCOSITY_LOCAL;
    if (g > LQ_VISCOSITY_GROUPS) g = LQ_VISCOSITY_GROUPS;
    if (g < 1) g = 1;
    *groups = g;
    *span = (n + g - 1) / g;
}
/* Δt/h² rounded once from double */
static inline float lq_viscosity_kk(const lq_viscosity_params *prm)
{
    return (float)((double)prm->dt / ((double)prm->h * prm->h));
}

/* The multigrid levels of a face lattice (fx, fy, fz): each halves (rounding up) until a
 * single cell or LQ_VISCOSITY_MG_LEVELS; dims[l] filled, the count returned. */
static inline int lq_viscosity_mg_dims(int fx, int fy, int fz, int dims[][3])
{
    int l = 0;
    dims[0][0] = fx, dims[0][1] = fy, dims[0][2] = fz;
    while (l + 1 < LQ_VISCOSITY_MG_LEVELS && dims[l][0] * dims[l][1] * dims[l][2] > 1) {
        for (int c = 0; c < 3; c++) dims[l + 1][c] = (dims[l][c] + 1) / 2;
        l++;
    }
    return l + 1;
}

/* Reference twins (host/ops/pls/viscosity_ref.c): same arguments, host storage. */
void lq_viscosity_ref_fill(lq_viscosity_ops *o, lq_field *nu, float nu0, int nbox, float h);
void lq_viscosity_ref_explicit(lq_viscosity_ops *o, const lq_field *u0, const lq_field *v0,
                               const lq_field *w0, lq_field *us, lq_field *vs, lq_field *ws,
                               const lq_field *nu, const lq_field *phi, const lq_field *sdf,
                               const lq_viscosity_params *prm);
void lq_viscosity_ref_setup(lq_viscosity_ops *o, int axis, const lq_field *nu, const lq_field *phi,
                            const lq_field *sdf, const lq_viscosity_params *prm);
void lq_viscosity_ref_mg_setup(lq_viscosity_ops *o);
void lq_viscosity_ref_mg_coarsen(lq_viscosity_ops *o, int l);
void lq_viscosity_ref_mg_smooth(lq_viscosity_ops *o, int l, const lq_field *b, lq_field *x,
                                int color, int first);
void lq_viscosity_ref_mg_residual(lq_viscosity_ops *o, int l, const lq_field *b, const lq_field *x,
                                  lq_field *t);
void lq_viscosity_ref_mg_restrict(lq_viscosity_ops *o, int l, const lq_field *t, lq_field *bc);
void lq_viscosity_ref_mg_prolong(lq_viscosity_ops *o, int l, const lq_field *xc, lq_field *xf);
void lq_viscosity_ref_rhs(lq_viscosity_ops *o, const lq_field *q, lq_field *b);
void lq_viscosity_ref_apply(lq_viscosity_ops *o, const lq_field *x, lq_field *y);
void lq_viscosity_ref_residual(lq_viscosity_ops *o, const lq_field *b, const lq_field *x,
                               lq_field *r);
void lq_viscosity_ref_cg_update(lq_viscosity_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                                const lq_field *q, float alpha);
void lq_viscosity_ref_cg_direction(lq_viscosity_ops *o, const lq_field *z, lq_field *d, float beta);
void lq_viscosity_ref_precond(lq_viscosity_ops *o, const lq_field *r, lq_field *z);
void lq_viscosity_ref_dot(lq_viscosity_ops *o, const lq_field *a, const lq_field *b, double *sum);

#endif
