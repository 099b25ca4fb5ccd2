/*
 * macbc_ref.h — the `mac` solver's inflow and outflow cells (Foster & Metaxas 1996 §3.2.2,
 * §7.1) and the air-band velocity extension, as face operations over u, v, w; rules in
 * kernels/mac/macbc_cell.h. Each operation has an OpenCL launcher (host/ops/mac/macbc.c) and a
 * reference twin (host/ops/mac/macbc_ref.c) with the same arguments; they agree bit for bit.
 *
 * Inlets: up to LQ_MACBC_MAX_INLETS. region: one uchar per cell, r + 1 in the cells of
 * inlet r, 0 elsewhere. vel: a float field of 3 LQ_MACBC_MAX_INLETS values, inlet r's
 * velocity (m/s) at 3 r.
 */
#ifndef LQ_HOST_MACBC_REF_H
#define LQ_HOST_MACBC_REF_H

#include "core/kernel.h"
#include "mac/macbc_cell.h"

#define LQ_MACBC_MAX_INLETS 16

typedef struct lq_macbc_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    lq_kernel inflow, outflow, extrapolate, outflow_pressure;
    lq_field cls; /* uchar per face of one axis (the largest): the air band's classes */
} lq_macbc_ops;

/* Reference twins. */
void lq_macbc_ref_inflow(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                         const lq_field *region, const lq_field *vel);
void lq_macbc_ref_outflow(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags);
void lq_macbc_ref_outflow_pressure(lq_field *p, const lq_field *flags);
void lq_macbc_ref_extrapolate(lq_field *u, lq_field *v, lq_field *w, const lq_field *flags,
                              lq_field *cls);

#endif
