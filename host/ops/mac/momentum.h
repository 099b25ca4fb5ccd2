/*
 * momentum.h — the explicit momentum update of the `mac` solver (Foster & Metaxas 1996
 * §3.1, eq. 2), the solid-obstacle boundary conditions (§3.2.1) and the time step
 * (eq. 3 and a viscous limit). Each operation has an OpenCL launcher (host/ops/mac/momentum.c,
 * kernels/mac/momentum.cl) and a reference twin with the same arguments
 * (host/ops/mac/momentum_ref.c), both built on kernels/mac/momentum_cell.h, which states which
 * faces move, the averages of eq. 2, and which fluid neighbour a SOLID cell copies.
 *
 * Invariant: every operation gives the same result on both backends bit for bit (same
 * code, no contraction, no division on the device, an order-independent max).
 */
#ifndef LQ_HOST_MOMENTUM_H
#define LQ_HOST_MOMENTUM_H

#include "core/field.h"
#include "mac/momentum_cell.h"

typedef struct lq_momentum_params {
    float dt;         /* s */
    float dx, dy, dz; /* m, cell size per axis */
    float nu;         /* m²/s, kinematic viscosity */
    float g[3];       /* m/s², body force per unit mass */
    float gamma;      /* donor-cell share of the convective terms (0: eq. 2 as the paper) */
} lq_momentum_params;

/* 1/δ, ν/δ², g, δt from the params in double, rounded once. */
lq_momentum_coef lq_momentum_coef_of(const lq_momentum_params *prm);

/* The solver's fields (borrowed) and the state's own outputs and scratch. */
typedef struct lq_momentum_state {
    int nx, ny, nz;
    lq_field *u, *v, *w; /* m/s, faces (mac_grid.h) */
    lq_field *p;         /* m²/s² (pressure over density), cells */
    lq_field *flags;     /* unsigned char LQ_MAC_* per cell */
    lq_field *bnd;       /* unsigned char per cell: 0 free-slip, 1 no-slip (SOLID cells) */
    lq_field un, vn, wn; /* ũ, ṽ, w̃ of eq. 2 (m/s), written by lq_momentum_step */
    lq_field smax;       /* lq_uint[3]: bits of max |u|, |v|, |w| */
} lq_momentum_state;

/* Checks the outputs against the device, then allocates them zeroed. */
int lq_momentum_state_init(lq_momentum_state *st, lq_ctx *ctx, int nx, int ny, int nz, lq_field *u,
                           lq_field *v, lq_field *w, lq_field *p, lq_field *flags, lq_field *bnd);
void lq_momentum_state_release(lq_momentum_state *st);

typedef struct lq_momentum_ops {
    lq_ctx *ctx;
    int nx, ny, nz;
    cl_program program;
    cl_kernel step, boundary, max;
    cl_kernel step_rows; /* the step as vector rows (kernels/mac/momentum.cl) */
    int rows; /* 1: the step runs momentum_step_rows (set on CPU devices; a test may clear it) */
} lq_momentum_ops;

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

/* Reference twins (host/ops/mac/momentum_ref.c): same arguments, host storage. */
void lq_momentum_ref_step(lq_momentum_state *st, const lq_momentum_params *prm);
void lq_momentum_ref_boundary(lq_momentum_state *st);
void lq_momentum_ref_max_speed(lq_momentum_state *st, float smax[3]);

#endif
