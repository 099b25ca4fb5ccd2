/*
 * sladvect.h — the launchers of the operation: each dispatches to the reference twin
 * (sladvect_ref.c) on the reference backend and enqueues the kernels of
 * kernels/pls/sladvect.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in sladvect_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_SLADVECT_H
#define LQ_HOST_SLADVECT_H

#include "ops/pls/sladvect_ref.h"

int lq_sladvect_ops_init(lq_sladvect_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
/* The same with the scratch lent (views of the caller's fields, which it keeps): scratch
 * at least a float per cell, dep three. Both are written before they are read in every
 * call, so they are free between the calls for anything else. */
int lq_sladvect_ops_init_lent(lq_sladvect_ops *o, lq_ctx *ctx, int nx, int ny, int nz,
                              const lq_field *scratch, const lq_field *dep);
void lq_sladvect_ops_release(lq_sladvect_ops *o);
/* un, vn, wn = the face velocity (u, v, w) carried along itself over prm->dt; faces on
 * the domain edge get 0. */
int lq_sladvect_advect_velocity(lq_sladvect_ops *o, const lq_field *u, const lq_field *v,
                                const lq_field *w, lq_field *un, lq_field *vn, lq_field *wn,
                                const lq_sladvect_params *prm);
/* qn = the cell-centred q carried along (u, v, w) over prm->dt, by prm->scheme (the
 * error-compensated schemes use o->scratch; q, qn and the scratch must be distinct). */
int lq_sladvect_advect_scalar(lq_sladvect_ops *o, const lq_field *q, lq_field *qn,
                              const lq_field *u, const lq_field *v, const lq_field *w,
                              const lq_sladvect_params *prm);

#endif
