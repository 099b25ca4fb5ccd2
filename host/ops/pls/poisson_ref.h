/*
 * poisson_ref.h — pressure projection of the `pls` solver (Rasmussen et al. 2004 §3: zero
 * pressure in the air, the liquid surface at sub-cell accuracy by the ghost fluid method
 * of Gibou et al. 2002 / Enright et al., solid walls and objects Neumann), next to
 * host/ops/mac/pressure.c's Foster–Metaxas relaxation of the `mac` solver. Discretisation,
 * boundary rules and scaling: kernels/pls/poisson_cell.h. Every operation has an OpenCL
 * launcher (host/ops/pls/poisson.c, kernels/pls/poisson.cl) and a reference twin with the same
 * arguments (host/ops/pls/poisson_ref.c); the solver loops (SOR, Jacobi, PCG) are written once
 * here on top of them, so they run on either backend and agree bit for bit.
 *
 * Grid: pls conventions (no wall layer; the domain edge is a wall; cell size h).
 * Fields (float unless told): φ and sdf per cell (m; liquid φ ≤ 0, solid sdf ≤ 0; sdf
 * may be NULL: no objects), u, v, w on faces (m/s, mac_grid.h), b and p per cell
 * (p kinematic: pressure / density, m²/s²).
 *
 * A step calls, in order:
 *   lq_poisson_build(o, phi, sdf, prm)                the system from φ (after advection)
 *   lq_poisson_rhs(o, u, v, w, b, prm)                b = −(h/dt)·(net outflow of each cell)
 *   lq_poisson_solve(o, b, p, prm, &stats)            A p = b (p is the warm start)
 *   lq_poisson_project(o, p, u, v, w, phi, sdf, prm)  u −= dt ∇p on the liquid's faces
 * (or lq_poisson_step for all four). Faces with air on both sides are left as they were
 * (the caller extrapolates velocity into the air).
 *
 * Singular systems: when no unknown has an air or Dirichlet term (a closed box full of
 * liquid), the mean of b over the unknowns is subtracted (project b onto the range; the
 * solution is then fixed up to a constant, and stats.singular says so). This is global:
 * several separate liquid regions of which only some touch air are not detected, a
 * closed one then only converges when its own b sums to zero (it does when its walls'
 * normal velocities are 0, up to round-off).
 */
#ifndef LQ_HOST_POISSON_REF_H
#define LQ_HOST_POISSON_REF_H

#include "core/kernel.h"
#include "core/scan.h"
#include "pls/poisson_cell.h"

typedef enum lq_poisson_solver {
    LQ_POISSON_PCG = 0, /* preconditioned CG (default) */
    LQ_POISSON_SOR,     /* red-black SOR */
    LQ_POISSON_JACOBI   /* weighted Jacobi */
} lq_poisson_solver;

typedef enum lq_poisson_precond {
    LQ_POISSON_PRECOND_MG = 0, /* one geometric multigrid V-cycle (default; poisson_cell.h) */
    LQ_POISSON_PRECOND_JACOBI, /* z = r / A_cc */
    LQ_POISSON_PRECOND_NONE
} lq_poisson_precond_kind;

typedef struct lq_poisson_params {
    float dt, h;        /* s, m */
    int cell_centre;    /* 1: p = 0 at air cell centres (θ = 1, first order); 0: ghost fluid */
    float theta_min;    /* lower clamp of θ (0: 0.01) */
    int wall_dirichlet; /* 1: the domain edge is p = 0 on the face (validation); 0: walls */
    int object_air;     /* 1: an object cell (sdf ≤ 0) with φ > 0 is air, not solid: the
                         * face beside it is open (§5.5.2 separation, moving objects) */
    lq_poisson_solver solver;
    lq_poisson_precond_kind precond;
    float omega;     /* SOR: 0 → 2/(1 + sin(π/N)), N the longest side; Jacobi: 0 → 1 */
    float tol;       /* stop at ‖r‖ ≤ tol ‖b‖ (0: 1e-5) */
    float goal_abs;  /* PCG: or at ‖r‖ ≤ goal_abs, whichever is larger (b's units; 0: none) */
    int trust;       /* PCG with the scalars on the device: take its recursive ‖r‖ at the goal
                      * without confirming b − A p (a read); for a caller that checks the
                      * result its own way (mac.pressure: mgpcg) */
    int max_iter;    /* 0: 1000 */
    int check_every; /* SOR/Jacobi: residual every this many iterations (0: 1) */
} lq_poisson_params;

typedef struct lq_poisson_stats {
    int unknowns;      /* liquid cells with an equation */
    int iterations;    /* SOR: red + black passes; Jacobi: passes; CG: iterations */
    int converged;     /* ‖r‖ ≤ tol ‖b‖ reached */
    int singular;      /* no air or Dirichlet term: b's mean was removed */
    double b_norm;     /* ‖b‖ (2-norm over the unknowns, after the mean removal) */
    double residual;   /* final ‖r‖ / ‖b‖ (0 when b = 0) */
    double shift;      /* the mean removed from b (singular only) */
    char message[160]; /* one line for logs */
} lq_poisson_stats;

#define LQ_POISSON_MAX_LEVELS   16
#define LQ_POISSON_COARSE_GROUP 64 /* work-group of the one-launch coarsest solve (≥ its cells) */
/* List passes while at most 1/LQ_POISSON_DENSE of a level's cells are unknowns (a 64³ dam
 * break: 5 %), whole-level passes above (a full box: there the lists' indirection costs
 * more than the idle cells). */
#define LQ_POISSON_DENSE 4
/* The V-cycle's tail (poisson_mg_tail) from the first level with at most this many
 * unknowns. */
#define LQ_POISSON_TAIL_CELLS 4096

/* One multigrid level (level 0 uses the ops' mask and diag, and the CG r and z, and q as
 * its residual: a V-cycle overwrites the ops' q). */
typedef struct lq_poisson_level {
    int nx, ny, nz;
    lq_field mask, diag; /* coarse levels: the rediscretised system */
    lq_field state;      /* uchar per cell: LQ_PS_ST_* */
    lq_field x, b, res;  /* correction, RHS (coarse levels), residual */
    lq_field list;       /* int per cell: the unknowns, colour 0 then 1 (poisson_cell.h) */
    lq_field bsum, boff; /* int per virtual block (3 per cell block): the lists' scan */
    int n[2];            /* unknowns of each colour (list entries) */
    int dense;           /* more than 1/LQ_POISSON_DENSE of its cells are unknowns: the
                          * V-cycle's passes run over the whole level (OpenCL) */
} lq_poisson_level;

typedef struct lq_poisson_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    int groups, span; /* reduction layout: groups × LQ_POISSON_LOCAL items, span cells a group */
    lq_field mask;    /* uchar per cell: neighbour bits, LQ_POISSON_UNKNOWN, LQ_POISSON_DIRICHLET */
    lq_field diag;    /* A_cc per cell */
    lq_field r, z, d, q; /* solver vectors per cell */
    lq_field partial;    /* one float per reduction group */
    float *partial_host;
    lq_field cg; /* lq_cg_real[LQ_CG_N]: CG's scalars on the device (poisson_cell.h) */
    double cg_read[LQ_CG_N], cg_write[LQ_CG_N]; /* read back; the source of async writes */
    int cg_last;     /* the last device-scalar solve's iterations (its first batch) */
    int cg_host;     /* 1: CG's scalars on the host even where the device could keep them
                      * (tests; set by lq_poisson_ops_init where there are no doubles) */
    lq_scan scan;    /* the lists' block scan (core/scan.h) */
    lq_field counts; /* int[4 LQ_POISSON_MAX_LEVELS]: per level total, n[0],
                      * n[0] + n[1], (dropped: 0) */
    int counts_host[4 * LQ_POISSON_MAX_LEVELS];
    int tail_host[5 * LQ_POISSON_TAIL]; /* the tail's level table as last written */
    int tail_valid;                     /* tail_host was written to tail_info */
    int unknowns, dirichlet;            /* counted by lq_poisson_build */
    int levels;                         /* multigrid levels (coarsest: longest side ≤ 4) */
    int tail;                           /* first level of the one-work-group tail (-1: none) */
    int tail_cells;     /* its threshold (LQ_POISSON_TAIL_CELLS; < 0: no tail, tests) */
    lq_field tail_info; /* int[5 LQ_POISSON_TAIL]: per tail level nx, ny, nz, n[0], n[1] */
    int mg_ready;       /* the hierarchy matches the last build */
    lq_poisson_level lv[LQ_POISSON_MAX_LEVELS];
    cl_program program;
    lq_kernel setup, setup_kinds, mg_state_kinds, apply, residual, sor, jacobi, cg_update,
        cg_direction, precond_jacobi, reduce, rhs, project, mg_state, mg_coarsen, mg_system,
        mg_smooth, mg_residual, mg_restrict, mg_prolong, mg_coarse, apply_dot, update_dot, dot_list,
        direction_list, mg_tail, mg_smooth_w, mg_residual_w, mg_restrict_w, mg_prolong_w,
        list_count, list_scatter, cg_stage, update_dot_s, direction_list_s;
    int dense;       /* level 0 is dense: CG runs the whole-grid passes (both backends) */
    int dense_ratio; /* LQ_POISSON_DENSE (0: lists always, tests) */
    bool lent;       /* mask, diag, r, z, d, q and level 0's state and list are views of the
                      * caller's (lq_poisson_ops_init_lent) */
} lq_poisson_ops;

/* --- single operations (the solvers' building blocks; tests diff them) ---------------- */
int lq_poisson_setup(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                     const lq_poisson_params *prm); /* mask, diag only (no counts) */
/* The same from cell kinds (poisson_cell.h, lq_poisson_setup_kind_cell): flags uchar LQ_MAC_*
 * per cell, sw NULL or mac.surface_solve's weights (2 n floats, the first n read). */
int lq_poisson_setup_kinds(lq_poisson_ops *o, const lq_field *flags, const lq_field *sw);

int lq_poisson_mg_vcycle(lq_poisson_ops *o, const lq_field *r, lq_field *z); /* o->q: scratch */

/* Reference twins (host/ops/pls/poisson_ref.c): same arguments, host storage. */
/* Level l's unknown list by the compaction of lq_poisson_list_block; cnt[0 … 2]: the
 * total of the scan, n[0], n[0] + n[1] (the device's counts). */
void lq_poisson_ref_list(lq_poisson_ops *o, int l, int cnt[3]);
/* CG's scalars (lq_poisson_cg_stage) from the group sums in partial_host, and the update
 * and direction that read them (nothing once the state has left LQ_CG_RUN). */
void lq_poisson_ref_cg_stage(lq_poisson_ops *o, int stage, int pre);
void lq_poisson_ref_update_dot_s(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                                 const lq_field *q);
void lq_poisson_ref_direction_list_s(lq_poisson_ops *o, const lq_field *z, lq_field *d);
void lq_poisson_ref_mg_build(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                             const lq_poisson_params *prm);
void lq_poisson_ref_mg_smooth(lq_poisson_ops *o, int l, const lq_field *b, lq_field *x, int colour);
void lq_poisson_ref_mg_residual(lq_poisson_ops *o, int l, const lq_field *b, const lq_field *x,
                                lq_field *res);
void lq_poisson_ref_mg_restrict(lq_poisson_ops *o, int l, const lq_field *res, lq_field *bc);
void lq_poisson_ref_mg_prolong(lq_poisson_ops *o, int l, const lq_field *ec, lq_field *x);
void lq_poisson_ref_apply_dot(lq_poisson_ops *o, const lq_field *x, lq_field *y, double *xy);
void lq_poisson_ref_update_dot(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                               const lq_field *q, float alpha, double *rr);
void lq_poisson_ref_dot_list(lq_poisson_ops *o, const lq_field *a, const lq_field *b, double *sum);
void lq_poisson_ref_direction_list(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta);
void lq_poisson_ref_residual_list(lq_poisson_ops *o, const lq_field *b, float shift,
                                  const lq_field *p, lq_field *r);
void lq_poisson_ref_setup(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                          const lq_poisson_params *prm);
void lq_poisson_ref_setup_kinds(lq_poisson_ops *o, const lq_field *flags, const lq_field *sw);
void lq_poisson_ref_mg_state_kinds(lq_poisson_ops *o, const lq_field *flags);
/* The coarse levels from level 0's state and φ (phi0; NULL: from the states alone, the
 * cell-kind system; poisson_cell.h, lq_poisson_coarsen_cell). Each coarse level's φ is kept
 * in its x until lq_poisson_lists zeroes it. */
void lq_poisson_ref_mg_coarsen(lq_poisson_ops *o, const lq_field *phi0,
                               const lq_poisson_params *prm);
void lq_poisson_ref_apply(lq_poisson_ops *o, const lq_field *x, lq_field *y);
void lq_poisson_ref_residual(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                             lq_field *r);
void lq_poisson_ref_sor_pass(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *p,
                             int colour, float omega);
void lq_poisson_ref_jacobi_pass(lq_poisson_ops *o, const lq_field *b, float shift,
                                const lq_field *pin, lq_field *pout, float omega);
void lq_poisson_ref_cg_update(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                              const lq_field *q, float alpha);
void lq_poisson_ref_cg_direction(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta);
void lq_poisson_ref_precond(lq_poisson_ops *o, const lq_field *r, lq_field *z);
void lq_poisson_ref_reduce(lq_poisson_ops *o, int mode, const lq_field *a, const lq_field *b,
                           float shift, double *sum);
void lq_poisson_ref_rhs(lq_poisson_ops *o, const lq_field *u, const lq_field *v, const lq_field *w,
                        lq_field *b, const lq_poisson_params *prm);
void lq_poisson_ref_project(lq_poisson_ops *o, const lq_field *p, lq_field *u, lq_field *v,
                            lq_field *w, const lq_field *phi, const lq_field *sdf,
                            const lq_poisson_params *prm);

/* The kernels' scalars from the params (rounded once from double). */
static inline float lq_poisson_theta_min(const lq_poisson_params *prm)
{
    return prm->theta_min > 0 ? prm->theta_min : 0.01f;
}
/* −h/dt */
static inline float lq_poisson_rhs_scale(const lq_poisson_params *prm)
{
    return (float)(-(double)prm->h / prm->dt);
}
/* dt/h */
static inline float lq_poisson_dt_h(const lq_poisson_params *prm)
{
    return (float)((double)prm->dt / prm->h);
}

#endif
