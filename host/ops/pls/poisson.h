/*
 * poisson.h — the launchers of the operation: each dispatches to the reference twin
 * (poisson_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/poisson.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in poisson_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_POISSON_H
#define LQ_HOST_POISSON_H

#include "ops/pls/poisson_ref.h"

int lq_poisson_ops_init(lq_poisson_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
/* The same with the per-cell scratch lent (views of the caller's fields, which it keeps):
 * bytes[0..1] at least a byte per cell each (the mask, level 0's multigrid state),
 * floats[0..5] a float per cell each (the diagonal, CG's r, z, d, q, level 0's unknown
 * list). lq_poisson_build writes them all, and the solve zeroes the vectors it writes only
 * on the unknowns, so they are free for anything else outside a build-to-projection span
 * (one projection). */
int lq_poisson_ops_init_lent(lq_poisson_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                             const lq_field *const bytes[2], const lq_field *const floats[6]);
void lq_poisson_ops_release(lq_poisson_ops *o);
/* The whole projection: build, rhs (into b, a caller's per-cell scratch), solve (p is the
 * warm start and the result), project. */
int lq_poisson_step(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf, lq_field *u,
                    lq_field *v, lq_field *w, lq_field *b, lq_field *p,
                    const lq_poisson_params *prm, lq_poisson_stats *st);
int lq_poisson_build(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                     const lq_poisson_params *prm);
/* The same system from cell kinds instead of φ and sdf: `mac`'s pressure (Foster & Metaxas's
 * iteration's fixed point, poisson_cell.h lq_poisson_setup_kind_cell; flags uchar LQ_MAC_* per
 * cell, sw NULL or mac.surface_solve's face weights). Solve with lq_poisson_rhs and
 * lq_poisson_solve as for `pls` (cubic cells of size prm->h); the faces move by the caller's
 * rules (host/ops/mac/pressure.c). */
int lq_poisson_build_kinds(lq_poisson_ops *o, const lq_field *flags, const lq_field *sw,
                           const lq_poisson_params *prm);
int lq_poisson_rhs(lq_poisson_ops *o, const lq_field *u, const lq_field *v, const lq_field *w,
                   lq_field *b, const lq_poisson_params *prm);
int lq_poisson_solve(lq_poisson_ops *o, const lq_field *b, lq_field *p,
                     const lq_poisson_params *prm, lq_poisson_stats *st);
/* (the faces beside the last build's unknowns: φ, sdf and prm must be the build's) */
int lq_poisson_project(lq_poisson_ops *o, const lq_field *p, lq_field *u, lq_field *v, lq_field *w,
                       const lq_field *phi, const lq_field *sdf, const lq_poisson_params *prm);
int lq_poisson_apply(lq_poisson_ops *o, const lq_field *x, lq_field *y);
int lq_poisson_residual(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                        lq_field *r);
int lq_poisson_sor_pass(lq_poisson_ops *o, const lq_field *b, float shift, lq_field *p, int colour,
                        float omega);
int lq_poisson_jacobi_pass(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *pin,
                           lq_field *pout, float omega);
int lq_poisson_cg_update(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                         const lq_field *q, float alpha);
int lq_poisson_cg_direction(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta);
int lq_poisson_precond(lq_poisson_ops *o, const lq_field *r, lq_field *z);
/* A deterministic sum (LQ_PS_RED_* mode; b only for DOT): group sums by the fixed tree,
 * then added in group order in double on the host. */
int lq_poisson_reduce(lq_poisson_ops *o, int mode, const lq_field *a, const lq_field *b,
                      float shift, double *sum);
/* The unknown lists (poisson_cell.h) of level 0 and, after lq_poisson_mg_build, of every
 * level, from their masks (lq_poisson_build calls it; it counts o->unknowns and
 * o->dirichlet); zeroes the vectors the list passes leave alone off the unknowns (r, and
 * the levels' x, b, res). */
int lq_poisson_lists(lq_poisson_ops *o);
/* CG's passes over level 0's unknown list, fused with their sums (list reductions,
 * poisson_cell.h): y = A x and Σ x·y; x += α d, r −= α q and Σ r·r; Σ a·b; d = z + β d.
 * Off the unknowns they write nothing (the vectors hold 0 there). */
int lq_poisson_apply_dot(lq_poisson_ops *o, const lq_field *x, lq_field *y, double *xy);
int lq_poisson_update_dot(lq_poisson_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                          const lq_field *q, float alpha, double *rr);
int lq_poisson_dot_list(lq_poisson_ops *o, const lq_field *a, const lq_field *b, double *sum);
int lq_poisson_direction_list(lq_poisson_ops *o, const lq_field *z, lq_field *d, float beta);
/* r = (b − shift) − A p on the unknowns (lq_poisson_residual there; r is 0 elsewhere after
 * lq_poisson_lists and no list pass writes there). */
int lq_poisson_residual_list(lq_poisson_ops *o, const lq_field *b, float shift, const lq_field *p,
                             lq_field *r);
/* Multigrid: the hierarchy from the last lq_poisson_setup's system (build calls it when
 * prm->precond is MG), and one V-cycle z = M⁻¹ r. */
int lq_poisson_mg_build(lq_poisson_ops *o, const lq_field *phi, const lq_field *sdf,
                        const lq_poisson_params *prm);
/* The V-cycle's steps on level l (fine) and l + 1 (coarse), over the levels' unknown
 * lists (call lq_poisson_lists after the build first; lq_poisson_build does). */
int lq_poisson_mg_smooth(lq_poisson_ops *o, int l, const lq_field *b, lq_field *x, int colour);
int lq_poisson_mg_residual(lq_poisson_ops *o, int l, const lq_field *b, const lq_field *x,
                           lq_field *res);
int lq_poisson_mg_restrict(lq_poisson_ops *o, int l, const lq_field *res, lq_field *bc);
int lq_poisson_mg_prolong(lq_poisson_ops *o, int l, const lq_field *ec, lq_field *x);

#endif
