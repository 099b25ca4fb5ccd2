/*
 * plsforce_ref.h — the `pls` solver's small per-step operations (Rasmussen et al. 2004 §3):
 * the body force of eq. 2 on the faces, the max speed for the CFL step and the liquid
 * volume from φ. The math is in kernels/pls/plsforce_cell.h; launchers host/ops/pls/plsforce.c,
 * kernels kernels/pls/plsforce.cl, reference twins host/ops/pls/plsforce_ref.c (same arguments).
 *
 * Grid: pls conventions (mac_grid.h indexing, no wall layer, uniform cell size h; u
 * (nx+1)·ny·nz, v nx·(ny+1)·nz, w nx·ny·(nz+1); φ and sdf nx·ny·nz at cell centres;
 * sdf may be NULL: no objects). 2D is nz = 1 (w untouched).
 *
 * Use in a step, after the velocity advection and before the projection:
 *   lq_plsforce_body_force(o, u, v, w, sdf, g, dt);
 * and before each step lq_plsforce_max_speed for dt = cfl·h / max|u|; lq_plsforce_volume and
 * lq_plsforce_volume_pl (of the zero set) for stats.
 *
 * Invariant: bit for bit on both backends (one add per face; reductions are a max of
 * bits and fixed-point integer sums, order-free).
 */
#ifndef LQ_HOST_PLSFORCE_REF_H
#define LQ_HOST_PLSFORCE_REF_H

#include "core/kernel.h"
#include "pls/plsforce_cell.h"

typedef struct lq_plsforce_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    lq_field smax; /* 3 uint: |u|, |v|, |w| max bits */
    lq_field red;  /* 2 long: fixed-point volume, blocks with a non-finite φ */
    cl_program program;
    lq_kernel body, max, volume, volume_pl, shift;
} lq_plsforce_ops;

/* Reference twins (host/ops/pls/plsforce_ref.c): same arguments, host storage. */
void lq_plsforce_ref_body_force(lq_plsforce_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                const lq_field *phi, const lq_field *sdf, const double g[3],
                                double dt);
void lq_plsforce_ref_max_speed(lq_plsforce_ops *o, const lq_field *u, const lq_field *v,
                               const lq_field *w, float smax[3]);
void lq_plsforce_ref_volume(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf, float h,
                            double *cells, int *bad);
void lq_plsforce_ref_shift(lq_plsforce_ops *o, lq_field *phi, const lq_field *sdf, float delta);
void lq_plsforce_ref_volume_pl(lq_plsforce_ops *o, const lq_field *phi, const lq_field *sdf,
                               float h, double *cells, int *bad);

#endif
