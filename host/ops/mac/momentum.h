/*
 * momentum.h — the launchers of the operation: each dispatches to the reference twin
 * (momentum_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/momentum.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in momentum_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MOMENTUM_H
#define LQ_HOST_MOMENTUM_H

#include "ops/mac/momentum_ref.h"

/* Checks the outputs against the device, then allocates them zeroed. */
int lq_momentum_state_init(lq_momentum_state *st, lq_ctx *ctx, int nx, int ny, int nz, lq_field *u,
                           lq_field *v, lq_field *w, lq_field *p, lq_field *flags, lq_field *bnd);
void lq_momentum_state_release(lq_momentum_state *st);
int lq_momentum_ops_init(lq_momentum_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_momentum_ops_release(lq_momentum_ops *o);
/* Eq. 2: st->un, vn, wn from st->u, v, w, p (which it does not change). Faces that do
 * not move (momentum_cell.h) get their old value. */
int lq_momentum_step(lq_momentum_ops *o, lq_momentum_state *st, const lq_momentum_params *prm);
/* §3.2.1 in place on st->u, v, w, p: faces touching SOLID cells and p of SOLID cells. */
int lq_momentum_boundary(lq_momentum_ops *o, lq_momentum_state *st);
/* max |u|, |v|, |w| over every face of each array into st->smax; when smax is not NULL
 * they are read back (a wait), +inf where a value is not finite. */
int lq_momentum_max_speed(lq_momentum_ops *o, lq_momentum_state *st, float smax[3]);
/* The largest δt with max |u| δt/δx, |v| δt/δy, |w| δt/δz ≤ cfl (eq. 3; pass cfl < 1
 * for the paper's strict bound) and δt ≤ 1 / (2ν Σ 1/δ²) (an axis one cell thick
 * leaves its term out), capped at dt_max. Runs lq_momentum_max_speed. LQ_ESIM when a
 * speed is not finite; LQ_EINPUT for cfl ≤ 0, dt_max ≤ 0 or a spacing ≤ 0. */
int lq_momentum_dt(lq_momentum_ops *o, lq_momentum_state *st, const lq_momentum_params *prm,
                   float cfl, float dt_max, float *dt);
/* The same bound from given maxima (no device work): what lq_momentum_dt computes. */
float lq_momentum_dt_of(const lq_momentum_params *prm, int nx, int ny, int nz, const float smax[3],
                        float cfl, float dt_max);

#endif
