/*
 * viscosity.h — the launchers of the operation: each dispatches to the reference twin
 * (viscosity_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/viscosity.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in viscosity_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_VISCOSITY_H
#define LQ_HOST_VISCOSITY_H

#include "ops/pls/viscosity_ref.h"

int lq_viscosity_ops_init(lq_viscosity_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_viscosity_ops_release(lq_viscosity_ops *o);
/* Device bytes lq_viscosity_ops_init allocates (for lq_ctx_reserve; the caller's ν field, one
 * float per cell, is not included). */
size_t lq_viscosity_ops_bytes(int nx, int ny, int nz);
/* Device bytes the multigrid preconditioner adds, on the first setup with
 * LQ_VISCOSITY_PRECOND_MG. */
size_t lq_viscosity_mg_bytes(int nx, int ny, int nz);
/* ν = nu0 per cell, overwritten in each box in order (nbox ≤ LQ_VISCOSITY_MAX_BOXES). */
int lq_viscosity_fill(lq_viscosity_ops *o, lq_field *nu, float nu0, const lq_viscosity_box *boxes,
                      int nbox, float h);
/* The whole viscous step: explicit part (unless prm->cross is NONE), then the implicit
 * solve of each component in place in us, vs, ws (u* in, u** out). u0, v0, w0: uⁿ, in
 * buffers distinct from us, vs, ws (w0, ws are passed in 2D too, and left alone). */
int lq_viscosity_step(lq_viscosity_ops *o, const lq_field *u0, const lq_field *v0,
                      const lq_field *w0, lq_field *us, lq_field *vs, lq_field *ws,
                      const lq_field *nu, const lq_field *phi, const lq_field *sdf,
                      const lq_viscosity_params *prm, lq_viscosity_stats *st);
/* us += Δt E_u(uⁿ), vs += Δt E_v, ws += Δt E_w on the UNKNOWN faces (eq. 8–10). */
int lq_viscosity_explicit(lq_viscosity_ops *o, const lq_field *u0, const lq_field *v0,
                          const lq_field *w0, lq_field *us, lq_field *vs, lq_field *ws,
                          const lq_field *nu, const lq_field *phi, const lq_field *sdf,
                          const lq_viscosity_params *prm);
/* Kinds and weight sums W of component `axis`; remembers ν, Δt/h², the wall condition. */
int lq_viscosity_setup(lq_viscosity_ops *o, int axis, const lq_field *nu, const lq_field *phi,
                       const lq_field *sdf, const lq_viscosity_params *prm);
/* The system of the last setup. x, y, b, r, q, z, d: face arrays of that axis (or the
 * ops' own vectors, which are longer: only the axis' count is used). */
int lq_viscosity_rhs(lq_viscosity_ops *o, const lq_field *q, lq_field *b);
int lq_viscosity_apply(lq_viscosity_ops *o, const lq_field *x, lq_field *y);
int lq_viscosity_residual(lq_viscosity_ops *o, const lq_field *b, const lq_field *x, lq_field *r);
int lq_viscosity_cg_update(lq_viscosity_ops *o, lq_field *x, lq_field *r, const lq_field *d,
                           const lq_field *q, float alpha);
int lq_viscosity_cg_direction(lq_viscosity_ops *o, const lq_field *z, lq_field *d, float beta);
/* z = M⁻¹ r: Jacobi, or one multigrid V-cycle (the last setup's prm->precond). */
int lq_viscosity_precond(lq_viscosity_ops *o, const lq_field *r, lq_field *z);
/* The multigrid's single operations (viscosity_cell.h; level l's dims in o->mg_dim[l]):
 * level 0 from the last setup, level l+1 from l, a red-black half-sweep on level l (b, x:
 * level arrays; level 0: the CG's r, z), t = b − A x, restriction of level l's t into
 * level l+1's right-hand side bc, prolongation xf += P xc. */
int lq_viscosity_mg_setup(lq_viscosity_ops *o);
int lq_viscosity_mg_coarsen(lq_viscosity_ops *o, int l);
int lq_viscosity_mg_smooth(lq_viscosity_ops *o, int l, const lq_field *b, lq_field *x, int color,
                           int first);
int lq_viscosity_mg_residual(lq_viscosity_ops *o, int l, const lq_field *b, const lq_field *x,
                             lq_field *t);
int lq_viscosity_mg_restrict(lq_viscosity_ops *o, int l, const lq_field *t, lq_field *bc);
int lq_viscosity_mg_prolong(lq_viscosity_ops *o, int l, const lq_field *xc, lq_field *xf);
/* a·b over the axis' faces: group sums by the fixed tree, added in group order in double. */
int lq_viscosity_dot(lq_viscosity_ops *o, const lq_field *a, const lq_field *b, double *sum);
/* Setup, rhs and Jacobi-PCG of component `axis` in place in q (u* in, u** out). */
int lq_viscosity_solve(lq_viscosity_ops *o, int axis, lq_field *q, const lq_field *nu,
                       const lq_field *phi, const lq_field *sdf, const lq_viscosity_params *prm,
                       lq_viscosity_stats *st);

#endif
