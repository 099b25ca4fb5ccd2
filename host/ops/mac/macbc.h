/*
 * macbc.h — the launchers of the operation: each dispatches to the reference twin
 * (macbc_ref.c) on the reference backend and enqueues the kernels of
 * kernels/mac/macbc.cl otherwise. The operation's data (its object, parameters and
 * coefficients) and the twin are declared in macbc_ref.h, which the twin includes alone,
 * so the launcher depends on its twin and never the other way round.
 */
#ifndef LQ_HOST_MACBC_H
#define LQ_HOST_MACBC_H

#include "ops/mac/macbc_ref.h"

int lq_macbc_ops_init(lq_macbc_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_macbc_ops_release(lq_macbc_ops *o);
/* The inflow rule on every face of u, v and w. */
int lq_macbc_inflow(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                    const lq_field *region, const lq_field *vel);
/* The outflow rule on every face of u, v and w. */
int lq_macbc_outflow(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w, const lq_field *flags);
/* p of every OUTFLOW cell from its first liquid neighbour (zero gradient). */
int lq_macbc_outflow_pressure(lq_macbc_ops *o, lq_field *p, const lq_field *flags);
/* One layer of faces outside the liquid from the liquid's faces. */
int lq_macbc_extrapolate(lq_macbc_ops *o, lq_field *u, lq_field *v, lq_field *w,
                         const lq_field *flags);

#endif
