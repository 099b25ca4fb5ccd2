/*
 * macbc.h — the `mac` solver's inflow and outflow cells (Foster & Metaxas 1996 §3.2.2,
 * §7.1) and the air-band velocity extension, as face operations over u, v, w; rules in
 * kernels/mac/macbc_cell.h. Each operation has an OpenCL launcher (host/ops/mac/macbc.c) and a
 * reference twin (host/ops/mac/macbc_ref.c) with the same arguments; they agree bit for bit.
 *
 * Inlets: up to LQ_MACBC_MAX_INLETS. region: one uchar per cell, r + 1 in the cells of
 * inlet r, 0 elsewhere. vel: a float field of 3 LQ_MACBC_MAX_INLETS values, inlet r's
 * velocity (m/s) at 3 r.
 */
#ifndef LQ_HOST_MACBC_H
#define LQ_HOST_MACBC_H

#include "core/field.h"
#include "mac/macbc_cell.h"

#define LQ_MACBC_MAX_INLETS 16

typedef struct lq_macbc_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel inflow, outflow, extrapolate, outflow_pressure;
} lq_macbc_ops;

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

/* Reference twins. */
void lq_macbc_ref_inflow(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                         const lq_field *region, const lq_field *vel);
void lq_macbc_ref_outflow(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags);
void lq_macbc_ref_outflow_pressure(lq_field *p, const lq_field *flags);
void lq_macbc_ref_extrapolate(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags);

#endif
