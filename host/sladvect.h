/*
 * sladvect.h — semi-Lagrangian advection for the `pls` solver (Rasmussen et al. 2004 §3,
 * after Stam 1999): the MAC face velocity advected by itself and a cell-centred scalar
 * (the level set φ, eq. 3) advected by the face velocity, both with an RK2 (midpoint)
 * backtrace and trilinear, staggering-aware sampling (kernels/sladvect_cell.h states
 * the rules). Each operation has an OpenCL launcher (host/sladvect.c,
 * kernels/sladvect.cl) and a reference twin with the same arguments
 * (host/ref/sladvect.c).
 *
 * Grid: mac_grid.h indexing, uniform cell size h, no wall layer: u is (nx+1)·ny·nz,
 * v nx·(ny+1)·nz, w nx·ny·(nz+1), scalars nx·ny·nz floats. 2D runs are nz = 1 (w is then
 * ignored by the backtrace and its result is 0).
 *
 * Use in a step (before the forces and the projection):
 *   lq_sl_advect_scalar(o, phi, phi_new, u, v, w, prm);    then swap phi and phi_new;
 *   lq_sl_advect_velocity(o, u, v, w, un, vn, wn, prm);    then swap (u, v, w) and (un, ...).
 * Inputs and outputs must be distinct fields. Both read only the old velocity, so the
 * order of the two calls does not matter.
 *
 * Invariant: bit for bit on both backends (same code, no contraction, no division).
 */
#ifndef LQ_HOST_SLADVECT_H
#define LQ_HOST_SLADVECT_H

#include "field.h"
#include "sladvect_cell.h"

typedef struct lq_sl_params {
    float dt; /* s */
    float h;  /* m, the cell size */
} lq_sl_params;

/* What the kernels take, from the params in double, rounded once. */
typedef struct lq_sl_coef {
    float h, ih;      /* m, 1/m */
    float lx, ly, lz; /* m, the domain size */
    float dt;         /* s */
} lq_sl_coef;
lq_sl_coef lq_sl_coef_of(const lq_sl_params *prm, int nx, int ny, int nz);

typedef struct lq_sl_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel velocity, scalar;
} lq_sl_ops;

int lq_sl_ops_init(lq_sl_ops *o, lq_ctx *ctx, int nx, int ny, int nz);
void lq_sl_ops_release(lq_sl_ops *o);

/* un, vn, wn = the face velocity (u, v, w) carried along itself over prm->dt; faces on
 * the domain edge get 0. */
int lq_sl_advect_velocity(lq_sl_ops *o, const lq_field *u, const lq_field *v, const lq_field *w,
                          lq_field *un, lq_field *vn, lq_field *wn, const lq_sl_params *prm);
/* qn = the cell-centred q carried along (u, v, w) over prm->dt. */
int lq_sl_advect_scalar(lq_sl_ops *o, const lq_field *q, lq_field *qn, const lq_field *u,
                        const lq_field *v, const lq_field *w, const lq_sl_params *prm);

/* Reference twins (host/ref/sladvect.c): same arguments, host storage. */
void lq_sl_ref_advect_velocity(const lq_field *u, const lq_field *v, const lq_field *w,
                               lq_field *un, lq_field *vn, lq_field *wn, const lq_sl_params *prm);
void lq_sl_ref_advect_scalar(const lq_field *q, lq_field *qn, const lq_field *u, const lq_field *v,
                             const lq_field *w, const lq_sl_params *prm);

#endif
